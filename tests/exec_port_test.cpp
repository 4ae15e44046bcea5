// `--port 'exec:CMD ARGS'` (docs/port-protocol.md): the Python example port
// passes what it claims, an injected bug fails, and every way a subprocess can
// fail to answer becomes a failing result naming it while the run goes on.
#include "conformance/ports/exec_port.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>
#include <set>

#include "cli/families.h"
#include "cli/open_port.h"
#include "core/profile.h"
#include "test_util.h"

namespace npuconf {
namespace {

using testing::ReadJson;
using testing::RunNpuconf;
using testing::TempDir;

const std::string kPython = "/usr/bin/python3 ";
const std::string kExamplePort =
    kPython + NPUCONF_SOURCE_DIR + "/examples/python_port/cann_port.py";
const std::string kMisbehaving =
    kPython + NPUCONF_SOURCE_DIR + "/tests/ports/exec/misbehaving_port.py ";

struct PortRun {
  int exit_code;
  std::string output;
  nlohmann::json report;
};

// `npuconf run` on ascend910b, without the real model shapes (several GiB per
// case, minutes through Python) and with few cases, so the test stays short.
PortRun RunPort(const std::string& port, const std::string& extra = "") {
  TempDir out("exec");
  const auto run = RunNpuconf("run --port '" + port +
                              "' --profile ascend910b --no-real-shapes --cases 30 --quiet --out " +
                              out.path() + " " + extra);
  nlohmann::json report;
  if (std::filesystem::exists(out.path() + "/report.json"))
    report = ReadJson(out.path() + "/report.json");
  return {run.exit_code, run.output, report};
}

std::map<std::string, nlohmann::json> ByProperty(const nlohmann::json& report) {
  std::map<std::string, nlohmann::json> results;
  for (const auto& r : report["results"]) results[r["property"].get<std::string>()] = r;
  return results;
}

TEST(ExecPort, PythonExamplePassesWhatItClaimsAndClaimsNothingElse) {
  const PortRun run = RunPort("exec:" + kExamplePort, "--routine 'cann.*' --timeout-ms 60000");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::set<std::string> claimed = {"cann.calculate_matmul_weight_size",
                                         "cann.calculate_matmul_weight_size_v2", "cann.nd_to_nz",
                                         "cann.nz_to_nd"};
  std::set<std::string> passed;
  for (const auto& r : run.report["results"]) {
    const std::string routine = r["routine"];
    if (claimed.count(routine)) {
      EXPECT_EQ(r["result"], "pass") << r.dump();
      passed.insert(routine);
    } else {
      // A property with no case on the profile (the conv-weight APIs off 310P, spec
      // layouts.md §A.9) is not_applicable before the claims are asked (runner.cpp).
      EXPECT_TRUE(r["result"] == "not_claimed" || r["result"] == "not_applicable") << r.dump();
    }
  }
  EXPECT_EQ(passed, claimed);
}

TEST(ExecPort, PythonExampleWithAnInjectedBugFails) {
  const PortRun c0 = RunPort("exec:" + kExamplePort + " --bug nz-c0", "--routine 'cann.nd_to_nz'");
  EXPECT_EQ(c0.exit_code, 1) << c0.output;
  EXPECT_EQ(ByProperty(c0.report)["cann.nd_to_nz.matches_oracle"]["result"], "fail");

  const PortRun k16 = RunPort("exec:" + kExamplePort + " --bug v2-k16",
                              "--routine 'cann.calculate_matmul_weight_size_v2'");
  EXPECT_EQ(k16.exit_code, 1) << k16.output;
  EXPECT_EQ(ByProperty(k16.report)["cann.calculate_matmul_weight_size_v2.matches_oracle"]["result"],
            "fail");
}

// The misbehaving port fails every V2 case in one way and answers cann.nz_to_nd
// through the example port: the V2 properties fail naming the fault, and the
// nz_to_nd properties after them still pass (the subprocess was restarted).
void ExpectFaultNamedAndRunGoesOn(const std::string& mode, const std::string& fault,
                                  const std::string& extra = "") {
  const PortRun run = RunPort("exec:" + kMisbehaving + mode, extra);
  EXPECT_EQ(run.exit_code, 1) << mode << "\n" << run.output;
  const auto results = ByProperty(run.report);
  int failed = 0, passed = 0;
  for (const auto& [name, r] : results) {
    if (r["routine"] == "cann.calculate_matmul_weight_size_v2") {
      EXPECT_EQ(r["result"], "fail") << mode << ": " << r.dump();
      EXPECT_NE(r.value("message", "").find(fault), std::string::npos) << mode << ": " << r.dump();
      ++failed;
    } else if (r["routine"] == "cann.nz_to_nd") {
      EXPECT_EQ(r["result"], "pass") << mode << ": " << r.dump();
      ++passed;
    }
  }
  EXPECT_GE(failed, 5) << mode;
  EXPECT_GE(passed, 2) << mode;
}

// The same wrong answer to every request is deterministic, though each
// request has another id (issue 15 item 8): its messages must not differ.
TEST(ExecPort, ADeterministicWrongAnswerIsNotCalledNonDeterministic) {
  for (const char* mode : {"wrong-id", "fixed-id", "short", "garbage"}) {
    const PortRun run = RunPort("exec:" + kMisbehaving + mode, "");
    for (const auto& [name, r] : ByProperty(run.report)) {
      EXPECT_EQ(r.value("message", "").find("non-deterministic"), std::string::npos)
          << mode << ": " << r.dump();
      EXPECT_EQ(r.value("reproduce", "").find("non-deterministic"), std::string::npos)
          << mode << ": " << r.dump();
    }
  }
}

TEST(ExecPort, GarbageOnStdoutIsAFailingResult) {
  ExpectFaultNamedAndRunGoesOn("garbage", "printed garbage (not a JSON object): Segmentation");
}

TEST(ExecPort, ExitWhileAnsweringIsAFailingResult) {
  ExpectFaultNamedAndRunGoesOn("exit", "exited with status 3");
}

TEST(ExecPort, DeathBySignalIsAFailingResult) {
  ExpectFaultNamedAndRunGoesOn("segv", "killed by SIGSEGV");
}

TEST(ExecPort, HangIsKilledAfterTheTimeout) {
  ExpectFaultNamedAndRunGoesOn("hang", "timed out after 300 ms", "--timeout-ms 300");
}

TEST(ExecPort, AnswerToAnotherIdIsAFailingResult) {
  ExpectFaultNamedAndRunGoesOn("wrong-id", "answered another request's id (the request's id +1)");
}

// Breaker F10: one id for every answer is far from each request's, which grow.
TEST(ExecPort, AnAnswerWithAFarIdIsNamedWithoutTheOffset) {
  ExpectFaultNamedAndRunGoesOn("fixed-id",
                               "answered another request's id (not within 16 of the request's id)");
}

TEST(ExecPort, BytesPastTheCapacityBreakTheGuard) {
  // weight_tensor_size holds 8 bytes; the port returns 9 (and a size of 0).
  const PortRun run = RunPort("exec:" + kMisbehaving + "overflow");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  auto results = ByProperty(run.report);
  const auto& r = results["cann.calculate_matmul_weight_size_v2.matches_oracle"];
  EXPECT_EQ(r["result"], "fail");
  EXPECT_NE(r.value("message", "").find("wrote past the 8-byte weightTensorSize (offset 8)"),
            std::string::npos)
      << r.dump();
  EXPECT_EQ(results["cann.nz_to_nd.matches_oracle"]["result"], "pass");
}

// Tensors of 1 MiB or more travel as files (docs/port-protocol.md): both ways,
// and a write past the capacity through a file is caught like one in the line.
TEST(ExecPort, BigTensorsTravelAsFiles) {
  for (const std::string args : {"cann.nd_to_nz.matches_oracle cann.nd_to_nz profile=ascend910b "
                                 "dtype=INT4 'shape=[896,4864]'",
                                 "cann.nz_to_nd.matches_oracle cann.nz_to_nd profile=ascend910b "
                                 "dtype=FLOAT16 'shape=[1000,1000]'"}) {
    const auto run = RunNpuconf("check --port 'exec:" + kExamplePort + "' " + args);
    EXPECT_EQ(run.exit_code, 0) << run.output;
    EXPECT_NE(run.output.find("pass: "), std::string::npos) << run.output;
  }
  const auto over = RunNpuconf("check --port 'exec:" + kMisbehaving +
                               "overflow-all' cann.nz_to_nd.no_write_past_capacity cann.nz_to_nd "
                               "profile=ascend910b dtype=FLOAT16 'shape=[1000,1000]'");
  EXPECT_EQ(over.exit_code, 1) << over.output;
  EXPECT_NE(over.output.find("wrote past the capacity of 'nd' (2000000 bytes)"), std::string::npos)
      << over.output;
}

TEST(ExecPort, FewerBytesThanTheCapacityLeaveTheFill) {
  // The port writes 4 zero bytes of the 8-byte size: the other 4 keep the
  // runner's 0xCD, so the size read is 0xCDCDCDCD00000000.
  const PortRun run = RunPort("exec:" + kMisbehaving + "short");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  auto results = ByProperty(run.report);
  const auto& r = results["cann.calculate_matmul_weight_size_v2.matches_oracle"];
  EXPECT_EQ(r["result"], "fail");
  EXPECT_NE(r.value("message", "").find("weightTensorSize 14829735428352901120 elements"),
            std::string::npos)
      << r.dump();
}

TEST(ExecPort, InvalidUtf8FromThePortIsSanitisedNotFatal) {
  const PortRun run = RunPort("exec:" + kMisbehaving + "bad-utf8");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  // ReadJson parsed it, so report.json is valid UTF-8; the message survives,
  // repaired.
  auto results = ByProperty(run.report);
  const auto& r = results["cann.calculate_matmul_weight_size_v2.matches_oracle"];
  EXPECT_EQ(r["result"], "fail");
  EXPECT_NE(r.value("message", "").find("caf\xEF\xBF\xBD \xEF\xBF\xBD"), std::string::npos)
      << r.dump();
}

TEST(ExecPort, CommandThatDoesNotExistIsPortFailureNamingIt) {
  TempDir out("exec");
  const auto run =
      RunNpuconf("run --port 'exec:/no/such/port --x' --profile ascend910b --out " + out.path());
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("cannot run '/no/such/port': No such file or directory"),
            std::string::npos)
      << run.output;
}

TEST(ExecPort, GarbageHandshakeIsPortFailureSayingWhatWasWrong) {
  const auto run = RunNpuconf("case --port 'exec:" + kMisbehaving +
                              "bad-hello' cann.nz_to_nd profile=ascend910b dtype=FLOAT16 "
                              "'shape=[2,2]'");
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("handshake is not a JSON object: npuconf-port v1"), std::string::npos)
      << run.output;
  const auto quit = RunNpuconf(
      "case --port exec:/bin/true cann.nz_to_nd profile=ascend910b "
      "dtype=FLOAT16 'shape=[2,2]'");
  EXPECT_EQ(quit.exit_code, 3) << quit.output;
  EXPECT_NE(quit.output.find("closed its stdout before the handshake (exited with status 0)"),
            std::string::npos)
      << quit.output;
}

TEST(ExecPort, UnterminatedQuoteIsBadUsage) {
  TempDir out("exec");
  const auto run = RunNpuconf("run --port 'exec:/bin/echo \"hello' --out " + out.path());
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("unterminated \""), std::string::npos) << run.output;
}

std::string Handshake(const std::string& name, const std::vector<std::string>& claims) {
  return nlohmann::json{
      {"protocol", "npuconf-port"}, {"protocol_version", 1}, {"name", name}, {"claims", claims}}
      .dump();
}

TEST(ExecPortHandshake, ClaimsPastKMaxPortClaimsAreRefusedNamingTheCount) {
  PortHandshake hello;
  std::vector<std::string> claims(kMaxPortClaims, "cann.nd_to_nz:ascend910b");
  EXPECT_EQ(ParseHandshakeLine(Handshake("p", claims), &hello), "");
  EXPECT_EQ(hello.claims.size(), kMaxPortClaims);
  claims.push_back("cann.nz_to_nd:ascend910b");
  EXPECT_EQ(ParseHandshakeLine(Handshake("p", claims), &hello),
            "handshake: 4097 claims, beyond kMaxPortClaims (4096)");
}

TEST(ExecPortHandshake, TextPastKMaxPortStringBytesIsRefusedNamingItsLength) {
  PortHandshake hello;
  const std::string at_limit(kMaxPortStringBytes, 'n');
  EXPECT_EQ(ParseHandshakeLine(Handshake(at_limit, {at_limit}), &hello), "");
  const std::string e = ParseHandshakeLine(Handshake("p", {"ok", at_limit + "x"}), &hello);
  EXPECT_EQ(e.substr(0, e.find(':')), "handshake");
  EXPECT_NE(e.find("claim 1 is 4097 bytes, beyond kMaxPortStringBytes (4096): nnnn"),
            std::string::npos)
      << e;
  EXPECT_NE(ParseHandshakeLine(Handshake(at_limit + "x", {}), &hello)
                .find("\"name\" is 4097 bytes, beyond kMaxPortStringBytes (4096)"),
            std::string::npos);
}

TEST(ExecPortHandshake, NestingPastKMaxJsonDepthIsNamed) {
  PortHandshake hello;
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const std::string e = ParseHandshakeLine(R"({"protocol": )" + deep + "}", &hello);
  EXPECT_EQ(e.substr(0, e.find(": {")),
            "handshake is not a JSON object, an array nested 65 levels deep, beyond "
            "kMaxJsonDepth (64)")
      << e;
}

TEST(ExecPort, SplitsCommandLikeAShellWithoutOne) {
  std::vector<std::string> words;
  EXPECT_EQ(SplitCommandLine(R"(a  'b c' "d \"e\" \\" f\ g $HOME *)", &words), "");
  EXPECT_EQ(words, (std::vector<std::string>{"a", "b c", R"(d "e" \)", "f g", "$HOME", "*"}));
  EXPECT_NE(SplitCommandLine("a 'b", &words), "");
}

// A parallel runner forks: the copy must start its own subprocess and leave
// the parent's alone.
TEST(ExecPort, AForkedRunnerStartsItsOwnSubprocess) {
  PortChoice choice = OpenPort(std::string("exec:") + NPUCONF_EXEC_ECHO_PORT, PortOptions{});
  ASSERT_TRUE(choice.port) << choice.error;
  Case c("cann.calculate_matmul_weight_size", "ascend910b");
  c.params["shape"] = ParamValue::IntList({32, 16});
  const Invocation inv = BuiltinSuite().Materialize(c, *FindProfile("ascend910b"));
  ASSERT_EQ(choice.port->Call(inv).fault, "");
  const pid_t child = fork();
  if (child == 0) {
    bool ok = true;
    for (int i = 0; i < 3; ++i) ok = ok && choice.port->Call(inv).fault.empty();
    choice.port.reset();  // only closes the inherited pipes
    _exit(ok ? 0 : 1);
  }
  int status = 0;
  ASSERT_EQ(waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  const Answer after = choice.port->Call(inv);
  EXPECT_EQ(after.fault, "");
  EXPECT_EQ(after.call_result, NPUCONF_CALL_ANSWERED);
}

}  // namespace
}  // namespace npuconf
