// RKNN NC1HWC2 native tensors (spec layouts.md §B.2, §B.5): NCHW / NHWC <->
// [N, C1, H, W, C2], C1 = ceil(C / C2), and the int8 -> float dequant of §B.5.
// Shapes in elements; byte counts say so. Pad lanes (c >= C) are written as 0
// here, though the vendor leaves them unspecified (choice rknn.native_io.pad_lanes).
#pragma once

#include <cstdint>
#include <optional>

#include "core/shape.h"

namespace npuconf::rknn_native {

struct Nc1hwc2Geometry {
  int64_t n = 0, c = 0, h = 0, w = 0;
  int64_t c2 = 0, c1 = 0;  // lanes per block, ceil(C / C2) blocks
  int64_t elem_bytes = 0;  // 1 or 2
  Shape native_dims;       // [N, C1, H, W, C2]
  int64_t plain_elems = 0, native_elems = 0;
  uint64_t plain_bytes = 0, native_bytes = 0;
};

// nullopt when a dim or C2 is not positive, elem_bytes is not 1, 2 or 4, or a
// size overflows int64.
std::optional<Nc1hwc2Geometry> Nc1hwc2GeometryFor(int64_t n, int64_t c, int64_t h, int64_t w,
                                                  int64_t c2, int64_t elem_bytes);

// Plain -> native writes every native byte (pad lanes 0); native -> plain
// ignores the pad lanes.
void NchwToNc1hwc2(const uint8_t* nchw, uint8_t* native, const Nc1hwc2Geometry& g);
void Nc1hwc2ToNchw(const uint8_t* native, uint8_t* nchw, const Nc1hwc2Geometry& g);
void NhwcToNc1hwc2(const uint8_t* nhwc, uint8_t* native, const Nc1hwc2Geometry& g);
void Nc1hwc2ToNhwc(const uint8_t* native, uint8_t* nhwc, const Nc1hwc2Geometry& g);

// §B.5 NC1HWC2_int8_to_NCHW_float: nchw[n,c,h,w] = (float)(q - zp) * scale.
void Nc1hwc2Int8ToNchwFloat(const int8_t* native, float* nchw, const Nc1hwc2Geometry& g,
                            float scale, int32_t zp);

}  // namespace npuconf::rknn_native
