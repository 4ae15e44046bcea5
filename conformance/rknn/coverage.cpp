// The RKNN family's coverage classes (issue #9 item 6; conformance/harness/coverage.h):
// the NATIVE geometry of A/C (row blocks of sub along K or N, spec rknn.md §2.1,
// §2.2) and B (N1 × K1 blocks of subN × subK, K cut into segments of L rows,
// §3.3), int4 packing (§2.4), and the statuses of create (§1.10, §3.1-3.2). The
// case's geometry comes from the suite's own GeometryOf (the ORACLE's
// sub-blocks), so a class means the same thing the checks mean.
//
// Zero dims: the layout routines take M, K, N >= 1 (their materializer refuses
// 0 as a malformed case: a zero-sized matrix has no NATIVE form), so the zero
// in each axis position is a class of rknn.matmul_create (zero.M/K/N, status
// -5), not of the layouts. Offsets past 2^31: likewise by create's io_attr
// sizes (size.past_2_31_bytes), a layout that large is not materialized.
#include "conformance/harness/coverage.h"

#include <numeric>
#include <optional>

#include "conformance/rknn/cases.h"
#include "conformance/rknn/family.h"
#include "conformance/rknn/support.h"
#include "oracles/rknn/create_oracle.h"

namespace npuconf {
namespace {

using namespace rknn_props;

std::optional<LayoutGeometry> Geometry(const Case& c, const Profile& p) {
  try {
    return GeometryOf(c, p);
  } catch (const CaseError&) {
    return std::nullopt;
  }
}

bool AtBlockOffset(int64_t d, int64_t block, int offset) {
  if (block <= 0 || d < block - 1) return false;
  const int64_t m = offset == -1 ? (d + 1) / block : offset == 0 ? d / block : (d - 1) / block;
  return m >= 1 && m * block + offset == d;
}
const char* OffsetName(int offset) {
  return offset == -1 ? "minus_1" : offset == 0 ? "exact" : "plus_1";
}

bool HasTables(const Profile& p) { return p.rknn && p.rknn->has_tables; }

// A supported type whose `matrix` dtype is INT4.
bool HasInt4(const Profile& p, Matrix matrix) {
  if (!HasTables(p)) return false;
  for (int32_t type : p.rknn->supported_types) {
    const RknnMatmulType* t = p.rknn->FindType(type);
    if (t && (matrix == Matrix::kA ? t->a : matrix == Matrix::kB ? t->b : t->c) == DType::kInt4)
      return true;
  }
  return false;
}

using Pred = std::function<bool(const LayoutGeometry&, const Case&, const Profile&)>;

CoverageClass GeoClass(std::string name, std::string doc, Pred pred,
                       std::function<bool(const Profile&)> applies = {}) {
  return {.name = std::move(name),
          .doc = std::move(doc),
          .applies = applies ? std::move(applies) : std::function<bool(const Profile&)>(HasTables),
          .hit = [pred](const Case& c, const Profile& p) {
            auto g = Geometry(c, p);
            return g && pred(*g, c, p);
          }};
}

void TypeClasses(std::vector<CoverageClass>* out) {
  for (int32_t type = 0; type <= 15; ++type) {
    out->push_back(
        {.name = "type." + std::to_string(type),
         .doc = "rknn_matmul_type " + std::to_string(type) +
                ", on the platforms whose list has it (spec rknn.md §1.1, §3.1)",
         .applies = [type](const Profile& p) { return HasTables(p) && p.rknn->Supports(type); },
         .hit = [type](const Case& c, const Profile&) { return c.Int("type") == type; }});
  }
}

std::vector<CoverageClass> RowBlockedClasses(Matrix matrix) {
  std::vector<CoverageClass> out;
  TypeClasses(&out);
  const std::string x = matrix == Matrix::kA ? "K" : "N";
  for (int offset : {-1, 0, 1}) {
    out.push_back(GeoClass(x + ".block_" + OffsetName(offset),
                           x + " at a multiple of the row block sub" +
                               (matrix == Matrix::kA ? "K" : "N") + " " + OffsetName(offset) +
                               " (m >= 1; spec rknn.md §2.1, §2.2); edge cases",
                           [matrix, offset](const LayoutGeometry& g, const Case&, const Profile&) {
                             return AtBlockOffset(matrix == Matrix::kA ? g.K : g.N, g.sub, offset);
                           }));
  }
  out.push_back(
      GeoClass("M.several", "M > 1: several rows in each NATIVE block (§2.1)",
               [](const LayoutGeometry& g, const Case&, const Profile&) { return g.M > 1; }));
  out.push_back(
      GeoClass("dim.past_2_16", "M > 65536 (explicit edge case M = 65537): 16-bit row indices wrap",
               [](const LayoutGeometry& g, const Case&, const Profile&) { return g.M > 65536; }));
  if (matrix == Matrix::kA) {
    out.push_back(GeoClass(
        "int4.odd_elements", "INT4 A with an odd element count (spec rknn.md §2.4)",
        [](const LayoutGeometry& g, const Case&, const Profile&) {
          return g.dtype == DType::kInt4 && (g.M * g.K) % 2 == 1;
        },
        [](const Profile& p) { return HasInt4(p, Matrix::kA); }));
  }
  return out;
}

int64_t Segments(const LayoutGeometry& g) { return static_cast<int64_t>(g.b.segments.size()); }

std::vector<CoverageClass> BClasses(bool tp) {
  std::vector<CoverageClass> out;
  TypeClasses(&out);
  auto segmented = [tp](const Profile& p) {
    return HasTables(p) && p.rknn->k_segment > 0 && (!tp || p.rknn->tp_norm);
  };
  for (int offset : {-1, 0, 1}) {
    out.push_back(GeoClass(std::string("K.block_") + OffsetName(offset),
                           std::string("K at a multiple of subK ") + OffsetName(offset) +
                               " (m >= 1; spec rknn.md §2.1, §2.2)",
                           [offset](const LayoutGeometry& g, const Case&, const Profile&) {
                             return AtBlockOffset(g.K, g.b.sub_k, offset);
                           }));
    out.push_back(GeoClass(
        std::string("N.block_") + OffsetName(offset),
        std::string("N at a multiple of subN ") + OffsetName(offset) + " (m >= 1; §2.1, §2.2)",
        [offset](const LayoutGeometry& g, const Case&, const Profile&) {
          return AtBlockOffset(g.N, g.b.sub_n, offset);
        }));
  }
  for (int n_blocks : {1, 2}) {
    const std::string nb = n_blocks == 1 ? "one_N_block" : "several_N_blocks";
    auto n_ok = [n_blocks](const LayoutGeometry& g) {
      return n_blocks == 1 ? g.N <= g.b.sub_n : g.N > g.b.sub_n;
    };
    out.push_back(GeoClass("segments.1." + nb, "K in one segment (K <= L, §3.3), " + nb,
                           [n_ok](const LayoutGeometry& g, const Case&, const Profile&) {
                             return Segments(g) == 1 && n_ok(g);
                           }));
    out.push_back(GeoClass(
        "segments.2." + nb,
        "K in exactly 2 segments of L rows (§3.3), " + nb +
            "; SegmentCases (conformance/rknn/cases.cpp)",
        [n_ok](const LayoutGeometry& g, const Case&, const Profile&) {
          return Segments(g) == 2 && n_ok(g);
        },
        segmented));
    out.push_back(GeoClass(
        "segments.3_or_more." + nb,
        "K in 3 or more segments (§3.3), " + nb + "; SegmentCases K = 2L+1",
        [n_ok](const LayoutGeometry& g, const Case&, const Profile&) {
          return Segments(g) >= 3 && n_ok(g);
        },
        segmented));
    out.push_back(GeoClass(
        "segments.ragged_last." + nb, "several segments, the last shorter than L (§3.3), " + nb,
        [n_ok](const LayoutGeometry& g, const Case&, const Profile&) {
          return Segments(g) >= 2 && g.b.segments.back().k_rows < g.b.seg_len && n_ok(g);
        },
        segmented));
  }
  out.push_back(GeoClass(
      "K.at_segment_length", "K == L exactly: one full segment (§3.3)",
      [](const LayoutGeometry& g, const Case&, const Profile&) {
        return g.b.seg_len > 0 && g.K == g.b.seg_len;
      },
      segmented));
  out.push_back(
      GeoClass("dim.past_2_16",
               "N > 65536 (explicit edge case N = 65537, K = 1): 16-bit column "
               "indices wrap",
               [](const LayoutGeometry& g, const Case&, const Profile&) { return g.N > 65536; }));
  auto int4_b = [](const Profile& p) { return HasInt4(p, Matrix::kB); };
  out.push_back(GeoClass(
      "int4.odd_elements", "INT4 B with K*N odd: a half-used last byte (§2.4)",
      [](const LayoutGeometry& g, const Case&, const Profile&) {
        return g.dtype == DType::kInt4 && (g.K * g.N) % 2 == 1;
      },
      int4_b));
  for (NibbleOrder order : {NibbleOrder::kLowFirst, NibbleOrder::kHighFirst}) {
    out.push_back(GeoClass(
        std::string("int4.native_nibble.") + NibbleOrderName(order),
        std::string("INT4 NATIVE B read as ") + NibbleOrderName(order) +
            " (choice rknn.int4.native_b_nibble, §2.4, §8.4); the other reading by "
            "native_nibble= edge cases",
        [order](const LayoutGeometry& g, const Case&, const Profile&) {
          return g.dtype == DType::kInt4 && g.native_order == order;
        },
        int4_b));
  }
  return out;
}

std::vector<CoverageClass> Int4Classes(bool pack) {
  auto count = [](const Case& c) { return c.Int("count").value_or(-1); };
  std::vector<CoverageClass> out = {
      {.name = "count.zero",
       .doc = "count = 0: nothing to pack (spec rknn.md §2.4)",
       .hit = [count](const Case& c, const Profile&) { return count(c) == 0; }},
      {.name = "count.odd",
       .doc = "an odd count: the last byte holds one element (§2.4)",
       .hit = [count](const Case& c, const Profile&) { return count(c) % 2 == 1; }},
      {.name = "count.even",
       .doc = "an even count > 0",
       .hit = [count](const Case& c, const Profile&) { return count(c) > 0 && count(c) % 2 == 0; }},
      {.name = "count.past_2_16",
       .doc = "count > 65536 (explicit case count = 65537)",
       .hit = [count](const Case& c, const Profile&) { return count(c) > 65536; }},
      {.name = "verbatim",
       .doc = std::string("verbatim ") + (pack ? "values=[..]" : "packed=[..]") +
              " (the spec's tables, §7.4)",
       .hit = [pack](const Case& c, const Profile&) {
         return c.Find(pack ? "values" : "packed") != nullptr;
       }}};
  for (NibbleOrder order : {NibbleOrder::kLowFirst, NibbleOrder::kHighFirst}) {
    const std::string name = NibbleOrderName(order);
    out.push_back({.name = "nibble." + name,
                   .doc = "the even element in the " + name +
                          " nibble (the profile's int4_nibble or nibble=, §2.4)",
                   .hit = [name](const Case& c, const Profile& p) {
                     auto given = c.String("nibble");
                     if (given) return *given == name;
                     return p.rknn && NibbleOrderName(p.rknn->norm_nibble) == name;
                   }});
  }
  return out;
}

std::vector<CoverageClass> CreateClasses() {
  std::vector<CoverageClass> out;
  TypeClasses(&out);
  auto expect = [](const Case& c, const Profile& p) {
    return oracle::rknn::ExpectCreate(*p.rknn, InfoOf(c), ReadingsOf(c));
  };
  auto status = [expect](int64_t want) {
    return [expect, want](const Case& c, const Profile& p) {
      return p.rknn && expect(c, p).status == want;
    };
  };
  out.push_back({.name = "status.0",
                 .doc = "RKNN_SUCC (spec rknn.md §1.10)",
                 .applies = HasTables,
                 .hit = status(0)});
  out.push_back({.name = "status.-5",
                 .doc = "RKNN_ERR_PARAM_INVALID (§1.10, §3.1-3.2, §5.4)",
                 .applies = HasTables,
                 .hit = status(-5)});
  for (int layout = 0; layout <= 2; ++layout) {
    out.push_back(
        {.name = "B_layout." + std::to_string(layout),
         .doc = "B_layout " + std::to_string(layout) +
                " (0 NORM, 1 NATIVE, 2 TP_NORM where the platform has it; §1.3)",
         .applies =
             [layout](const Profile& p) {
               return HasTables(p) && (layout != 2 || p.rknn->tp_norm);
             },
         .hit = [layout](const Case& c,
                         const Profile&) { return c.Int("B_layout").value_or(0) == layout; }});
  }
  for (int layout = 0; layout <= 1; ++layout) {
    out.push_back({.name = "AC_layout." + std::to_string(layout),
                   .doc = "AC_layout " + std::to_string(layout) + " (§1.3)",
                   .applies = HasTables,
                   .hit = [layout](const Case& c, const Profile&) {
                     return c.Int("AC_layout").value_or(0) == layout;
                   }});
  }
  for (const char* dim : {"M", "K", "N"}) {
    out.push_back({.name = std::string("zero.") + dim,
                   .doc = std::string("a zero ") + dim + " (rejected, §3.2)",
                   .applies = HasTables,
                   .hit = [dim = std::string(dim)](const Case& c, const Profile&) {
                     return c.Int(dim) == 0;
                   }});
  }
  out.push_back({.name = "dim.past_2_16",
                 .doc = "M, K or N > 65536 (explicit edge cases)",
                 .applies = HasTables,
                 .hit = [](const Case& c, const Profile&) {
                   for (const char* d : {"M", "K", "N"})
                     if (c.Int(d).value_or(0) > 65536) return true;
                   return false;
                 }});
  out.push_back({.name = "size.past_2_31_bytes",
                 .doc = "RKNN_SUCC with an io_attr size past 2^31 bytes: offsets past 2^31 in "
                        "A, B or C, reached by create's sizes only (explicit edge case M = "
                        "2^20 with the largest K, N the platform admits)",
                 .applies = HasTables,
                 .hit = [expect](const Case& c, const Profile& p) {
                   if (!p.rknn) return false;
                   const auto e = expect(c, p);
                   const uint64_t limit = uint64_t{1} << 31;
                   return e.status == 0 && (e.A.size_bytes > limit || e.B.size_bytes > limit ||
                                            e.C.size_bytes > limit);
                 }});
  out.push_back(
      {.name = "K.at_segment_length",
       .doc = "K == L, the B segment length (§3.3)",
       .applies = [](const Profile& p) { return HasTables(p) && p.rknn->k_segment > 0; },
       .hit = [](const Case& c,
                 const Profile& p) { return p.rknn && c.Int("K") == p.rknn->k_segment; }});
  for (int q = 0; q <= 5; ++q) {
    out.push_back({.name = "B_quant_type." + std::to_string(q),
                   .doc = "B_quant_type " + std::to_string(q) + " (§1.2, §8.10)",
                   .applies = HasTables,
                   .hit = [q](const Case& c, const Profile&) {
                     return c.Int("B_quant_type").value_or(0) == q;
                   }});
  }
  return out;
}

}  // namespace

std::vector<Case> rknn_props::CoverageCreateCases(const Profile& profile) {
  std::vector<Case> out;
  if (!HasTables(profile) || profile.rknn->supported_types.empty()) return out;
  const RknnFacts& f = *profile.rknn;
  const int32_t type = f.supported_types.front();
  const DType a = f.FindType(type)->a;
  const int64_t K = f.k_align.count(a) ? 4 * f.k_align.at(a) : 64;
  const int64_t N = f.n_align.count(a) ? 4 * f.n_align.at(a) : 64;
  auto base = [&](int64_t m, int64_t k, int64_t n) {
    Case c(kCreate, profile.name);
    return c.Set("type", int64_t{type}).Set("M", m).Set("K", k).Set("N", n);
  };
  out.push_back(base(4, 0, N));
  out.push_back(base(4, K, 0));
  out.push_back(base(65537, K, N));
  out.push_back(base(4, 65537, N));
  out.push_back(base(4, K, 65537));
  if (f.k_segment > 0) out.push_back(base(4, f.k_segment, N));
  for (int64_t q = 0; q <= 5; ++q) {
    Case c = base(4, K, N).Set("B_quant_type", q);
    if (q >= 4) c.Set("group_size", int64_t{32});
    out.push_back(c);
  }
  // Per-group with group sizes other than 32 that divide K (valid under
  // divides_k, rejected under 32_only: choice rknn.quant.group_size, §5.3),
  // on every type per-group admits.
  for (int32_t t : f.supported_types) {
    const DType ta = f.FindType(t)->a;
    const int64_t ka = f.k_align.count(ta) ? f.k_align.at(ta) : 32;
    for (const int64_t gs : {64, 48}) {
      const int64_t k = std::lcm(gs, ka) * 2;
      Case c(kCreate, profile.name);
      c.Set("type", int64_t{t}).Set("M", 4).Set("K", k).Set("N", N);
      c.Set("B_quant_type", int64_t{4}).Set("group_size", gs);
      c.Set("AC_layout", int64_t{1}).Set("B_layout", int64_t{1});
      out.push_back(c);
    }
  }
  // An io_attr size past 2^31 bytes: the first of a few large M the oracle accepts.
  for (int64_t m : {int64_t{1} << 20, int64_t{1} << 22, int64_t{1} << 24, int64_t{1} << 28}) {
    const Case c = base(m, K, N);
    const auto e = oracle::rknn::ExpectCreate(f, InfoOf(c), ReadingsOf(c));
    if (e.status == 0 &&
        (e.A.size_bytes > (uint64_t{1} << 31) || e.C.size_bytes > (uint64_t{1} << 31))) {
      out.push_back(c);
      break;
    }
  }
  return out;
}

void AddRknnCoverage(std::vector<RoutineCoverage>* out) {
  out->push_back({kCreate, CreateClasses()});
  out->push_back({kANorm2Native, RowBlockedClasses(Matrix::kA)});
  out->push_back({kANative2Norm, RowBlockedClasses(Matrix::kA)});
  out->push_back({kCNorm2Native, RowBlockedClasses(Matrix::kC)});
  out->push_back({kCNative2Norm, RowBlockedClasses(Matrix::kC)});
  out->push_back({kBNorm2Native, BClasses(false)});
  out->push_back({kBNative2Norm, BClasses(false)});
  out->push_back({kBTp2Native, BClasses(true)});
  out->push_back({kBNative2Tp, BClasses(true)});
  out->push_back({kInt4Pack, Int4Classes(true)});
  out->push_back({kInt4Unpack, Int4Classes(false)});
}

}  // namespace npuconf
