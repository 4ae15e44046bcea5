// A .so port runs in a worker process: every way a port can fail inside
// `call` becomes a failing result naming the fault, with a reproducer that
// includes --port, and the run goes on (issue 8, item 1). The faults come
// from tests/ports/fault_port.cpp, chosen by NPUCONF_FAULT.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/families.h"
#include "conformance/ports/isolated_port.h"
#include "core/profile.h"
#include "core/text.h"
#include "test_util.h"

namespace npuconf {
namespace {

using testing::ReadJson;
using testing::RunNpuconf;
using testing::RunShell;
using testing::TempDir;

struct FaultCase {
  const char* fault;
  const char* says;  // in the failing result's message
  const char* routine_glob = "cann.*";
  const char* property_glob = "*";
  int timeout_ms = 1000;
};

void PrintTo(const FaultCase& f, std::ostream* os) { *os << f.fault; }

#if defined(__SANITIZE_ADDRESS__)
// exit() in the worker runs LeakSanitizer over the runner's forked heap,
// which may turn the status into its own exit code.
constexpr const char* kExit0Says = "inside call";
#else
constexpr const char* kExit0Says = "called exit(0) inside call";
#endif

class Faults : public ::testing::TestWithParam<FaultCase> {};

TEST_P(Faults, BecomeFailingResultsAndTheRunGoesOn) {
  const FaultCase& f = GetParam();
  TempDir out(std::string("fault-") + f.fault);
  const std::string args =
      std::string("run --quiet --no-real-shapes --cases 30 --profile ascend910b") + " --routine '" +
      f.routine_glob + "' --property '" + f.property_glob + "' --timeout-ms " +
      std::to_string(f.timeout_ms) + " --port " + NPUCONF_FAULT_PORT + " --out " + out.path();
  const auto run =
      RunShell(std::string("NPUCONF_FAULT=") + f.fault + " " + NPUCONF_BINARY + " " + args);
  ASSERT_EQ(run.exit_code, 1) << args << "\n" << run.output;
  const auto report = ReadJson(out.path() + "/report.json");  // throws on invalid UTF-8
  EXPECT_TRUE(std::filesystem::exists(out.path() + "/junit.xml"));
  int faulted = 0, passed = 0;
  for (const auto& result : report.at("results")) {
    const std::string outcome = result.at("result");
    if (outcome == "pass") passed += 1;
    if (outcome != "fail") continue;
    const std::string message = result.at("message");
    EXPECT_NE(message.find(f.says), std::string::npos) << result.dump(2);
    const std::string reproduce = result.value("reproduce", "");
    EXPECT_NE(reproduce.find(std::string("--port ") + NPUCONF_FAULT_PORT), std::string::npos)
        << result.dump(2);
    faulted += 1;
  }
  EXPECT_GE(faulted, 1) << report.dump(2);
  // The properties of the routine that did not trip the fault still ran.
  EXPECT_GE(passed, 1) << report.dump(2);
}

INSTANTIATE_TEST_SUITE_P(
    Isolation, Faults,
    ::testing::Values(
        FaultCase{"segv", "killed by SIGSEGV (segmentation fault)"},
        FaultCase{"abort", "aborted (SIGABRT)"}, FaultCase{"exit0", kExit0Says},
        FaultCase{"_exit", "called exit(7) inside call"},
        FaultCase{"throw", "threw a C++ exception through call: fault port: thrown on purpose"},
        FaultCase{"hang", "timed out after 200 ms", "cann.*", "*.matches_oracle", 200},
        FaultCase{"overflow_far",
                  "SIGSEGV (segmentation fault): wrote past the capacity of output "
                  "'weight_tensor_size' (byte 8 of 8)"},
        // A write that jumps over the bytes right behind a buffer (F7 of the
        // breaker: a one-page guard let these pass).
        FaultCase{"write_skip_page",
                  "wrote past the capacity of output 'weight_tensor_size' (byte "},
        FaultCase{"write_far",
                  "wrote past the capacity of output 'weight_tensor_size' (byte 8388616 of 8)"},
        FaultCase{"write_before", "8192 bytes before output 'n"},
        FaultCase{"write_before_pad", "65 bytes before output 'n"},
        FaultCase{"read_past_input", "read past the end of input"},
        FaultCase{"write_input", "(inputs are read-only), byte 0"},
        FaultCase{"sigkill", "killed by SIGKILL"}, FaultCase{"stack_overflow", "killed by SIGSEGV"},
        FaultCase{"bad_utf8", "bad \xEF\xBF\xBD"},
        FaultCase{"rank_1000", "rank 1000, beyond NPUCONF_MAX_RANK (16)"},
        FaultCase{"no_nul_message", "[message not NUL-terminated within 1024 bytes; truncated]"}),
    [](const ::testing::TestParamInfo<FaultCase>& info) {
      std::string name = info.param.fault;
      name.erase(std::remove(name.begin(), name.end(), '_'), name.end());
      return name;
    });

// A hang costs a property one timeout, or two when a failure's replay in a
// fresh port process hangs too: the first hanging case is the counterexample,
// not shrunk by re-hanging, and the port is asked nothing more for the
// property. Counted from the port's own log of its hangs, not timed.
TEST(Isolation, AHangingPortCostsAPropertyAtMostTwoTimeouts) {
  TempDir out("hang-cost");
  const std::string log = out.path() + "/hangs.log";
  const auto run = RunShell("NPUCONF_FAULT=hang NPUCONF_FAULT_LOG=" + log + " " + NPUCONF_BINARY +
                            " run --quiet --no-real-shapes --cases 100 --profile ascend910b "
                            "--routine 'cann.calculate*' --timeout-ms 300 --port " +
                            NPUCONF_FAULT_PORT + " --out " + out.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  int failed = 0;
  for (const auto& result : report.at("results")) {
    if (result.at("result") != "fail") continue;
    // A --routine run enforces the coverage gate: a port that hangs on every
    // case hits no class, and ROUTINE.coverage fails, with no call of its own.
    if (result.at("property").get<std::string>().ends_with(".coverage")) continue;
    ++failed;
    EXPECT_EQ(result.value("timed_out", false), true) << result.dump(2);
    EXPECT_NE(result.at("message").get<std::string>().find("timed out after 300 ms"),
              std::string::npos)
        << result.dump(2);
    // The case that hung is the counterexample, not a shrunk one that passes.
    EXPECT_FALSE(result.value("counterexample", "").empty()) << result.dump(2);
  }
  ASSERT_GE(failed, 2) << report.dump(2);
  std::ifstream in(log);
  int hangs = 0;
  for (std::string line; std::getline(in, line);) hangs += line == "hang";
  EXPECT_GE(hangs, failed);
  EXPECT_LE(hangs, 2 * failed) << report.dump(2);
}

// A port that keeps state between calls fails the same way twice in one
// worker and passes in a fresh one, as its reproducer does: the failure is
// marked possibly non-deterministic, whatever the second answer in the run was.
TEST(Isolation, AFailureThatPassesInAFreshProcessIsMarkedPossiblyNonDeterministic) {
  TempDir out("stale");
  const auto run = RunShell(std::string("NPUCONF_FAULT=stale ") + NPUCONF_BINARY +
                            " run --quiet --no-real-shapes --cases 30 --profile ascend910b "
                            "--routine 'cann.calculate*' --port " +
                            NPUCONF_FAULT_PORT + " --out " + out.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  int failed = 0;
  for (const auto& result : report.at("results")) {
    if (result.at("result") != "fail") continue;
    ++failed;
    EXPECT_EQ(result.value("non_deterministic", false), true) << result.dump(2);
    EXPECT_EQ(result.at("message").get<std::string>().rfind("possibly non-deterministic: ", 0), 0u)
        << result.dump(2);
    const std::string reproduce = result.at("reproduce");
    EXPECT_NE(reproduce.find("# non-deterministic: a replay may pass"), std::string::npos);
    // And so it does: a fresh process answers the case right.
    const auto replay = RunShell("cd / && NPUCONF_FAULT=stale " + reproduce);
    EXPECT_EQ(replay.exit_code, 0) << reproduce << "\n" << replay.output;
  }
  EXPECT_GE(failed, 1) << report.dump(2);
}

// A port that leaks 64 MiB a call (by malloc, unchecked, or by new[]) fails its
// cases at the worker's memory limit, --max-case-bytes, named; the run goes on
// through every property (a fresh worker after each such case) and its worker
// never grows past the limit (once, one grew to 3.1 GB in 7 s and the run passed).
TEST(Isolation, APortThatLeaksFailsAtTheMemoryLimit) {
#if defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "the worker is unbounded under AddressSanitizer (its shadow memory counts)";
#endif
  for (const char* fault : {"leak64", "leak64_new"}) {
    TempDir out(std::string("leak-") + fault);
    const auto run =
        RunShell(std::string("NPUCONF_FAULT=") + fault + " " + NPUCONF_BINARY +
                 " run --quiet --no-real-shapes --cases 10 --jobs 1 --profile "
                 "ascend910b --routine 'cann.calculate*' --property '*.matches_oracle' "
                 "--property '*.rejects_invalid' --max-case-bytes 134217728 "
                 "--port " +
                 NPUCONF_FAULT_PORT + " --out " + out.path());
    ASSERT_EQ(run.exit_code, 1) << fault << "\n" << run.output;
    const auto report = ReadJson(out.path() + "/report.json");
    int at_limit = 0, results = 0;
    for (const auto& result : report.at("results")) {
      ++results;
      if (result.at("result") != "fail") continue;
      const std::string message = result.at("message");
      at_limit += message.find("exceeded the memory limit of 134217728 bytes") != std::string::npos;
    }
    EXPECT_GE(at_limit, 2) << fault << "\n" << report.dump(2);
    EXPECT_GE(results, 2) << report.dump(2);
  }
}

// The size routine's properties on the fault port with NPUCONF_FAULT=segv.
testing::CommandResult RunSegvSizeRoutine(const std::string& options, const TempDir& out) {
  return RunShell(std::string("NPUCONF_FAULT=segv ") + NPUCONF_BINARY +
                  " run --quiet --no-real-shapes --cases 30 --profile ascend910b --routine "
                  "'cann.calculate*' " +
                  options + " --port " + NPUCONF_FAULT_PORT + " --out " + out.path());
}

TEST(Isolation, ReproducerReplaysTheFault) {
  TempDir out("fault-replay");
  const auto run = RunSegvSizeRoutine("", out);
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  std::string reproduce;
  for (const auto& result : report.at("results")) {
    if (result.at("result") == "fail") reproduce = result.at("reproduce");
  }
  ASSERT_FALSE(reproduce.empty()) << report.dump(2);
  const auto replay = RunShell("cd / && NPUCONF_FAULT=segv " + reproduce);
  EXPECT_EQ(replay.exit_code, 1) << reproduce << "\n" << replay.output;
  EXPECT_NE(replay.output.find("SIGSEGV"), std::string::npos) << replay.output;
  // Without the fault the same case passes: the reproducer is the port's, not
  // the reference's, and it was the fault that failed it.
  const auto clean = RunShell("cd / && " + reproduce);
  EXPECT_EQ(clean.exit_code, 0) << reproduce << "\n" << clean.output;
}

// --in-process with several runner processes: the port's crash ends only the
// worker, which leaves the case behind; the failure carries it as for any other.
TEST(Isolation, InProcessCrashInAWorkerReportsTheCaseThatCrashedIt) {
  TempDir out("inprocess-crash");
  const auto run = RunSegvSizeRoutine("--in-process --jobs 2", out);
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  int crashed = 0;
  for (const auto& result : report.at("results")) {
    if (result.at("result") != "fail") continue;
    const std::string message = result.at("message");
    EXPECT_NE(message.find("died: exit status 3"), std::string::npos) << message;
    const std::string counterexample = result.value("counterexample", "");
    EXPECT_EQ(counterexample.rfind("cann.calculate_matmul_weight_size_v2 profile=ascend910b", 0),
              0u)
        << result.dump(2);
    EXPECT_NE(message.find("the port crashed on " + counterexample), std::string::npos) << message;
    EXPECT_EQ(result.at("counterexample_case").at("routine"),
              "cann.calculate_matmul_weight_size_v2");
    const std::string reproduce = result.value("reproduce", "");
    ASSERT_NE(reproduce.find(std::string("--port ") + NPUCONF_FAULT_PORT), std::string::npos)
        << reproduce;
    // The reproducer repeats --in-process: the replay crashes the same way.
    EXPECT_NE(reproduce.find(" check --in-process "), std::string::npos) << reproduce;
    const auto replay = RunShell("cd / && NPUCONF_FAULT=segv " + reproduce);
    EXPECT_EQ(replay.exit_code, 3) << reproduce << "\n" << replay.output;
    EXPECT_NE(replay.output.find("the port crashed (signal 11)"), std::string::npos)
        << replay.output;
    ++crashed;
  }
  EXPECT_GE(crashed, 1) << report.dump(2);
}

// Breaker F9: in-process, a crash in a property's further call (the way back
// of a round trip) left the further call's case as the property's, and the
// reproducer `check` refused it. It is named as the further call, and replayed
// alone with `case`, which crashes the same way.
TEST(Isolation, InProcessCrashInAFurtherCallIsReplayedAsThatCall) {
  TempDir out("inprocess-back");
  const auto run = RunShell(std::string("NPUCONF_FAULT=segv_back ") + NPUCONF_BINARY +
                            " run --quiet --no-real-shapes --cases 30 --profile ascend910b "
                            "--routine cann.nd_to_nz --in-process --jobs 2 --port " +
                            NPUCONF_FAULT_PORT + " --out " + out.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  bool seen = false;
  for (const auto& result : report.at("results")) {
    if (result.at("property") != "cann.nd_to_nz.round_trip") continue;
    seen = true;
    ASSERT_EQ(result.at("result"), "fail") << result.dump(2);
    const std::string message = result.at("message");
    EXPECT_NE(message.find("the port crashed on cann.nz_to_nd"), std::string::npos) << message;
    EXPECT_NE(message.find("a further call of the property"), std::string::npos) << message;
    const std::string reproduce = result.value("reproduce", "");
    EXPECT_NE(reproduce.find(" case --in-process "), std::string::npos) << reproduce;
    const auto replay = RunShell("cd / && NPUCONF_FAULT=segv_back " + reproduce);
    EXPECT_EQ(replay.exit_code, 3) << reproduce << "\n" << replay.output;
  }
  EXPECT_TRUE(seen) << report.dump(2);
}

// A port that shrinks the arena it shares with the runner must not crash the
// runner (SIGBUS on its next access to the mapping): the arena is sealed
// against shrinking, so the attempt fails and the run goes on as if unasked.
TEST(Isolation, APortCannotShrinkTheArenaUnderTheRunner) {
  TempDir out("truncate-arena");
  const auto run = RunShell(std::string("NPUCONF_FAULT=truncate_arena ") + NPUCONF_BINARY +
                            " run --quiet --no-real-shapes --cases 30 --profile ascend910b "
                            "--routine 'cann.*' --port " +
                            NPUCONF_FAULT_PORT + " --out " + out.path());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  EXPECT_EQ(report.at("complete"), true);
  EXPECT_EQ(report.at("conformant"), true) << report.dump(2);
}

TEST(Isolation, BareLibraryNameIsOpenedFromTheWorkingDirectory) {
  const std::filesystem::path port(NPUCONF_FAULT_PORT);
  TempDir out("bare-name");
  const auto run =
      RunShell("cd " + port.parent_path().string() + " && NPUCONF_FAULT=segv " + NPUCONF_BINARY +
               " run --quiet --no-real-shapes --cases 10 --profile ascend910b "
               "--routine 'cann.calculate*' --port " +
               port.filename().string() + " --out " + out.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  bool absolute = false;
  for (const auto& result : report.at("results")) {
    absolute |= result.value("reproduce", "").find(std::string("--port ") + NPUCONF_FAULT_PORT) !=
                std::string::npos;
  }
  EXPECT_TRUE(absolute) << report.dump(2);
  const auto missing = RunNpuconf("run --port no_such_port_library.so");
  EXPECT_EQ(missing.exit_code, 3) << missing.output;
  EXPECT_NE(missing.output.find("no such port library 'no_such_port_library.so'"),
            std::string::npos)
      << missing.output;
}

TEST(Isolation, CaseCommandNamesTheFault) {
  const std::string port = std::string(" --port ") + NPUCONF_FAULT_PORT;
  const std::string tripping =
      " cann.calculate_matmul_weight_size_v2 profile=ascend910b dtype=INT8 'shape=[3,25]'";
  for (const auto& [fault, says] : std::vector<std::pair<std::string, std::string>>{
           {"segv", "failed inside call: killed by SIGSEGV"},
           {"hang", "failed inside call: timed out after 300 ms"},
           {"exit0", "failed inside call: called exit(0) inside call"}}) {
    const auto run = RunShell("NPUCONF_FAULT=" + fault + " " + NPUCONF_BINARY +
                              " case --timeout-ms 300" + port + tripping);
    EXPECT_EQ(run.exit_code, 1) << fault << "\n" << run.output;
    EXPECT_NE(run.output.find(says), std::string::npos) << run.output;
  }
}

TEST(Isolation, FaultWhileLoadingIsPortFailure) {
  for (const auto& [fault, says] : std::vector<std::pair<std::string, std::string>>{
           {"entry_segv", "could not be loaded: killed by SIGSEGV"},
           {"entry_hang", "could not be loaded: timed out after 300 ms"}}) {
    const auto run = RunShell("NPUCONF_FAULT=" + fault + " " + NPUCONF_BINARY +
                              " run --timeout-ms 300 --port " + NPUCONF_FAULT_PORT);
    EXPECT_EQ(run.exit_code, 3) << fault << "\n" << run.output;
    EXPECT_NE(run.output.find(says), std::string::npos) << run.output;
  }
}

TEST(Isolation, TimeoutMustBePositive) {
  for (const char* value : {"0", "-5", "abc"}) {
    const auto run = RunNpuconf(std::string("run --timeout-ms ") + value);
    EXPECT_EQ(run.exit_code, 2) << run.output;
    EXPECT_NE(run.output.find("--timeout-ms"), std::string::npos) << run.output;
  }
}

TEST(Isolation, WorkerThatCannotBeRestartedFailsTheRestAndTheRunEnds) {
  // The port deletes its own library and crashes: the worker cannot be
  // started again, so every later case gets a fault instead of an answer.
  TempDir dir("unrestartable");
  const std::string copy = dir.path() + "/libfault_copy.so";
  std::filesystem::copy_file(NPUCONF_FAULT_PORT, copy);
  TempDir out("unrestartable-out");
  const auto run =
      RunShell("NPUCONF_FAULT=segv_unlink NPUCONF_FAULT_UNLINK=" + copy + " " + NPUCONF_BINARY +
               " run --quiet --no-real-shapes --cases 30 --profile ascend910b "
               "--routine 'cann.*' --port " +
               copy + " --out " + out.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  int could_not_restart = 0;
  for (const auto& result : report.at("results")) {
    if (result.value("message", "").find("port worker could not be restarted") ==
        std::string::npos) {
      continue;
    }
    EXPECT_EQ(result.at("result"), "fail") << result.dump(2);
    could_not_restart += 1;
  }
  EXPECT_GE(could_not_restart, 1) << report.dump(2);
}

TEST(Isolation, InProcessAndIsolatedAnswerAlike) {
  std::string error;
  auto isolated = IsolatedPort::Start(NPUCONF_TEMPLATE_PORT, 10000, &error);
  ASSERT_TRUE(isolated) << error;
  auto in_process = InProcessPort::LoadLibrary(NPUCONF_TEMPLATE_PORT, &error);
  ASSERT_TRUE(in_process) << error;
  EXPECT_EQ(isolated->name(), in_process->name());
  EXPECT_EQ(isolated->version(), in_process->version());
  EXPECT_EQ(isolated->claims(), in_process->claims());
  const Profile* profile = FindProfile("ascend910b");
  ASSERT_NE(profile, nullptr);
  for (const auto& shape : std::vector<std::vector<int64_t>>{{32, 16}, {3, 5, 7}, {0, 4}, {1}}) {
    for (const char* dtype : {"FLOAT16", "INT8"}) {
      Case c("cann.calculate_matmul_weight_size_v2", "ascend910b");
      c.Set("shape", ParamValue::IntList(shape)).Set("dtype", ParamValue::String(dtype));
      const Invocation inv = BuiltinSuite().Materialize(c, *profile);
      const Answer a = isolated->Call(inv);
      const Answer b = in_process->Call(inv);
      EXPECT_EQ(a.fault, "");
      EXPECT_EQ(a.call_result, b.call_result);
      EXPECT_EQ(a.status, b.status);
      EXPECT_EQ(a.message, b.message);
      ASSERT_EQ(a.outputs.size(), b.outputs.size());
      for (size_t i = 0; i < a.outputs.size(); ++i) {
        EXPECT_EQ(a.outputs[i].name, b.outputs[i].name);
        EXPECT_EQ(a.outputs[i].buffer->Contents(), b.outputs[i].buffer->Contents());
        EXPECT_EQ(a.outputs[i].guards_intact, b.outputs[i].guards_intact);
        EXPECT_EQ(a.outputs[i].rank, b.outputs[i].rank);
        EXPECT_EQ(a.outputs[i].dims, b.outputs[i].dims);
      }
    }
  }
}

TEST(Isolation, LayoutsOfEverySizeAnswerAlike) {
  // Inputs and outputs move in the arena from case to case; a case above
  // 64 MiB grows it and gives it back afterwards; the same big case twice
  // reuses the worker's mapping. The fault port without NPUCONF_FAULT is a
  // correct element-by-element FRACTAL_NZ port.
  unsetenv("NPUCONF_FAULT");
  std::string error;
  auto isolated = IsolatedPort::Start(NPUCONF_FAULT_PORT, 60000, &error);
  ASSERT_TRUE(isolated) << error;
  auto in_process = InProcessPort::LoadLibrary(NPUCONF_FAULT_PORT, &error);
  ASSERT_TRUE(in_process) << error;
  const Profile* profile = FindProfile("ascend910b");
  ASSERT_NE(profile, nullptr);
  const std::vector<std::pair<const char*, std::vector<int64_t>>> cases = {
      {"FLOAT16", {8, 4100}},    {"FLOAT16", {4096, 4200}}, {"INT8", {3, 5}},
      {"FLOAT16", {4096, 4200}}, {"INT4", {2, 7, 9}},       {"FLOAT", {0, 3}}};
  for (const auto& [dtype, shape] : cases) {
    Case c("cann.nd_to_nz", "ascend910b");
    c.Set("shape", ParamValue::IntList(shape)).Set("dtype", ParamValue::String(dtype));
    const Invocation inv = BuiltinSuite().Materialize(c, *profile);
    const Answer a = isolated->Call(inv);
    const Answer b = in_process->Call(inv);
    ASSERT_EQ(a.fault, "") << c.ToText();
    EXPECT_EQ(a.status, b.status) << c.ToText();
    ASSERT_EQ(a.outputs.size(), 1u);
    ASSERT_EQ(b.outputs.size(), 1u);
    EXPECT_TRUE(a.outputs[0].buffer->Contents() == b.outputs[0].buffer->Contents()) << c.ToText();
    EXPECT_EQ(a.outputs[0].dims, b.outputs[0].dims) << c.ToText();
    EXPECT_TRUE(a.outputs[0].guards_intact) << c.ToText();
  }
}

TEST(Isolation, ForkedRunnerStartsItsOwnWorker) {
  std::string error;
  auto port = IsolatedPort::Start(NPUCONF_TEMPLATE_PORT, 10000, &error);
  ASSERT_TRUE(port) << error;
  const Profile* profile = FindProfile("ascend910b");
  ASSERT_NE(profile, nullptr);
  Case c("cann.calculate_matmul_weight_size_v2", "ascend910b");
  c.Set("shape", ParamValue::IntList({32, 16})).Set("dtype", ParamValue::String("INT8"));
  const Invocation inv = BuiltinSuite().Materialize(c, *profile);
  auto value = [](const Answer& a) {
    uint64_t v = 0;
    if (a.outputs.empty() || a.outputs[0].buffer->capacity_bytes() < 8) return uint64_t{0};
    std::memcpy(&v, a.outputs[0].buffer->data(), sizeof(v));
    return v;
  };
  // §1.4: n 32 -> 32 (to 16), k 16 -> 32 (INT8: to 32) = 1024 elements.
  ASSERT_EQ(value(port->Call(inv)), 1024u);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    // A second runner process: its own worker, answers alike, several times.
    bool ok = true;
    for (int i = 0; i < 3; ++i) {
      const Answer a = port->Call(inv);
      ok = ok && a.fault.empty() && value(a) == 1024u;
    }
    port.reset();
    _exit(ok ? 0 : 1);
  }
  for (int i = 0; i < 3; ++i) {
    const Answer a = port->Call(inv);
    EXPECT_EQ(a.fault, "");
    EXPECT_EQ(value(a), 1024u);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << status;
  // The parent's worker survived the child's exit.
  EXPECT_EQ(value(port->Call(inv)), 1024u);
}

TEST(Isolation, WorkerKilledBetweenCasesIsReplacedSilently) {
  std::string error;
  auto port = IsolatedPort::Start(NPUCONF_TEMPLATE_PORT, 10000, &error);
  ASSERT_TRUE(port) << error;
  // The worker is this process's only child (Linux lists children per task).
  std::ifstream children("/proc/self/task/" + std::to_string(gettid()) + "/children");
  pid_t worker = 0;
  if (!(children >> worker) || worker <= 0) GTEST_SKIP() << "no /proc/.../children here";
  const Profile* profile = FindProfile("ascend910b");
  ASSERT_NE(profile, nullptr);
  Case c("cann.calculate_matmul_weight_size_v2", "ascend910b");
  c.Set("shape", ParamValue::IntList({32, 16})).Set("dtype", ParamValue::String("INT8"));
  const Invocation inv = BuiltinSuite().Materialize(c, *profile);
  ASSERT_EQ(port->Call(inv).fault, "");
  ASSERT_EQ(kill(worker, SIGKILL), 0);
  usleep(50 * 1000);
  const Answer answer = port->Call(inv);
  EXPECT_EQ(answer.fault, "");
  EXPECT_EQ(answer.call_result, NPUCONF_CALL_ANSWERED);
  uint64_t value = 0;
  ASSERT_FALSE(answer.outputs.empty());
  std::memcpy(&value, answer.outputs[0].buffer->data(), sizeof(value));
  EXPECT_EQ(value, 1024u);  // §1.4, as in ForkedRunnerStartsItsOwnWorker
}

TEST(SanitizeUtf8, ReplacesMaximalIllFormedSubparts) {
  // Unicode 15, section 3.9, Table 3-8: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64
  // becomes a, FFFD, FFFD, FFFD, b, FFFD, c, FFFD, FFFD, d.
  EXPECT_EQ(SanitizeUtf8("\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64"),
            "a\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"
            "b\xEF\xBF\xBD"
            "c\xEF\xBF\xBD\xEF\xBF\xBD"
            "d");
  // Well-formed text is kept, 1 to 4 bytes per code point.
  const std::string good = "ascii \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80";
  EXPECT_EQ(SanitizeUtf8(good), good);
  // Overlong, surrogate, above U+10FFFF (Table 3-7 excludes them).
  EXPECT_EQ(SanitizeUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(SanitizeUtf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(SanitizeUtf8("\xF4\x90\x80\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
  bool terminated = true;
  const char unterminated[4] = {'a', 'b', 'c', 'd'};
  EXPECT_EQ(BoundedCString(unterminated, sizeof(unterminated), &terminated), "abcd");
  EXPECT_FALSE(terminated);
  EXPECT_EQ(BoundedCString("ab\0cd", 5, &terminated), "ab");
  EXPECT_TRUE(terminated);
}

}  // namespace
}  // namespace npuconf
