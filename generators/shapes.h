// RapidCheck generators of shapes and dims, composed from small pieces
// (STYLE.md): dims biased to 1, to block multiples ±1 and to primes; shapes
// from a rank generator and a dim generator. Shrinking follows construction.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf::gen {

// A choice among `values` that shrinks toward the first. RapidCheck's
// elementOf, element, oneOf and weightedOneOf pick without shrinking the choice
// (shrinkable::just), so a counterexample would keep whatever branch it was
// drawn from; every choice here goes through an index that shrinks to 0.
template <typename T>
rc::Gen<T> Pick(std::vector<T> values) {
  return rc::gen::map(rc::gen::inRange<size_t>(0, values.size()),
                      [values](size_t i) { return values[i]; });
}

// weightedOneOf whose choice shrinks toward the first generator (a
// weight-expanded index picks it), over a list that may be built at run time.
template <typename T>
rc::Gen<T> WeightedOneOf(std::vector<std::pair<uint32_t, rc::Gen<T>>> pieces) {
  std::vector<size_t> picks;
  for (size_t i = 0; i < pieces.size(); ++i) picks.insert(picks.end(), pieces[i].first, i);
  return rc::gen::mapcat(Pick(picks), [pieces](size_t i) { return pieces[i].second; });
}

// m·block + {0, −1, +1} for m in [1, max_multiple]: 16/15/17, 32/31/33, …
// (shrinks toward m = 1, offset 0: one block exactly).
inline rc::Gen<int64_t> DimNear(int64_t block, int64_t max_multiple = 4) {
  return rc::gen::mapcat(rc::gen::inRange<int64_t>(1, max_multiple + 1), [block](int64_t m) {
    return rc::gen::map(Pick<int64_t>({0, -1, 1}),
                        [block, m](int64_t offset) { return m * block + offset; });
  });
}

inline rc::Gen<int64_t> SmallPrime() {
  return Pick<int64_t>({2, 3, 5, 7, 13, 31, 61, 127, 251, 509});
}

// The everyday dim: 1 most often, then small, near 16/32/64, primes.
inline rc::Gen<int64_t> Dim() {
  return WeightedOneOf<int64_t>({
      {4, rc::gen::just<int64_t>(1)},
      {3, rc::gen::inRange<int64_t>(1, 9)},
      {3, DimNear(16)},
      {3, DimNear(32)},
      {2, DimNear(64, 3)},
      {2, SmallPrime()},
  });
}

// Adds a few large dims (up to 2^31), for routines that only compute sizes.
inline rc::Gen<int64_t> DimWithLarge() {
  return WeightedOneOf<int64_t>({
      {8, Dim()},
      {1, rc::gen::inRange<int64_t>(1000, 70000)},
      {1, Pick<int64_t>({65535, 65536, 151936, int64_t{1} << 20, (int64_t{1} << 31) - 1})},
  });
}

// Dim()'s distribution kept at most `max` (>= 1): the pieces that cannot stay
// under it are left out rather than clamped, so shrinking stays in the domain.
inline rc::Gen<int64_t> DimUpTo(int64_t max) {
  max = std::clamp<int64_t>(max, 1, INT64_MAX - 1);  // max + 1 below must not overflow
  std::vector<std::pair<uint32_t, rc::Gen<int64_t>>> pieces = {
      {4, rc::gen::just<int64_t>(1)},
      {3, rc::gen::inRange<int64_t>(1, std::min<int64_t>(9, max + 1))}};
  for (int64_t block : {16, 32, 64}) {
    // m·block + {-1, 0, +1} <= max for every m drawn.
    const int64_t multiples = std::min<int64_t>(block == 64 ? 3 : 4, (max - 1) / block);
    if (multiples >= 1) pieces.push_back({3, DimNear(block, multiples)});
  }
  std::vector<int64_t> primes;
  for (int64_t p : {2, 3, 5, 7, 13, 31, 61, 127, 251, 509}) {
    if (p <= max) primes.push_back(p);
  }
  pieces.push_back({2, Pick(primes)});
  // Large dims up to what the budget allows: a port wrong only past some size
  // (n >= 1024, say) must meet such a dim in the random cases too, not only in
  // the real shapes (found by a port written to break the suite).
  if (max > 512) pieces.push_back({2, rc::gen::inRange<int64_t>(512, max + 1)});
  return WeightedOneOf<int64_t>(std::move(pieces));
}

// DimWithLarge() kept at most `max`: large dims (up to 2^31 - 1) for the
// routines that only compute sizes.
inline rc::Gen<int64_t> DimWithLargeUpTo(int64_t max) {
  max = std::clamp<int64_t>(max, 1, INT64_MAX - 1);  // max + 1 below must not overflow
  std::vector<std::pair<uint32_t, rc::Gen<int64_t>>> pieces = {{8, DimUpTo(max)}};
  if (max >= 1000)
    pieces.push_back({1, rc::gen::inRange<int64_t>(1000, std::min<int64_t>(70000, max + 1))});
  if (max > 70000) pieces.push_back({1, rc::gen::inRange<int64_t>(70000, max / 2 + 1)});
  std::vector<int64_t> large;
  for (int64_t d : {int64_t{65535}, int64_t{65536}, int64_t{151936}, int64_t{1} << 20,
                    (int64_t{1} << 31) - 1}) {
    if (d <= max) large.push_back(d);
  }
  if (!large.empty()) pieces.push_back({1, Pick(large)});
  return WeightedOneOf<int64_t>(std::move(pieces));
}

// A dim generator given the largest value that still fits, and what a dim
// costs against the budget (its padded extent, say) given its axis counted
// from the end (0: the last axis).
using DimWithin = std::function<rc::Gen<int64_t>(int64_t max, size_t axis_from_end)>;
using DimCost = std::function<int64_t(int64_t dim, size_t axis_from_end)>;

// `rank` dims, outermost first, each drawn with the budget the earlier ones
// left, so that the product of the costs stays <= `budget` by construction
// (dependent generation: no clamping afterwards, shrinking stays in the domain).
inline rc::Gen<Shape> ShapeWithin(size_t rank, int64_t budget, DimWithin dim, DimCost cost) {
  if (rank == 0) return rc::gen::just(Shape{});
  const size_t axis_from_end = rank - 1;
  // The largest dim whose cost fits the budget, found by halving (cost is monotone).
  int64_t max = budget;
  while (max > 1 && cost(max, axis_from_end) > budget) max /= 2;
  return rc::gen::mapcat(dim(max, axis_from_end), [=](int64_t d) {
    const int64_t left = budget / std::max<int64_t>(cost(d, axis_from_end), 1);
    return rc::gen::map(ShapeWithin(rank - 1, left, dim, cost), [d](Shape rest) {
      rest.insert(rest.begin(), d);
      return rest;
    });
  });
}

inline rc::Gen<Shape> ShapeOf(rc::Gen<int> rank, rc::Gen<int64_t> dim) {
  return rc::gen::mapcat(
      rank, [dim](int r) { return rc::gen::container<Shape>(static_cast<size_t>(r), dim); });
}

// Shrinks the largest dims (halving) until the element count is at most
// `max_elems`: keeps generated tensors small without discarding cases.
inline Shape ClampElems(Shape shape, int64_t max_elems) {
  auto count = [&] {
    __int128 n = 1;
    for (int64_t d : shape) n *= std::max<int64_t>(d, 1);
    return n;
  };
  while (!shape.empty() && count() > max_elems) {
    auto largest = std::max_element(shape.begin(), shape.end());
    *largest = std::max<int64_t>(1, *largest / 2);
  }
  return shape;
}

// Halves the largest dims until `fits(shape)` holds (e.g. the padded size fits
// int64), for ports that do not define the overflow domain.
template <typename Fits>
Shape ClampUntil(Shape shape, Fits fits) {
  while (!shape.empty() && !fits(shape)) {
    auto largest = std::max_element(shape.begin(), shape.end());
    if (*largest <= 1) break;
    *largest /= 2;
  }
  return shape;
}

inline rc::Gen<DType> ElementOf(std::vector<DType> dtypes) { return Pick(std::move(dtypes)); }

// Case data seeds: any 31-bit value; shrinks toward 0.
inline rc::Gen<int64_t> DataSeed() { return rc::gen::inRange<int64_t>(0, int64_t{1} << 31); }

}  // namespace npuconf::gen
