// FRACTAL_NZ and the matmul-weight size rules as tensor algebra (DESIGN.md
// "Reference vs oracle"): pad → reshape → shuffle with Eigen::Tensor. Slow and
// obviously right; shares no code with reference/.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf::oracle::cann {

// [B…, ceil(k/c0), ceil(n/16), 16, c0] for ND [B…, n, k]; [k] is treated as [1, k]
// (spec cann.md §2.5). nullopt for rank 0 or negative dims.
std::optional<Shape> NzStorageShape(const Shape& nd_shape, int64_t c0);

// ND bytes → NZ bytes (padding 0). INT4: two elements per byte, even element
// in the low nibble (spec cann.md §4.4).
std::vector<uint8_t> NdToNz(const std::vector<uint8_t>& nd, const Shape& nd_shape, DType dtype,
                            int64_t c0);
// NZ bytes → ND bytes, padding dropped.
std::vector<uint8_t> NzToNd(const std::vector<uint8_t>& nz, const Shape& nd_shape, DType dtype,
                            int64_t c0);

// True at every NZ element position that is padding (r ≥ n or c ≥ k).
std::vector<bool> NzPaddingMask(const Shape& nd_shape, int64_t c0);

// Element count of the matmul weight padded to [B…, ceil16(n), ceil_align(k)]
// (spec cann.md §1.2) as an exact 128-bit product; nullopt if rank < 2, a dim
// is negative, or the padded size does not fit int64.
std::optional<int64_t> PaddedWeightElems(const Shape& shape, int64_t k_align);

}  // namespace npuconf::oracle::cann
