// RapidCheck generators of shapes and dims, composed from small pieces
// (STYLE.md): dims biased to 1, to block multiples ±1 and to primes; shapes
// from a rank generator and a dim generator. Shrinking follows construction.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <numeric>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/domain.h"
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

// ---- drawing inside a port's claim (core/domain.h) ---------------------------------
//
// Every generator takes the claim it draws inside (a CaseDomain) and narrows
// each param where it draws it, so later draws depend on the narrowed value
// (a budget, a group size dividing K) and shrinking stays inside the claim.
// Where a claim admits none of a list, the whole list is drawn from: that case
// lies outside the claim, and the runner discards and counts it.

// The values for which `admitted` holds, or all of them when it holds for none.
template <typename T, typename Pred>
std::vector<T> KeepOrAll(std::vector<T> values, Pred admitted) {
  std::vector<T> kept;
  for (const T& v : values) {
    if (admitted(v)) kept.push_back(v);
  }
  return kept.empty() ? values : kept;
}

// The values of `values` the claim admits for param `key` (by text for
// dtypes and strings, by value for ints).
template <typename T, typename Admits>
std::vector<T> AdmittedBy(const CaseDomain& domain, std::string_view key, std::vector<T> values,
                          Admits admits) {
  const ParamBounds* bounds = domain.Find(key);
  if (!bounds) return values;
  return KeepOrAll(std::move(values), [&](const T& v) { return admits(*bounds, v); });
}
inline std::vector<DType> Admitted(const CaseDomain& domain, std::string_view key,
                                   std::vector<DType> values) {
  return AdmittedBy(domain, key, std::move(values),
                    [](const ParamBounds& b, DType d) { return b.AdmitsText(Name(d)); });
}
inline std::vector<std::string> Admitted(const CaseDomain& domain, std::string_view key,
                                         std::vector<std::string> values) {
  return AdmittedBy(domain, key, std::move(values),
                    [](const ParamBounds& b, const std::string& v) { return b.AdmitsText(v); });
}
template <typename Int>
requires std::is_integral_v<Int> std::vector<Int> Admitted(const CaseDomain& domain,
                                                           std::string_view key,
                                                           std::vector<Int> values) {
  return AdmittedBy(domain, key, std::move(values),
                    [](const ParamBounds& b, Int v) { return b.AdmitsInt(int64_t{v}); });
}

// Pick among the admitted values.
template <typename T>
rc::Gen<T> PickIn(const CaseDomain& domain, std::string_view key, std::vector<T> values) {
  return Pick(Admitted(domain, key, std::move(values)));
}

// The ranks in [lo, hi] the claim admits for int-list param `key` (all of
// them when it admits none), drawn shrinking toward the lowest.
// A rank in [lo, hi] the claim admits for int-list `key`; ranks from `rare_from`
// on are drawn a third as often (a rank past what most callers use still gets
// its cases, and a claim of that rank alone gets all of them).
inline rc::Gen<size_t> RankIn(const CaseDomain& domain, std::string_view key, size_t lo, size_t hi,
                              size_t rare_from = SIZE_MAX) {
  std::vector<size_t> ranks;
  for (size_t r = lo; r <= hi; ++r) ranks.insert(ranks.end(), r >= rare_from ? 1 : 3, r);
  return Pick(AdmittedBy(domain, key, std::move(ranks), [](const ParamBounds& b, size_t r) {
    return b.AdmitsRank(static_cast<int64_t>(r));
  }));
}

// What a generator's own rules add to a claim's bounds when it fits a value.
struct Fitting {
  int64_t lo = 1;          // the param's least valid value
  int64_t hi = INT64_MAX;  // a budget, given up before `lo` unless `hard_hi`
  int64_t step = 1;        // the value must also be a multiple of this (an int4 pair, say)
  bool hard_hi = false;    // `hi` is an exactness bound, not a budget
};

// `dim` mapped into what the claim admits for `key` (an int param, or each
// element of an int list): the nearest admitted value above the draw within
// [lo, hi] (ParamBounds::Fit), so the result still shrinks with the draw. An
// admitted value past a budget beats one the routine rejects; where the claim
// admits nothing >= lo, the draw is kept (the case lies outside the claim).
inline rc::Gen<int64_t> Within(const CaseDomain& domain, std::string_view key, rc::Gen<int64_t> dim,
                               Fitting f = {}) {
  const ParamBounds* bounds = domain.Find(key);
  if (!bounds || !bounds->BoundsValues()) return dim;
  ParamBounds b = *bounds;
  b.multiple = std::lcm(b.multiple, std::max<int64_t>(f.step, 1));
  return rc::gen::map(std::move(dim), [b, f](int64_t v) {
    if (auto x = b.Fit(v, f.lo, f.hi)) return *x;
    return f.hard_hi ? v : b.Fit(v, f.lo).value_or(v);
  });
}

// An invalid case is a valid one with a named fault; a fault that would take
// it outside the claim gives way to the next in the list (the same draw,
// rotated), so a narrowed port still gets its invalid cases inside its claim.
// `make(i)` is the case with fault i; when none lands inside, fault `first`
// (the runner then discards it).
template <typename Make>
auto FirstFaultInside(const CaseDomain& domain, size_t count, size_t first, Make make) {
  for (size_t k = 0; k < count; ++k) {
    auto c = make((first + k) % count);
    if (domain.Admits(c)) return c;
  }
  return make(first);
}

// A text param drawn by `text` (a weighted choice, say), or, where the claim
// bounds `key`, picked among the values of `all` it admits.
inline rc::Gen<std::string> TextWithin(const CaseDomain& domain, std::string_view key,
                                       rc::Gen<std::string> text, std::vector<std::string> all) {
  if (!domain.Find(key)) return text;
  return Pick(Admitted(domain, key, std::move(all)));
}

}  // namespace npuconf::gen
