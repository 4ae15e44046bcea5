// FRACTAL_NZ and the matmul-weight size rules as tensor algebra (DESIGN.md
// "Reference vs oracle"): pad → reshape → shuffle with Eigen::Tensor. Slow and
// obviously right; shares no code with reference/.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
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

// One tile of the FRACTAL_NZ output, for comparing a large tensor without
// building its whole NZ form: the fractals [n1_begin, n1_end) of column block
// c1 of batch b, i.e. NZ [b, c1, n1_begin:n1_end, 16, C0], which is one
// contiguous run of the NZ bytes starting at NzPanelOffsetBytes.
struct NzPanel {
  int64_t batch = 0, c1 = 0, n1_begin = 0, n1_end = 0;
};

// The panels that tile the NZ bytes of `nd_shape` exactly (no gap, no
// overlap), each at most `max_fractals` fractals (16 x C0 elements) long, in
// the order that reads the ND tensor's rows once: for each batch and chunk of
// `max_fractals` N1 blocks, every column block c1 (not storage order).
std::vector<NzPanel> NzPanels(const Shape& nd_shape, int64_t c0, int64_t max_fractals);
uint64_t NzPanelOffsetBytes(const Shape& nd_shape, DType dtype, int64_t c0, const NzPanel& panel);

// The panel's bytes as NdToNz would write them: the ND slice [b, rows, columns of
// c1] → pad to [(n1_end - n1_begin)·16, C0] → reshape [n1_end - n1_begin, 16, C0]
// (the shuffle to [C1, N1, 16, C0] is the identity on one column block). Reads
// only the slice of `nd` (the whole ND tensor's bytes).
std::vector<uint8_t> NdToNzPanel(std::span<const uint8_t> nd, const Shape& nd_shape, DType dtype,
                                 int64_t c0, const NzPanel& panel);

// True at every NZ element position that is padding (r ≥ n or c ≥ k).
std::vector<bool> NzPaddingMask(const Shape& nd_shape, int64_t c0);

// Element count of the matmul weight padded to [B…, ceil16(n), ceil_align(k)]
// (spec cann.md §1.2) as an exact 128-bit product; nullopt if rank < 2, a dim
// is negative, or the padded size does not fit int64.
std::optional<int64_t> PaddedWeightElems(const Shape& shape, int64_t k_align);

}  // namespace npuconf::oracle::cann
