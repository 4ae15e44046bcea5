#include "verify/compare.h"

#include <cstring>
#include <sstream>

namespace npuconf {

uint64_t ElementBits(std::span<const uint8_t> data, DType dtype, int64_t e) {
  const int bits = Bits(dtype);
  if (bits == 4) {
    const uint8_t byte = data[static_cast<size_t>(e / 2)];
    return (e % 2) ? (byte >> 4) : (byte & 0xF);
  }
  const size_t bytes = static_cast<size_t>(bits / 8);
  uint64_t value = 0;
  std::memcpy(&value, data.data() + static_cast<size_t>(e) * bytes, bytes);
  return value;
}

std::optional<int64_t> FirstMismatch(std::span<const uint8_t> got, std::span<const uint8_t> want,
                                     DType dtype, int64_t count) {
  if (count <= 0) return std::nullopt;
  const int bits = Bits(dtype);
  if (bits >= 8) {
    const size_t bytes = static_cast<size_t>(count) * static_cast<size_t>(bits / 8);
    if (std::memcmp(got.data(), want.data(), bytes) == 0) return std::nullopt;
  }
  for (int64_t e = 0; e < count; ++e) {
    if (ElementBits(got, dtype, e) != ElementBits(want, dtype, e)) return e;
  }
  return std::nullopt;
}

std::string Hex(uint64_t bits, DType dtype) {
  std::ostringstream out;
  out << "0x" << std::hex;
  out.width(std::max(1, Bits(dtype) / 4));
  out.fill('0');
  out << bits;
  return out.str();
}

std::string DescribeNdElement(const Shape& nd_shape, int64_t e) {
  Shape index(nd_shape.size());
  int64_t rest = e;
  for (size_t i = nd_shape.size(); i-- > 0;) {
    const int64_t dim = std::max<int64_t>(nd_shape[i], 1);
    index[i] = rest % dim;
    rest /= dim;
  }
  return "ND " + ToString(index);
}

std::string DescribeNzElement(const Shape& nd_shape, int64_t c0, int64_t e) {
  const size_t rank = nd_shape.size();
  const int64_t k = nd_shape[rank - 1];
  const int64_t n = rank >= 2 ? nd_shape[rank - 2] : 1;
  const int64_t n1 = (n + 15) / 16;
  const int64_t c1 = (k + c0 - 1) / c0;
  const int64_t per_c1 = n1 * 16 * c0;
  const int64_t per_batch = c1 * per_c1;
  std::ostringstream out;
  if (per_batch == 0) return "NZ element " + std::to_string(e);
  const int64_t b = e / per_batch;
  const int64_t in_batch = e % per_batch;
  const int64_t c1_index = in_batch / per_c1;
  const int64_t row = (in_batch % per_c1) / c0;
  const int64_t col = in_batch % c0;
  const int64_t nd_col = c1_index * c0 + col;
  out << "NZ element " << e << " (batch " << b << ", C1 block " << c1_index << ", N1 block "
      << row / 16 << ", row " << row % 16 << " of 16, col " << col << " of C0 " << c0 << ") = ";
  if (row >= n || nd_col >= k) {
    out << "padding";
  } else {
    out << "ND [batch " << b << ", row " << row << ", col " << nd_col << "]";
  }
  return out.str();
}

}  // namespace npuconf
