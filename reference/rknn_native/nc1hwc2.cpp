#include "reference/rknn_native/nc1hwc2.h"

#include <algorithm>
#include <cstring>

#include "reference/blocks/channel_blocks.h"
#include "reference/simd/isa.h"

namespace npuconf::rknn_native {
namespace {

// One (n, C1) block is C2 lanes × H·W pixels. NCHW ↔ NC1HWC2 is a transpose
// of the block's planes (reference/blocks: register tiles where the path has
// them); NHWC moves each pixel's C2-runs to their planes (blocks::
// PixelsToBlocks, below).
template <bool kToNative>
void Planar(const uint8_t* in, uint8_t* out, const Nc1hwc2Geometry& g) {
  const int64_t hw = g.h * g.w, e = g.elem_bytes;
  // Large outputs are streamed (non-temporal stores; simd::kStreamMinBytes).
  const bool stream = (kToNative ? g.native_bytes : g.plain_bytes) >= simd::kStreamMinBytes;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c1 = 0; c1 < g.c1; ++c1) {
      const int64_t lanes = std::min(g.c2, g.c - c1 * g.c2);
      const int64_t plane_at = (n * g.c + c1 * g.c2) * hw * e;
      const int64_t block_at = (n * g.c1 + c1) * hw * g.c2 * e;
      if constexpr (kToNative) {
        blocks::PlanesToC0(in + plane_at, hw * e, lanes, hw, g.c2, e, out + block_at, g.c2 * e,
                           stream);
      } else {
        blocks::C0ToPlanes(in + block_at, g.c2 * e, lanes, hw, g.c2, e, out + plane_at, hw * e,
                           stream);
      }
    }
  }
  if (stream) blocks::FinishStreaming();
}

}  // namespace

std::optional<Nc1hwc2Geometry> Nc1hwc2GeometryFor(int64_t n, int64_t c, int64_t h, int64_t w,
                                                  int64_t c2, int64_t elem_bytes) {
  if (n <= 0 || c <= 0 || h <= 0 || w <= 0 || c2 <= 0) return std::nullopt;
  if (elem_bytes != 1 && elem_bytes != 2 && elem_bytes != 4) return std::nullopt;
  Nc1hwc2Geometry g{.n = n, .c = c, .h = h, .w = w, .c2 = c2, .c1 = c / c2 + (c % c2 != 0)};
  g.elem_bytes = elem_bytes;
  // Checked: every product below stays under 2^63 (each factor < 2^63, the
  // running product tested before it is multiplied further).
  __int128 plain = n, native = n;
  for (int64_t d : {c, h, w}) {
    plain *= d;
    if (plain * elem_bytes > INT64_MAX) return std::nullopt;
  }
  for (int64_t d : {g.c1, h, w, c2}) {
    native *= d;
    if (native * elem_bytes > INT64_MAX) return std::nullopt;
  }
  g.native_dims = {n, g.c1, h, w, c2};
  g.plain_elems = static_cast<int64_t>(plain);
  g.native_elems = static_cast<int64_t>(native);
  g.plain_bytes = static_cast<uint64_t>(plain * elem_bytes);
  g.native_bytes = static_cast<uint64_t>(native * elem_bytes);
  return g;
}

void NchwToNc1hwc2(const uint8_t* nchw, uint8_t* native, const Nc1hwc2Geometry& g) {
  Planar<true>(nchw, native, g);
}

void Nc1hwc2ToNchw(const uint8_t* native, uint8_t* nchw, const Nc1hwc2Geometry& g) {
  Planar<false>(native, nchw, g);
}

void NhwcToNc1hwc2(const uint8_t* nhwc, uint8_t* native, const Nc1hwc2Geometry& g) {
  const int64_t hw = g.h * g.w, e = g.elem_bytes;
  const bool stream = g.native_bytes >= simd::kStreamMinBytes;  // as Planar
  for (int64_t n = 0; n < g.n; ++n) {
    blocks::PixelsToBlocks(nhwc + n * hw * g.c * e, hw, g.c * e, g.c2 * e,
                           native + n * g.c1 * hw * g.c2 * e, hw * g.c2 * e, stream);
  }
  if (stream) blocks::FinishStreaming();
}

void Nc1hwc2ToNhwc(const uint8_t* native, uint8_t* nhwc, const Nc1hwc2Geometry& g) {
  const int64_t hw = g.h * g.w, e = g.elem_bytes;
  const bool stream = g.plain_bytes >= simd::kStreamMinBytes;  // as Planar
  for (int64_t n = 0; n < g.n; ++n) {
    blocks::BlocksToPixels(native + n * g.c1 * hw * g.c2 * e, hw * g.c2 * e, hw, g.c * e, g.c2 * e,
                           nhwc + n * hw * g.c * e, stream);
  }
  if (stream) blocks::FinishStreaming();
}

void Nc1hwc2Int8ToNchwFloat(const int8_t* native, float* nchw, const Nc1hwc2Geometry& g,
                            float scale, int32_t zp) {
  const int64_t hw = g.h * g.w;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c1 = 0; c1 < g.c1; ++c1) {
      const int64_t lanes = std::min(g.c2, g.c - c1 * g.c2);
      const int8_t* block = native + (n * g.c1 + c1) * hw * g.c2;
      for (int64_t l = 0; l < lanes; ++l) {
        const int8_t* s = block + l;
        float* d = nchw + (n * g.c + c1 * g.c2 + l) * hw;
        // q - zp is an exact integer (int64: zp is any int32, so int32 could
        // overflow); its float conversion is exact while |q - zp| <= 2^24, then
        // one float32 product.
        for (int64_t p = 0; p < hw; ++p, s += g.c2)
          d[p] = static_cast<float>(static_cast<int64_t>(*s) - zp) * scale;
      }
    }
  }
}

}  // namespace npuconf::rknn_native
