#include "reference/quant/gather_dequant_int8.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/float16.h"
#include "core/shape.h"
#include "core/status.h"
#include "reference/quant/dequant.h"

namespace npuconf::quant {
namespace {

// From this row length on, a 256-entry table of the row's 256 possible
// outputs is cheaper than dequantizing every element.
constexpr int64_t kLookupFromEmbed = 256;

const std::array<uint8_t, 256>& AllQ() {
  static const std::array<uint8_t, 256> q = [] {
    std::array<uint8_t, 256> out{};
    for (int i = 0; i < 256; ++i) out[i] = static_cast<uint8_t>(i);
    return out;
  }();
  return q;
}

int64_t Invalid(std::string* error, std::string why) {
  if (error) *error = std::move(why);
  return cann::kAclnnErrParamInvalid;
}

}  // namespace

int64_t GatherDequantInt8(const GatherDequantArgs& a, std::string* error) {
  if (!a.table || !a.indices || !a.scale_bits || !a.zero_point_bits || !a.y) {
    if (error) *error = "a null tensor";
    return cann::kAclnnErrParamNullptr;
  }
  constexpr int64_t kU32 = std::numeric_limits<uint32_t>::max();
  if (a.vocab < 1 || a.embed < 1 || a.vocab > kU32 || a.embed > kU32) {
    return Invalid(error,
                   "vocab and embed must be in [1, 2^32-1] (uint32 tiling, spec cann.md §3.2)");
  }
  if (a.scale_len != a.vocab || a.zero_point_len != a.vocab) {
    return Invalid(error, "scale and zero_point must have vocab = " + std::to_string(a.vocab) +
                              " values (spec cann.md §3.1)");
  }
  if (a.num_indices < 0) return Invalid(error, "negative index count");
  for (int64_t i = 0; i < a.num_indices; ++i) {
    if (a.indices[i] < 0 || a.indices[i] >= a.vocab) {
      return Invalid(error, "indices[" + std::to_string(i) + "] = " + std::to_string(a.indices[i]) +
                                " is outside [0, " + std::to_string(a.vocab) +
                                ") (undefined upstream, spec cann.md §3.4)");
    }
  }
  const auto out_elems = CheckedMul(a.num_indices, a.embed);
  if (!out_elems || static_cast<uint64_t>(*out_elems) > a.y_capacity_elems) {
    return Invalid(error, "y holds fewer than indices.size · embed elements");
  }
  auto* y = reinterpret_cast<Half*>(a.y);
  std::array<Half, 256> lookup;
  for (int64_t i = 0; i < a.num_indices; ++i) {
    const int64_t row = a.indices[i];
    const float scale = static_cast<float>(HalfFromBits(a.scale_bits[row]));
    // §3.3: nz = fp16(−zp) exact; a + nz ≡ a − zp.
    const float zero_point = static_cast<float>(HalfFromBits(a.zero_point_bits[row]));
    const uint8_t* q = a.table + row * a.embed;
    Half* out = y + i * a.embed;
    if (a.embed >= kLookupFromEmbed) {
      DequantRow(AllQ().data(), QType::kUint8, NibbleOrder::kLowFirst, 0, 256, scale, zero_point,
                 Rounding::kPerStep, lookup.data());
      for (int64_t e = 0; e < a.embed; ++e) out[e] = lookup[q[e]];
    } else {
      DequantRow(q, QType::kUint8, NibbleOrder::kLowFirst, 0, a.embed, scale, zero_point,
                 Rounding::kPerStep, out);
    }
  }
  return cann::kAclnnSuccess;
}

int64_t GenDataQuantize(const float* weight, int64_t vocab, int64_t embed, uint8_t* table,
                        uint16_t* scale_bits, uint16_t* zero_point_bits, std::string* error) {
  if (!weight || !table || !scale_bits || !zero_point_bits) {
    if (error) *error = "a null tensor";
    return cann::kAclnnErrParamNullptr;
  }
  if (vocab < 1 || embed < 1 || !CheckedMul(vocab, embed)) {
    return Invalid(error, "vocab and embed must be >= 1");
  }
  for (int64_t i = 0; i < vocab * embed; ++i) {
    if (!std::isfinite(weight[i])) {
      return Invalid(error, "weight[" + std::to_string(i) + "] is not finite");
    }
  }
  for (int64_t v = 0; v < vocab; ++v) {
    const float* w = weight + v * embed;
    const auto [lo, hi] = std::minmax_element(w, w + embed);
    const double vmin = *lo, vmax = *hi;
    double scale = (vmax - vmin) / 255.0;
    if (scale == 0.0) scale = 1e-8;
    const double zp = -vmin / scale;
    for (int64_t e = 0; e < embed; ++e) {
      const double q = std::nearbyint(static_cast<double>(w[e]) / scale + zp);
      table[v * embed + e] = static_cast<uint8_t>(std::clamp(q, 0.0, 255.0));
    }
    scale_bits[v] = HalfBitsFromDouble(scale);
    zero_point_bits[v] = HalfBitsFromDouble(zp);
  }
  return cann::kAclnnSuccess;
}

}  // namespace npuconf::quant
