// RapidCheck pieces for the dequant routines: param distributions, group sizes
// valid and invalid per convention, index shapes of any rank. Composed per
// routine in conformance/quant_*_properties.cpp.
#pragma once

#include <rapidcheck.h>

#include <cstdint>
#include <string>
#include <vector>

#include "core/shape.h"
#include "generators/shapes.h"

namespace npuconf::gen {

// Named scale distributions of the materializer (conformance/quant_support.h):
// ordinary, tiny, huge, fp16-subnormal, exactly representable, and the mix.
inline const std::vector<std::string> kScaleKinds = {"mixed", "ordinary",  "tiny",
                                                     "huge",  "subnormal", "exact"};
inline rc::Gen<std::string> ScaleKind() {
  return rc::gen::weightedElement<std::string>(
      {{6, "mixed"}, {2, "ordinary"}, {1, "tiny"}, {1, "subnormal"}, {1, "huge"}, {1, "exact"}});
}
inline const std::vector<std::string> kPositiveScaleKinds = {"positive", "ordinary", "tiny",
                                                             "exact", "subnormal"};
inline rc::Gen<std::string> PositiveScaleKind() { return rc::gen::elementOf(kPositiveScaleKinds); }
// Zero points: symmetric (zero) and asymmetric (integer, fractional, mixed).
inline const std::vector<std::string> kZeroPointKinds = {"mixed", "zero", "integer", "fractional"};
inline rc::Gen<std::string> ZeroPointKind() { return rc::gen::elementOf(kZeroPointKinds); }

// Index tensors of rank 0–3 (rank 0 is a single index, spec cann.md §3.2).
inline rc::Gen<Shape> IndexShape() {
  return ShapeOf(rc::gen::inRange(0, 4), rc::gen::inRange<int64_t>(1, 6));
}

inline rc::Gen<int64_t> Vocab() {
  return rc::gen::weightedOneOf<int64_t>({{2, rc::gen::inRange<int64_t>(1, 9)},
                                          {3, rc::gen::inRange<int64_t>(9, 300)},
                                          {1, rc::gen::inRange<int64_t>(300, 5000)}});
}

// Embedding dims: multiples of 32 (what the kernel's DataCopy implies, spec
// cann.md §3.4), or any when the port takes any (choice embed_dim = any).
inline rc::Gen<int64_t> EmbedDim(bool any) {
  if (!any) return rc::gen::map(rc::gen::inRange<int64_t>(1, 17), [](int64_t m) { return 32 * m; });
  return rc::gen::weightedOneOf<int64_t>({{2, rc::gen::inRange<int64_t>(1, 40)},
                                          {2, DimNear(32, 8)},
                                          {1, rc::gen::just<int64_t>(256)}});
}

// antiquantGroupSize valid for k (spec cann.md §4.3): a multiple of 32 in [32, k−1].
inline rc::Gen<int64_t> AntiquantGroupSize(int64_t k) {
  const int64_t max_multiple = (k - 1) / 32;
  return rc::gen::map(rc::gen::inRange<int64_t>(1, std::max<int64_t>(2, max_multiple + 1)),
                      [](int64_t m) { return 32 * m; });
}
// Invalid ones: negative, not a multiple of 32, below 32, == k, beyond k.
inline rc::Gen<int64_t> InvalidAntiquantGroupSize(int64_t k) {
  return rc::gen::element<int64_t>(-32, -1, 16, 31, 48, 33, ((k + 31) / 32) * 32, k + 32,
                                   ((k + 31) / 32) * 32 + 1);
}

// RKNN group sizes, K is then drawn as whole groups (spec rknn.md §5.3: 32 is
// the only one seen; the reading divides_k admits any positive divisor of K):
// 32 most often, other powers of two, and sizes that are none (48, 96, 24, 3,
// or any up to 160), so a group index taken by a shift is caught.
inline rc::Gen<int64_t> RknnGroupSize() {
  return rc::gen::weightedOneOf<int64_t>({{4, rc::gen::just<int64_t>(32)},
                                          {3, rc::gen::element<int64_t>(8, 16, 64, 128)},
                                          {2, rc::gen::element<int64_t>(48, 96, 24, 3)},
                                          {1, rc::gen::inRange<int64_t>(1, 161)}});
}

}  // namespace npuconf::gen
