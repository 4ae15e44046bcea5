// aclnnCalculateMatmulWeightSize (legacy) and aclnnCalculateMatmulWeightSizeV2:
// how many ELEMENTS (not bytes) a FRACTAL_NZ matmul weight occupies.
// Rules, check order and codes: spec cann.md §1.2–1.5.
#pragma once

#include <cstdint>

#include "core/dtype.h"
#include "core/profile.h"
#include "core/shape.h"

namespace npuconf::cann {

// Legacy API. `shape == nullptr` models tensorShape == nullptr and
// `size_elems == nullptr` models weightTensorSize == nullptr.
// Checks in order (§1.3): null shape → 161001; null output → 161001; rank per
// SoC (facts.legacy_size_rank) → 161002; then size with the FLOAT16 rule
// (16×16, batch dims unaligned). Zero dims give 0 and SUCCESS (§1.5).
// Named choice cann.size.negative_dims / cann.size.overflow = param_invalid:
// a negative dim, or a size that does not fit int64, returns 161002 (upstream
// leaves both undefined, §1.5). On any error *size_elems is left untouched.
int64_t CalculateMatmulWeightSize(const CannFacts& facts, const Shape* shape, uint64_t* size_elems);

// V2 API. Checks in order (§1.4): SoC gate → 361001 (before everything, even
// null pointers); null shape → 161001; null output → 161001; rank in [2,6] →
// else 161002; any dim == 0 → 161002; then size: FLOAT16/BF16 align the last two
// dims to 16×16, every other dtype to 16×32 (dtype is never validated,
// §1.4/§5.1, choice cann.v2.dtype_validation = as_shipped). Negative dims and
// int64 overflow: 161002 as for the legacy API.
int64_t CalculateMatmulWeightSizeV2(const CannFacts& facts, const Shape* shape, DType dtype,
                                    uint64_t* size_elems);

// The shared size rule of §1.2: prod(batch) · align(n, 16) · align(k, k_align).
// Returns false when a dim is negative or a partial product overflows int64.
bool MatmulWeightSizeElems(const Shape& shape, int64_t k_align, int64_t* size_elems);

}  // namespace npuconf::cann
