// The GoogleTest adapter (include/npuconf/gtest.h, issue 16 item 3) as a port
// author's test program uses it: one test per claimed property × profile, a
// correct port passes, a planted bug fails with the minimal case and the
// reproducer, a crash fails each test and the program goes on (linked in or
// loaded as a library), and --gtest_filter, sharding and --gtest_output=xml
// behave as for any test.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <set>

#include "test_util.h"

namespace npuconf {
namespace {

using testing::ReadFile;
using testing::RunShell;
using testing::TempDir;

std::string Program(const std::string& name) {
  return std::string(NPUCONF_TEST_BINARY_DIR) + "/gtest_adapter_" + name;
}

// The tests a run of `output` reports, by status ("OK", "FAILED", "SKIPPED").
std::set<std::string> Tests(const std::string& output, const std::string& status) {
  std::set<std::string> out;
  const std::regex line("\\[ +" + status + " +\\] ([A-Za-z]+\\.[^ \\n]+) \\(");
  for (std::sregex_iterator it(output.begin(), output.end(), line), end; it != end; ++it)
    out.insert((*it)[1]);
  return out;
}

TEST(GtestAdapter, RegistersOneTestPerClaimedPropertyAndProfile) {
  const auto list = RunShell(Program("template_and_isolated") + " --gtest_list_tests");
  ASSERT_EQ(list.exit_code, 0) << list.output;
  // The template port claims V2 on ascend910b only: its properties, no other routine.
  EXPECT_NE(list.output.find("cann.calculate_matmul_weight_size_v2.matches_oracle@ascend910b"),
            std::string::npos)
      << list.output;
  EXPECT_EQ(list.output.find("nd_to_nz"), std::string::npos) << list.output;
  const auto npuconf = testing::RunNpuconf("list properties");
  int v2 = 0;
  for (size_t at = 0;
       (at = npuconf.output.find("cann.calculate_matmul_weight_size_v2.", at)) != std::string::npos;
       ++at)
    ++v2;
  const auto run = RunShell(Program("template_and_isolated") + " --gtest_filter='Template.*'");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(static_cast<int>(Tests(run.output, "OK").size()), v2) << run.output;
  EXPECT_TRUE(Tests(run.output, "FAILED").empty()) << run.output;
}

TEST(GtestAdapter, ANarrowedPortPassesAndItsPlantedBugFailsWithTheReproducer) {
  const auto pass = RunShell(Program("narrow_linked"));
  EXPECT_EQ(pass.exit_code, 0) << pass.output;
  EXPECT_FALSE(Tests(pass.output, "OK").empty()) << pass.output;
  const auto bug = RunShell("NPUCONF_NARROW_BUG=1 " + Program("narrow_linked"));
  EXPECT_EQ(bug.exit_code, 1) << bug.output;
  EXPECT_TRUE(Tests(bug.output, "FAILED").count("Narrow.cann.nd_to_nz.matches_oracle@ascend910b"))
      << bug.output;
  EXPECT_NE(bug.output.find("minimal case: cann.nd_to_nz profile=ascend910b"), std::string::npos)
      << bug.output;
  // The reproducer names the .so build of the same port and replays the failure.
  const size_t at = bug.output.find("reproduce: ");
  ASSERT_NE(at, std::string::npos) << bug.output;
  const std::string reproduce = bug.output.substr(at + 11, bug.output.find('\n', at) - at - 11);
  EXPECT_NE(reproduce.find(" check "), std::string::npos) << reproduce;
  EXPECT_NE(reproduce.find(NPUCONF_NARROW_PORT), std::string::npos) << reproduce;
  const std::string bin = std::filesystem::path(NPUCONF_BINARY).parent_path().string();
  const auto replay = RunShell("PATH=" + bin + ":$PATH NPUCONF_NARROW_BUG=1 " + reproduce);
  EXPECT_EQ(replay.exit_code, 1) << reproduce << "\n" << replay.output;
}

TEST(GtestAdapter, ACrashFailsEachTestAndTheProgramGoesOn) {
  for (const auto& [program, filter] : {std::pair<std::string, std::string>{"crash_linked", "*"},
                                        {"template_and_isolated", "CrashIsolated.*"}}) {
    const auto run = RunShell(Program(program) + " --gtest_filter='" + filter + "'");
    EXPECT_EQ(run.exit_code, 1) << run.output;
    const auto failed = Tests(run.output, "FAILED");
    const auto list =
        RunShell(Program(program) + " --gtest_filter='" + filter + "' --gtest_list_tests");
    int listed = 0;
    for (size_t at = 0; (at = list.output.find("\n  ", at)) != std::string::npos; ++at) ++listed;
    EXPECT_GT(listed, 1) << list.output;
    EXPECT_EQ(static_cast<int>(failed.size()), listed) << run.output;  // every test ran and failed
    // Isolated: the worker's signal; linked in: the forked checker's crash note.
    EXPECT_TRUE(run.output.find("killed by SIGSEGV") != std::string::npos ||
                run.output.find("the port crashed (signal 11)") != std::string::npos)
        << run.output;
  }
}

TEST(GtestAdapter, ShardingAndXmlOutputWorkAsForAnyTest) {
  TempDir dir("gtest_adapter");
  const std::string program = Program("template_and_isolated") + " --gtest_filter='Template.*'";
  const auto all = Tests(RunShell(program).output, "OK");
  ASSERT_GT(all.size(), 2u);
  std::set<std::string> joined;
  size_t total = 0;
  for (int shard = 0; shard < 2; ++shard) {
    const auto run =
        RunShell("GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=" + std::to_string(shard) + " " + program);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    const auto mine = Tests(run.output, "OK");
    EXPECT_LT(mine.size(), all.size());
    total += mine.size();
    joined.insert(mine.begin(), mine.end());
  }
  EXPECT_EQ(joined, all);
  EXPECT_EQ(total, all.size());  // each test in exactly one shard
  const std::string xml = dir.path() + "/out.xml";
  RunShell(Program("narrow_linked") + " --gtest_output=xml:" + xml + " >/dev/null; true");
  const std::string text = ReadFile(xml);
  EXPECT_NE(text.find("name=\"cann.nd_to_nz.matches_oracle@ascend910b\""), std::string::npos)
      << text.substr(0, 2000);
  RunShell("NPUCONF_NARROW_BUG=1 " + Program("narrow_linked") + " --gtest_output=xml:" + xml +
           " >/dev/null; true");
  EXPECT_NE(ReadFile(xml).find("reproduce: "), std::string::npos);
}

}  // namespace
}  // namespace npuconf
