// RKNN NC1HWC2 as tensor algebra (DESIGN.md "Reference vs oracle"; spec
// layouts.md §B.2): NCHW pad C -> reshape [N, C1, C2, H, W] -> shuffle
// [N, C1, H, W, C2]; NHWC pad C -> reshape [N, H, W, C1, C2] -> shuffle. The
// dequant as Eigen array arithmetic. Slow and obviously right; shares no code
// with reference/.
#pragma once

#include <cstdint>
#include <vector>

#include "core/shape.h"

namespace npuconf::oracle::rknn_native {

using Bytes = std::vector<uint8_t>;

// The native dims [N, C1, H, W, C2] of a logical NCHW (nhwc false) or NHWC shape.
Shape NativeDims(const Shape& logical, bool nhwc, int64_t c2);
// Elements of the native tensor, pad lanes included (the product of its dims).
int64_t NativeElems(const Shape& logical, bool nhwc, int64_t c2);

// Plain -> native (pad lanes 0) and native -> plain (pad lanes dropped), each
// element `elem_bytes` wide (1, 2 or 4).
Bytes ToNative(const Bytes& plain, const Shape& logical, bool nhwc, int64_t c2, int elem_bytes);
Bytes ToPlain(const Bytes& native, const Shape& logical, bool nhwc, int64_t c2, int elem_bytes);

// §B.1, §B.5: NC1HWC2 int8 -> NCHW float32, real = (q - zp) * scale, float32
// arithmetic after an exact int subtraction. Returns the float32 bytes.
Bytes DequantToNchw(const Bytes& native, const Shape& nchw, int64_t c2, float scale, int32_t zp);

// Whether native element e is a pad lane (c >= C).
bool IsPadLane(const Shape& logical, bool nhwc, int64_t c2, int64_t e);

}  // namespace npuconf::oracle::rknn_native
