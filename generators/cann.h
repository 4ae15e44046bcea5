// RapidCheck generators of CANN cases (spec cann.md §1–2), composed from the
// pieces of generators/shapes.h by dependent generation: a dtype first, then
// dims that fit an element budget given the dtype's C0, so every case is valid
// by construction (or invalid in exactly the named ways) and shrinks toward
// the smallest such case.
#pragma once

#include <rapidcheck.h>

#include <string>
#include <vector>

#include "core/case.h"
#include "core/profile.h"
#include "core/routines/cann.h"
#include "generators/shapes.h"

namespace npuconf::gen::cann {

namespace ids = routines::cann;

// Random layout cases stay within this many padded elements; the real model
// shapes cover the large ones.
inline constexpr int64_t kMaxLayoutElems = int64_t{1} << 18;

// x rounded up to a multiple of a (a > 0); a cost past INT64_MAX saturates
// (the size routines' dims reach INT64_MAX, found by `make sanitize`).
inline int64_t RoundUp(int64_t x, int64_t a) {
  if (x > INT64_MAX - (a - 1)) return INT64_MAX;
  return (x + a - 1) / a * a;
}

// A layout dtype and the C0 to ask for: 0 is the profile's C0 (no `c0` param);
// otherwise another reading of a choice that applies to the dtype (spec
// cann.md §5.6, §5.7), from the profile's choice list.
struct LayoutVariant {
  DType dtype = DType::kFloat16;
  int64_t c0 = 0;
};

inline std::vector<LayoutVariant> LayoutVariants(const Profile& profile) {
  std::vector<LayoutVariant> out;
  for (const auto& [dtype, c0] : profile.cann->nz_c0) {
    out.push_back({dtype, 0});
    for (const Choice& choice : profile.choices) {
      if (!choice.AppliesTo(Name(dtype))) continue;
      for (const std::string& reading : choice.readings) {
        if (reading != choice.value) out.push_back({dtype, std::stoll(reading)});
      }
    }
  }
  return out;
}

// An ND shape [B..., n, k] of `rank` dims (batch dims 1..3) whose FRACTAL_NZ
// storage holds at most `budget` elements for `c0`, every dim inside what the
// claim admits for `shape`.
inline rc::Gen<Shape> NzShape(size_t rank, int64_t c0, int64_t budget, const CaseDomain& domain) {
  return ShapeWithin(
      rank, budget,
      [domain](int64_t max, size_t axis) {
        return Within(
            domain, "shape",
            axis >= 2 ? rc::gen::inRange<int64_t>(1, std::min<int64_t>(3, max) + 1) : DimUpTo(max),
            {.hi = max});
      },
      [c0](int64_t d, size_t axis) {
        return axis == 0 ? RoundUp(d, c0) : axis == 1 ? RoundUp(d, 16) : d;
      });
}

// The layout variants the claim admits (its dtype and c0 conditions), or all.
inline std::vector<LayoutVariant> AdmittedVariants(const Profile& profile,
                                                   const CaseDomain& domain) {
  // A variant that leaves c0 out takes the profile's C0 for its dtype: the
  // claim is judged on that effective value (conformance/harness/suite.h Effective).
  return KeepOrAll(LayoutVariants(profile), [&](const LayoutVariant& v) {
    const int64_t c0 = v.c0 ? v.c0 : profile.cann->nz_c0.at(v.dtype);
    return domain.AdmitsInt("c0", c0) && domain.AdmitsText("dtype", Name(v.dtype));
  });
}

// cann.nd_to_nz / cann.nz_to_nd: every dtype of the profile's C0 table, each
// with the other readings of its C0 too; rank 1..6 (5 and 6 rarer); inside
// the claim `domain`.
inline rc::Gen<Case> LayoutCase(const Profile& profile, const std::string& routine,
                                const CaseDomain& domain) {
  const std::string name = profile.name;
  const std::map<DType, int> c0_of = profile.cann->nz_c0;
  return rc::gen::mapcat(Pick(AdmittedVariants(profile, domain)), [=](LayoutVariant v) {
    const int64_t c0 = v.c0 ? v.c0 : c0_of.at(v.dtype);
    return rc::gen::mapcat(RankIn(domain, "shape", 1, 6, 5), [=](size_t rank) {
      return rc::gen::mapcat(NzShape(rank, c0, kMaxLayoutElems, domain), [=](Shape shape) {
        return rc::gen::map(DataSeed(), [=](int64_t seed) {
          Case c(routine, name);
          c.Set("shape", shape).Set("dtype", v.dtype).Set("seed", seed);
          if (v.c0) c.Set("c0", v.c0);
          return c;
        });
      });
    });
  });
}

// aclnnTransMatmulWeight calls that convert: a dtype of the SoC's list (§2.3),
// a rank its rule allows (§2.2 step 6), every dim >= 1; inside the claim.
inline rc::Gen<Case> ValidTransCase(const Profile& profile, const CaseDomain& domain) {
  const CannFacts facts = *profile.cann;
  const std::string name = profile.name;
  return rc::gen::mapcat(PickIn(domain, "dtype", facts.trans_dtypes), [=](DType dtype) {
    const RankRange rule = dtype == DType::kInt8 ? facts.trans_rank_int8 : facts.trans_rank_other;
    const int64_t c0 = facts.nz_c0.at(dtype);
    return rc::gen::mapcat(RankIn(domain, "shape", rule.min, rule.max), [=](size_t rank) {
      return rc::gen::mapcat(NzShape(rank, c0, kMaxLayoutElems, domain), [=](Shape shape) {
        return rc::gen::map(DataSeed(), [=](int64_t seed) {
          Case c(ids::kTransMatmulWeight, name);
          c.Set("shape", shape).Set("dtype", dtype).Set("format", "ND").Set("seed", seed);
          return c;
        });
      });
    });
  });
}

// The ways a TransMatmulWeight call can be wrong (spec cann.md §2.2 steps 1–6).
enum class TransFault {
  kNullTensor,        // step 1
  kUnsupportedDtype,  // step 2
  kNotNd,             // step 3
  kRankOverEight,     // step 4
  kEmpty,             // step 5 (succeeds untouched as shipped)
  kRankOutsideRule,   // step 6
};

// The rows of a [..., n, k] shape: n, or 1 for a rank-1 [k] (a first fault may
// leave rank 1 behind it: kRankOutsideRule, then kRankOverEight, found by
// `make sanitize` as a read 8 bytes before the shape).
inline int64_t RowsOf(const Shape& shape) {
  return shape.size() >= 2 ? shape[shape.size() - 2] : 1;
}

// `c` with `fault` applied; `pick` chooses among the fault's variants and
// `unsupported` holds the dtypes the SoC's list leaves out. Any shape of rank
// >= 1 goes in, so faults compose in either order.
inline Case ApplyTransFault(const CannFacts& facts, const std::vector<DType>& unsupported, Case c,
                            TransFault fault, int64_t pick) {
  Shape shape = *c.IntList("shape");
  const DType dtype = *c.DTypeParam("dtype");
  const RankRange rule = dtype == DType::kInt8 ? facts.trans_rank_int8 : facts.trans_rank_other;
  switch (fault) {
    case TransFault::kNullTensor:
      c.SetNull("mm_weight_ref");
      break;
    case TransFault::kUnsupportedDtype:
      if (!unsupported.empty())
        c.Set("dtype", unsupported[static_cast<size_t>(pick) % unsupported.size()]);
      break;
    case TransFault::kNotNd:
      c.Set("format", pick % 2 ? "FRACTAL_NZ" : "NCHW");
      break;
    case TransFault::kRankOverEight: {
      // Ranks 9 and up with unit leading dims (the data stays small).
      Shape ranked(static_cast<size_t>(9 + pick % 2), 1);
      ranked[ranked.size() - 2] = RowsOf(shape);
      ranked.back() = shape.back();
      shape = ranked;
      break;
    }
    case TransFault::kEmpty:
      shape[static_cast<size_t>(pick) % shape.size()] = 0;
      break;
    case TransFault::kRankOutsideRule: {
      // 1, or the first rank in 3..8 the rule forbids; 1 when it forbids none.
      size_t rank = 1;
      for (size_t r = 3; r <= 8 && pick % 2; ++r) {
        if (!rule.Contains(r)) {
          rank = r;
          break;
        }
      }
      Shape ranked(rank, 1);
      ranked.back() = shape.back();
      if (rank >= 2) ranked[rank - 2] = RowsOf(shape);
      shape = ranked;
      break;
    }
  }
  c.Set("shape", shape);
  return c;
}

// A valid call with one or two faults applied, so the check order shows. The
// valid call lies inside the claim; a fault may take it out (the port does not
// claim such calls), and the runner then discards it.
inline rc::Gen<Case> InvalidTransCase(const Profile& profile, const CaseDomain& domain) {
  const CannFacts facts = *profile.cann;
  std::vector<DType> unsupported;
  int count = 0;
  const DTypeInfo* all = AllDTypes(&count);
  for (int i = 0; i < count; ++i) {
    if (!facts.TransSupports(all[i].dtype) && all[i].bits < 64) unsupported.push_back(all[i].dtype);
  }
  const std::vector<TransFault> faults = {TransFault::kNullTensor, TransFault::kUnsupportedDtype,
                                          TransFault::kNotNd,      TransFault::kRankOverEight,
                                          TransFault::kEmpty,      TransFault::kRankOutsideRule};
  auto apply = [=](Case c, TransFault fault, int64_t pick) {
    return ApplyTransFault(facts, unsupported, std::move(c), fault, pick);
  };
  return rc::gen::mapcat(ValidTransCase(profile, domain), [=](Case valid) {
    return rc::gen::mapcat(rc::gen::inRange<size_t>(0, faults.size()), [=](size_t first) {
      return rc::gen::map(rc::gen::tuple(Pick(faults), rc::gen::arbitrary<bool>(),
                                         rc::gen::inRange<int64_t>(0, 1 << 16)),
                          [=](const std::tuple<TransFault, bool, int64_t>& more) {
                            const auto& [second, both, pick] = more;
                            // Init-captures: clang 14 (the fuzz build) cannot capture a structured
                            // binding in a lambda.
                            return FirstFaultInside(
                                domain, faults.size(), first,
                                [&, &second = second, both = both, pick = pick](size_t f) {
                                  Case c = apply(valid, faults[f], pick);
                                  return both ? apply(c, second, pick / 2) : c;
                                });
                          });
    });
  });
}

// ---- the size routines (§1) ---------------------------------------------------

inline const std::vector<DType>& SizeDTypes() {
  // dataType is never validated by V2 (§1.4, choice cann.v2.dtype_validation),
  // so every dtype is a valid call.
  static const std::vector<DType> dtypes = {DType::kFloat16,      DType::kBf16,     DType::kFloat,
                                            DType::kInt8,         DType::kUint8,    DType::kInt32,
                                            DType::kFloat8E4M3Fn, DType::kHiFloat8, DType::kInt4};
  return dtypes;
}

// Valid size calls: rank inside the profile's rule, every dim positive (V2) or
// non-negative (legacy), the padded size inside int64 (§1.5: overflow is
// undefined upstream) unless `overflow_defined` (the port claims a reading).
inline rc::Gen<Case> ValidSizeCase(const Profile& profile, const std::string& routine,
                                   bool overflow_defined, const CaseDomain& domain) {
  const bool legacy = routine == ids::kCalculateMatmulWeightSize;
  const RankRange rule = legacy ? profile.cann->legacy_size_rank : profile.cann->v2_size_rank;
  const std::string name = profile.name;
  const int64_t budget = overflow_defined ? INT64_MAX : INT64_MAX / 32;
  auto dim = [legacy, domain](int64_t max, size_t) {
    // `max` keeps the padded size inside int64 (undefined upstream past it, §1.5).
    if (!legacy)
      return Within(domain, "shape", DimWithLargeUpTo(max), {.hi = max, .hard_hi = true});
    return Within(
        domain, "shape",
        WeightedOneOf<int64_t>({{12, DimWithLargeUpTo(max)}, {1, rc::gen::just<int64_t>(0)}}),
        {.lo = 0, .hi = max, .hard_hi = true});
  };
  // Cost in the padded product: n and k padded to 16 and 32 (the larger rule).
  auto cost = [](int64_t d, size_t axis) {
    return axis == 0 ? RoundUp(d, 32) : axis == 1 ? RoundUp(d, 16) : d;
  };
  return rc::gen::mapcat(PickIn(domain, "dtype", SizeDTypes()), [=](DType dtype) {
    return rc::gen::mapcat(RankIn(domain, "shape", rule.min, rule.max), [=](size_t rank) {
      return rc::gen::map(ShapeWithin(rank, budget, dim, cost), [=](Shape shape) {
        Case c(routine, name);
        c.Set("shape", shape);
        if (!legacy) c.Set("dtype", dtype);
        return c;
      });
    });
  });
}

// The ways a size call can be wrong (§1.3, §1.4): null tensorShape, null
// weightTensorSize, a rank outside the rule, a zero dim (V2), a negative dim
// and an overflowing shape (only for a port that defines them, §1.5).
enum class SizeFault { kNullShape, kNullOutput, kBadRank, kZeroDim, kNegativeDim, kOverflow };

inline rc::Gen<Case> InvalidSizeCase(const Profile& profile, const std::string& routine,
                                     bool negative_defined, bool overflow_defined,
                                     const CaseDomain& domain) {
  const bool legacy = routine == ids::kCalculateMatmulWeightSize;
  const RankRange rule = legacy ? profile.cann->legacy_size_rank : profile.cann->v2_size_rank;
  std::vector<SizeFault> faults = {SizeFault::kNullShape, SizeFault::kNullOutput,
                                   SizeFault::kBadRank};
  if (!legacy) faults.push_back(SizeFault::kZeroDim);
  if (negative_defined) faults.push_back(SizeFault::kNegativeDim);
  if (overflow_defined) faults.push_back(SizeFault::kOverflow);
  // The rank just past the rule is the likeliest off-by-one: weighted up.
  std::vector<size_t> bad_ranks = {0, 1, 7, 7, 7, 8, 9};
  for (size_t r = 2; r <= 6; ++r) {
    if (!rule.Contains(r)) bad_ranks.push_back(r);
  }
  auto apply = [=](Case c, SizeFault fault, int64_t pick) {
    Shape shape = c.IntList("shape").value_or(Shape{1, 1});
    switch (fault) {
      case SizeFault::kNullShape:
        c.SetNull("shape");
        return c;
      case SizeFault::kNullOutput:
        c.SetNull("weight_tensor_size");
        return c;
      case SizeFault::kBadRank:
        shape.assign(bad_ranks[static_cast<size_t>(pick) % bad_ranks.size()], 3);
        break;
      case SizeFault::kZeroDim:
        if (!shape.empty()) shape[static_cast<size_t>(pick) % shape.size()] = 0;
        break;
      case SizeFault::kNegativeDim:
        if (!shape.empty()) shape.back() = -(1 + pick % (1 << 20));
        break;
      case SizeFault::kOverflow:
        shape.assign({int64_t{1} << 40, int64_t{1} << 40});
        break;
    }
    if (c.Find("shape") && c.Find("shape")->kind == ParamValue::Kind::kNull) return c;
    c.Set("shape", shape);
    return c;
  };
  return rc::gen::mapcat(ValidSizeCase(profile, routine, false, domain), [=](Case valid) {
    return rc::gen::map(
        rc::gen::tuple(rc::gen::inRange<size_t>(0, faults.size()), Pick(faults),
                       rc::gen::arbitrary<bool>(), rc::gen::inRange<int64_t>(0, 1 << 20)),
        [=](const std::tuple<size_t, SizeFault, bool, int64_t>& draw) {
          const auto& [first, second, both, pick] = draw;
          // Init-captures: clang 14 (the fuzz build) cannot capture a structured binding in a
          // lambda.
          return FirstFaultInside(domain, faults.size(), first,
                                  [&, &second = second, both = both, pick = pick](size_t f) {
                                    Case c = apply(valid, faults[f], pick);
                                    return both ? apply(c, second, pick / 7) : c;
                                  });
        });
  });
}

}  // namespace npuconf::gen::cann
