// ND ↔ FRACTAL_NZ: the cube-friendly layout of CANN matmul weights
// (spec cann.md §2.5). ND [B…, n, k] is stored as [B…, C1, N1, 16, C0] with
// C1 = ceil(k / C0), N1 = ceil(n / 16); padding holds 0. Rank 1 [k] is one row:
// [C1, 1, 16, C0]. INT4 packs two elements per byte along k, even element in
// the low nibble (spec cann.md §4.4) — in ND and in NZ alike.
#pragma once

#include <cstdint>
#include <optional>

#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf::cann {

inline constexpr int64_t kNzH0 = 16;  // §2.5: n split by 16

struct NzGeometry {
  int64_t batch = 1;  // product of the batch dims
  int64_t n = 1;      // rows (second-to-last ND dim; 1 for rank 1)
  int64_t k = 0;      // columns (last ND dim)
  int64_t c0 = 0;     // elements per cube row
  int64_t n1 = 0;     // ceil(n / 16)
  int64_t c1 = 0;     // ceil(k / c0)
  int bits = 0;       // element bits (4, 8, 16, 32)
  Shape storage_shape;
  int64_t nd_elems = 0;
  int64_t storage_elems = 0;
  uint64_t nd_bytes = 0;       // int4: ceil(nd_elems / 2)
  uint64_t storage_bytes = 0;  // int4: storage_elems / 2 (c0 is even)
};

// Geometry for an ND shape, or nullopt when the rank is 0, a dim is negative,
// c0 is not positive (or odd for INT4), or any size overflows int64.
std::optional<NzGeometry> NzGeometryFor(const Shape& nd_shape, DType dtype, int64_t c0);

// Writes all g.storage_bytes bytes of `nz` (padding zero) from `nd`
// (g.nd_bytes bytes). Buffers must not overlap.
void PackNdToNz(const uint8_t* nd, uint8_t* nz, const NzGeometry& g);

// Writes all g.nd_bytes bytes of `nd` from `nz`; padding in `nz` is ignored.
void UnpackNzToNd(const uint8_t* nz, uint8_t* nd, const NzGeometry& g);

}  // namespace npuconf::cann
