// A tensor held as bytes: name, dtype, shape in ELEMENTS, little-endian bytes
// (INT4 packed two per byte). What a case's explicit inputs and an
// invocation's inputs are made of.
#pragma once

#include <string>

#include "core/buffer.h"
#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf {

struct InputTensor {
  std::string name;
  DType dtype = DType::kUint8;
  Shape shape;  // elements
  Bytes bytes;  // little-endian; INT4 packed two per byte
  bool operator==(const InputTensor&) const = default;
};

}  // namespace npuconf
