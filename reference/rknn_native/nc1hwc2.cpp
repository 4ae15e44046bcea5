#include "reference/rknn_native/nc1hwc2.h"

#include <algorithm>
#include <cstring>

namespace npuconf::rknn_native {
namespace {

// Every plane loop below walks pointers: one (n, c1) block is C2 lanes by H·W
// pixels; NHWC moves whole C2-runs with memcpy, NCHW transposes [lanes, H·W]
// <-> [H·W, C2] with bumped pointers.
template <typename T>
void PlanarToNative(const uint8_t* in, uint8_t* out, const Nc1hwc2Geometry& g) {
  const int64_t hw = g.h * g.w;
  const T* src = reinterpret_cast<const T*>(in);
  T* dst = reinterpret_cast<T*>(out);
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c1 = 0; c1 < g.c1; ++c1) {
      const int64_t lanes = std::min(g.c2, g.c - c1 * g.c2);
      T* block = dst + (n * g.c1 + c1) * hw * g.c2;
      if (lanes < g.c2) std::memset(block, 0, static_cast<size_t>(hw * g.c2) * sizeof(T));
      for (int64_t l = 0; l < lanes; ++l) {
        const T* s = src + (n * g.c + c1 * g.c2 + l) * hw;
        T* d = block + l;
        for (int64_t p = 0; p < hw; ++p, d += g.c2) *d = s[p];
      }
    }
  }
}

template <typename T>
void NativeToPlanar(const uint8_t* in, uint8_t* out, const Nc1hwc2Geometry& g) {
  const int64_t hw = g.h * g.w;
  const T* src = reinterpret_cast<const T*>(in);
  T* dst = reinterpret_cast<T*>(out);
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c1 = 0; c1 < g.c1; ++c1) {
      const int64_t lanes = std::min(g.c2, g.c - c1 * g.c2);
      const T* block = src + (n * g.c1 + c1) * hw * g.c2;
      for (int64_t l = 0; l < lanes; ++l) {
        const T* s = block + l;
        T* d = dst + (n * g.c + c1 * g.c2 + l) * hw;
        for (int64_t p = 0; p < hw; ++p, s += g.c2) d[p] = *s;
      }
    }
  }
}

void Dispatch(const uint8_t* in, uint8_t* out, const Nc1hwc2Geometry& g, bool to_native) {
  switch (g.elem_bytes) {
    case 1:
      return to_native ? PlanarToNative<uint8_t>(in, out, g) : NativeToPlanar<uint8_t>(in, out, g);
    case 2:
      return to_native ? PlanarToNative<uint16_t>(in, out, g)
                       : NativeToPlanar<uint16_t>(in, out, g);
    default:
      return to_native ? PlanarToNative<uint32_t>(in, out, g)
                       : NativeToPlanar<uint32_t>(in, out, g);
  }
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
  Dispatch(nchw, native, g, true);
}

void Nc1hwc2ToNchw(const uint8_t* native, uint8_t* nchw, const Nc1hwc2Geometry& g) {
  Dispatch(native, nchw, g, false);
}

void NhwcToNc1hwc2(const uint8_t* nhwc, uint8_t* native, const Nc1hwc2Geometry& g) {
  const int64_t hw = g.h * g.w;
  const size_t eb = static_cast<size_t>(g.elem_bytes);
  const size_t run_bytes = static_cast<size_t>(g.c2) * eb;
  uint8_t* d = native;
  for (int64_t n = 0; n < g.n; ++n) {
    const uint8_t* image = nhwc + static_cast<size_t>(n * hw * g.c) * eb;
    for (int64_t c1 = 0; c1 < g.c1; ++c1) {
      const size_t lane_bytes = static_cast<size_t>(std::min(g.c2, g.c - c1 * g.c2)) * eb;
      const uint8_t* s = image + static_cast<size_t>(c1 * g.c2) * eb;
      const size_t pixel_bytes = static_cast<size_t>(g.c) * eb;
      for (int64_t p = 0; p < hw; ++p, s += pixel_bytes, d += run_bytes) {
        std::memcpy(d, s, lane_bytes);
        if (lane_bytes < run_bytes) std::memset(d + lane_bytes, 0, run_bytes - lane_bytes);
      }
    }
  }
}

void Nc1hwc2ToNhwc(const uint8_t* native, uint8_t* nhwc, const Nc1hwc2Geometry& g) {
  const int64_t hw = g.h * g.w;
  const size_t eb = static_cast<size_t>(g.elem_bytes);
  const size_t run_bytes = static_cast<size_t>(g.c2) * eb;
  const uint8_t* s = native;
  for (int64_t n = 0; n < g.n; ++n) {
    uint8_t* image = nhwc + static_cast<size_t>(n * hw * g.c) * eb;
    for (int64_t c1 = 0; c1 < g.c1; ++c1) {
      const size_t lane_bytes = static_cast<size_t>(std::min(g.c2, g.c - c1 * g.c2)) * eb;
      uint8_t* d = image + static_cast<size_t>(c1 * g.c2) * eb;
      const size_t pixel_bytes = static_cast<size_t>(g.c) * eb;
      for (int64_t p = 0; p < hw; ++p, d += pixel_bytes, s += run_bytes)
        std::memcpy(d, s, lane_bytes);
    }
  }
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
        // One rounding: q - zp is an exact int, its float conversion exact.
        for (int64_t p = 0; p < hw; ++p, s += g.c2)
          d[p] = static_cast<float>(static_cast<int32_t>(*s) - zp) * scale;
      }
    }
  }
}

}  // namespace npuconf::rknn_native
