// RapidCheck generators of the conv-weight and format-cast cases (spec
// layouts.md §A.9, §A.10, §A.4): dims at the padding edges (Cin and cout mod 16
// in {0, 1, 15}, H = W = 1), groups 1, few, depthwise-like and past 65535,
// N not a multiple of groups, and the invalid calls as a valid call plus a fault.
#pragma once

#include <string>
#include <vector>

#include "core/case.h"
#include "core/profile.h"
#include "core/routines/cann_convweight.h"
#include "generators/shapes.h"

namespace npuconf::gen::cann_convweight {

namespace ids = routines::cann_convweight;

// m·16 + {1, 15, 16}: x mod 16 in {1, 15, 0}; m mostly 0–2, up to 5.
inline rc::Gen<int64_t> Edge16() {
  const auto blocks = WeightedOneOf<int64_t>(
      {{4, rc::gen::inRange<int64_t>(0, 3)}, {1, rc::gen::inRange<int64_t>(3, 6)}});
  return rc::gen::mapcat(blocks, [](int64_t m) {
    return rc::gen::map(Pick<int64_t>({1, 15, 16}), [m](int64_t r) { return m * 16 + r; });
  });
}

// H and W: 1 most often (the 1x1 conv), else a small kernel.
inline rc::Gen<int64_t> KernelDim() {
  return WeightedOneOf<int64_t>(
      {{3, rc::gen::just<int64_t>(1)}, {2, rc::gen::inRange<int64_t>(2, 6)}});
}

// How many groups, and how wide each is. `large` adds groups past what a
// buffer can hold cheaply (size API only) and up to 65535 (§A.9's limit).
struct GroupsDraw {
  int64_t groups = 1;
  bool narrow = false;  // depthwise-like: Cin and cout per group in 1..3
};
inline rc::Gen<GroupsDraw> Groups(bool large) {
  std::vector<std::pair<uint32_t, rc::Gen<GroupsDraw>>> pieces = {
      {3, rc::gen::just(GroupsDraw{1, false})},
      {3, rc::gen::map(rc::gen::inRange<int64_t>(2, 9),
                       [](int64_t g) {
                         return GroupsDraw{g, false};
                       })},
      {2, rc::gen::map(rc::gen::inRange<int64_t>(9, 65), [](int64_t g) {
         return GroupsDraw{g, true};
       })}};
  if (large) {
    pieces.push_back({1, rc::gen::map(Pick<int64_t>({256, 4095, 65535}), [](int64_t g) {
                        return GroupsDraw{g, true};
                      })});
  }
  return WeightedOneOf<GroupsDraw>(std::move(pieces));
}

// (N, Cin, H, W) and groups: N = groups·cout + r with r in [0, groups) (the rest
// N mod groups is dropped, §A.4 hazard 4), cout ≥ 1, each dim inside the claim.
struct ConvShape {
  Shape nchw;
  int64_t groups = 1;
};
inline rc::Gen<ConvShape> ValidConvShape(const CaseDomain& domain, bool large) {
  return rc::gen::mapcat(Groups(large), [domain](GroupsDraw gd) {
    const int64_t g = gd.groups;
    auto per_group = gd.narrow ? rc::gen::inRange<int64_t>(1, 4) : Edge16();
    auto rest = g == 1 ? rc::gen::just<int64_t>(0) : rc::gen::inRange<int64_t>(0, g);
    return rc::gen::map(
        rc::gen::tuple(per_group, rest, Within(domain, "shape", gd.narrow ? per_group : Edge16()),
                       Within(domain, "shape", KernelDim()), Within(domain, "shape", KernelDim())),
        [g](const std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>& t) {
          const auto& [cout, r, cin, h, w] = t;
          return ConvShape{{g * cout + r, cin, h, w}, g};
        });
  });
}

// aclnnCalculateConvolutionWeightSize calls that the oracle sizes (§A.9).
inline rc::Gen<Case> ValidSizeCase(const Profile& profile, const CaseDomain& domain) {
  const std::string name = profile.name;
  return rc::gen::map(ValidConvShape(domain, true), [name](const ConvShape& s) {
    Case c(ids::kCalculateConvolutionWeightSize, name);
    c.Set("shape", s.nchw).Set("groups", s.groups).Set("dtype", DType::kFloat16);
    return c;
  });
}

// aclnnTransConvolutionWeight calls: weightIn FLOAT16 or FLOAT (§A.9).
inline rc::Gen<Case> ValidTransCase(const Profile& profile, const CaseDomain& domain) {
  const std::string name = profile.name;
  return rc::gen::mapcat(
      PickIn(domain, "dtype", std::vector<DType>{DType::kFloat16, DType::kFloat}),
      [=](DType dtype) {
        return rc::gen::map(
            rc::gen::tuple(ValidConvShape(domain, false), DataSeed()),
            [=](const std::tuple<ConvShape, int64_t>& t) {
              const auto& [s, seed] = t;
              Case c(ids::kTransConvolutionWeight, name);
              c.Set("shape", s.nchw).Set("groups", s.groups).Set("dtype", dtype).Set("seed", seed);
              return c;
            });
      });
}

// The ways a conv-weight call can be wrong, in §A.9's check order; the last
// two are npuconf's own rejections (undefined upstream, reference/ and oracles/
// both define them as 161002).
enum class ConvFault {
  kNullShape,         // tensorShape / weightIn == nullptr → 161001
  kNullOutput,        // size / weightOut == nullptr → 161001
  kRankThree,         // → 161002
  kRankFive,          // → 161002
  kTransposed,        // → 161002
  kGroupsZero,        // → 161002
  kGroupsPast65535,   // → 561103 as shipped, 161002 as documented (D13)
  kDtypeNotAccepted,  // → 161002
  kNegativeDim,       // → 161002
  kOutDtype,          // trans only: weightOut not FLOAT16 → 161002
  kViewFormat,        // trans only: a view format other than NCHW → 161002
  kNotContiguous,     // trans only → 161002
  kOneSideEmpty,      // trans only → 161002
  kGroupsOverN,       // npuconf's own: N < groups (§A.4 hazard 3) → 161002
};

inline Case WithConvFault(Case c, ConvFault fault) {
  const bool trans = c.routine == ids::kTransConvolutionWeight;
  Shape shape = *c.IntList("shape");
  switch (fault) {
    case ConvFault::kNullShape:
      return c.SetNull("shape");
    case ConvFault::kNullOutput:
      return c.SetNull(trans ? "weight_out" : "weight_tensor_size");
    case ConvFault::kRankThree:
      shape.pop_back();
      break;
    case ConvFault::kRankFive:
      shape.push_back(1);
      break;
    case ConvFault::kTransposed:
      return c.Set("transposed", int64_t{1});
    case ConvFault::kGroupsZero:
      return c.Set("groups", int64_t{0});
    case ConvFault::kGroupsPast65535:
      return c.Set("groups", int64_t{65536});
    case ConvFault::kDtypeNotAccepted:
      return c.Set("dtype", trans ? DType::kInt8 : DType::kFloat);
    case ConvFault::kNegativeDim:
      shape[1] = -1;
      break;
    case ConvFault::kOutDtype:
      return c.Set("out_dtype", DType::kFloat);
    case ConvFault::kViewFormat:
      return c.Set("in_format", "NHWC");
    case ConvFault::kNotContiguous:
      return c.Set("out_contiguous", int64_t{0});
    case ConvFault::kOneSideEmpty:
      return c.Set("out_shape", Shape{shape[0], 0, shape[2], shape[3]});
    case ConvFault::kGroupsOverN:
      return c.Set("groups", shape[0] + 1);
  }
  c.Set("shape", shape);
  return c;
}

inline std::vector<ConvFault> ConvFaults(bool trans) {
  std::vector<ConvFault> out = {ConvFault::kNullShape,       ConvFault::kNullOutput,
                                ConvFault::kRankThree,       ConvFault::kRankFive,
                                ConvFault::kTransposed,      ConvFault::kGroupsZero,
                                ConvFault::kGroupsPast65535, ConvFault::kDtypeNotAccepted,
                                ConvFault::kNegativeDim,     ConvFault::kGroupsOverN};
  if (trans) {
    out.insert(out.end(), {ConvFault::kOutDtype, ConvFault::kViewFormat, ConvFault::kNotContiguous,
                           ConvFault::kOneSideEmpty});
  }
  return out;
}

// A valid call with one fault; a fault the claim does not admit gives way to
// the next (FirstFaultInside).
inline rc::Gen<Case> InvalidConvCase(const Profile& profile, const CaseDomain& domain, bool trans) {
  const auto faults = ConvFaults(trans);
  auto valid = trans ? ValidTransCase(profile, domain) : ValidSizeCase(profile, domain);
  return rc::gen::mapcat(valid, [faults, domain](Case c) {
    return rc::gen::map(rc::gen::inRange<size_t>(0, faults.size()), [=](size_t first) {
      return FirstFaultInside(domain, faults.size(), first,
                              [&](size_t i) { return WithConvFault(c, faults[i]); });
    });
  });
}

// ---- aclnnNpuFormatCastCalculateSizeAndFormat (§A.10) ------------------------------

struct CastBranch {
  std::string plain, blocked;
  bool forward = true;  // plain -> blocked; else the reverse (returns the view shape)
};

// §A.10's branches both ways, those whose formats the claim admits.
inline std::vector<CastBranch> AdmittedBranches(const CaseDomain& domain) {
  static const std::vector<std::pair<std::string, std::string>> kPairs = {
      {"NCHW", "NC1HWC0"},       {"NHWC", "NC1HWC0"},      {"NCHW", "FRACTAL_Z"},
      {"HWCN", "FRACTAL_Z"},     {"NCDHW", "NDC1HWC0"},    {"NDHWC", "NDC1HWC0"},
      {"NCDHW", "FRACTAL_Z_3D"}, {"DHWCN", "FRACTAL_Z_3D"}};
  std::vector<CastBranch> all;
  for (const auto& [plain, blocked] : kPairs) {
    all.push_back({plain, blocked, true});
    all.push_back({plain, blocked, false});
  }
  return KeepOrAll(std::move(all), [&](const CastBranch& b) {
    return domain.AdmitsText("src_format", b.forward ? b.plain : b.blocked) &&
           domain.AdmitsText("dst_format", b.forward ? b.blocked : b.plain);
  });
}

// §A.10's src dtypes that npuconf names.
inline std::vector<DType> CastDTypes() {
  return {DType::kInt8, DType::kUint8, DType::kFloat,        DType::kFloat16,
          DType::kBf16, DType::kInt32, DType::kFloat8E4M3Fn, DType::kHiFloat8};
}

// Blocked formats' ranks for the reverse branches' view shapes (§A.1, §A.3, §A.6, §A.7).
inline size_t BlockedRank(const std::string& blocked) {
  if (blocked == "NC1HWC0") return 5;
  if (blocked == "NDC1HWC0") return 6;
  return 4;
}

inline rc::Gen<Case> ValidCastCase(const Profile& profile, const CaseDomain& domain) {
  const std::string name = profile.name;
  const auto dtypes = Admitted(domain, "dtype", CastDTypes());
  return rc::gen::mapcat(Pick(AdmittedBranches(domain)), [=](CastBranch b) {
    // C at the edges of every C0 the dtypes give (32/sizeof: 8, 16, 32), N at 16's.
    auto c_dim = rc::gen::mapcat(Pick<int64_t>({16, 32, 8}), [](int64_t c0) {
      return rc::gen::mapcat(rc::gen::inRange<int64_t>(0, 3), [c0](int64_t m) {
        return rc::gen::map(Pick<int64_t>({1, c0 - 1, c0}), [=](int64_t r) { return m * c0 + r; });
      });
    });
    const size_t rank = b.forward ? b.plain.size() : BlockedRank(b.blocked);
    auto dims =
        rc::gen::container<std::vector<int64_t>>(rank, Within(domain, "shape", KernelDim()));
    auto additional = WeightedOneOf<int64_t>(
        {{3, rc::gen::just<int64_t>(-1)},
         {1, rc::gen::inRange<int64_t>(0, static_cast<int64_t>(dtypes.size()))}});
    return rc::gen::map(
        rc::gen::tuple(Pick(dtypes), Within(domain, "shape", Edge16()),
                       Within(domain, "shape", c_dim), dims, additional),
        [=](const std::tuple<DType, int64_t, int64_t, std::vector<int64_t>, int64_t>& t) {
          const auto& [dtype, n, c, rest, extra] = t;
          Shape shape = rest;
          if (b.forward) {
            // The plain format's N and C by letter; D, H, W small.
            shape[b.plain.find('N')] = n;
            shape[b.plain.find('C')] = c;
          }
          Case out(ids::kNpuFormatCastCalculateSizeAndFormat, name);
          out.Set("shape", shape)
              .Set("src_format", b.forward ? b.plain : b.blocked)
              .Set("dst_format", b.forward ? b.blocked : b.plain)
              .Set("dtype", dtype);
          if (extra >= 0) out.Set("additional_dtype", dtypes[static_cast<size_t>(extra)]);
          return out;
        });
  });
}

// The ways a format-cast call can be wrong (§A.10), each with its code:
// a null srcTensor (choice cann.format_cast.null_src), a src dtype outside
// the list (161002), a pair outside the branches (361001), an empty tensor
// (361001 on non-950); npuconf's own: a negative dim, a rank other than the
// src format's (161002).
enum class CastFault {
  kNullSrc,
  kDtypeOutsideList,
  kUnsupportedPair,
  kEmptyTensor,
  kNegativeDim,
  kRankMismatch,
};

inline Case WithCastFault(Case c, CastFault fault) {
  Shape shape = *c.IntList("shape");
  const std::string src = *c.String("src_format");
  switch (fault) {
    case CastFault::kNullSrc:
      return c.SetNull("shape");
    case CastFault::kDtypeOutsideList:
      return c.Set("dtype", DType::kInt16);
    case CastFault::kUnsupportedPair:
      // A plain format to a blocked one of the other rank (§A.10: not a branch).
      return c.Set("src_format", shape.size() == 5 ? "NCDHW" : "NCHW")
          .Set("dst_format", shape.size() == 5 ? "NC1HWC0" : "NDC1HWC0");
    case CastFault::kEmptyTensor:
      shape[0] = 0;
      break;
    case CastFault::kNegativeDim:
      shape[0] = -1;
      break;
    case CastFault::kRankMismatch:
      // Only a forward branch checks the rank; make it one.
      c.Set("src_format", "NCHW").Set("dst_format", "NC1HWC0");
      shape.assign(3, 2);
      break;
  }
  c.Set("shape", shape);
  return c;
}

inline rc::Gen<Case> InvalidCastCase(const Profile& profile, const CaseDomain& domain) {
  std::vector<CastFault> faults = {CastFault::kNullSrc, CastFault::kDtypeOutsideList,
                                   CastFault::kUnsupportedPair, CastFault::kNegativeDim,
                                   CastFault::kRankMismatch};
  // An empty tensor is rejected only where the profile says so (§A.10: non-950).
  if (profile.raw.contains("conv_weight") &&
      profile.raw.at("conv_weight").at("format_cast_empty_fallback").at("value").get<bool>()) {
    faults.push_back(CastFault::kEmptyTensor);
  }
  return rc::gen::mapcat(ValidCastCase(profile, domain), [faults, domain](Case c) {
    return rc::gen::map(rc::gen::inRange<size_t>(0, faults.size()), [=](size_t first) {
      return FirstFaultInside(domain, faults.size(), first,
                              [&](size_t i) { return WithCastFault(c, faults[i]); });
    });
  });
}

}  // namespace npuconf::gen::cann_convweight
