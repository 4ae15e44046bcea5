#include "reference/quant/cann_antiquant.h"

#include <vector>

#include "core/float16.h"
#include "core/status.h"
#include "reference/quant/dequant.h"

namespace npuconf::quant {
namespace {

int64_t Invalid(std::string* error, std::string why) {
  if (error) *error = std::move(why);
  return cann::kAclnnErrParamInvalid;
}

float ToFloat(uint16_t bits, DType dtype) {
  return dtype == DType::kBf16 ? static_cast<float>(BFloat16FromBits(bits))
                               : static_cast<float>(HalfFromBits(bits));
}

}  // namespace

int64_t CannAntiquant(const AntiquantArgs& a, std::string* error) {
  if (!a.soc_supported) {
    if (error)
      *error = a.npu_arch + " has no aclnnWeightQuantBatchMatmulV2 (spec cann.md §4.1a step 1)";
    return cann::kAclnnErrRuntimeError;
  }
  if (!a.weight || !a.scale_shape || !a.scale_bits || !a.y) {
    if (error) *error = "weight, antiquantScale or y is null (spec cann.md §4.1a step 2)";
    return cann::kAclnnErrParamNullptr;
  }
  if (a.x_dtype != DType::kFloat16 && a.x_dtype != DType::kBf16) {
    return Invalid(error, "x dtype must be FLOAT16 or BF16 (spec cann.md §4.5)");
  }
  if (a.weight_dtype != DType::kInt8 && a.weight_dtype != DType::kInt4 &&
      a.weight_dtype != DType::kInt32) {
    return Invalid(error, "weight dtype must be INT8, INT4 or INT32 (INT4Pack) here");
  }
  if (a.k < 1 || a.n < 1) return Invalid(error, "k and n must be >= 1 (no empty tensors, §4.3)");
  if (a.k > a.kn_max || a.n > a.kn_max) {
    return Invalid(
        error, "k and n must be <= " + std::to_string(a.kn_max) + " on " + a.npu_arch + " (§4.3)");
  }
  if (a.weight_dtype == DType::kInt4 && a.n % 2 != 0) {
    return Invalid(error, "INT4 weight needs an even inner axis n (§4.4)");
  }
  if (a.weight_dtype == DType::kInt32 && a.n % 8 != 0) {
    return Invalid(error, "INT32 carrier needs n % 8 == 0 (§4.4)");
  }
  const int64_t gs = a.group_size;
  if (gs < 0) return Invalid(error, "antiquantGroupSize < 0 (§4.3 rule 2)");
  if (gs % 32 != 0) return Invalid(error, "antiquantGroupSize % 32 != 0 (§4.3 rule 3)");
  if (gs != 0 && gs < 32) return Invalid(error, "antiquantGroupSize < 32 (§4.3 rule 4)");
  if (gs != 0 && gs + 1 > a.k) return Invalid(error, "antiquantGroupSize + 1 > k (§4.3 rule 5)");
  const Shape& s = *a.scale_shape;
  const int64_t groups = gs > 0 ? a.k / gs + (a.k % gs != 0) : 1;
  bool shape_ok = false;
  if (s.size() == 1) {
    shape_ok = gs == 0 && (s[0] == 1 || s[0] == a.n);
  } else if (s.size() == 2) {
    shape_ok =
        gs == 0 ? (s[0] == 1 && (s[1] == 1 || s[1] == a.n)) : (s[0] == groups && s[1] == a.n);
  }
  if (!shape_ok) {
    return Invalid(error, "antiquantScale shape " + ToString(s) + " does not fit k = " +
                              std::to_string(a.k) + ", n = " + std::to_string(a.n) +
                              ", group size " + std::to_string(gs) + " (§4.2)");
  }
  if (a.offset_shape && (*a.offset_shape != s || !a.offset_bits)) {
    return Invalid(error, "antiquantOffset shape must equal the scale shape (§4.2)");
  }
  const int64_t count = a.k * a.n;  // both ≤ 2^31−1 here: fits int64
  const uint64_t need_bytes = a.weight_dtype == DType::kInt8 ? static_cast<uint64_t>(count)
                                                             : static_cast<uint64_t>(count) / 2;
  if (a.weight_bytes < need_bytes) return Invalid(error, "weight holds fewer than k·n values");
  if (a.y_capacity_elems < static_cast<uint64_t>(count))
    return Invalid(error, "y holds fewer than k·n values");

  QuantGeometry g;
  g.rows = a.k;
  g.cols = a.n;
  const int64_t numel = s.size() == 1 ? s[0] : s[0] * s[1];
  g.granularity = numel <= 1 ? Granularity::kPerTensor
                  : gs > 0   ? Granularity::kPerGroup
                             : Granularity::kPerChannel;
  g.group_size = gs;
  g.order = GroupOrder::kGroupMajor;  // (ceil(k/gs), n) row-major
  std::vector<float> scale(static_cast<size_t>(numel)), zero(a.offset_shape ? numel : 0);
  for (int64_t i = 0; i < numel; ++i) {
    scale[i] = ToFloat(a.scale_bits[i], a.x_dtype);
    // offset = −zero point (§4.1): (w + offset) ≡ (w − (−offset)), negation exact.
    if (a.offset_shape) zero[i] = -ToFloat(a.offset_bits[i], a.x_dtype);
  }
  DequantArgs d;
  d.q = a.weight;
  d.qtype = a.weight_dtype == DType::kInt8 ? QType::kInt8 : QType::kInt4;
  d.nibbles = NibbleOrder::kLowFirst;  // §4.4, INT32 carrier bits [4j, 4j+3] ≡ same bytes
  d.geometry = g;
  d.scale = scale.data();
  d.zero_point = a.offset_shape ? zero.data() : nullptr;
  d.rounding = Rounding::kPerStep;
  d.out_type = a.x_dtype == DType::kBf16 ? OutType::kBf16 : OutType::kFloat16;
  if (!Dequantize(d, a.y)) return Invalid(error, "invalid geometry");
  return cann::kAclnnSuccess;
}

}  // namespace npuconf::quant
