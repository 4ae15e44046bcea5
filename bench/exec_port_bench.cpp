// Cases answered per second through `exec:` (docs/port-protocol.md) on a small
// case, beside the in-process reference port: what one JSON-lines round trip
// costs. BM_ExecPortEcho uses the C port tests/ports/exec/echo_port.c (it parses
// nothing but the id), BM_ExecPortPython the Python example port
// (examples/python_port/cann_port.py). items_per_second is cases per
// second of wall time (the port runs in another process).
#include <benchmark/benchmark.h>

#include <string>

#include "cli/families.h"
#include "cli/open_port.h"
#include "core/profile.h"

namespace npuconf {
namespace {

Invocation SmallCase() {
  Case c("cann.calculate_matmul_weight_size", "ascend910b");
  c.params["shape"] = ParamValue::IntList({510, 270});
  return BuiltinSuite().Materialize(c, *FindProfile("ascend910b"));
}

void AnswerCases(benchmark::State& state, const std::string& port_arg) {
  PortChoice choice = OpenPort(port_arg, PortOptions{});
  if (!choice.port) {
    state.SkipWithError(choice.error.c_str());
    return;
  }
  const Invocation inv = SmallCase();
  for (auto _ : state) {
    const Answer answer = choice.port->Call(inv);
    if (!answer.fault.empty() || answer.call_result != NPUCONF_CALL_ANSWERED) {
      state.SkipWithError(("not answered: " + answer.fault).c_str());
      return;
    }
    benchmark::DoNotOptimize(answer.status);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_InProcessReference(benchmark::State& state) { AnswerCases(state, "reference"); }
void BM_ExecPortEcho(benchmark::State& state) {
  AnswerCases(state, std::string("exec:") + NPUCONF_EXEC_ECHO_PORT);
}
void BM_ExecPortPython(benchmark::State& state) {
  AnswerCases(state, std::string("exec:/usr/bin/python3 ") + NPUCONF_SOURCE_DIR +
                         "/examples/python_port/cann_port.py");
}
BENCHMARK(BM_InProcessReference)->UseRealTime();
BENCHMARK(BM_ExecPortEcho)->UseRealTime();
BENCHMARK(BM_ExecPortPython)->UseRealTime();

}  // namespace
}  // namespace npuconf

BENCHMARK_MAIN();
