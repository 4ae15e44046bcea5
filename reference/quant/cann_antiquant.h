// The weight dequant ("antiquant") of aclnnWeightQuantBatchMatmulV2 (spec
// cann.md §4): W' = RN_I(RN_I(w + offset) · scale), offset = −zero point,
// per-tensor / per-channel / per-group, INT8, INT4 or INT4 in an INT32 carrier.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf::quant {

struct AntiquantArgs {
  std::string npu_arch;               // the profile's, for messages
  bool soc_supported = false;         // profile fact (§4.1a step 1): else 361001
  int64_t kn_max = INT64_MAX;         // profile fact (§4.3 "other limits")
  DType x_dtype = DType::kFloat16;    // I: FLOAT16 or BF16 (§4.5); also y, scale, offset
  DType weight_dtype = DType::kInt8;  // INT8, INT4, or INT32 (INT4Pack carrier, §4.4)
  int64_t k = 0;                      // weight (k, n) ND, n contiguous (§4.2)
  int64_t n = 0;                      // logical n (unpacked int4 values)
  const uint8_t* weight = nullptr;    // INT4/INT32: low nibble first, 8 per int32 (§4.4)
  uint64_t weight_bytes = 0;
  std::optional<Shape> scale_shape;      // nullopt: antiquantScale == nullptr
  const uint16_t* scale_bits = nullptr;  // I bits, scale_shape row-major
  std::optional<Shape> offset_shape;     // nullopt: antiquantOffsetOptional == nullptr
  const uint16_t* offset_bits = nullptr;
  int64_t group_size = 0;  // antiquantGroupSize
  uint16_t* y = nullptr;   // I bits [k, n]; nullptr: y == nullptr
  uint64_t y_capacity_elems = 0;
};

// Returns a CANN status; on any error nothing is written. Order (§4.1a):
//  1. arch not DAV_2201/DAV_3510/DAV_2002 → 361001;
//  2. weight, antiquantScale or y null → 161001;
//  3. every other failure → 161002 (the order among them is not observable):
//     x dtype not FLOAT16/BF16, weight dtype not INT8/INT4/INT32 (§4.1a, §4.5);
//     k or n < 1 (no empty tensors, §4.3) or above 65535 on DAV_2201 /
//     2^31−1 on DAV_3510 (§4.3 "other limits"; no upper limit is stated for
//     DAV_2002); INT4 with odd n, INT32 carrier with n % 8 ≠ 0 (§4.4);
//     antiquantGroupSize rules in the code's order (§4.3): < 0, % 32 ≠ 0, < 32,
//     + 1 > k; the scale shape (§4.2 CheckAntiquantParamShape): 1-D length 1 or
//     n with gs = 0; 2-D (1,1) or (1,n) with gs = 0; exactly (ceil(k/gs), n) with
//     gs > 0; the offset shape equal to the scale shape; weight bytes or y
//     capacity short.
// The 2-D per-channel shape follows the code's (1, n) on every SoC; the 310P doc
// says (n, 1) (§4.2, §5.12): choice cann.antiquant.channel_scale_2d = as_code.
// Mode (§4.2 golden): scale numel ≤ 1 → per-tensor; gs > 0 → per-group;
// otherwise per-channel. Rounding (§4.5): RN_I after the add and after the
// multiply (RN_I(w · scale) without an offset: the same values).
int64_t CannAntiquant(const AntiquantArgs& args, std::string* error);

}  // namespace npuconf::quant
