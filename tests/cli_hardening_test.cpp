// Every option value is validated with a short message naming it; repeated
// globs select any; the crash line of an in-process port replays on that port.
#include <gtest/gtest.h>

#include <set>

#include "test_util.h"

namespace npuconf {
namespace {

using testing::ReadJson;
using testing::RunNpuconf;
using testing::RunShell;
using testing::TempDir;

void ExpectExit(const std::string& args, int code, const std::string& says) {
  const auto run = RunNpuconf(args);
  EXPECT_EQ(run.exit_code, code) << args << "\n" << run.output;
  EXPECT_NE(run.output.find(says), std::string::npos) << args << "\n" << run.output;
  EXPECT_LT(run.output.size(), 400u) << "a short message, please:\n" << run.output;
}

TEST(CliHardening, NegativeSeedIsRefusedNotWrapped) {
  ExpectExit("run --seed -5", 2, "--seed: '-5' is not an integer");
  ExpectExit("run --seed 18446744073709551616", 2, "'18446744073709551616'");
}

TEST(CliHardening, CasesOutOfRangeGetAShortError) {
  ExpectExit("run --cases -1", 2, "--cases: '-1' is not an integer from 0 to 1000000");
  ExpectExit("run --cases 99999999999999", 2, "'99999999999999' is not an integer from 0");
  ExpectExit("run --cases many", 2, "'many'");
  ExpectExit("run --max-case-bytes 0", 2, "--max-case-bytes: '0'");
  ExpectExit("run --determinism-every -2", 2, "--determinism-every: '-2'");
}

TEST(CliHardening, GarbageRcReproduceIsNamed) {
  ExpectExit("run --rc-reproduce garbage", 2, "--rc-reproduce 'garbage'");
  ExpectExit("run --rc-reproduce reproduce=garbage", 2, "malformed");
}

TEST(CliHardening, UnknownSubcommandIsNamed) {
  ExpectExit("frobnicate", 2, "unknown subcommand 'frobnicate'");
}

TEST(CliHardening, OutFailuresSayWhy) {
  TempDir dir("out-file");
  const std::string file = dir.path() + "/a-file";
  std::ofstream(file) << "x";
  ExpectExit("run --routine cann.nd_to_nz --out " + file, 2, "Not a directory");
}

TEST(CliHardening, RoutineAndPropertyAreRepeatableGlobs) {
  TempDir dir("globs");
  const auto run = RunNpuconf(
      "run --profile ascend910b --routine cann.nd_to_nz --routine 'cann.nz_to_*' "
      "--property '*.matches_oracle' --property '*.padding_is_zero' --cases 2 --no-real-shapes "
      "--quiet --out " +
      dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::set<std::string> properties;
  const auto doc = ReadJson(dir.path() + "/report.json");
  for (const auto& r : doc["results"]) properties.insert(r["property"].get<std::string>());
  EXPECT_TRUE(properties.count("cann.nd_to_nz.matches_oracle"));
  EXPECT_TRUE(properties.count("cann.nd_to_nz.padding_is_zero"));
  EXPECT_TRUE(properties.count("cann.nz_to_nd.matches_oracle"));
  for (const auto& p : properties) {
    EXPECT_TRUE(p.find("matches_oracle") != std::string::npos ||
                p.find("padding_is_zero") != std::string::npos)
        << p;
  }
}

// With --jobs 1 an in-process crash ends the runner itself (exit 3); with more
// jobs it ends one worker and fails that unit only (tests/jobs_test.cpp).
TEST(CliHardening, CrashLineNamesThePortAndReplaysTheCrash) {
  TempDir dir("crash");
  const auto run =
      RunNpuconf(std::string("run --jobs 1 --profile ascend910b --quiet --in-process --port ") +
                 NPUCONF_CRASH_PORT + " --out " + dir.path());
  EXPECT_EQ(run.exit_code, 3) << run.output;
  const size_t at = run.output.find("replay: ");
  ASSERT_NE(at, std::string::npos) << run.output;
  std::string replay = run.output.substr(at + 8);
  replay = replay.substr(0, replay.find('\n'));
  EXPECT_NE(replay.find(std::string("--port ") + NPUCONF_CRASH_PORT), std::string::npos) << replay;
  const auto again = RunShell(replay);
  EXPECT_EQ(again.exit_code, 3) << replay << "\n" << again.output;
  EXPECT_NE(again.output.find("the port crashed"), std::string::npos) << again.output;
  // The reports so far stay, marked incomplete.
  EXPECT_EQ(ReadJson(dir.path() + "/report.json")["complete"], false);
}

}  // namespace
}  // namespace npuconf
