#include "reference/rknn_native/nhwc_stride.h"

#include <cstring>

namespace npuconf::rknn_native {

std::optional<StrideGeometry> StrideGeometryFor(int64_t n, int64_t h, int64_t w, int64_t c,
                                                int64_t w_stride, int64_t elem_bytes) {
  if (n <= 0 || h <= 0 || w <= 0 || c <= 0 || w_stride < 0) return std::nullopt;
  if (w_stride == 0) w_stride = w;  // §B.1: "0 means equal to width"
  if (w_stride < w || (elem_bytes != 1 && elem_bytes != 2)) return std::nullopt;
  // Checked in 128 bits: every factor is below 2^63, the product tested after each step.
  __int128 rows = n, plain = 0, strided = 0;
  rows *= h;
  if (rows > INT64_MAX) return std::nullopt;
  plain = rows * w;
  strided = rows * w_stride;
  if (plain > INT64_MAX || strided > INT64_MAX) return std::nullopt;
  const __int128 pixel_bytes = static_cast<__int128>(c) * elem_bytes;  // < 2^64
  plain *= pixel_bytes;
  strided *= pixel_bytes;
  if (plain > INT64_MAX || strided > INT64_MAX) return std::nullopt;
  StrideGeometry g{.n = n, .h = h, .w = w, .c = c, .w_stride = w_stride, .elem_bytes = elem_bytes};
  // Each <= its N·H-row total above, so each fits.
  g.row_bytes = static_cast<uint64_t>(w * pixel_bytes);
  g.stride_bytes = static_cast<uint64_t>(w_stride * pixel_bytes);
  g.plain_bytes = static_cast<uint64_t>(plain);
  g.size_with_stride = static_cast<uint64_t>(strided);
  return g;
}

void PackNhwcRows(const uint8_t* src, uint8_t* dst, const StrideGeometry& g) {
  if (g.w_stride == g.w) {
    std::memcpy(dst, src, g.plain_bytes);
    return;
  }
  const int64_t rows = g.n * g.h;
  for (int64_t r = 0; r < rows; ++r, src += g.row_bytes, dst += g.stride_bytes)
    std::memcpy(dst, src, g.row_bytes);
}

}  // namespace npuconf::rknn_native
