// Properties of the RKNN Matmul layouts (spec rknn.md §2.1, §2.4, §3.3): A NORM <->
// NATIVE, C NATIVE <-> NORM, B NORM / TP_NORM <-> NATIVE with K segmentation.
// matches_oracle, no_write_past_capacity, padding_is_zero and round_trip come
// from the layout template (conformance/harness/layout_properties.h) with the
// storage maps of native_map.h; this family adds the K-segment invariant, the
// matmul the layouts exist for, and int4 packing.
#include "conformance/harness/layout_properties.h"

#include <algorithm>
#include <cstring>

#include "conformance/harness/suite.h"
#include "conformance/rknn/cases.h"
#include "conformance/rknn/native_map.h"
#include "conformance/rknn/support.h"
#include "core/status.h"
#include "generators/rknn.h"
#include "verify/compare.h"

namespace npuconf {
namespace {

using namespace rknn_props;
namespace orc = oracle::rknn;

Bytes Head(std::span<const uint8_t> data, uint64_t bytes) {
  return Bytes(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(bytes));
}

// How an element of a side is read: its dtype, and for INT4 which nibble holds
// the even element (§2.4: NORM per the profile's int4_nibble, NATIVE B per
// choice rknn.int4.native_b_nibble).
verify::ElementCodec Codec(DType dtype, NibbleOrder order) {
  return {dtype, order == NibbleOrder::kHighFirst};
}

std::shared_ptr<const verify::StorageMap> NativeMapOf(const LayoutGeometry& l) {
  if (l.matrix == Matrix::kB) return std::make_shared<BNativeMap>(l.b);
  return std::make_shared<RowBlockedMap>(l.M, l.plain_dims[1], l.sub, l.matrix == Matrix::kA);
}

std::shared_ptr<const verify::StorageMap> PlainMapOf(const LayoutGeometry& l) {
  return PlainMap(l.matrix, l.tp, l.plain_dims[0], l.plain_dims[1]);
}

// The oracle's output for a layout case's input.
Bytes OracleOut(const LayoutGeometry& l, const Bytes& in) {
  if (l.matrix == Matrix::kB) {
    return l.to_native ? orc::BToNative(in, l.b, l.dtype, l.tp, l.plain_order, l.native_order)
                       : orc::BToPlain(in, l.b, l.dtype, l.tp, l.native_order, l.plain_order);
  }
  const int64_t cols = l.plain_dims[1];
  return l.to_native
             ? orc::RowBlockedToNative(in, l.M, cols, l.sub, l.dtype, l.plain_order, l.native_order)
             : orc::RowBlockedToNorm(in, l.M, cols, l.sub, l.dtype, l.native_order, l.plain_order);
}

LayoutInstance RknnInstance(const Case& c, const Profile& profile) {
  const LayoutGeometry g = GeometryOf(c, profile);
  const verify::ElementCodec plain = Codec(g.dtype, g.plain_order),
                             native = Codec(g.dtype, g.native_order);
  const auto plain_map = PlainMapOf(g), native_map = NativeMapOf(g);
  LayoutInstance l;
  l.input = g.in_name();
  l.output = g.out_name();
  l.input_codec = g.to_native ? plain : native;
  l.output_codec = g.to_native ? native : plain;
  l.input_elems = g.to_native ? g.plain_elems : g.native_elems;
  l.output_elems = g.to_native ? g.native_elems : g.plain_elems;
  l.output_dims = g.to_native ? g.native_dims : g.plain_dims;
  l.output_dims_open = g.matrix == Matrix::kB && g.to_native && g.b.segments.size() > 1 &&
                       SegmentedBDimsOpen(profile);
  l.oracle = [g](const Bytes& in) { return OracleOut(g, in); };
  if (g.matrix == Matrix::kB && g.to_native) {
    // One NATIVE column block of one K segment per tile (oracles/rknn/layout_oracle.h).
    l.oracle_tiles = orc::BTileCount(g.b);
    l.oracle_tile = [g](std::span<const uint8_t> in, int64_t t) {
      return OracleTile{
          .offset_bytes = static_cast<uint64_t>(orc::BTileOffsetElems(g.b, t)) * Bits(g.dtype) / 8,
          .bytes = orc::BToNativeTile(in, g.b, g.dtype, g.tp, g.plain_order, g.native_order, t)};
    };
  }
  l.output_map = g.to_native ? native_map : plain_map;
  l.input_map = g.to_native ? plain_map : native_map;
  return l;
}

// ---- the K-segment invariant (§3.3) -------------------------------------------------

// Segment t holds exactly the K rows [t·L, min((t+1)·L, K)), laid out as its own
// padded NATIVE block; the blocks are concatenated; the total is the sum of the
// segment sizes. The expected buffer is built here from the UNSEGMENTED oracle
// run on each segment's rows alone, so it does not rest on the oracle's own
// segmentation.
Verdict CheckSegmentation(const PropertyContext& ctx, const Case& c) {
  const LayoutGeometry l = GeometryOf(c, ctx.profile);
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  const OutputResult& out = *k.answer.Output(l.native_name);
  if (auto v = CheckGuards(out)) return *v;
  if (k.answer.status != rknn::kRknnSucc) {
    return Verdict::Fail("status " + StatusText("rknn", k.answer.status) +
                         " for a valid layout case");
  }
  int64_t total = 0;
  for (const auto& s : l.b.segments) total += s.elems;
  auto reported = NumElements(out.dims);
  // Under rknn.segment.b_dims = unknown a segmented B's dims are open (§8.7).
  const bool dims_open = l.b.segments.size() > 1 && SegmentedBDimsOpen(ctx.profile);
  if (!dims_open && (out.rank != 4 || !reported || *reported != total)) {
    return Verdict::Fail("B_native dims " + ReportedDims(out) + " hold " +
                         (reported ? std::to_string(*reported) : "?") + " elements; the " +
                         std::to_string(l.b.segments.size()) + " segments hold " +
                         std::to_string(total));
  }
  const Bytes& norm = k.inv.Input(l.plain_name)->bytes;
  const bool int4 = Bits(l.dtype) == 4;
  const Bytes values = int4 ? orc::UnpackNibbles(norm, l.plain_elems, l.plain_order) : norm;
  const int64_t elem_bytes = int4 ? 1 : Bits(l.dtype) / 8;
  Bytes want;
  for (const auto& s : l.b.segments) {
    const auto alone = *orc::BLayoutOf(s.k_rows, l.N, l.b.sub_n, l.b.sub_k, 0);
    Bytes rows(values.begin() + s.k_begin * l.N * elem_bytes,
               values.begin() + (s.k_begin + s.k_rows) * l.N * elem_bytes);
    if (int4) rows = orc::PackNibbles(rows, l.plain_order);
    const Bytes block = orc::BToNative(rows, alone, l.dtype, false, l.plain_order, l.native_order);
    want.insert(want.end(), block.begin(),
                block.end());  // int4: every block is a whole number of bytes
  }
  const BNativeMap map(l.b);
  const auto comparison = verify::Compare({.output = l.native_name,
                                           .got = out.contents(),
                                           .want = want,
                                           .codec = Codec(l.dtype, l.native_order),
                                           .count = l.native_elems,
                                           .map = &map});
  if (comparison.ok()) return Verdict::Pass();
  return FailFrom(comparison, l.dtype, &map,
                  "the " + std::to_string(l.b.segments.size()) + " K segments of " +
                      std::to_string(l.b.seg_len) +
                      " rows, each converted alone and concatenated (§3.3), differ: ");
}

// ---- the matmul the layouts exist for -------------------------------------------------

// The case is the B case; A's rows M come from its seed (1 most often, small
// values, 63..65; 1 when K crosses a segment threshold), so the B case alone
// replays the whole check.
int64_t MatmulRows(const Case& c) {
  static constexpr int64_t kRows[] = {1, 1, 1, 2, 3, 4, 5, 7, 8, 63, 64, 65};
  if (*c.Int("K") > 600) return 1;
  return kRows[static_cast<uint64_t>(c.Int("seed").value_or(0)) % std::size(kRows)];
}

// C's values as the bytes of its dtype (INT32 / INT16: exact for the K the generator draws).
Bytes CBytes(const std::vector<int64_t>& values, DType c) {
  const size_t width = static_cast<size_t>(Bits(c) / 8);
  Bytes out(values.size() * width);
  for (size_t i = 0; i < values.size(); ++i) {
    const int32_t v32 = static_cast<int32_t>(values[i]);
    const int16_t v16 = static_cast<int16_t>(values[i]);
    std::memcpy(out.data() + i * width, width == 4 ? static_cast<const void*>(&v32) : &v16, width);
  }
  return out;
}

// C computed by a direct loop over the port's NATIVE A and NATIVE B through the
// §2.1/§3.3 index maps, handed to the port's c_native_to_norm, equals Eigen's
// A·B on the NORM matrices (int64 accumulation).
Verdict CheckMatmul(const PropertyContext& ctx, const Case& c) {
  const RknnFacts& f = *ctx.profile.rknn;
  const RknnMatmulType& t = *f.FindType(static_cast<int32_t>(*c.Int("type")));
  const int64_t M = MatmulRows(c), K = *c.Int("K"), N = *c.Int("N");
  Case ca(kANorm2Native, ctx.profile.name);
  ca.Set("type", t.type).Set("M", M).Set("K", K).Set("seed", c.Int("seed").value_or(0));
  const LayoutGeometry la = GeometryOf(ca, ctx.profile), lb = GeometryOf(c, ctx.profile);
  Called a, b;
  if (auto v = CallPort(ctx, ca, &a)) return *v;
  if (auto v = CallPort(ctx, c, &b)) return *v;
  if (a.answer.status != rknn::kRknnSucc || b.answer.status != rknn::kRknnSucc) {
    return Verdict::Fail("a_norm_to_native status " + StatusText("rknn", a.answer.status) +
                         ", b_norm_to_native status " + StatusText("rknn", b.answer.status));
  }
  const auto a_native =
      orc::IntValues(Head(a.answer.Output("A_native")->contents(), la.native_bytes),
                     la.native_elems, t.a, la.native_order);
  const auto b_native =
      orc::IntValues(Head(b.answer.Output("B_native")->contents(), lb.native_bytes),
                     lb.native_elems, t.b, lb.native_order);
  const int64_t c_sub = SubBlocksOf(f, t.type).c_sub_n;
  const auto c_native = orc::MatmulNative(a_native, b_native, M, K, N, la.sub, lb.b, c_sub);
  Case cc(kCNative2Norm, ctx.profile.name);
  cc.Set("type", t.type).Set("M", M).Set("N", N);
  Invocation inv = ctx.suite.Materialize(cc, ctx.profile);
  inv.inputs[0].bytes = CBytes(c_native, t.c);
  Called back;
  if (auto v = CallPort(ctx, std::move(inv), &back)) return *v;
  if (back.answer.status != rknn::kRknnSucc) {
    return Verdict::Fail("c_native_to_norm status " + StatusText("rknn", back.answer.status));
  }
  const auto want = CBytes(
      orc::MatmulNorm(orc::IntValues(a.inv.Input("A")->bytes, M * K, t.a, f.norm_nibble),
                      orc::IntValues(b.inv.Input("B")->bytes, K * N, t.b, f.norm_nibble), M, K, N),
      t.c);
  const auto map = PlainMap(Matrix::kC, false, M, N);
  const auto comparison = verify::Compare({.output = "C",
                                           .got = back.answer.Output("C")->contents(),
                                           .want = want,
                                           .codec = Codec(t.c, f.norm_nibble),
                                           .count = M * N,
                                           .map = map.get()});
  if (comparison.ok()) return Verdict::Pass();
  return FailFrom(comparison, t.c, map.get(),
                  "C = A*B (M=" + std::to_string(M) +
                      ") through the port's NATIVE A and B and its c_native_to_norm differs from "
                      "Eigen's A*B on "
                      "NORM: ");
}

std::vector<gen::rknn::TypeBlocks> MatmulTypes(const RknnFacts& f) {
  auto integer = [](DType d) { return d == DType::kInt4 || d == DType::kInt8; };
  std::vector<gen::rknn::TypeBlocks> out;
  for (const auto& blocks : TypeBlocksOf(f)) {
    const RknnMatmulType& t = *f.FindType(blocks.type);
    if (integer(t.a) && integer(t.b) && (t.c == DType::kInt32 || t.c == DType::kInt16))
      out.push_back(blocks);
  }
  return out;
}

// ---- int4 ---------------------------------------------------------------------------

NibbleOrder CaseNibble(const Case& c, const Profile& p) {
  auto text = c.String("nibble");
  return text ? ParseNibbleOrder(*text).value_or(p.rknn->norm_nibble) : p.rknn->norm_nibble;
}

// spec rknn.md §7.4 (v2.x, low nibble first).
struct PackRow {
  std::vector<int64_t> values;
  Bytes low_first;
};
const std::vector<PackRow>& PackRows() {
  static const std::vector<PackRow> rows = {{{1, -1}, {0xF1}}, {{-8, 7, 3, -2}, {0x78, 0xE3}}};
  return rows;
}

Verdict CheckInt4(const PropertyContext& ctx, const Case& c) {
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  const NibbleOrder order = CaseNibble(c, ctx.profile);
  const int64_t count = *c.Int("count");
  const bool pack = c.routine == kInt4Pack;
  const OutputResult& out = *k.answer.Output(pack ? "packed" : "values");
  if (auto v = CheckGuards(out)) return *v;
  if (k.answer.status != rknn::kRknnSucc)
    return Verdict::Fail("status " + StatusText("rknn", k.answer.status));
  const Bytes& in = k.inv.inputs[0].bytes;
  const Bytes want = pack ? orc::PackInt4(in, order) : orc::UnpackInt4(in, count, order);
  // Packed: every nibble of the ceil(count/2) bytes, the unused one of an odd
  // count included (the oracle leaves it 0).
  const verify::ElementCodec codec = pack ? Codec(DType::kInt4, order) : Codec(DType::kInt8, order);
  const auto comparison = verify::Compare({.output = out.name,
                                           .got = out.contents(),
                                           .want = want,
                                           .codec = codec,
                                           .count = pack ? count + count % 2 : count});
  if (!comparison.ok()) {
    return FailFrom(comparison, codec.dtype, nullptr,
                    std::string(NibbleOrderName(order)) + " order: ");
  }
  // The documented vectors of §7.4 (v2.x, low nibble first): the oracle must agree.
  if (pack && order == NibbleOrder::kLowFirst && c.Find("values")) {
    for (const auto& row : PackRows()) {
      if (*c.IntList("values") == row.values && want != row.low_first) {
        return Verdict::Fail("the oracle disagrees with spec rknn.md §7.4 for " +
                             ToString(row.values));
      }
    }
  }
  return Verdict::Pass();
}

// unpack(pack(x)) == x through the port alone.
Verdict CheckInt4RoundTrip(const PropertyContext& ctx, const Case& c) {
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  const NibbleOrder order = CaseNibble(c, ctx.profile);
  const int64_t count = *c.Int("count");
  const OutputResult& packed = *k.answer.Output("packed");
  if (auto v = CheckGuards(packed)) return *v;
  if (k.answer.status != rknn::kRknnSucc)
    return Verdict::Fail("status " + StatusText("rknn", k.answer.status));
  Case back = c;
  back.routine = kInt4Unpack;
  back.params.erase("values");
  Invocation inv = ctx.suite.Materialize(back, ctx.profile);
  inv.inputs[0].bytes = Head(packed.contents(), static_cast<uint64_t>(count / 2 + count % 2));
  Called u;
  if (auto v = CallPort(ctx, std::move(inv), &u)) return *v;
  const OutputResult& values = *u.answer.Output("values");
  if (auto v = CheckGuards(values)) return *v;
  if (u.answer.status != rknn::kRknnSucc) {
    return Verdict::Fail("int4_unpack status " + StatusText("rknn", u.answer.status));
  }
  const auto comparison = verify::Compare({.output = "values",
                                           .got = values.contents(),
                                           .want = k.inv.inputs[0].bytes,
                                           .codec = Codec(DType::kInt8, order),
                                           .count = count});
  if (comparison.ok()) return Verdict::Pass();
  return FailFrom(comparison, DType::kInt8, nullptr,
                  "unpack(pack(x)) differs from x (" + std::string(NibbleOrderName(order)) + "): ");
}

std::vector<Case> Int4Explicit(const PropertyContext& ctx, const std::string& routine) {
  std::vector<Case> out;
  // The §7.4 vectors: verbatim values to pack, verbatim bytes to unpack.
  for (const auto& row : PackRows()) {
    for (const char* order : {"low_first", "high_first"}) {
      Case c(routine, ctx.profile.name);
      c.Set("count", static_cast<int64_t>(row.values.size())).Set("nibble", order);
      if (routine == kInt4Pack) {
        c.Set("values", Shape(row.values));
      } else {
        c.Set("packed", Shape(row.low_first.begin(), row.low_first.end()));
      }
      out.push_back(c);
    }
  }
  int64_t seed = 1;
  for (int64_t count : {0, 1, 2, 3, 31, 64, 1001, 65537}) {  // 65537: past 2^16
    Case c(routine, ctx.profile.name);
    c.Set("count", count).Set("seed", seed++);
    out.push_back(c);
  }
  return out;
}

// ---- registration -------------------------------------------------------------------

bool IsForward(const std::string& r) {
  return r == kANorm2Native || r == kCNorm2Native || r == kBNorm2Native || r == kBTp2Native;
}

std::string InverseOf(const std::string& r) {
  if (r == kANorm2Native) return kANative2Norm;
  if (r == kCNorm2Native) return kCNative2Norm;
  if (r == kBNorm2Native) return kBNative2Norm;
  if (r == kBTp2Native) return kBNative2Tp;
  return "";
}

std::vector<std::string> ChoicesFor(const std::string& routine) {
  switch (MatrixOf(routine)) {
    case Matrix::kA:
      return {};
    case Matrix::kC:
      return {"rknn.native.c_sub_n_other_outputs"};
    case Matrix::kB:
      break;
  }
  std::vector<std::string> out = {"rknn.native.mixed_b_layout", "rknn.int4.native_b_nibble",
                                  "rknn.segment.order", "rknn.segment.b_dims",
                                  "rknn.sdk16.k_segment"};
  if (IsTpRoutine(routine)) out.push_back("rknn.tp_norm.dtypes");
  return out;
}

std::string What(const std::string& routine) {
  const char* matrix = MatrixOf(routine) == Matrix::kA   ? "A"
                       : MatrixOf(routine) == Matrix::kC ? "C"
                                                         : "B";
  const std::string plain = IsTpRoutine(routine) ? "TP_NORM" : "NORM";
  if (IsForward(routine)) {
    return std::string(matrix) + " " + plain +
           " -> NATIVE (the oracle's pad -> reshape -> shuffle" +
           (MatrixOf(routine) == Matrix::kB ? ", K segments concatenated)" : ")");
  }
  return std::string(matrix) + " NATIVE -> " + plain +
         " (the oracle's inverse; the input's padding, random here, ignored)";
}

LayoutRoutine RknnLayout(const std::string& routine) {
  const bool tp = IsTpRoutine(routine);
  return {
      .routine = routine,
      .inverse = InverseOf(routine),
      .vendor = "rknn",
      .success = rknn::kRknnSucc,
      .what = What(routine),
      .output_has_padding = IsForward(routine),
      .choices = ChoicesFor(routine),
      .not_applicable = [tp](const Profile& p) -> std::string {
        if (tp && p.rknn && p.rknn->has_tables && !p.rknn->tp_norm) {
          return "no TP_NORM B on this platform (spec rknn.md §1.3, §8.11)";
        }
        return "";
      },
      .instance = RknnInstance,
      .edge_cases =
          [routine](const PropertyContext& ctx) {
            auto cases = EdgeLayoutCases(routine, ctx.profile);
            auto segments = SegmentCases(routine, ctx.profile, false);
            cases.insert(cases.end(), segments.begin(), segments.end());
            return cases;
          },
      .real_cases = [routine](const PropertyContext& ctx) { return RealLayoutCases(routine, ctx); },
      .generator =
          [routine](const PropertyContext& ctx) {
            const RknnFacts& f = *ctx.profile.rknn;
            return gen::rknn::LayoutCase(ctx.profile.name, routine, TypeBlocksOf(f), f.k_segment,
                                         ctx.Domain());
          }};
}

}  // namespace

void rknn_props::AddLayoutProperties(std::vector<Property>* out) {
  for (const char* r : {kANorm2Native, kANative2Norm, kCNorm2Native, kCNative2Norm, kBNorm2Native,
                        kBNative2Norm, kBTp2Native, kBNative2Tp}) {
    npuconf::AddLayoutProperties(RknnLayout(r), out);
  }
  out->push_back({.name = std::string(kBNorm2Native) + ".segmentation",
                  .routine = kBNorm2Native,
                  .description = "segment t holds exactly K rows [t*L, min((t+1)*L, K)), each "
                                 "padded on its own, concatenated; "
                                 "total size = sum of segment sizes (spec rknn.md §3.3)",
                  .choices = {"rknn.segment.order", "rknn.segment.b_dims", "rknn.sdk16.k_segment"},
                  .not_applicable = [](const Profile& p) -> std::string {
                    if (p.rknn && p.rknn->has_tables && p.rknn->k_segment == 0) {
                      return "no K segmentation on this platform (spec rknn.md §3.3)";
                    }
                    return "";
                  },
                  .explicit_cases =
                      [](const PropertyContext& ctx) {
                        return SegmentCases(kBNorm2Native, ctx.profile, true);
                      },
                  .generator =
                      [](const PropertyContext& ctx) {
                        const RknnFacts& f = *ctx.profile.rknn;
                        return gen::rknn::SegmentCase(ctx.profile.name, TypeBlocksOf(f),
                                                      f.k_segment, ctx.Domain());
                      },
                  .check = CheckSegmentation});
  out->push_back(
      {.name = std::string(kBNorm2Native) + ".matmul_consistent",
       .routine = kBNorm2Native,
       .also_needs = {kANorm2Native, kCNative2Norm},
       .description = "C by a direct loop over the port's NATIVE A and NATIVE B index maps, "
                      "converted back by the "
                      "port, equals Eigen's A*B on the NORM matrices (int64; integer types with an "
                      "INT32/INT16 C)",
       .choices = {"rknn.native.mixed_b_layout", "rknn.int4.native_b_nibble", "rknn.segment.order"},
       .not_applicable = [](const Profile& p) -> std::string {
         if (p.rknn && p.rknn->has_tables && MatmulTypes(*p.rknn).empty())
           return "no integer type with an integer C";
         return "";
       },
       .generator =
           [](const PropertyContext& ctx) {
             const RknnFacts& f = *ctx.profile.rknn;
             return gen::rknn::MatmulCase(f, ctx.profile.name, MatmulTypes(f), ctx.Domain());
           },
       .check = CheckMatmul});
  for (const char* r : {kInt4Pack, kInt4Unpack}) {
    const std::string routine = r;
    out->push_back(
        {.name = routine + ".matches_oracle",
         .routine = routine,
         .description =
             "two's-complement nibbles, even element in the low (v2.x) or high (SDK 1.6) "
             "nibble; spec rknn.md §2.4, §7.4",
         .explicit_cases =
             [routine](const PropertyContext& ctx) { return Int4Explicit(ctx, routine); },
         .generator =
             [routine](const PropertyContext& ctx) {
               return gen::rknn::Int4Case(ctx.profile.name, routine, ctx.Domain());
             },
         .check = CheckInt4});
  }
  out->push_back(
      {.name = std::string(kInt4Pack) + ".round_trip",
       .routine = kInt4Pack,
       .also_needs = {kInt4Unpack},
       .description = "unpack(pack(x)) == x for x in -8..7",
       .explicit_cases = [](const PropertyContext& ctx) { return Int4Explicit(ctx, kInt4Pack); },
       .generator =
           [](const PropertyContext& ctx) {
             return gen::rknn::Int4Case(ctx.profile.name, kInt4Pack, ctx.Domain());
           },
       .check = CheckInt4RoundTrip});
}

// The oracle's answer of a layout or int4 case, for vector files.
Expected rknn_props::ExpectLayoutAnswer(const PropertyContext& ctx, const Invocation& inv) {
  return ExpectLayout(RknnInstance(inv.c, ctx.profile), rknn::kRknnSucc, inv,
                      "spec rknn.md §2.1, §2.4, §3.3 (Eigen pad -> reshape -> shuffle oracle)");
}

Expected rknn_props::ExpectInt4Answer(const PropertyContext& ctx, const Invocation& inv) {
  const NibbleOrder order = CaseNibble(inv.c, ctx.profile);
  const int64_t count = RequireInt(inv.c, "count");
  const bool pack = inv.c.routine == kInt4Pack;
  const Bytes& in = inv.inputs.at(0).bytes;
  Expected e;
  e.rule = std::string("spec rknn.md §2.4, §7.4 (") + std::string(NibbleOrderName(order)) + ")";
  e.status = rknn::kRknnSucc;
  e.outputs.push_back({pack ? "packed" : "values",
                       pack ? DType::kInt4 : DType::kInt8,
                       {pack ? count + count % 2 : count},
                       pack ? orc::PackInt4(in, order) : orc::UnpackInt4(in, count, order)});
  return e;
}

}  // namespace npuconf
