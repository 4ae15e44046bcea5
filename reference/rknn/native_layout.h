// The RKNN Matmul NATIVE layouts (spec rknn.md §2.1, §3.3) and their inverses:
//   A  NORM [M, K] ↔ NATIVE [K1, M, subK]           (K1 = ceil(K/subK); M never padded)
//   C  NORM [M, N] ↔ NATIVE [N1, M, subN]           (the same map with K → N)
//   B  NORM [K, N] or TP_NORM [N, K] ↔ NATIVE [N1, K1, subN, subK], split along K
//      into segments of L rows when K > L (§3.3), each segment its own padded
//      block, the blocks concatenated in segment order (choice rknn.segment.order).
// Shapes are in elements; byte counts say so. Padding is written as 0. int4
// tensors are packed two per byte; the nibble order of each side is a parameter
// (§2.4: NORM/NATIVE A/TP_NORM per profile, NATIVE B per choice rknn.int4.native_b_nibble).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/dtype.h"
#include "core/rknn_facts.h"
#include "core/shape.h"

namespace npuconf::rknn {

// A or C: NORM [rows, cols] with cols blocked by `sub` (A: rows M, cols K, sub
// subK; C: rows M, cols N, sub subN_C).
struct RowBlockedGeometry {
  int64_t rows = 0;    // M
  int64_t cols = 0;    // K (A) or N (C)
  int64_t sub = 0;     // subK (A) or subN_C (C)
  int64_t blocks = 0;  // ceil(cols / sub)
  int bits = 0;
  Shape native_dims;  // [blocks, rows, sub]
  int64_t norm_elems = 0, native_elems = 0;
  uint64_t norm_bytes = 0, native_bytes = 0;
};

// nullopt when rows, cols or sub is not positive, the dtype is not 4/8/16/32
// bits, or a size overflows int64.
std::optional<RowBlockedGeometry> RowBlockedGeometryFor(int64_t rows, int64_t cols, int64_t sub,
                                                        DType dtype);

// NORM → NATIVE (writes all native_bytes, padding 0) and back (padding ignored).
void RowBlockedToNative(const uint8_t* norm, uint8_t* native, const RowBlockedGeometry& g,
                        NibbleOrder norm_order, NibbleOrder native_order);
void RowBlockedToNorm(const uint8_t* native, uint8_t* norm, const RowBlockedGeometry& g,
                      NibbleOrder native_order, NibbleOrder norm_order);

// One K segment of NATIVE B (§3.3): K rows [k_begin, k_begin + k_rows).
struct BSegment {
  int64_t k_begin = 0;
  int64_t k_rows = 0;
  int64_t k1 = 0;            // ceil(k_rows / subK)
  int64_t offset_elems = 0;  // where the segment's block starts in the NATIVE buffer
  int64_t elems = 0;         // N1 · k1 · subN · subK
};

struct BNativeGeometry {
  int64_t k = 0, n = 0;
  int64_t sub_n = 0, sub_k = 0;
  int64_t seg_len = 0;  // L; 0: never segmented
  int64_t n1 = 0;       // ceil(N / subN)
  int bits = 0;
  std::vector<BSegment> segments;  // one when K <= L or L == 0
  // [N1, Σ k1, subN, subK]: the unsegmented dims whenever L % subK == 0
  // (choice rknn.segment.b_dims); their product is the total element count.
  Shape native_dims;
  int64_t norm_elems = 0, native_elems = 0;
  uint64_t norm_bytes = 0, native_bytes = 0;
};

// nullopt when K, N, subN or subK is not positive, seg_len is negative, the
// dtype is not 4/8/16 bits, or a size overflows int64.
std::optional<BNativeGeometry> BNativeGeometryFor(int64_t k, int64_t n, int64_t sub_n,
                                                  int64_t sub_k, int64_t seg_len, DType dtype);

// `tp` false: the plain side is NORM [K, N]; true: TP_NORM [N, K] (§1.3, §2.1).
// To NATIVE writes all native_bytes (padding 0); back ignores the padding.
void BPlainToNative(const uint8_t* plain, uint8_t* native, const BNativeGeometry& g, bool tp,
                    NibbleOrder plain_order, NibbleOrder native_order);
void BNativeToPlain(const uint8_t* native, uint8_t* plain, const BNativeGeometry& g, bool tp,
                    NibbleOrder native_order, NibbleOrder plain_order);

}  // namespace npuconf::rknn
