// An exec: port's answer line (docs/port-protocol.md, "Answer") to request 7 of
// a case with three outputs: one answered in the line, one the case passes as
// a null pointer, one that travels as a file. Whatever the line holds, nothing
// is written outside an output's capacity (the guard zones stay intact).
#include "conformance/ports/exec_port.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npuconf;
  Invocation inv;
  inv.c = Case("cann.nd_to_nz", "ascend910b");
  inv.outputs = {{.name = "nz", .dtype = DType::kFloat16, .capacity_bytes = 64},
                 {.name = "skipped", .dtype = DType::kInt8, .capacity_bytes = 8, .null = true},
                 {.name = "big", .dtype = DType::kUint8, .capacity_bytes = 16}};
  std::vector<std::shared_ptr<GuardedBuffer>> buffers;
  for (const auto& o : inv.outputs)
    buffers.push_back(std::make_shared<GuardedBuffer>(o.capacity_bytes));
  const std::vector<std::string> paths = {"", "", "/dev/null"};
  Answer answer;
  answer.outputs.resize(inv.outputs.size());
  (void)ParseAnswerLine(std::string(fuzz::Text(data, size)), 7, inv, buffers, paths, &answer);
  for (const auto& buffer : buffers) {
    fuzz::Require(buffer->GuardsIntact(), "an answer line never writes past an output's capacity");
  }
  return 0;
}
