// RapidCheck generators of shapes and dims, composed from small pieces
// (STYLE.md): dims biased to 1, to block multiples ±1 and to primes; shapes
// from a rank generator and a dim generator. Shrinking follows construction.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf::gen {

// m·block + {−1, 0, +1} for m in [1, max_multiple]: 15/16/17, 31/32/33, …
inline rc::Gen<int64_t> DimNear(int64_t block, int64_t max_multiple = 4) {
  return rc::gen::mapcat(rc::gen::inRange<int64_t>(1, max_multiple + 1), [block](int64_t m) {
    return rc::gen::map(rc::gen::element<int64_t>(0, -1, 1),
                        [block, m](int64_t offset) { return m * block + offset; });
  });
}

inline rc::Gen<int64_t> SmallPrime() {
  return rc::gen::element<int64_t>(2, 3, 5, 7, 13, 31, 61, 127, 251, 509);
}

// The everyday dim: 1 most often, then small, near 16/32/64, primes.
inline rc::Gen<int64_t> Dim() {
  return rc::gen::weightedOneOf<int64_t>({
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
  return rc::gen::weightedOneOf<int64_t>({
      {8, Dim()},
      {1, rc::gen::inRange<int64_t>(1000, 70000)},
      {1, rc::gen::element<int64_t>(65535, 65536, 151936, int64_t{1} << 20, (int64_t{1} << 31) - 1)},
  });
}

inline rc::Gen<Shape> ShapeOf(rc::Gen<int> rank, rc::Gen<int64_t> dim) {
  return rc::gen::mapcat(rank, [dim](int r) {
    return rc::gen::container<Shape>(static_cast<size_t>(r), dim);
  });
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

inline rc::Gen<DType> ElementOf(std::vector<DType> dtypes) {
  return rc::gen::elementOf(std::move(dtypes));
}

// Case data seeds: any 31-bit value; shrinks toward 0.
inline rc::Gen<int64_t> DataSeed() { return rc::gen::inRange<int64_t>(0, int64_t{1} << 31); }

}  // namespace npuconf::gen
