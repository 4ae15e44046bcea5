// RapidCheck generators of cann.trans_data cases (spec layouts.md §A.1–A.7):
// every registered pair both ways, dims at the padding edges (C mod C0 in {0, 1,
// C0 − 1}, N mod 16 likewise, H = W = 1, D = 1, C in 1..4 for FRACTAL_Z_C04),
// groups that do not divide N.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "core/case.h"
#include "core/profile.h"
#include "core/routines/cann_transdata.h"
#include "generators/shapes.h"

namespace npuconf::gen::cann_transdata {

struct FormatPair {
  std::string plain, blocked;
};

// One direction of a pair: plain -> blocked when `pack`.
struct Route {
  FormatPair pair;
  bool pack = true;
};

// The routes among `pairs` x `directions` whose src_format and dst_format the
// claim admits (every route when it admits none, as PickIn does): a port that
// claims only NCHW -> FRACTAL_Z is drawn only that (the breaker's F13: the
// pair was drawn ignoring the claim, and the property gave up).
// The plain formats with a D axis (spec layouts.md §A.6, §A.7).
inline bool IsThreeD(const std::string& plain) {
  return plain == "NCDHW" || plain == "NDHWC" || plain == "DHWCN";
}

// Whether the claim admits route `r`: its formats, and some rank of its plain
// shape (the `shape` param: ND ranks min_nd_rank..4, a 3-D format 5, else 4),
// so that a port claiming rank(shape)=2 is drawn ND <-> FRACTAL_NZ only.
inline bool AdmitsRoute(const CaseDomain& domain, const Route& r, size_t min_nd_rank = 1) {
  if (!domain.AdmitsText("src_format", r.pack ? r.pair.plain : r.pair.blocked) ||
      !domain.AdmitsText("dst_format", r.pack ? r.pair.blocked : r.pair.plain))
    return false;
  const ParamBounds* shape = domain.Find("shape");
  if (!shape) return true;
  if (r.pair.plain != "ND") return shape->AdmitsRank(IsThreeD(r.pair.plain) ? 5 : 4);
  for (size_t rank = min_nd_rank; rank <= 4; ++rank) {
    if (shape->AdmitsRank(static_cast<int64_t>(rank))) return true;
  }
  return false;
}

inline std::vector<Route> Routes(const std::vector<FormatPair>& pairs,
                                 const std::vector<bool>& directions) {
  std::vector<Route> routes;
  for (const auto& pair : pairs) {
    for (bool pack : directions) routes.push_back({pair, pack});
  }
  return routes;
}

inline std::vector<Route> AdmittedRoutes(const CaseDomain& domain,
                                         const std::vector<FormatPair>& pairs,
                                         const std::vector<bool>& directions,
                                         size_t min_nd_rank = 1) {
  return KeepOrAll(Routes(pairs, directions),
                   [&](const Route& r) { return AdmitsRoute(domain, r, min_nd_rank); });
}

// Whether the claim admits some route of `pairs` x `directions` at all: a
// generator mixing two kinds of call draws only the kinds the claim admits.
inline bool AdmitsSomeRoute(const CaseDomain& domain, const std::vector<FormatPair>& pairs,
                            const std::vector<bool>& directions, size_t min_nd_rank = 1) {
  for (const Route& r : Routes(pairs, directions)) {
    if (AdmitsRoute(domain, r, min_nd_rank)) return true;
  }
  return false;
}

inline const std::vector<FormatPair>& Pairs() {
  static const std::vector<FormatPair> pairs = {
      {"NCHW", "NC1HWC0"},       {"NHWC", "NC1HWC0"},       {"NCHW", "FRACTAL_Z"},
      {"HWCN", "FRACTAL_Z"},     {"NHWC", "FRACTAL_Z"},     {"NCHW", "NC1HWC0_C04"},
      {"NHWC", "NC1HWC0_C04"},   {"NCHW", "FRACTAL_Z_C04"}, {"HWCN", "FRACTAL_Z_C04"},
      {"NCDHW", "NDC1HWC0"},     {"NDHWC", "NDC1HWC0"},     {"NCDHW", "FRACTAL_Z_3D"},
      {"DHWCN", "FRACTAL_Z_3D"}, {"NDHWC", "FRACTAL_Z_3D"}};
  return pairs;
}

inline bool IsFractalZ(const std::string& blocked) {
  return blocked == "FRACTAL_Z" || blocked == "FRACTAL_Z_3D";
}

// The dtypes of the profile's trans_data.c0 table, with their C0.
inline std::map<DType, int64_t> C0Table(const Profile& profile) {
  std::map<DType, int64_t> out;
  if (!profile.raw.contains("trans_data")) return out;
  for (const auto& [name, c0] : profile.raw.at("trans_data").at("c0").at("value").items()) {
    if (auto dtype = ParseDType(name)) out[*dtype] = c0.get<int64_t>();
  }
  return out;
}

// m·block + {1, block − 1, block}: x mod block in {1, block − 1, 0}. m is
// mostly 0–2 (one to three blocks, where the edges are), but up to 24 in one
// draw of six and 3–8 in two: a kernel that is wrong only from the fourth
// block on (a step of four N1 or C1 blocks and a lost tail, a fixed-size tile)
// must fail without the real shapes (the breaker's F12: N never passed 48).
inline rc::Gen<int64_t> EdgeDim(int64_t block) {
  const auto blocks = WeightedOneOf<int64_t>({{3, rc::gen::inRange<int64_t>(0, 3)},
                                              {2, rc::gen::inRange<int64_t>(3, 9)},
                                              {1, rc::gen::inRange<int64_t>(9, 25)}});
  return rc::gen::mapcat(blocks, [block](int64_t m) {
    return rc::gen::map(Pick<int64_t>({1, block - 1, block}),
                        [block, m](int64_t r) { return m * block + r; });
  });
}

// H or W: 1 most often, a few, else at a multiple of 8 or past it (where a
// vector row loop's chunks and tail meet).
inline rc::Gen<int64_t> PlaneDim() {
  return WeightedOneOf<int64_t>({{6, rc::gen::just<int64_t>(1)},
                                 {4, rc::gen::inRange<int64_t>(2, 6)},
                                 {1, Pick<int64_t>({8, 7, 9, 16, 17})}});
}

// D: 1 (the 4-D map with a unit axis) or a few planes.
inline rc::Gen<int64_t> DepthDim() {
  return WeightedOneOf<int64_t>(
      {{3, rc::gen::just<int64_t>(1)}, {2, rc::gen::inRange<int64_t>(2, 4)}});
}

// (n, c, h, w) and, for the 3-D formats, d in the plain format's own axis order.
inline Shape InOrder(const std::string& plain, int64_t n, int64_t c, int64_t h, int64_t w,
                     int64_t d = 1) {
  if (plain == "NHWC") return {n, h, w, c};
  if (plain == "HWCN") return {h, w, c, n};
  if (plain == "NCDHW") return {n, c, d, h, w};
  if (plain == "NDHWC") return {n, d, h, w, c};
  if (plain == "DHWCN") return {d, h, w, c, n};
  return {n, c, h, w};
}

// FRACTAL_Z_C04's C: 1..4 (§A.5); past 4 too where the profile's reading of D8
// accepts it (MS), at the edges of its blocks of 4.
inline rc::Gen<int64_t> C04Channels(const Profile& profile) {
  const auto in = rc::gen::inRange<int64_t>(1, 5);
  if (profile.raw.at("trans_data").at("fz_c04_c_over_4").at("value") != "accepted") return in;
  return WeightedOneOf<int64_t>({{2, in}, {1, EdgeDim(4)}});
}

struct Draw {
  bool pack_only = false;       // plain -> blocked only
  bool fractal_z_only = false;  // FRACTAL_Z and FRACTAL_Z_3D
  bool nchw_only = false;       // NCHW and NCDHW
  bool three_d_only = false;    // NCDHW, NDHWC, DHWCN with D = 1
  int64_t min_groups = 1, max_groups = 8;
};

// Valid calls: N >= groups (N < groups under the reading ungrouped only, where
// it is valid), grouped Cin >= 1.
inline rc::Gen<Case> ValidCase(const Profile& profile, const CaseDomain& domain, Draw draw = {}) {
  const std::string name = profile.name;
  std::vector<FormatPair> pairs;
  for (const auto& p : Pairs()) {
    if (draw.fractal_z_only && !IsFractalZ(p.blocked)) continue;
    if (draw.nchw_only && p.plain != "NCHW" && p.plain != "NCDHW") continue;
    if (draw.three_d_only && !IsThreeD(p.plain)) continue;
    pairs.push_back(p);
  }
  const auto table = C0Table(profile);
  std::vector<DType> dtypes;
  for (const auto& [dtype, c0] : table) dtypes.push_back(dtype);
  const std::vector<bool> directions =
      draw.pack_only ? std::vector<bool>{true} : std::vector<bool>{true, false};
  return rc::gen::mapcat(Pick(AdmittedRoutes(domain, pairs, directions)), [=](Route route) {
    const FormatPair pair = route.pair;
    const bool pack = route.pack;
    return rc::gen::mapcat(PickIn(domain, "dtype", dtypes), [=](DType dtype) {
      // NC1HWC0_C04's C0 is 4 for every dtype (spec layouts.md §A.2); FRACTAL_Z_C04
      // draws C in 1..4 (§A.5), whatever its C0.
      const int64_t c0 = pair.blocked == "NC1HWC0_C04" ? 4 : table.at(dtype);
      const bool fz = IsFractalZ(pair.blocked);
      const auto c_gen = pair.blocked == "FRACTAL_Z_C04" ? C04Channels(profile) : EdgeDim(c0);
      const auto d_gen = !IsThreeD(pair.plain) ? rc::gen::just<int64_t>(1)
                         : draw.three_d_only   ? rc::gen::just<int64_t>(1)
                                               : DepthDim();
      const int64_t lo = fz ? draw.min_groups : 1, hi = fz ? draw.max_groups : 1;
      auto groups = lo == hi ? rc::gen::just(lo)
                    : lo > 1 ? rc::gen::inRange<int64_t>(lo, hi + 1)
                             : WeightedOneOf<int64_t>({{3, rc::gen::just<int64_t>(1)},
                                                       {2, rc::gen::inRange<int64_t>(2, hi + 1)}});
      return rc::gen::mapcat(groups, [=](int64_t g) {
        // Grouped: N = g·cout + r (r > 0: g does not divide N); else N at the 16 edges.
        auto n_gen = g == 1 ? EdgeDim(16)
                            : rc::gen::mapcat(rc::gen::inRange<int64_t>(1, 20), [g](int64_t cout) {
                                return rc::gen::map(rc::gen::inRange<int64_t>(0, g),
                                                    [g, cout](int64_t r) { return g * cout + r; });
                              });
        return rc::gen::mapcat(
            rc::gen::tuple(n_gen, c_gen, PlaneDim(), PlaneDim(), d_gen, DataSeed()),
            [=](const std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t, int64_t>& t) {
              const auto& [n, c, h, w, d, seed] = t;
              Case out(routines::cann_transdata::kTransData, name);
              out.Set("src_format", pack ? pair.plain : pair.blocked)
                  .Set("dst_format", pack ? pair.blocked : pair.plain)
                  .Set("shape", InOrder(pair.plain, n, c, h, w, d))
                  .Set("dtype", dtype)
                  .Set("seed", seed);
              if (fz) out.Set("groups", g);
              return rc::gen::just(out);
            });
      });
    });
  });
}

// ND with FRACTAL_NZ, and with FRACTAL_NZ_C0_16 / _C0_32 unless `plain_nz_only`.
inline std::vector<FormatPair> NzPairs(bool plain_nz_only) {
  if (plain_nz_only) return {{"ND", "FRACTAL_NZ"}};
  return {{"ND", "FRACTAL_NZ"}, {"ND", "FRACTAL_NZ_C0_16"}, {"ND", "FRACTAL_NZ_C0_32"}};
}

// ND <-> FRACTAL_NZ(_C0_16/_C0_32) calls (spec layouts.md §A.8, cann.md §2.5): a
// byte-sized dtype of the profile's fractal_nz.c0 table, rank min_rank..4, the last
// dim at the C0 edges, the second-to-last at the 16 edges.
inline rc::Gen<Case> NzCase(const Profile& profile, const CaseDomain& domain, bool pack_only,
                            bool plain_nz_only, size_t min_rank = 1) {
  const std::string name = profile.name;
  std::map<DType, int64_t> table;
  for (const auto& [dtype_name, c0] : profile.raw.at("fractal_nz").at("c0").at("value").items()) {
    auto dtype = ParseDType(dtype_name);
    if (dtype && Bits(*dtype) % 8 == 0) table[*dtype] = c0.get<int64_t>();
  }
  std::vector<DType> dtypes;
  for (const auto& [dtype, c0] : table) dtypes.push_back(dtype);
  const std::vector<FormatPair> pairs = NzPairs(plain_nz_only);
  const std::vector<bool> directions =
      pack_only ? std::vector<bool>{true} : std::vector<bool>{true, false};
  return rc::gen::mapcat(
      Pick(AdmittedRoutes(domain, pairs, directions, min_rank)), [=](Route route) {
        const std::string nz = route.pair.blocked;
        const bool pack = route.pack;
        return rc::gen::mapcat(PickIn(domain, "dtype", dtypes), [=](DType dtype) {
          const int64_t c0 = nz == "FRACTAL_NZ_C0_16"   ? 16
                             : nz == "FRACTAL_NZ_C0_32" ? 32
                                                        : table.at(dtype);
          return rc::gen::mapcat(RankIn(domain, "shape", min_rank, 4), [=](size_t rank) {
            auto batch = rc::gen::container<std::vector<int64_t>>(rank > 2 ? rank - 2 : 0,
                                                                  rc::gen::inRange<int64_t>(1, 4));
            return rc::gen::mapcat(
                rc::gen::tuple(batch, EdgeDim(16), EdgeDim(c0), DataSeed()),
                [=](const std::tuple<std::vector<int64_t>, int64_t, int64_t, int64_t>& t) {
                  const auto& [b, n, k, seed] = t;
                  Shape shape = b;
                  if (rank >= 2) shape.push_back(n);
                  shape.push_back(k);
                  Case out(routines::cann_transdata::kTransData, name);
                  out.Set("src_format", pack ? "ND" : nz)
                      .Set("dst_format", pack ? nz : "ND")
                      .Set("shape", shape)
                      .Set("dtype", dtype)
                      .Set("seed", seed);
                  return rc::gen::just(out);
                });
          });
        });
      });
}

// The ways a call can be wrong (spec layouts.md §A.1 steps 1–2, §A.3–A.7).
enum class Fault {
  kUnregisteredPair,
  kRankThree,
  kRankFive,
  kNegativeDim,
  kOverTwoPow40,
  kDtypeWithoutC0,
  kNegativeGroups,
  kGroupsOnNc1hwc0,
  kGroupedEmptyCin,
  kGroupsOverN,
  kGroupsOnFzC04,  // FRACTAL_Z_C04 with groups 2: GE's UNSUPPORTED, 145021 (§A.5)
  kC04COver4,      // FRACTAL_Z_C04 with C = 5.. (§A.5, D8 rejected)
};

inline Case WithFault(Case c, Fault fault) {
  const std::string src = *c.String("src_format"), dst = *c.String("dst_format");
  Shape shape = c.Find("shape")->ints;
  const bool pack = src == "NCHW" || src == "NHWC" || src == "HWCN" || src == "ND" || IsThreeD(src);
  const std::string plain = pack ? src : dst;
  const bool three_d = IsThreeD(plain);
  auto c_axis = [&] {
    return plain == "NHWC"    ? 3
           : plain == "HWCN"  ? 2
           : plain == "NDHWC" ? 4
           : plain == "DHWCN" ? 3
                              : 1;
  };
  auto n_axis = [&] { return plain == "HWCN" ? 3 : plain == "DHWCN" ? 4 : 0; };
  // The 4-D NCHW weight of a call (its 3-D one without D) for the FRACTAL_Z_C04 faults.
  auto as_nchw = [&](int64_t channels) {
    const int64_t n = shape[static_cast<size_t>(n_axis())];
    int64_t h = 1, w = 1;
    if (plain == "NCHW" || plain == "NCDHW") h = shape[shape.size() - 2], w = shape.back();
    if (plain == "NHWC" || plain == "NDHWC")
      h = shape[shape.size() - 3], w = shape[shape.size() - 2];
    if (plain == "HWCN") h = shape[0], w = shape[1];
    if (plain == "DHWCN") h = shape[1], w = shape[2];
    c.Set(pack ? "src_format" : "dst_format", "NCHW")
        .Set(pack ? "dst_format" : "src_format", "FRACTAL_Z_C04")
        .Set("groups", int64_t{1});
    return Shape{n, channels, h, w};
  };
  switch (fault) {
    case Fault::kUnregisteredPair:
      c.Set("src_format", plain).Set("dst_format", plain == "NCHW" ? "NHWC" : "NCHW");
      break;
    case Fault::kRankThree:
      shape.pop_back();
      break;
    case Fault::kRankFive:
      shape.push_back(1);
      break;
    case Fault::kNegativeDim:
      shape[static_cast<size_t>(c_axis())] = -1;
      break;
    case Fault::kOverTwoPow40:
      shape = plain == "ND" ? Shape{int64_t{1} << 21, int64_t{1} << 20}
                            : InOrder(plain, int64_t{1} << 21, int64_t{1} << 20, 1, 1, 1);
      break;
    case Fault::kDtypeWithoutC0:
      c.Set("dtype", DType::kInt16);
      break;
    case Fault::kNegativeGroups:
      c.Set("groups", int64_t{-1});
      break;
    case Fault::kGroupsOnNc1hwc0:
      c.Set(pack ? "dst_format" : "src_format", three_d ? "NDC1HWC0" : "NC1HWC0")
          .Set("groups", int64_t{2});
      if (plain == "HWCN") c.Set(pack ? "src_format" : "dst_format", "NCHW");
      if (plain == "DHWCN") c.Set(pack ? "src_format" : "dst_format", "NCDHW");
      break;
    case Fault::kGroupedEmptyCin:
      c.Set(pack ? "dst_format" : "src_format", three_d ? "FRACTAL_Z_3D" : "FRACTAL_Z")
          .Set("groups", int64_t{2});
      shape[static_cast<size_t>(c_axis())] = 0;
      shape[static_cast<size_t>(n_axis())] = 4;
      break;
    case Fault::kGroupsOverN:
      c.Set(pack ? "dst_format" : "src_format", three_d ? "FRACTAL_Z_3D" : "FRACTAL_Z")
          .Set("groups", shape[static_cast<size_t>(n_axis())] + 1);
      break;
    case Fault::kGroupsOnFzC04:
      shape = as_nchw(std::min<int64_t>(shape[static_cast<size_t>(c_axis())], 4));
      c.Set("groups", int64_t{2});
      break;
    case Fault::kC04COver4:
      shape = as_nchw(std::max<int64_t>(shape[static_cast<size_t>(c_axis())], 5));
      break;
  }
  c.Set("shape", shape);
  return c;
}

// Every fault the profile's readings make a rejection: kGroupsOverN and kC04COver4
// only where they are rejected (D6, D8).
inline std::vector<Fault> Faults(const Profile& profile) {
  std::vector<Fault> faults = {Fault::kUnregisteredPair, Fault::kRankThree,
                               Fault::kRankFive,         Fault::kNegativeDim,
                               Fault::kOverTwoPow40,     Fault::kDtypeWithoutC0,
                               Fault::kNegativeGroups,   Fault::kGroupsOnNc1hwc0,
                               Fault::kGroupedEmptyCin,  Fault::kGroupsOnFzC04};
  const auto& td = profile.raw.at("trans_data");
  if (td.at("groups_exceed_n").at("value") == "rejected") faults.push_back(Fault::kGroupsOverN);
  if (td.at("fz_c04_c_over_4").at("value") == "rejected") faults.push_back(Fault::kC04COver4);
  return faults;
}

// A valid call of `valid` with one of `faults` applied.
inline rc::Gen<Case> Faulty(rc::Gen<Case> valid, std::vector<Fault> faults) {
  return rc::gen::mapcat(std::move(valid), [faults](Case c) {
    return rc::gen::map(Pick(faults), [c](Fault f) { return WithFault(c, f); });
  });
}

// Bad calls: a 4-D or 5-D pair three times in four, ND <-> FRACTAL_NZ (rank 2..4)
// the fourth, each arm only where the claim admits its pairs (a port claiming
// ND <-> FRACTAL_NZ alone gets its bad calls there).
inline rc::Gen<Case> InvalidCase(const Profile& profile, const CaseDomain& domain) {
  const std::vector<bool> both = {true, false};
  const bool blocked = AdmitsSomeRoute(domain, Pairs(), both);
  const bool nz = AdmitsSomeRoute(domain, NzPairs(false), both, 2);
  std::vector<std::pair<uint32_t, rc::Gen<Case>>> arms;
  if (blocked || !nz) arms.emplace_back(3, Faulty(ValidCase(profile, domain), Faults(profile)));
  if (nz) {
    // No dtype fault: FRACTAL_NZ_C0_16 / _C0_32 fix C0 for every dtype (§A.8).
    arms.emplace_back(
        1, Faulty(NzCase(profile, domain, false, false, 2),
                  {Fault::kUnregisteredPair, Fault::kNegativeDim, Fault::kOverTwoPow40}));
  }
  return WeightedOneOf<Case>(std::move(arms));
}

}  // namespace npuconf::gen::cann_transdata
