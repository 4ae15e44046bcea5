// GatherDequantInt8 (cann-recipes-harmony-infer, Kirin 9020; spec cann.md §3):
// y[i, :] = RN16(RN16(half(table[idx, :]) − zp[idx]) · scale[idx]), idx = indices[i],
// and the per-row asymmetric uint8 quantizer that builds its test data (§3.5).
#pragma once

#include <cstdint>
#include <string>

namespace npuconf::quant {

struct GatherDequantArgs {
  const uint8_t* table = nullptr;  // UINT8 [vocab, embed] (§3.1)
  int64_t vocab = 0;
  int64_t embed = 0;
  const int32_t* indices = nullptr;      // INT32, any shape, flattened row-major
  int64_t num_indices = 0;               // product of the indices dims (1 for rank 0)
  const uint16_t* scale_bits = nullptr;  // FLOAT16 [vocab]
  int64_t scale_len = 0;
  const uint16_t* zero_point_bits = nullptr;  // FLOAT16 [vocab]
  int64_t zero_point_len = 0;
  uint16_t* y = nullptr;  // FLOAT16 indices.shape ++ [embed]
  uint64_t y_capacity_elems = 0;
};

// Returns a CANN status; on any error nothing is written to y.
//   any pointer null → 161001;
//   vocab or embed < 1 or > UINT32_MAX (tiling is uint32, §3.2), scale or
//   zero_point length ≠ vocab (§3.1), an index outside [0, vocab), or y too small
//   → 161002, `*error` naming the rule.
// Upstream checks none of these (§3.4: out-of-range indices read out of bounds,
// undefined); the checks are npuconf's choice cann.gather_dequant.validation =
// param_invalid. The arithmetic is exactly §3.3: fp16 rounding after the
// subtraction and after the multiply, round-to-nearest-even (§5.10 assumes RNE).
// Any embed is accepted (the E % 32 rule of §3.4 is inferred, not stated:
// choice cann.gather_dequant.embed_dim = any).
int64_t GatherDequantInt8(const GatherDequantArgs& args, std::string* error);

// The quantizer of gen_data.py (§3.5), per row v of weight [vocab, embed] in
// float64: scale = (max − min) / 255, 1e-8 when 0; zp = −min / scale (neither
// rounded nor clipped); q = clip(RNE(w / scale + zp), 0, 255). scale and zp are
// stored as fp16 (one rounding from float64). A constant row gives scale 1e-8 →
// fp16 0 and a huge |zp| → ±inf, so its dequant is NaN (§3.7 D): reproduced as
// upstream does it (choice cann.gather_dequant.constant_row = as_upstream).
// Returns 161002 for vocab/embed < 1 or a non-finite weight (npuconf's
// choice: upstream's numpy would propagate NaN into an undefined uint8 cast).
int64_t GenDataQuantize(const float* weight, int64_t vocab, int64_t embed, uint8_t* table,
                        uint16_t* scale_bits, uint16_t* zero_point_bits, std::string* error);

}  // namespace npuconf::quant
