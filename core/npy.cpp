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

namespace {

// The text after `key` (a quoted dict key) and its colon, spaces skipped, or npos.
size_t ValueOf(const std::string& header, const std::string& key) {
  const size_t at = header.find("'" + key + "'");
  if (at == std::string::npos) return at;
  size_t i = header.find(':', at + key.size() + 2);
  if (i == std::string::npos) return i;
  ++i;
  while (i < header.size() && header[i] == ' ') ++i;
  return i;
}

}  // namespace

std::string ParseNpy(std::span<const uint8_t> file, NpyArray* out) {
  static const uint8_t kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
  if (file.size() < 10 || std::memcmp(file.data(), kMagic, 6) != 0)
    return "not a .npy file (no \\x93NUMPY magic string)";
  if (file[6] != 1 || file[7] != 0) {
    return "format version " + std::to_string(file[6]) + "." + std::to_string(file[7]) +
           " (npuconf writes and reads 1.0)";
  }
  const size_t length = file[8] | (static_cast<size_t>(file[9]) << 8);
  if (length > kMaxNpyHeaderBytes) {
    return "header of " + std::to_string(length) + " bytes, beyond kMaxNpyHeaderBytes (" +
           std::to_string(kMaxNpyHeaderBytes) + ")";
  }
  if (10 + length > file.size())
    return "header of " + std::to_string(length) + " bytes runs past the end of the file";
  const std::string header(reinterpret_cast<const char*>(file.data()) + 10, length);
  const std::string shown = "'" + header.substr(0, header.find_last_not_of(" \n") + 1) + "'";
  size_t i = ValueOf(header, "descr");
  if (i == std::string::npos || i >= header.size() || header[i] != '\'')
    return "header " + shown + " has no 'descr' string";
  const size_t end = header.find('\'', i + 1);
  if (end == std::string::npos) return "header " + shown + ": 'descr' is not closed";
  out->descr = header.substr(i + 1, end - i - 1);
  i = ValueOf(header, "fortran_order");
  if (i == std::string::npos) return "header " + shown + " has no 'fortran_order'";
  if (header.compare(i, 5, "False") == 0) {
    out->fortran_order = false;
  } else if (header.compare(i, 4, "True") == 0) {
    out->fortran_order = true;
  } else {
    return "header " + shown + ": 'fortran_order' is neither True nor False";
  }
  i = ValueOf(header, "shape");
  if (i == std::string::npos || i >= header.size() || header[i] != '(')
    return "header " + shown + " has no 'shape' tuple";
  const size_t close = header.find(')', i);
  if (close == std::string::npos) return "header " + shown + ": 'shape' is not closed";
  out->shape.clear();
  std::string dim;
  for (size_t j = i + 1; j <= close; ++j) {
    const char ch = header[j];
    if (ch >= '0' && ch <= '9') {
      dim += ch;
      if (dim.size() > 18) return "header " + shown + ": a dim of 'shape' is past 2^62";
    } else if (ch == ',' || ch == ')') {
      // "(3,)" and "()" close on an empty dim; "(,)" and "(3,,4)" hold one.
      if (dim.empty() && ch == ',') return "header " + shown + ": 'shape' has an empty dim";
      if (!dim.empty()) out->shape.push_back(std::stoll(dim));
      dim.clear();
    } else if (ch != ' ') {
      return "header " + shown + ": 'shape' holds '" + std::string(1, ch) + "'";
    }
  }
  out->data.assign(file.begin() + 10 + static_cast<std::ptrdiff_t>(length), file.end());
  return "";
}

std::string ReadNpy(const std::string& path, uint64_t max_bytes, NpyArray* out) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "cannot read " + path + ": " + std::strerror(errno);
  const std::streamoff size = in.tellg();
  if (size < 0) return "cannot read " + path;
  if (static_cast<uint64_t>(size) > max_bytes) {
    return path + ": " + std::to_string(size) + " bytes, more than the " +
           std::to_string(max_bytes) + " its vector allows";
  }
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  in.seekg(0);
  in.read(reinterpret_cast<char*>(bytes.data()), size);
  if (!in) return "cannot read " + path;
  if (std::string error = ParseNpy(bytes, out); !error.empty()) return path + ": " + error;
  return "";
}

}  // namespace npuconf
