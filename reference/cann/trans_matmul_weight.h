// aclnnTransMatmulWeight: validates a matmul weight and converts it in place
// from ND to FRACTAL_NZ (spec cann.md §2.1–2.4).
#pragma once

#include <cstdint>
#include <string>

#include "core/dtype.h"
#include "core/profile.h"
#include "core/shape.h"

namespace npuconf::cann {

struct TransMatmulWeightArgs {
  bool null_tensor = false;  // mmWeightRef == nullptr
  DType dtype = DType::kFloat16;
  std::string format = "ND";  // storage format of the input: "ND", "FRACTAL_NZ", …
  Shape view_shape;           // elements per axis
  // In place: on entry the first ND bytes hold the weight in ND; on SUCCESS the
  // first NZ bytes hold it in FRACTAL_NZ. The caller sizes the buffer with
  // aclnnCalculateMatmulWeightSizeV2 (elements) × element size (§2.1).
  uint8_t* data = nullptr;
  uint64_t capacity_bytes = 0;
};

// Checks in order (§2.2): null tensor → 161001; dtype not in the SoC's list
// (facts.trans_dtypes, §2.3) → 161002; format not ND → 161002; view rank > 8 →
// 161002; any dim 0 → SUCCESS, buffer untouched, storage shape = view shape
// (choice cann.trans.empty_tensor = as_shipped, §5.3); rank outside the rule for
// the dtype and SoC (rank_int8 / rank_other) → 161002. Then the conversion;
// `storage_shape` receives [B…, C1, N1, 16, C0].
// npuconf's own rejections (not vendor behaviour; 161002): a negative dim, a
// size that overflows, a buffer smaller than the ND input or the NZ result.
int64_t TransMatmulWeight(const CannFacts& facts, const TransMatmulWeightArgs& args,
                          Shape* storage_shape);

}  // namespace npuconf::cann
