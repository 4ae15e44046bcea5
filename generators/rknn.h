// RapidCheck generators of RKNN Matmul cases (spec rknn.md §1–5), composed from
// the pieces of generators/shapes.h by dependent generation: a type first, then
// dims that fit an element budget given that type's sub-blocks and the
// platform's segment length, so every case is valid by construction (or invalid
// in exactly the named ways) and shrinks by whole sub-blocks and segments
// toward the smallest such case. The sub-blocks come from the caller (the
// conformance side takes them from the oracle; generators do not include it).
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/case.h"
#include "core/rknn_facts.h"
#include "core/routines/rknn.h"
#include "generators/shapes.h"

namespace npuconf::gen::rknn {

namespace ids = routines::rknn;

// Random cases stay within these many NATIVE elements (the suite's run time);
// the real model shapes cover the large ones.
inline constexpr int64_t kMaxRowBlockedElems = int64_t{1} << 18;  // NATIVE A / C
// NATIVE B, segments included: room for K past two RK3576 segments (or one
// RK3588 segment) with N across two subN blocks, what segment-order bugs need.
inline constexpr int64_t kMaxBNativeElems = int64_t{1} << 21;

inline int64_t RoundUp(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

// A supported type and the NATIVE sub-blocks it uses (§2.2).
struct TypeBlocks {
  int32_t type = 0;
  int64_t a_sub_k = 0;
  int64_t b_sub_n = 0, b_sub_k = 0;
  int64_t c_sub_n = 0;
};

inline rc::Gen<int32_t> SupportedType(const RknnFacts& facts, const CaseDomain& domain) {
  return PickIn(domain, "type", facts.supported_types);
}

// The types the claim admits (its `type` condition), or all of them.
inline std::vector<TypeBlocks> AdmittedTypes(const CaseDomain& domain,
                                             std::vector<TypeBlocks> types) {
  return AdmittedBy(domain, "type", std::move(types),
                    [](const ParamBounds& b, const TypeBlocks& t) { return b.AdmitsInt(t.type); });
}

// The types whose effective sub-blocks (a case leaves sub_k / sub_n out: the
// type's own) the claim admits for `routine`, or all of them.
inline std::vector<TypeBlocks> AdmittedSubBlocks(const CaseDomain& domain,
                                                 const std::string& routine,
                                                 std::vector<TypeBlocks> types) {
  const bool is_a = routine == ids::kANormToNative || routine == ids::kANativeToNorm;
  const bool is_c = routine == ids::kCNormToNative || routine == ids::kCNativeToNorm;
  return KeepOrAll(std::move(types), [&](const TypeBlocks& t) {
    if (is_a) return domain.AdmitsInt("sub_k", t.a_sub_k);
    if (is_c) return domain.AdmitsInt("sub_n", t.c_sub_n);
    return domain.AdmitsInt("sub_n", t.b_sub_n) && domain.AdmitsInt("sub_k", t.b_sub_k);
  });
}

// M: 1 most often (the LLM decode case), small values, 63/64/65; shrinks
// toward 1. M is never padded (§2.1), so nothing special happens at block sizes.
inline rc::Gen<int64_t> M() { return Pick<int64_t>({1, 1, 1, 1, 2, 3, 4, 5, 6, 7, 8, 63, 64, 65}); }

// What a blocked dim holds past its whole blocks, 1..sub: one past a block
// boundary, the whole next block, one short of it (most often), or anything.
// Shrinks toward 1.
inline rc::Gen<int64_t> Remainder(int64_t sub) {
  if (sub <= 1) return rc::gen::just<int64_t>(1);
  return rc::gen::mapcat(Pick<bool>({false, false, false, true}), [sub](bool any) {
    return any ? rc::gen::inRange<int64_t>(1, sub + 1) : Pick<int64_t>({1, sub, sub - 1});
  });
}

// A dim blocked by `sub`: m whole blocks (m in [0, max_blocks]) and a
// Remainder, m·sub + r. The two are drawn apart, so the dim shrinks by whole
// blocks and then toward one past a boundary.
inline rc::Gen<int64_t> BlockedDim(int64_t sub, int64_t max_blocks) {
  return rc::gen::mapcat(
      rc::gen::inRange<int64_t>(0, std::max<int64_t>(max_blocks, 0) + 1), [sub](int64_t m) {
        return rc::gen::map(Remainder(sub), [sub, m](int64_t r) { return m * sub + r; });
      });
}

// How many K segments a B case crosses (§3.3): 0 most often, else 1..`max`;
// shrinks toward 0.
inline rc::Gen<int64_t> FewSegments(int64_t max) {
  std::vector<int64_t> counts(static_cast<size_t>(5 * std::max<int64_t>(max, 1)), 0);
  for (int64_t t = 1; t <= max; ++t) counts.insert(counts.end(), 2, t);
  return Pick(counts);
}
// As FewSegments, but crossing a segment boundary most often.
inline rc::Gen<int64_t> MostlySegmented(int64_t max) {
  std::vector<int64_t> counts(static_cast<size_t>(std::max<int64_t>(max, 1)), 0);
  for (int64_t t = 1; t <= max; ++t) counts.insert(counts.end(), 4, t);
  return Pick(counts);
}

// K of B as whole segments, then a dim blocked by subK (§2.1, §3.3):
// t·L + m·subK + r, t from `segments`. The parts are drawn apart and none
// depends on another, so each shrinks on its own: segments, then blocks, then
// toward one row past a boundary. A shrunk K keeps exactly the segments and
// tiles a failure needs (a segmentation bug stops at L + 1, a tile bug at
// subK + 1).
inline rc::Gen<int64_t> BK(int64_t sub_k, int64_t seg_len, rc::Gen<int64_t> segments,
                           int64_t max_blocks) {
  return rc::gen::mapcat(segments, [=](int64_t t) {
    return rc::gen::map(BlockedDim(sub_k, max_blocks),
                        [=](int64_t rest) { return t * seg_len + rest; });
  });
}

// NATIVE elements of K rows of B per subN column (§3.3: each segment of L rows
// padded to subK on its own).
inline int64_t BKCost(int64_t k, int64_t sub_k, int64_t seg_len) {
  if (seg_len <= 0 || k <= seg_len) return RoundUp(k, sub_k);
  return (k / seg_len) * RoundUp(seg_len, sub_k) + RoundUp(k % seg_len, sub_k);
}

// The ranges of a B case of one type within `budget` NATIVE elements, fixed
// per type so that K and N are drawn apart (shrinking one never redraws the
// other): K up to 8 whole subK blocks past as many segments (at most 2) as
// still leave N room for three subN blocks; N up to what the largest K leaves
// (at most 4 whole blocks past the first).
struct BRanges {
  int64_t max_segments = 0, max_k_blocks = 8, max_n_blocks = 0;
  // The largest K and N these ranges draw (what a claim's bounds fit into).
  int64_t TopK(const TypeBlocks& t, int64_t seg_len) const {
    return max_segments * seg_len + (max_k_blocks + 1) * t.b_sub_k;
  }
  int64_t TopN(const TypeBlocks& t) const { return (max_n_blocks + 1) * t.b_sub_n; }
};
inline BRanges BRangesFor(const TypeBlocks& t, int64_t seg_len, int64_t budget) {
  BRanges out;
  for (int64_t segments = seg_len > 0 ? 2 : 0; segments >= 0; --segments) {
    const int64_t top = segments * seg_len + (out.max_k_blocks + 1) * t.b_sub_k;
    out.max_segments = segments;
    out.max_n_blocks =
        std::min<int64_t>(budget / BKCost(top, t.b_sub_k, seg_len) / t.b_sub_n - 1, 4);
    if (out.max_n_blocks >= 2) break;
  }
  out.max_n_blocks = std::max<int64_t>(out.max_n_blocks, 0);
  return out;
}

// A layout case of `routine` (an A, C or B layout, spec rknn.md §2.1, §3.3):
// a type, then its dims within ranges fixed per type (so that shrinking one dim
// never redraws another), then the data seed. A / C: M, and up to 9 blocks of
// cols (at most 65 · 9 · 32 NATIVE elements, under kMaxRowBlockedElems). B: K
// and N within kMaxBNativeElems (BRangesFor).
inline rc::Gen<Case> LayoutCase(const std::string& profile, const std::string& routine,
                                const std::vector<TypeBlocks>& types, int64_t seg_len,
                                const CaseDomain& domain) {
  const bool is_a = routine == ids::kANormToNative || routine == ids::kANativeToNorm;
  const bool is_c = routine == ids::kCNormToNative || routine == ids::kCNativeToNorm;
  return rc::gen::mapcat(
      Pick(AdmittedSubBlocks(domain, routine, AdmittedTypes(domain, types))),
      [=](const TypeBlocks& t) -> rc::Gen<Case> {
        if (is_a || is_c) {
          const int64_t sub = is_a ? t.a_sub_k : t.c_sub_n;
          const char* cols_key = is_a ? "K" : "N";
          return rc::gen::mapcat(Within(domain, "M", M()), [=](int64_t m) {
            return rc::gen::mapcat(Within(domain, cols_key, BlockedDim(sub, 8), {.hi = 9 * sub}),
                                   [=](int64_t cols) {
                                     return rc::gen::map(DataSeed(), [=](int64_t seed) {
                                       Case c(routine, profile);
                                       c.Set("type", int64_t{t.type})
                                           .Set("M", m)
                                           .Set(is_a ? "K" : "N", cols)
                                           .Set("seed", seed);
                                       return c;
                                     });
                                   });
          });
        }
        const BRanges range = BRangesFor(t, seg_len, kMaxBNativeElems);
        auto k = BK(t.b_sub_k, seg_len, FewSegments(range.max_segments), range.max_k_blocks);
        return rc::gen::mapcat(
            Within(domain, "K", k, {.hi = range.TopK(t, seg_len)}), [=](int64_t rows) {
              return rc::gen::mapcat(Within(domain, "N", BlockedDim(t.b_sub_n, range.max_n_blocks),
                                            {.hi = range.TopN(t)}),
                                     [=](int64_t cols) {
                                       return rc::gen::map(DataSeed(), [=](int64_t seed) {
                                         Case c(routine, profile);
                                         c.Set("type", int64_t{t.type})
                                             .Set("K", rows)
                                             .Set("N", cols)
                                             .Set("seed", seed);
                                         return c;
                                       });
                                     });
            });
      });
}

// B NORM -> NATIVE cases of the segmentation property: K crossing one or two
// segment boundaries most often (§3.3), N up to two subN blocks and a
// remainder (one or several N1 blocks per segment). Needs seg_len > 0.
inline rc::Gen<Case> SegmentCase(const std::string& profile, const std::vector<TypeBlocks>& types,
                                 int64_t seg_len, const CaseDomain& domain) {
  return rc::gen::mapcat(
      Pick(AdmittedSubBlocks(domain, ids::kBNormToNative, AdmittedTypes(domain, types))),
      [=](const TypeBlocks& t) {
        const BRanges range = BRangesFor(t, seg_len, kMaxBNativeElems);
        auto k = BK(t.b_sub_k, seg_len, MostlySegmented(range.max_segments), range.max_k_blocks);
        const int64_t n_blocks = std::min<int64_t>(range.max_n_blocks, 2);
        return rc::gen::mapcat(
            Within(domain, "K", k, {.hi = range.TopK(t, seg_len)}), [=](int64_t rows) {
              return rc::gen::mapcat(Within(domain, "N", BlockedDim(t.b_sub_n, n_blocks),
                                            {.hi = (n_blocks + 1) * t.b_sub_n}),
                                     [=](int64_t cols) {
                                       return rc::gen::map(DataSeed(), [=](int64_t seed) {
                                         Case c(ids::kBNormToNative, profile);
                                         c.Set("type", int64_t{t.type})
                                             .Set("K", rows)
                                             .Set("N", cols)
                                             .Set("seed", seed);
                                         return c;
                                       });
                                     });
            });
      });
}

// B NORM -> NATIVE cases of matmul_consistent: K and N as for the layouts, but
// K within 8 subK blocks and no segments when C is INT16 (|Σ A·B| <= 64·K
// stays exact in int16).
inline rc::Gen<Case> MatmulCase(const RknnFacts& facts, const std::string& profile,
                                const std::vector<TypeBlocks>& types, const CaseDomain& domain) {
  return rc::gen::mapcat(Pick(AdmittedTypes(domain, types)), [=](const TypeBlocks& t) {
    const bool narrow_c = facts.FindType(t.type)->c == DType::kInt16;
    const int64_t seg_len = narrow_c ? 0 : facts.k_segment;
    BRanges range = BRangesFor(t, seg_len, kMaxBNativeElems);
    if (narrow_c) range.max_k_blocks = 7;
    auto k = BK(t.b_sub_k, seg_len, FewSegments(range.max_segments), range.max_k_blocks);
    // An INT16 C is exact only up to 8 subK blocks: K never passes them.
    return rc::gen::mapcat(
        Within(domain, "K", k, {.hi = range.TopK(t, seg_len), .hard_hi = narrow_c}),
        [=](int64_t rows) {
          return rc::gen::mapcat(
              Within(domain, "N", BlockedDim(t.b_sub_n, range.max_n_blocks), {.hi = range.TopN(t)}),
              [=](int64_t cols) {
                return rc::gen::map(DataSeed(), [=](int64_t seed) {
                  Case c(ids::kBNormToNative, profile);
                  c.Set("type", int64_t{t.type}).Set("K", rows).Set("N", cols).Set("seed", seed);
                  return c;
                });
              });
        });
  });
}

// rknn.int4_pack / rknn.int4_unpack: a count, the profile's nibble order or an
// explicit one, a data seed.
inline rc::Gen<Case> Int4Case(const std::string& profile, const std::string& routine,
                              const CaseDomain& domain) {
  const std::vector<std::string> nibbles =
      KeepOrAll(std::vector<std::string>{"", "low_first", "high_first"}, [&](const std::string& n) {
        return n.empty() ? domain.AdmitsAbsent("nibble") : domain.AdmitsText("nibble", n);
      });
  return rc::gen::mapcat(Within(domain, "count", rc::gen::inRange<int64_t>(0, 5000), {.lo = 0}),
                         [=](int64_t count) {
                           return rc::gen::mapcat(Pick(nibbles), [=](const std::string& nibble) {
                             return rc::gen::map(DataSeed(), [=](int64_t seed) {
                               Case c(routine, profile);
                               c.Set("count", count).Set("seed", seed);
                               if (!nibble.empty()) c.Set("nibble", nibble);
                               return c;
                             });
                           });
                         });
}

// ---- rknn_matmul_create (§1.4, §3, §5) ------------------------------------------

// The quantization a valid info asks for (§1.2 enum, §5.3–5.4): per-layer
// symmetric or asymmetric, or per-group with group_size 32 (the only value seen,
// §5.3), which needs NATIVE A/C and B.
enum class InfoQuant { kPerLayerSym, kPerLayerAsym, kPerGroup32 };

// rknn_matmul_layout pairs (§1.3): {AC_layout, B_layout}.
struct InfoLayouts {
  int64_t ac = 0, b = 0;
};

// A valid rknn_matmul_info of the platform: a supported type; K as whole
// segments (§3.3, where the platform segments and has no K limit) and aligned
// units of A's dtype (§3.2), few units most often, else up to the K limit (or
// 3·max(L, 4096)); N aligned within its limit; any M; then the quantization and
// the layouts it allows. Every part shrinks toward the plainest info.
// The create call once every choice is drawn.
inline Case InfoCase(const std::string& profile, int32_t type, int64_t m, int64_t rows,
                     int64_t cols, InfoQuant quant, InfoLayouts layout) {
  Case c(ids::kMatmulCreate, profile);
  c.Set("type", int64_t{type}).Set("M", m).Set("K", rows).Set("N", cols);
  c.Set("AC_layout", layout.ac).Set("B_layout", layout.b);
  if (quant == InfoQuant::kPerLayerAsym)
    c.Set("B_quant_type", int64_t{1}).Set("AC_quant_type", int64_t{1});
  if (quant == InfoQuant::kPerGroup32)
    c.Set("B_quant_type", int64_t{4}).Set("group_size", int64_t{32});
  return c;
}

// Whether the claim admits the int `key` as an info case sets it (`v`, or
// left out when it is the default `absent`).
inline bool AdmitsInfoInt(const CaseDomain& domain, std::string_view key, int64_t v,
                          std::optional<int64_t> absent = 0) {
  return absent && v == *absent ? domain.AdmitsAbsent(key) : domain.AdmitsInt(key, v);
}

// M, then the quant type K admits, then layouts that quant type admits, each
// kept to those the claim admits. (Split from ValidInfo: six nested lambdas
// took clang-format 14 over 100 s.)
inline rc::Gen<Case> InfoForShape(const std::string& profile, bool tp_norm, int32_t type,
                                  int64_t rows, int64_t cols, const CaseDomain& domain) {
  return rc::gen::mapcat(Within(domain, "M", M()), [=](int64_t m) {
    std::vector<InfoQuant> quants = {InfoQuant::kPerLayerSym, InfoQuant::kPerLayerSym,
                                     InfoQuant::kPerLayerAsym};
    if (rows % 32 == 0) quants.push_back(InfoQuant::kPerGroup32);
    quants = KeepOrAll(quants, [&](InfoQuant q) {
      const int64_t b_quant = q == InfoQuant::kPerLayerAsym ? 1
                              : q == InfoQuant::kPerGroup32 ? 4
                                                            : 0;
      const int64_t ac_quant = q == InfoQuant::kPerLayerAsym ? 1 : 0;
      return AdmitsInfoInt(domain, "B_quant_type", b_quant) &&
             AdmitsInfoInt(domain, "AC_quant_type", ac_quant) &&
             AdmitsInfoInt(domain, "group_size", q == InfoQuant::kPerGroup32 ? 32 : 0);
    });
    return rc::gen::mapcat(Pick(quants), [=](InfoQuant quant) {
      std::vector<InfoLayouts> layouts = {{1, 1}};
      if (quant != InfoQuant::kPerGroup32) {
        layouts = {{0, 0}, {1, 0}, {0, 1}, {1, 1}};
        if (tp_norm) layouts.insert(layouts.end(), {{0, 2}, {1, 2}});
      }
      layouts = KeepOrAll(layouts, [&](InfoLayouts l) {
        return AdmitsInfoInt(domain, "B_layout", l.b, std::nullopt) &&
               AdmitsInfoInt(domain, "AC_layout", l.ac, std::nullopt);
      });
      return rc::gen::map(Pick(layouts), [=](InfoLayouts layout) {
        return InfoCase(profile, type, m, rows, cols, quant, layout);
      });
    });
  });
}

inline rc::Gen<Case> ValidInfo(const RknnFacts& f, const std::string& profile,
                               const CaseDomain& domain) {
  const bool tp_norm = static_cast<bool>(f.tp_norm);
  return rc::gen::mapcat(SupportedType(f, domain), [=](int32_t type) {
    const DType a = f.FindType(type)->a;
    const int64_t ka = f.k_align.at(a), na = f.n_align.at(a), n_max = f.n_max.at(a);
    const int64_t seg_len = f.k_max ? 0 : f.k_segment;
    const int64_t units_top =
        f.k_max ? *f.k_max / ka : 3 * std::max<int64_t>(f.k_segment, 4096) / ka;
    auto units = rc::gen::mapcat(Pick<bool>({false, false, true}), [=](bool far) {
      return rc::gen::inRange<int64_t>(1, (far ? units_top : std::min<int64_t>(8, units_top)) + 1);
    });
    auto k = rc::gen::mapcat(FewSegments(seg_len > 0 ? 2 : 0), [=](int64_t t) {
      return rc::gen::map(units, [=](int64_t r) { return t * seg_len + r * ka; });
    });
    return rc::gen::mapcat(Within(domain, "K", k, {.step = ka}), [=](int64_t rows) {
      auto n = rc::gen::map(rc::gen::inRange<int64_t>(1, n_max / na + 1),
                            [na](int64_t r) { return r * na; });
      return rc::gen::mapcat(Within(domain, "N", n, {.hi = n_max, .step = na}), [=](int64_t cols) {
        return InfoForShape(profile, tp_norm, type, rows, cols, domain);
      });
    });
  });
}

// The ways an rknn_matmul_info can be wrong (spec rknn.md §1.1–§3.2, §5.3–§5.4,
// §7.3); each makes a valid info invalid on its own.
enum class CreateFault {
  kUndefinedType,          // §1.1: no such rknn_matmul_type (0, 13, 14, 16, -1)
  kUnsupportedType,        // §3.1: defined, not on this platform
  kKUnaligned,             // §3.2: K % alignment != 0
  kNUnaligned,             // §3.2
  kNAboveMax,              // §3.2: N past the limit of A's dtype
  kMZero,                  // §1.4: M, K, N positive
  kPerGroupNormLayout,     // §5.4, §7.3: per-group needs NATIVE A/C and B
  kGroupSizeNotDividingK,  // §5.3, §7.3: K must align group size
  kNonZeroZp,              // §5.4, §7.3: only zp 0
  kBLayoutOutOfEnum,       // §1.3 (and TP_NORM where the platform has none, §8.11)
  kAcLayoutOutOfEnum,      // §1.4
  kAcQuantNotPerLayer,     // §1.4, §5.1: A and C per-layer only
  kBQuantOutOfEnum,        // §1.2
};

inline Case WithFault(Case c, CreateFault fault, int64_t pick, const RknnFacts& f) {
  auto one_of = [pick](const std::vector<int64_t>& values) {
    return values[static_cast<size_t>(pick) % values.size()];
  };
  const DType a = f.FindType(static_cast<int32_t>(*c.Int("type")))->a;
  const int64_t ka = f.k_align.at(a), na = f.n_align.at(a);
  switch (fault) {
    case CreateFault::kUndefinedType:
      c.Set("type", one_of({0, 13, 14, 16, -1}));
      break;
    case CreateFault::kUnsupportedType: {
      std::vector<int64_t> unsupported;
      for (const RknnMatmulType& t : f.types) {
        if (!f.Supports(t.type)) unsupported.push_back(t.type);
      }
      c.Set("type", one_of(unsupported));
      break;
    }
    case CreateFault::kKUnaligned:
      c.Set("K", *c.Int("K") + 1);
      break;
    case CreateFault::kNUnaligned:
      c.Set("N", *c.Int("N") + 1);
      break;
    case CreateFault::kNAboveMax:
      c.Set("N", f.n_max.at(a) + na);
      break;
    case CreateFault::kMZero:
      c.Set("M", int64_t{0});
      break;
    case CreateFault::kPerGroupNormLayout:
      c.Set("B_quant_type", int64_t{4})
          .Set("group_size", int64_t{32})
          .Set(pick % 2 ? "AC_layout" : "B_layout", int64_t{0});
      break;
    case CreateFault::kGroupSizeNotDividingK:
      // An odd multiple of the alignment, grouped by twice it: K % group_size = alignment.
      c.Set("K", ka * (2 * (pick % 8) + 1))
          .Set("group_size", 2 * ka)
          .Set("B_quant_type", int64_t{4});
      c.Set("AC_layout", int64_t{1}).Set("B_layout", int64_t{1});
      break;
    case CreateFault::kNonZeroZp:
      c.Set("zp", one_of({1, -1, 128}));
      break;
    case CreateFault::kBLayoutOutOfEnum:
      c.Set("B_layout", one_of({3, -1, f.tp_norm ? 3 : 2}));
      break;
    case CreateFault::kAcLayoutOutOfEnum:
      c.Set("AC_layout", one_of({2, -1}));
      break;
    case CreateFault::kAcQuantNotPerLayer:
      c.Set("AC_quant_type", one_of({2, 4}));
      break;
    case CreateFault::kBQuantOutOfEnum:
      c.Set("B_quant_type", one_of({6, -1}));
      break;
  }
  return c;
}

// A valid info inside the claim with one named fault (which may take it out
// of the claim: the runner then discards it).
inline rc::Gen<Case> InvalidInfo(const RknnFacts& f, const std::string& profile,
                                 const CaseDomain& domain) {
  std::vector<CreateFault> faults = {CreateFault::kUndefinedType,
                                     CreateFault::kKUnaligned,
                                     CreateFault::kNUnaligned,
                                     CreateFault::kNAboveMax,
                                     CreateFault::kMZero,
                                     CreateFault::kPerGroupNormLayout,
                                     CreateFault::kGroupSizeNotDividingK,
                                     CreateFault::kNonZeroZp,
                                     CreateFault::kBLayoutOutOfEnum,
                                     CreateFault::kAcLayoutOutOfEnum,
                                     CreateFault::kAcQuantNotPerLayer,
                                     CreateFault::kBQuantOutOfEnum};
  if (f.supported_types.size() < f.types.size()) faults.push_back(CreateFault::kUnsupportedType);
  return rc::gen::mapcat(ValidInfo(f, profile, domain), [=](const Case& valid) {
    return rc::gen::mapcat(rc::gen::inRange<size_t>(0, faults.size()), [=](size_t first) {
      return rc::gen::map(rc::gen::inRange<int64_t>(0, 1 << 20), [=](int64_t pick) {
        return FirstFaultInside(domain, faults.size(), first,
                                [&](size_t i) { return WithFault(valid, faults[i], pick, f); });
      });
    });
  });
}

// ---- rknn_matmul_create_dynamic_shape (§1.10, §4.3) -----------------------------

// The info keys a dynamic-shape case carries over from a create case.
inline Case DynamicFrom(const Case& info, Shape shapes) {
  Case c(ids::kMatmulCreateDynamic, info.profile);
  for (const char* key :
       {"type", "B_layout", "AC_layout", "B_quant_type", "AC_quant_type", "group_size", "zp"}) {
    if (auto v = info.Int(key)) c.Set(key, *v);
  }
  c.Set("shapes", shapes);
  return c;
}

// Valid dynamic-shape calls: a valid info, 1..4 shapes that differ in M only,
// and (TP_NORM B, where K and N may vary, §4.3) maybe one more with the
// smallest aligned K.
inline rc::Gen<Case> ValidDynamic(const RknnFacts& f, const std::string& profile,
                                  const CaseDomain& domain) {
  return rc::gen::mapcat(ValidInfo(f, profile, domain), [=](const Case& info) {
    const int64_t k = *info.Int("K"), n = *info.Int("N");
    const int64_t ka = f.k_align.at(f.FindType(static_cast<int32_t>(*info.Int("type")))->a);
    // Where K and N may vary (§4.3, choice rknn.dynamic.varying_dims).
    const bool may_vary =
        f.varying_dims == "m_k_n" ||
        (f.varying_dims == "k_n_fixed_unless_tp_norm" && info.Int("B_layout") == 2);
    return rc::gen::mapcat(rc::gen::inRange<size_t>(1, 5), [=](size_t count) {
      return rc::gen::mapcat(rc::gen::container<std::vector<int64_t>>(count, M()),
                             [=](const std::vector<int64_t>& ms) {
                               return rc::gen::map(rc::gen::arbitrary<bool>(), [=](bool vary_k) {
                                 Shape shapes;
                                 for (int64_t m : ms) shapes.insert(shapes.end(), {m, k, n});
                                 if (may_vary && vary_k) shapes.insert(shapes.end(), {1, ka, n});
                                 return DynamicFrom(info, shapes);
                               });
                             });
    });
  });
}

// The ways a dynamic-shape call can be wrong (§1.10, §4.3).
enum class DynamicFault {
  kNoShapes,  // "shape_num is invalid!"
  kKDiffers,  // "dynamic_shapes K and N must be same!" (NORM / NATIVE B)
  kNDiffers,
  kInvalidInfo,  // a shape create itself rejects
};

inline rc::Gen<Case> InvalidDynamic(const RknnFacts& f, const std::string& profile,
                                    const CaseDomain& domain) {
  // Differing K or N is a fault only where they must stay fixed (§4.3).
  std::vector<DynamicFault> faults = {DynamicFault::kNoShapes, DynamicFault::kInvalidInfo};
  if (f.varying_dims != "m_k_n")
    faults.insert(faults.end(), {DynamicFault::kKDiffers, DynamicFault::kNDiffers});
  return rc::gen::mapcat(Pick(faults), [=](DynamicFault fault) {
    if (fault == DynamicFault::kInvalidInfo) {
      return rc::gen::map(InvalidInfo(f, profile, domain), [](const Case& info) {
        return DynamicFrom(info, {*info.Int("M"), *info.Int("K"), *info.Int("N")});
      });
    }
    return rc::gen::map(ValidInfo(f, profile, domain), [=](Case info) {
      const int64_t m = *info.Int("M"), k = *info.Int("K"), n = *info.Int("N");
      const DType a = f.FindType(static_cast<int32_t>(*info.Int("type")))->a;
      if (info.Int("B_layout") == 2) info.Set("B_layout", int64_t{0});  // TP_NORM lets K, N vary
      switch (fault) {
        case DynamicFault::kNoShapes:
          return DynamicFrom(info, {});
        case DynamicFault::kKDiffers:
          return DynamicFrom(info, {m, k, n, 1, k + f.k_align.at(a), n});
        case DynamicFault::kNDiffers:
          return DynamicFrom(info, {m, k, n, 1, k, n + f.n_align.at(a)});
        case DynamicFault::kInvalidInfo:
          break;
      }
      return DynamicFrom(info, {m, k, n});
    });
  });
}

}  // namespace npuconf::gen::rknn
