// What a port author's CI relies on when the port misbehaves: reports that
// survive a runner killed mid-way, no stale verdict left in --out, honest exit
// codes when nothing was checked, validated claims and options.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>
#include <utility>
#include <vector>

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
}

// `npuconf run` through the scripted port with `env`, in the background; the pid.
pid_t StartRun(const std::string& env, const std::string& out_dir) {
  const pid_t pid = fork();
  if (pid == 0) {
    const std::string command =
        "exec env " + env + " " + NPUCONF_BINARY + " run --port " + NPUCONF_SCRIPTED_PORT +
        " --profile ascend910b --cases 5 --quiet --out " + out_dir + " >/dev/null 2>&1";
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  return pid;
}

// Waits (up to 60 s) until `predicate` holds of report.json in `dir`.
template <typename Predicate>
bool WaitForReport(const std::string& dir, Predicate predicate) {
  for (int i = 0; i < 600; ++i) {
    try {
      if (std::filesystem::exists(dir + "/report.json") &&
          predicate(ReadJson(dir + "/report.json")))
        return true;
    } catch (const std::exception&) {
      // A reader never sees half a file (rename), but keep polling regardless.
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

void Kill(pid_t pid) {
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
}

TEST(SurvivingReports, RunKilledMidWayLeavesIncompleteReportAndJunit) {
  TempDir dir("killed");
  // The port answers its first three calls ("unclaimed": failing results), then hangs.
  const pid_t pid = StartRun("NPUCONF_TEST_CLAIMS='*:*' NPUCONF_TEST_HANG_AT=4", dir.path());
  const bool saw = WaitForReport(
      dir.path(), [](const nlohmann::json& doc) { return doc["results"].size() >= 1; });
  Kill(pid);
  ASSERT_TRUE(saw) << "no result was ever written";
  const auto doc = ReadJson(dir.path() + "/report.json");
  EXPECT_EQ(doc["complete"], false);
  EXPECT_EQ(doc["conformant"], false);
  EXPECT_NE(doc["verdict"], "CONFORMANT");
  EXPECT_GE(doc["results"].size(), 1u);
  EXPECT_EQ(doc["results"][0]["result"], "fail");
  const auto junit = RunShell("cat " + dir.path() + "/junit.xml");
  EXPECT_NE(junit.output.find("<testsuites"), std::string::npos) << junit.output;
  EXPECT_NE(junit.output.find("</testsuites>"), std::string::npos) << junit.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/report.json.tmp"));
}

TEST(SurvivingReports, StaleReportsAreRemovedBeforeTheFirstResult) {
  TempDir dir("stale");
  for (const char* name : {"report.json", "junit.xml", "report.md", "report.html"}) {
    std::ofstream(dir.path() + "/" + name) << "{\"conformant\": true}";
  }
  std::filesystem::create_directories(dir.path() + "/failures");
  std::ofstream(dir.path() + "/failures/old.json") << "{}";
  // The port hangs on its first call: no result is ever added.
  const pid_t pid = StartRun("NPUCONF_TEST_CLAIMS='*:*' NPUCONF_TEST_HANG_AT=1", dir.path());
  const bool saw =
      WaitForReport(dir.path(), [](const nlohmann::json& doc) { return doc.contains("complete"); });
  Kill(pid);
  ASSERT_TRUE(saw);
  const auto doc = ReadJson(dir.path() + "/report.json");
  EXPECT_EQ(doc["complete"], false);
  EXPECT_EQ(doc["conformant"], false);
  EXPECT_NE(doc["verdict"], "CONFORMANT");
  EXPECT_TRUE(doc["results"].empty());
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/report.html"));
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/failures"));
}

TEST(SurvivingReports, FinishedRunIsMarkedComplete) {
  TempDir dir("complete");
  const auto run = RunNpuconf(
      "run --profile ascend910b --routine cann.nd_to_nz --cases 3 --quiet "
      "--no-real-shapes --out " +
      dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const auto doc = ReadJson(dir.path() + "/report.json");
  EXPECT_EQ(doc["complete"], true);
  EXPECT_EQ(doc["conformant"], true);
  EXPECT_FALSE(doc["results"].empty());
}

}  // namespace
}  // namespace npuconf

namespace npuconf {
namespace {

std::string Scripted(const std::string& claims) {
  return std::string("env NPUCONF_TEST_CLAIMS='") + claims + "' " + NPUCONF_BINARY +
         " run --port " + NPUCONF_SCRIPTED_PORT + " --profile ascend910b --cases 2 --quiet";
}

TEST(NothingChecked, ProfileOfAnotherVendorExitsFour) {
  TempDir dir("vendor");
  ExpectExit("run --profile rk3588 --routine cann.nd_to_nz --quiet --out " + dir.path(), 4,
             "nothing was checked");
  EXPECT_EQ(ReadJson(dir.path() + "/report.json")["complete"], true);
}

TEST(NothingChecked, PortWithNullClaimsExitsFour) {
  TempDir dir("null-claims");
  const auto run = RunShell(std::string("env -u NPUCONF_TEST_CLAIMS ") + NPUCONF_BINARY +
                            " run --port " + NPUCONF_SCRIPTED_PORT +
                            " --profile ascend910b --cases 2 --quiet --out " + dir.path());
  EXPECT_EQ(run.exit_code, 4) << run.output;
  EXPECT_NE(run.output.find("nothing was checked"), std::string::npos) << run.output;
}

TEST(NothingChecked, ClaimsOnAnotherProfileOnlyExitFour) {
  TempDir dir("other-profile");
  const auto run = RunShell(Scripted("*:rk3588") + " --out " + dir.path());
  EXPECT_EQ(run.exit_code, 4) << run.output;
}

// Breaker F15: a call result outside the enum is no refusal, and an empty
// message leaves no trailing ": ".
TEST(NothingChecked, ACallResultOutsideTheEnumIsNamedAsSuch) {
  for (const auto& [result, says] : std::vector<std::pair<std::string, std::string>>{
           {"7", "port's call returned 7, none of NPUCONF_CALL_ANSWERED (0)"},
           {"2", "port refused the case as malformed (NPUCONF_CALL_BAD_CASE)\n"}}) {
    const auto run = RunShell(
        "env NPUCONF_TEST_RESULT=" + result + " NPUCONF_TEST_CLAIMS='cann.nd_to_nz:ascend910b' " +
        std::string(NPUCONF_BINARY) + " check --port " + NPUCONF_SCRIPTED_PORT +
        " cann.nd_to_nz.matches_oracle cann.nd_to_nz profile=ascend910b "
        "dtype=FLOAT16 'shape=[4,5]'");
    EXPECT_EQ(run.exit_code, 1) << run.output;
    EXPECT_NE(run.output.find(says), std::string::npos) << result << "\n" << run.output;
  }
}

TEST(NothingChecked, HelpListsEveryExitCode) {
  const auto run = RunNpuconf("--help");
  EXPECT_EQ(run.exit_code, 0);
  for (const char* line : {"0  conformant", "1  non-conformant", "2  bad usage",
                           "3  the port could not be loaded", "4  nothing was checked"}) {
    EXPECT_NE(run.output.find(line), std::string::npos) << line << "\n" << run.output;
  }
}

}  // namespace
}  // namespace npuconf

namespace npuconf {
namespace {

std::string WithClaims(const std::string& claims, const std::string& args) {
  return std::string("env NPUCONF_TEST_CLAIMS='") + claims + "' " + NPUCONF_BINARY + " " + args;
}

void ExpectShell(const std::string& command, int code, const std::string& says) {
  const auto run = RunShell(command);
  EXPECT_EQ(run.exit_code, code) << command << "\n" << run.output;
  EXPECT_NE(run.output.find(says), std::string::npos) << command << "\n" << run.output;
}

TEST(ClaimsAtLoad, MeaninglessClaimsAreBadInputNamingTheValue) {
  TempDir dir("claims");
  const std::string run =
      std::string("run --port ") + NPUCONF_SCRIPTED_PORT + " --quiet --out " + dir.path();
  ExpectShell(WithClaims("cann.nd_to_nzz:*", run), 2, "unknown routine 'cann.nd_to_nzz'");
  ExpectShell(WithClaims("cann.nd_to_nz:ascend999", run), 2, "unknown profile 'ascend999'");
  ExpectShell(WithClaims("choice:cann.no_such=1", run), 2, "unknown choice 'cann.no_such'");
  ExpectShell(WithClaims("choice:cann.nz.fp32_c0=12", run), 2, "no reading '12'");
  ExpectShell(WithClaims("rknn.b_norm_to_native:rk3588:K%0==0", run), 2,
              "rknn.b_norm_to_native:rk3588:K%0==0");
  // Two false greens an outside tester found: a claim on the data seed, and a
  // dtype spelt as no case writes it.
  ExpectShell(WithClaims("cann.nd_to_nz:*:seed<=1000", run), 2, "'seed' picks the input data");
  ExpectShell(WithClaims("cann.nd_to_nz:*:dtype=FLOAT16|int8", run), 2,
              "dtype 'int8' is written 'INT8'");
}

TEST(ClaimsAtLoad, CheckOfACaseOutsideTheClaimsExitsFour) {
  const std::string check = std::string("check --port ") + NPUCONF_SCRIPTED_PORT +
                            " cann.nd_to_nz.matches_oracle cann.nd_to_nz profile=ascend910b "
                            "'shape=[2,2]' dtype=";
  ExpectShell(WithClaims("cann.nd_to_nz:ascend910b:dtype=INT8", check + "FLOAT16"), 4,
              "outside the claims");
  ExpectShell(WithClaims("cann.nd_to_nz:ascend310p", check + "FLOAT16"), 4, "does not claim");
  // Inside the claims, the scripted port's "unclaimed" answer fails the case.
  ExpectShell(WithClaims("cann.nd_to_nz:ascend910b:dtype=INT8", check + "INT8"), 1,
              "answered 'unclaimed'");
}

}  // namespace
}  // namespace npuconf

namespace npuconf {
namespace {

TEST(MemoryBudget, CaseAndCheckOverTheBudgetAreRefusedNamingBytesAndBudget) {
  const std::string c = "cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[4096,4096]'";
  // 4096*4096 fp16 = 33554432 bytes of input alone.
  ExpectExit("case " + c + " --max-case-bytes 1000000", 2, "33554432 bytes");
  ExpectExit("case " + c + " --max-case-bytes 1000000", 2, "budget of 1000000 bytes");
  ExpectExit("check cann.nd_to_nz.matches_oracle " + c + " --max-case-bytes 1000000", 2,
             "budget of 1000000 bytes");
  // Within the budget the same case is answered.
  EXPECT_EQ(RunNpuconf("case " + c + " --max-case-bytes 100000000").exit_code, 0);
}

TEST(MemoryBudget, RunCountsCasesOverTheBudgetAsSkippedTooLargeNeverAsFailures) {
  TempDir dir("budget");
  const auto run = RunNpuconf(
      "run --profile ascend910b --routine cann.nd_to_nz --property '*matches_oracle' --cases 10 "
      "--no-real-shapes --quiet --max-case-bytes 2000 --out " +
      dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const auto doc = ReadJson(dir.path() + "/report.json");
  ASSERT_EQ(doc["results"].size(), 1u);
  EXPECT_EQ(doc["results"][0]["result"], "pass");
  const int too_large = doc["results"][0]["too_large"].get<int>();
  EXPECT_GT(too_large, 0);
  EXPECT_GT(doc["results"][0]["explicit_cases"].get<int>(), 0);
  EXPECT_EQ(doc["max_case_bytes"], 2000);
  // The reports name what was not run, and the budget.
  const auto& named = doc["results"][0]["too_large_cases"];
  ASSERT_FALSE(named.empty());
  EXPECT_EQ(named.size(), std::min<size_t>(too_large, 8));
  const std::string first = named[0];
  EXPECT_EQ(first.rfind("cann.nd_to_nz profile=ascend910b ", 0), 0u) << first;
  std::ifstream md(dir.path() + "/report.md");
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  const std::string line = "Not run: " + std::to_string(too_large) +
                           " cases over the memory budget of 2000 bytes (`--max-case-bytes`, "
                           "a case's buffers): `" +
                           first + "`";
  EXPECT_NE(text.find(line), std::string::npos) << text;
}

// A reproducer repeats the run's options that decide a replay: a budget or a
// determinism sampling other than the default (a failure over 1.5 GiB would
// otherwise replay as "too large").
TEST(MemoryBudget, ReproducersCarryTheRunsBudgetAndSampling) {
  TempDir dir("replay-options");
  const auto run = RunNpuconf(
      "run --port mutant:int8-c0-16 --profile ascend910b --routine cann.nd_to_nz --property "
      "'*matches_oracle' --cases 10 --no-real-shapes --quiet --max-case-bytes 100000000 "
      "--determinism-every 1 --out " +
      dir.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto doc = ReadJson(dir.path() + "/report.json");
  const std::string reproduce = doc["results"][0]["reproduce"];
  EXPECT_NE(reproduce.find(" check --max-case-bytes 100000000 --determinism-every 1 --port "),
            std::string::npos)
      << reproduce;
  EXPECT_EQ(RunShell(reproduce).exit_code, 1) << reproduce;
}

// A failing answer's evidence needs the whole expected tensor; when the case
// and it exceed the budget, the failure stands on the first differing byte.
TEST(MemoryBudget, AFailureOverTheBudgetIsReportedFromTheFirstDifferingByte) {
  const std::string c = "cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[17,33]'";
  // 1122 bytes in, 3072 out: within 6000; the expected NZ (3072) is not.
  const auto tight = RunNpuconf(
      "check --port mutant:nz-padding-unwritten --max-case-bytes 6000 "
      "cann.nd_to_nz.matches_oracle " +
      c);
  EXPECT_EQ(tight.exit_code, 1) << tight.output;
  EXPECT_NE(tight.output.find("'nz' byte 544 holds 0xcd, the oracle's 0x00 (the first difference"),
            std::string::npos)
      << tight.output;
  // With room for it, the full evidence (element, block, meaning).
  const auto roomy = RunNpuconf(
      "check --port mutant:nz-padding-unwritten --max-case-bytes 8000 "
      "cann.nd_to_nz.matches_oracle " +
      c);
  EXPECT_EQ(roomy.exit_code, 1) << roomy.output;
  EXPECT_NE(roomy.output.find("nz element 272 (C1 block 0 of 3"), std::string::npos)
      << roomy.output;
  // The reference passes within the tight budget: a pass needs no expected tensor.
  EXPECT_EQ(RunNpuconf("check --max-case-bytes 6000 cann.nd_to_nz.matches_oracle " + c).exit_code,
            0);
}

TEST(MemoryBudget, RunWhereEveryCaseIsTooLargeChecksNothing) {
  TempDir dir("budget-all");
  const auto run = RunNpuconf(
      "run --profile ascend910b --routine cann.nd_to_nz --property '*matches_oracle' --cases 10 "
      "--no-real-shapes --quiet --max-case-bytes 1 --out " +
      dir.path());
  EXPECT_EQ(run.exit_code, 4) << run.output;
  EXPECT_NE(run.output.find("cases exceeded the memory budget (--max-case-bytes 1)"),
            std::string::npos)
      << run.output;
  const auto doc = ReadJson(dir.path() + "/report.json");
  EXPECT_EQ(doc["results"][0]["result"], "skipped_too_large");
}

TEST(MemoryBudget, RealShapesWhoseProductOverflowsAreBadInput) {
  TempDir dir("overflow");
  const std::string file = dir.path() + "/shapes.json";
  std::ofstream(file)
      << R"({"models": [{"model": "huge", "weights": {"w": [4294967296, 4294967296]}}]})";
  ExpectExit("run --profile ascend910b --routine cann.nd_to_nz --cases 1 --quiet --real-shapes " +
                 file + " --out " + dir.path(),
             2, "huge.w: shape [4294967296,4294967296]");
}

// Found by fuzz/real_shapes_fuzz.cpp: a "model" that is not a string escaped
// as nlohmann's "type must be string", naming no entry.
TEST(MemoryBudget, RealShapesWithAModelNameNotAStringNameTheEntry) {
  TempDir dir("model-name");
  const std::string file = dir.path() + "/shapes.json";
  std::ofstream(file) << R"({"models": [{"model": "a", "weights": {}}, {"model": {"w": [1]}}]})";
  ExpectExit("run --profile ascend910b --routine cann.nd_to_nz --cases 1 --quiet --real-shapes " +
                 file + " --out " + dir.path(),
             2, "models[1].model {\"w\":[1]} is not a string");
}

}  // namespace
}  // namespace npuconf
