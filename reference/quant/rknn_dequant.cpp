#include "reference/quant/rknn_dequant.h"

#include <vector>

#include "core/shape.h"
#include "reference/quant/dequant.h"

namespace npuconf::quant {
namespace {

int64_t Invalid(std::string* error, std::string why) {
  if (error) *error = std::move(why);
  return kRknnErrParamInvalid;
}

}  // namespace

int64_t RknnDequantB(const RknnDequantArgs& a, std::string* error) {
  if (a.b_dtype != DType::kInt8 && a.b_dtype != DType::kInt4) {
    return Invalid(error, "B dtype must be INT8 or INT4");
  }
  if (a.k < 1 || a.n < 1) return Invalid(error, "K and N must be >= 1");
  const auto count = CheckedMul(a.k, a.n);
  if (!count) return Invalid(error, "K·N overflows int64");
  if (a.scale_len < 1 || !a.scale)
    return Invalid(error, "scale_len must > 0 (RT, spec rknn.md §5.4)");
  int64_t expected_len = 1;
  if (a.quant_type == RknnQuantType::kPerChannel) expected_len = a.n;
  if (a.quant_type == RknnQuantType::kPerGroup) {
    if (a.group_size < 1) return Invalid(error, "group_size must be >= 1 for per-group (§5.3)");
    if (a.k % a.group_size != 0) {
      return Invalid(error, "K: " + std::to_string(a.k) + " must align group size: " +
                                std::to_string(a.group_size) + " (RT, spec rknn.md §5.3)");
    }
    if (a.group_size_32_only && a.group_size != 32) {
      return Invalid(error, "group_size must be 32 (choice rknn.quant.group_size = 32_only)");
    }
    expected_len = *count / a.group_size;  // N·K/group_size (§5.1)
  }
  if (a.scale_len != expected_len || a.zp_len != expected_len || (a.zp_len > 0 && !a.zp)) {
    return Invalid(error, "scale_len " + std::to_string(a.scale_len) + " / zp_len " +
                              std::to_string(a.zp_len) + " must both be " +
                              std::to_string(expected_len) +
                              " for this quant type (spec rknn.md §5.1)");
  }
  for (int64_t i = 0; i < a.zp_len; ++i) {
    if (a.zp[i] != 0 && !a.asymmetric) {
      return Invalid(error,
                     "zp: " + std::to_string(a.zp[i]) +
                         " is unsupport, only support zp set 0 (RT 2.3.2, spec rknn.md §5.4)");
    }
  }
  const uint64_t need = a.b_dtype == DType::kInt8 ? static_cast<uint64_t>(*count)
                                                  : (static_cast<uint64_t>(*count) + 1) / 2;
  if (a.b_bytes < need || !a.b) return Invalid(error, "B holds fewer than K·N values");
  if (!a.y || a.y_capacity_elems < static_cast<uint64_t>(*count)) {
    return Invalid(error, "C-side buffer holds fewer than K·N values");
  }
  // zp as float: exact for |zp| ≤ 2^24; beyond, q − zp is formed in int64 first.
  std::vector<float> zero(static_cast<size_t>(expected_len));
  bool exact = true;
  for (int64_t i = 0; i < expected_len; ++i) {
    zero[i] = static_cast<float>(a.zp[i]);
    exact &= a.zp[i] >= -(1 << 24) && a.zp[i] <= (1 << 24);
  }
  QuantGeometry g;
  g.rows = a.k;
  g.cols = a.n;
  g.granularity = a.quant_type == RknnQuantType::kPerLayer     ? Granularity::kPerTensor
                  : a.quant_type == RknnQuantType::kPerChannel ? Granularity::kPerChannel
                                                               : Granularity::kPerGroup;
  g.group_size = a.group_size;
  g.order = a.channel_major_groups ? GroupOrder::kChannelMajor : GroupOrder::kGroupMajor;
  if (!exact) {
    // Rare (|zp| > 2^24, asymmetric reading only): the slow exact path.
    for (int64_t r = 0; r < a.k; ++r) {
      for (int64_t c = 0; c < a.n; ++c) {
        const int64_t e = r * a.n + c;
        int32_t q = 0;
        if (a.b_dtype == DType::kInt8) {
          q = static_cast<int8_t>(a.b[e]);
        } else {
          const bool high = ((e & 1) == 0) == (a.nibbles == NibbleOrder::kHighFirst);
          const int32_t nib = high ? (a.b[e >> 1] >> 4) : (a.b[e >> 1] & 0xF);
          q = nib >= 8 ? nib - 16 : nib;
        }
        const int64_t p = g.ParamIndex(r, c);
        a.y[e] = static_cast<float>(static_cast<int64_t>(q) - a.zp[p]) * a.scale[p];
      }
    }
    return kRknnSuccess;
  }
  DequantArgs d;
  d.q = a.b;
  d.qtype = a.b_dtype == DType::kInt8 ? QType::kInt8 : QType::kInt4;
  d.nibbles = a.nibbles;
  d.geometry = g;
  d.scale = a.scale;
  d.zero_point = zero.data();
  d.rounding = Rounding::kFp32Once;
  d.out_type = OutType::kFloat;
  if (!Dequantize(d, a.y)) return Invalid(error, "invalid geometry");
  return kRknnSuccess;
}

}  // namespace npuconf::quant
