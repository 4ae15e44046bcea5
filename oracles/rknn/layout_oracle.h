// The RKNN Matmul layouts as tensor algebra (DESIGN.md "Reference vs oracle"):
// pad → reshape → shuffle with Eigen::Tensor; K segmentation as the
// concatenation of per-segment oracles (spec rknn.md §2.1, §3.3). Also the
// NATIVE index maps written out (§2.1) and the matmul they exist for. Slow and
// obviously right; shares no code with reference/.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "core/dtype.h"
#include "core/rknn_facts.h"
#include "core/shape.h"

namespace npuconf::oracle::rknn {

using Bytes = std::vector<uint8_t>;

// ---- int4 (§2.4) ------------------------------------------------------------------

// Packed bytes → one nibble value (0…15) per byte, and back.
Bytes UnpackNibbles(const Bytes& packed, int64_t count, NibbleOrder order);
Bytes PackNibbles(const Bytes& nibbles, NibbleOrder order);
// One int8 per byte → packed (low 4 bits kept), and packed → sign-extended int8.
Bytes PackInt4(const Bytes& values, NibbleOrder order);
Bytes UnpackInt4(const Bytes& packed, int64_t count, NibbleOrder order);

// ---- A and C: NORM [rows, cols] ↔ NATIVE [ceil(cols/sub), rows, sub] ---------------

Shape RowBlockedDims(int64_t rows, int64_t cols, int64_t sub);
Bytes RowBlockedToNative(const Bytes& norm, int64_t rows, int64_t cols, int64_t sub, DType dtype,
                         NibbleOrder norm_order, NibbleOrder native_order);
Bytes RowBlockedToNorm(const Bytes& native, int64_t rows, int64_t cols, int64_t sub, DType dtype,
                       NibbleOrder native_order, NibbleOrder norm_order);
std::vector<bool> RowBlockedPadding(int64_t rows, int64_t cols, int64_t sub);

// ---- B: NORM [K, N] / TP_NORM [N, K] ↔ NATIVE, segmented along K (§3.3) ----------

struct Segment {
  int64_t k_begin = 0, k_rows = 0;
  int64_t offset_elems = 0, elems = 0;  // in the NATIVE buffer
};
struct BLayout {
  int64_t k = 0, n = 0, sub_n = 0, sub_k = 0, seg_len = 0;
  std::vector<Segment> segments;
  int64_t native_elems = 0;
  Shape dims;  // [N1, Σ ceil(Kseg/subK), subN, subK]
};
// seg_len 0: one segment. nullopt when any size does not fit int64.
std::optional<BLayout> BLayoutOf(int64_t k, int64_t n, int64_t sub_n, int64_t sub_k,
                                 int64_t seg_len);

Bytes BToNative(const Bytes& plain, const BLayout& l, DType dtype, bool tp, NibbleOrder plain_order,
                NibbleOrder native_order);
Bytes BToPlain(const Bytes& native, const BLayout& l, DType dtype, bool tp,
               NibbleOrder native_order, NibbleOrder plain_order);
std::vector<bool> BPadding(const BLayout& l);

// NATIVE B one tile at a time, for comparing a large B without building it
// whole: tile t is column block n1 of segment s (t = s·N1 + n1, storage order),
// NATIVE [n1, :, :, :] of that segment's [N1, K1, subN, subK], one contiguous
// run of BTileElems elements at BTileOffsetElems. BToNativeTile applies the
// segment's pad → reshape → shuffle to the plain slice of those subN columns
// (reading only that slice of `plain`, the whole NORM [K, N] / TP_NORM [N, K]).
int64_t BTileCount(const BLayout& l);
int64_t BTileOffsetElems(const BLayout& l, int64_t t);
int64_t BTileElems(const BLayout& l, int64_t t);
Bytes BToNativeTile(std::span<const uint8_t> plain, const BLayout& l, DType dtype, bool tp,
                    NibbleOrder plain_order, NibbleOrder native_order, int64_t t);

// ---- index maps (§2.1, §3.3) and the matmul the layouts exist for ---------------

int64_t ANativeIndex(int64_t m, int64_t k, int64_t M, int64_t sub_k);  // also C with k→n
int64_t BNativeIndex(int64_t k, int64_t n, const BLayout& l);
inline int64_t BNormIndex(int64_t k, int64_t n, int64_t N) { return k * N + n; }

// Element values (signed) of a tensor: int4 sign-extended, int8/int16/int32 as is.
std::vector<int64_t> IntValues(const Bytes& bytes, int64_t count, DType dtype, NibbleOrder order);

// C = A·B on NORM matrices with Eigen's contraction, int64 accumulation: [M, N].
std::vector<int64_t> MatmulNorm(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                int64_t M, int64_t K, int64_t N);
// C in its NATIVE layout [N1, M, subN_C] computed by a direct loop over the
// NATIVE A and NATIVE B index maps (padding of C: 0).
std::vector<int64_t> MatmulNative(const std::vector<int64_t>& a_native,
                                  const std::vector<int64_t>& b_native, int64_t M, int64_t K,
                                  int64_t N, int64_t a_sub_k, const BLayout& b, int64_t c_sub_n);

}  // namespace npuconf::oracle::rknn
