// RapidCheck pieces for the RKNN Matmul cases (spec rknn.md §2–3): dims biased
// to sub-block multiples ±1 and to the K-segment thresholds, the platform's
// types, layouts and group sizes. Composed per property in conformance/rknn_*.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <vector>

#include "core/rknn_facts.h"
#include "generators/shapes.h"

namespace npuconf::gen::rknn {

// Random layout cases stay at most this many elements (the suite's run time).
inline constexpr int64_t kMaxRandomElems = int64_t{1} << 18;

inline rc::Gen<int32_t> SupportedType(const RknnFacts& facts) { return rc::gen::elementOf(facts.supported_types); }

// M: 1 most often (the LLM decode case), small values, 63/64/65. M is never
// padded (§2.1), so nothing special happens at block sizes.
inline rc::Gen<int64_t> M() {
  return rc::gen::weightedOneOf<int64_t>({{3, rc::gen::just<int64_t>(1)},
                                          {4, rc::gen::inRange<int64_t>(1, 9)},
                                          {1, rc::gen::element<int64_t>(63, 64, 65)}});
}

// The K-segment thresholds of §3.3: L−1, L, L+1, 2L−1, 2L+1 (4095/4096/4097,
// 8191/8192/8193, 16385 …).
inline rc::Gen<int64_t> SegmentThreshold(int64_t seg_len) {
  return rc::gen::element<int64_t>(seg_len - 1, seg_len, seg_len + 1, 2 * seg_len - 1, 2 * seg_len + 1);
}

// A layout dim blocked by `sub`: sub multiples ±1, small values, 32-multiples ±1.
inline rc::Gen<int64_t> BlockedDim(int64_t sub) {
  return rc::gen::weightedOneOf<int64_t>({{4, DimNear(sub, 4)},
                                          {2, rc::gen::inRange<int64_t>(1, 40)},
                                          {2, DimNear(32, 3)},
                                          {1, SmallPrime()}});
}

// K of B: as BlockedDim, plus the segment thresholds when the platform segments.
inline rc::Gen<int64_t> BK(int64_t sub_k, int64_t seg_len) {
  if (seg_len <= 0) return BlockedDim(sub_k);
  return rc::gen::weightedOneOf<int64_t>({{4, BlockedDim(sub_k)}, {2, SegmentThreshold(seg_len)}});
}

// Keeps rows × cols ≤ kMaxRandomElems by shrinking cols (N is the one kept
// small when K crosses a segment threshold).
inline int64_t ClampCols(int64_t rows, int64_t cols) {
  return std::max<int64_t>(1, std::min(cols, kMaxRandomElems / std::max<int64_t>(rows, 1)));
}

inline rc::Gen<int64_t> GroupSize() { return rc::gen::element<int64_t>(32, 32, 64, 128, 16); }

}  // namespace npuconf::gen::rknn
