// NumPy .npy files (format version 1.0): what `npuconf case --dump` and the
// vector tools write so a device tester can load any tensor with numpy.load.
#pragma once

#include <span>
#include <string>
#include <vector>

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

// A .npy file read back (`vectors verify` compares it with its vector JSON).
struct NpyArray {
  std::string descr;  // "<f2", "|u1", ...
  bool fortran_order = false;
  Shape shape;
  std::vector<uint8_t> data;  // every byte after the header
};

// The largest header ReadNpy accepts (format 1.0 allows 65535 bytes; ours are
// one 64-byte line).
inline constexpr size_t kMaxNpyHeaderBytes = 4096;

// Reads a format 1.0 .npy file of at most `max_bytes`. Returns "" or what is
// wrong, naming the value: a missing magic string, another version, a header
// over kMaxNpyHeaderBytes, a header that is not {'descr': ..., 'fortran_order':
// ..., 'shape': (...)}, a dim that is negative or past 2^62.
std::string ReadNpy(const std::string& path, uint64_t max_bytes, NpyArray* out);
// The same on the bytes of a file (the fuzz target's entry).
std::string ParseNpy(std::span<const uint8_t> file, NpyArray* out);

}  // namespace npuconf
