// What a port author's CI relies on when the port misbehaves: reports that
// survive a runner killed mid-way, no stale verdict left in --out, honest exit
// codes when nothing was checked, validated claims and options.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <thread>

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
