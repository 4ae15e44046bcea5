// RKNN zero-copy NHWC input rows (spec layouts.md §B.1, §B.4): a dense NHWC
// image into a buffer whose rows are w_stride pixels apart. Sizes in elements
// unless the name says bytes; the fill pixels w >= W are never written.
#pragma once

#include <cstdint>
#include <optional>

namespace npuconf::rknn_native {

struct StrideGeometry {
  int64_t n = 0, h = 0, w = 0, c = 0;
  int64_t w_stride = 0;           // pixels per stored row (0 in the attr already read as W)
  int64_t elem_bytes = 0;         // 1 or 2
  uint64_t row_bytes = 0;         // W·C·elem: what one row copies
  uint64_t stride_bytes = 0;      // w_stride·C·elem: how far the destination advances
  uint64_t plain_bytes = 0;       // N·H·W·C·elem (rknn_tensor_attr.size)
  uint64_t size_with_stride = 0;  // N·H·w_stride·C·elem (§B.4 [derived])
};

// nullopt when a dim is not positive, w_stride is negative or in (0, W),
// elem_bytes is not 1 or 2, or a size overflows int64. w_stride 0 means W
// (rknn_api.h: "0 means equal to width", §B.1).
std::optional<StrideGeometry> StrideGeometryFor(int64_t n, int64_t h, int64_t w, int64_t c,
                                                int64_t w_stride, int64_t elem_bytes);

// Copies the N·H rows of `src` (dense NHWC) to `dst`, row r at r·stride_bytes
// (the batch continues the rows, as RK-ZOO deeplabv3.cc loops over dims[0]).
// One memcpy when w_stride == W, as the vendor demos do.
void PackNhwcRows(const uint8_t* src, uint8_t* dst, const StrideGeometry& g);

}  // namespace npuconf::rknn_native
