// The runner's own faults (issue 17 item 6): a full --out, a read-only one,
// SIGTERM and SIGINT to the runner, a second run on the same --out, a full
// /dev/shm under an exec: port. Each gives a message naming the cause and its
// exit code, leaves no worker or port process and no /dev/shm file behind, and
// keeps the reports gathered before it readable ("complete": false).
#include <dirent.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "test_util.h"

extern char** environ;

namespace npuconf {
namespace {

using testing::ReadFile;
using testing::RunShell;
using testing::TempDir;

const std::string kStallPort = std::string("'exec:python3 ") + NPUCONF_SOURCE_DIR +
                               "/tests/ports/exec/stall_port.py stall-on-file'";

// The processes whose environment holds `mark` (the runner's workers and ports
// inherit it).
std::vector<pid_t> ProcessesMarked(const std::string& mark) {
  std::vector<pid_t> out;
  DIR* proc = opendir("/proc");
  if (!proc) return out;
  while (dirent* e = readdir(proc)) {
    const pid_t pid = static_cast<pid_t>(std::atoi(e->d_name));
    if (pid <= 0 || pid == getpid()) continue;
    const std::string env = ReadFile("/proc/" + std::string(e->d_name) + "/environ");
    if (env.find("NPUCONF_TEST_MARK=" + mark) != std::string::npos) out.push_back(pid);
  }
  closedir(proc);
  return out;
}

std::vector<std::string> ShmFilesOf(const std::vector<pid_t>& pids) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/dev/shm", ec)) {
    const std::string name = e.path().filename().string();
    for (pid_t pid : pids) {
      if (name.rfind("npuconf-exec-" + std::to_string(pid) + "-", 0) == 0) out.push_back(name);
    }
  }
  return out;
}

// `npuconf ARGS` started in the background with NPUCONF_TEST_MARK=mark, its
// stderr into `stderr_path`.
pid_t Start(const std::string& args, const std::string& mark, const std::string& stderr_path) {
  const std::string command = "export NPUCONF_TEST_MARK=" + mark + "; exec " + NPUCONF_BINARY +
                              " " + args + " >/dev/null 2>" + stderr_path;
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char**>(argv), environ);
  return pid;
}

// Waits until `done` holds, at most `seconds`.
template <typename F>
bool WaitFor(F done, int seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  while (std::chrono::steady_clock::now() < until) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return done();
}

// A run whose V2 units finish and whose nd_to_nz unit stalls on a real model
// shape (its tensors in /dev/shm files), reports in DIR/out, stderr in DIR/stderr.
pid_t StartStalledRun(const TempDir& dir, const std::string& mark) {
  return Start("run --port " + kStallPort +
                   " --profile ascend910b --property cann.nd_to_nz.matches_oracle --property "
                   "'cann.calculate_matmul_weight_size_v2.*' --timeout-ms 600000 "
                   "--jobs 2 --quiet --out " +
                   dir.path() + "/out",
               mark, dir.path() + "/stderr");
}

int ResultsIn(const std::string& report_json) {
  const std::string text = ReadFile(report_json);
  const auto doc = nlohmann::json::parse(text, nullptr, false);
  if (!doc.is_object() || !doc.contains("results")) return -1;
  return static_cast<int>(doc["results"].size());
}

class Interrupted : public ::testing::TestWithParam<int> {};

// A run with a port stalled on a big case (its tensors in /dev/shm) and a
// result already written is stopped by the signal: exit 128 + signal, the
// note names it, every worker and port process is gone, so are the tensor
// files, and report.json holds the results so far, marked incomplete.
TEST_P(Interrupted, StopsWorkersAndPortsAndKeepsTheReportsSoFar) {
  const int sig = GetParam();
  TempDir dir("interrupted");
  const std::string mark = "int" + std::to_string(sig) + "-" + std::to_string(getpid());
  const pid_t runner = StartStalledRun(dir, mark);
  ASSERT_GT(runner, 0);
  const std::string report = dir.path() + "/out/report.json";
  // The V2 units finish; an nd_to_nz unit stalls on a real model shape.
  std::vector<pid_t> marked;
  const bool stalled = WaitFor(
      [&] {
        marked = ProcessesMarked(mark);
        return ResultsIn(report) >= 1 && !ShmFilesOf(marked).empty();
      },
      120);
  ASSERT_TRUE(stalled) << ReadFile(dir.path() + "/stderr") << ReadFile(report);
  const int results_before = ResultsIn(report);
  ASSERT_GE(marked.size(), 3u);  // the runner, its workers, a port
  kill(runner, sig);
  int status = 0;
  ASSERT_EQ(waitpid(runner, &status, 0), runner);
  ASSERT_TRUE(WIFEXITED(status)) << status;
  EXPECT_EQ(WEXITSTATUS(status), 128 + sig);
  const std::string err = ReadFile(dir.path() + "/stderr");
  EXPECT_NE(err.find(sig == SIGINT ? "stopped by SIGINT" : "stopped by SIGTERM"), std::string::npos)
      << err;
  EXPECT_NE(err.find("hold the results so far"), std::string::npos) << err;
  EXPECT_TRUE(ProcessesMarked(mark).empty()) << "left running after the runner exited";
  EXPECT_TRUE(ShmFilesOf(marked).empty()) << "tensor files left in /dev/shm";
  const auto doc = testing::ReadJson(report);
  EXPECT_FALSE(doc.at("complete").get<bool>());
  EXPECT_FALSE(doc.at("conformant").get<bool>());
  EXPECT_GE(static_cast<int>(doc.at("results").size()), results_before);
  for (const char* name : {"report.json.tmp", "report.html.tmp", "report.md.tmp", "junit.xml.tmp"})
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/out/" + name)) << name;
}

INSTANTIATE_TEST_SUITE_P(Signals, Interrupted, ::testing::Values(SIGTERM, SIGINT),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(info.param == SIGTERM ? "SIGTERM" : "SIGINT");
                         });

// A second run on the --out of a run in progress stops at once (exit 2, naming
// the lock) and leaves the first run's reports as they were.
TEST(SameOut, ASecondRunIsRefusedAndTheFirstKeepsItsReports) {
  TempDir dir("same_out");
  const std::string mark = "lock-" + std::to_string(getpid());
  const pid_t first = StartStalledRun(dir, mark);
  const std::string report = dir.path() + "/out/report.json";
  ASSERT_TRUE(WaitFor([&] { return ResultsIn(report) >= 1; }, 120))
      << ReadFile(dir.path() + "/stderr");
  const std::string before = ReadFile(report);
  const auto second = testing::RunNpuconf(
      "run --profile ascend910b --routine cann.nd_to_nz "
      "--no-real-shapes --quiet --out " +
      dir.path() + "/out");
  EXPECT_EQ(second.exit_code, 2) << second.output;
  EXPECT_NE(second.output.find("another npuconf run is writing its reports into --out"),
            std::string::npos)
      << second.output;
  EXPECT_TRUE(std::filesystem::exists(report));
  EXPECT_GE(ResultsIn(report), 1);
  kill(first, SIGTERM);
  int status = 0;
  waitpid(first, &status, 0);
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  // Once the first has ended, the directory is free again.
  const auto third = testing::RunNpuconf(
      "run --profile ascend910b --routine cann.nd_to_nz "
      "--property cann.nd_to_nz.padding_is_zero "
      "--no-real-shapes --cases 5 --quiet --out " +
      dir.path() + "/out");
  EXPECT_EQ(third.exit_code, 0) << third.output;
  (void)before;
}

const std::string kSmallRun =
    "run --profile ascend910b --routine 'cann.calculate_matmul_weight_size*' --no-real-shapes "
    "--jobs 1 --quiet --out ";

// The file size limit lets the first reports through and stops a later one:
// exit 2 naming EFBIG, the last whole report.json readable and incomplete.
TEST(FullOut, AWriteThatFailsMidRunIsNamedAndTheLastReportStays) {
  TempDir dir("full_out");
  // What the whole run writes, and the empty report it starts with.
  const auto free_run = testing::RunNpuconf(kSmallRun + dir.path() + "/free");
  ASSERT_EQ(free_run.exit_code, 0) << free_run.output;
  const auto full_bytes = std::filesystem::file_size(dir.path() + "/free/report.html");
  // ulimit -f counts 1024-byte blocks: room for the first reports, not the last.
  const auto blocks = full_bytes / 1024 - 4;
  const auto run = RunShell("ulimit -f " + std::to_string(blocks) + "; " + NPUCONF_BINARY + " " +
                            kSmallRun + dir.path() + "/out");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("File too large"), std::string::npos) << run.output;
  const auto doc = testing::ReadJson(dir.path() + "/out/report.json");
  EXPECT_FALSE(doc.at("complete").get<bool>());
  EXPECT_GE(doc.at("results").size(), 1u);
  for (const auto& e : std::filesystem::directory_iterator(dir.path() + "/out"))
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();
}

// Mount namespaces give a read-only and a full --out without privileges
// (`unshare -rm`); where unshare is not allowed the test says so and skips.
bool CanUnshare() { return RunShell("unshare -rm true").exit_code == 0; }

// `script` run by sh in a new user and mount namespace (its mounts vanish with it).
testing::CommandResult RunUnshared(const TempDir& dir, const std::string& script) {
  const std::string path = dir.path() + "/unshared.sh";
  std::ofstream(path) << script << "\n";
  return RunShell("unshare -rm sh " + path);
}

TEST(ReadOnlyOut, IsRefusedBeforeTheRunNamingTheCause) {
  if (!CanUnshare()) GTEST_SKIP() << "unshare -rm is not permitted here";
  TempDir dir("ro_out");
  std::filesystem::create_directories(dir.path() + "/ro");
  const auto run = RunUnshared(dir, "mount -t tmpfs -o ro,size=1m tmpfs " + dir.path() + "/ro && " +
                                        NPUCONF_BINARY + " " + kSmallRun + dir.path() + "/ro/out");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("Read-only file system"), std::string::npos) << run.output;
}

TEST(FullOut, AFullFileSystemIsNamed) {
  if (!CanUnshare()) GTEST_SKIP() << "unshare -rm is not permitted here";
  TempDir dir("tmpfs_out");
  std::filesystem::create_directories(dir.path() + "/small");
  const std::string out = dir.path() + "/small/out";
  const auto run = RunUnshared(
      dir, "mount -t tmpfs -o size=64k tmpfs " + dir.path() + "/small && " + NPUCONF_BINARY + " " +
               kSmallRun + out +
               "; echo exit=$?; python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); "
               "print(\"complete:\", d[\"complete\"], len(d[\"results\"]))' " +
               out + "/report.json; echo files:; ls " + out);
  EXPECT_NE(run.output.find("exit=2"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("No space left on device"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("complete: False"), std::string::npos) << run.output;
  const std::string files = run.output.substr(run.output.find("files:"));
  EXPECT_EQ(files.find(".tmp"), std::string::npos) << run.output;
}

// A full /dev/shm: the exec: port's big tensors cannot go as files; the runner
// says why once and sends them as base64 instead, the run passes and no file is
// left.
TEST(FullShm, BigTensorsGoAsBase64AndTheCauseIsNamed) {
  if (!CanUnshare()) GTEST_SKIP() << "unshare -rm is not permitted here";
  TempDir dir("full_shm");
  // One real shape of 1024 x 1024 FLOAT16 (2 MiB in, 2 MiB out: files normally).
  std::ofstream(dir.path() + "/shapes.json")
      << R"({"models": [{"model": "test/one", "weights": {"w": [1024, 1024]}}]})";
  const std::string port = std::string("'exec:python3 ") + NPUCONF_SOURCE_DIR +
                           "/tests/ports/exec/stall_port.py answer'";
  const auto run = RunUnshared(
      dir, "mount -t tmpfs -o size=256k tmpfs /dev/shm && " + std::string(NPUCONF_BINARY) +
               " run --port " + port +
               " --profile ascend910b --property cann.nd_to_nz.matches_oracle --cases 3 "
               "--real-shapes " +
               dir.path() + "/shapes.json --quiet --out " + dir.path() +
               "/out; echo exit=$?; ls /dev/shm | grep -c npuconf-exec");
  EXPECT_NE(run.output.find("exit=0"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("No space left on device (/dev/shm is full)"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("\n0\n"), std::string::npos) << run.output;  // no file left
}

}  // namespace
}  // namespace npuconf
