// The RKNN zero-copy NHWC input buffer as tensor algebra (spec layouts.md §B.4):
// [N, H, W, C] padded on the W axis to [N, H, w_stride, C]. The fill pixels are
// 0 here; the vendor leaves them unspecified, so properties compare the real
// pixels only. Shares no code with reference/.
#pragma once

#include <cstdint>
#include <vector>

#include "core/shape.h"

namespace npuconf::oracle::rknn_native {

// The stored width: w_stride, or W where w_stride is 0 (rknn_api.h "0 means
// equal to width", §B.1).
int64_t StoredWidth(const Shape& nhwc, int64_t w_stride);
// The buffer's dims [N, H, stored width, C] and its elements.
Shape StridedDims(const Shape& nhwc, int64_t w_stride);
int64_t StridedElems(const Shape& nhwc, int64_t w_stride);

// Dense NHWC -> the strided buffer (fill pixels 0), elements `elem_bytes` wide (1 or 2).
std::vector<uint8_t> PadRowsToStride(const std::vector<uint8_t>& nhwc, const Shape& shape,
                                     int64_t w_stride, int elem_bytes);

}  // namespace npuconf::oracle::rknn_native
