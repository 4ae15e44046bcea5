// NumPy .npy files (format version 1.0): what `npuconf case --dump` and the
// vector tools write so a device tester can load any tensor with numpy.load.
#pragma once

#include <span>
#include <string>

#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf {

// The numpy dtype string of an element type: "<f2" FLOAT16, "<f4" FLOAT, "|i1"
// INT8, … Types numpy lacks are stored as their bits: BF16 "<u2", FLOAT8_E4M3FN
// and HIFLOAT8 "|u1"; INT4 as its packed bytes "|u1" (two elements per byte,
// the routine's nibble order).
std::string NpyDType(DType dtype);

// Writes `bytes` as an array of `shape` (elements of NpyDType(dtype); INT4:
// pass the packed byte count as the shape). Returns "" or why it failed.
std::string WriteNpy(const std::string& path, DType dtype, const Shape& shape,
                     std::span<const uint8_t> bytes);

}  // namespace npuconf
