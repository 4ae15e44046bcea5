// A case made concrete: the input tensors (bytes, dtype, shape) and the output
// buffers (dtype, capacity) that travel to a port. Built from a case by its
// routine's materializer (conformance/), answered by a port.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/buffer.h"
#include "core/case.h"
#include "core/dtype.h"
#include "core/shape.h"
#include "core/tensor.h"

namespace npuconf {

struct OutputSpec {
  std::string name;
  DType dtype = DType::kUint8;
  uint64_t capacity_bytes = 0;
  bool null = false;  // pass data == NULL (a caller's null pointer)
  Bytes initial;      // content at the head before the call (in-place routines)
  // The buffer as handed to the port: `initial`, then kSentinelByte.
  Bytes Before() const {
    Bytes before(capacity_bytes, kSentinelByte);
    std::copy(initial.begin(),
              initial.begin() +
                  static_cast<std::ptrdiff_t>(std::min<uint64_t>(initial.size(), capacity_bytes)),
              before.begin());
    return before;
  }
};

struct Invocation {
  Case c;
  std::vector<InputTensor> inputs;
  std::vector<OutputSpec> outputs;
  const InputTensor* Input(const std::string& name) const {
    for (const auto& input : inputs) {
      if (input.name == name) return &input;
    }
    return nullptr;
  }
  InputTensor* MutableInput(const std::string& name) {
    for (auto& input : inputs) {
      if (input.name == name) return &input;
    }
    return nullptr;
  }
};

}  // namespace npuconf
