#include "core/npy.h"

#include <cerrno>
#include <cstring>
#include <fstream>

namespace npuconf {

std::string NpyDType(DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
      return "<f2";
    case DType::kFloat:
      return "<f4";
    case DType::kInt8:
      return "|i1";
    case DType::kUint8:
      return "|u1";
    case DType::kInt16:
      return "<i2";
    case DType::kInt32:
      return "<i4";
    case DType::kInt64:
      return "<i8";
    case DType::kUint64:
      return "<u8";
    case DType::kBf16:
      return "<u2";
    case DType::kFloat8E4M3Fn:
    case DType::kHiFloat8:
    case DType::kInt4:
      return "|u1";
  }
  return "|u1";
}

std::string WriteNpy(const std::string& path, DType dtype, const Shape& shape,
                     std::span<const uint8_t> bytes) {
  // A Python tuple: (), (a,), (a, b).
  std::string dims;
  for (size_t i = 0; i < shape.size(); ++i) dims += (i ? ", " : "") + std::to_string(shape[i]);
  if (shape.size() == 1) dims += ",";
  std::string header =
      "{'descr': '" + NpyDType(dtype) + "', 'fortran_order': False, 'shape': (" + dims + "), }";
  // magic (6) + version (2) + header length (2) + header, padded with spaces to
  // a multiple of 64 and ended by a newline.
  const size_t unpadded = 10 + header.size() + 1;
  header.append((64 - unpadded % 64) % 64, ' ');
  header += '\n';
  std::ofstream out(path, std::ios::binary);
  if (!out) return "cannot write " + path + ": " + std::strerror(errno);
  const char magic[] = "\x93NUMPY\x01\x00";
  out.write(magic, 8);
  const uint16_t length = static_cast<uint16_t>(header.size());
  const char length_le[2] = {static_cast<char>(length & 0xFF), static_cast<char>(length >> 8)};
  out.write(length_le, 2);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) return "cannot write " + path + ": " + std::strerror(errno);
  return "";
}

}  // namespace npuconf
