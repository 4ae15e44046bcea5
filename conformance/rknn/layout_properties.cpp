// Properties of the RKNN Matmul layouts (spec rknn.md §2.1, §2.4, §3.3): A NORM ↔
// NATIVE, C NATIVE ↔ NORM, B NORM / TP_NORM ↔ NATIVE with K segmentation, int4
// packing, and the matmul the layouts exist for.
#include <algorithm>
#include <cstring>

#include "verify/compare.h"
#include "conformance/rknn/cases.h"
#include "conformance/rknn/support.h"
#include "conformance/harness/suite.h"
#include "generators/rknn.h"

namespace npuconf {
namespace {

using namespace rknn_props;
namespace orc = oracle::rknn;

// Element e of a tensor: int4 by the given nibble order, else its bytes.
uint64_t ElementAt(std::span<const uint8_t> data, DType dtype, int64_t e, NibbleOrder order) {
  if (Bits(dtype) == 4) {
    const bool high = ((e & 1) == 0) == (order == NibbleOrder::kHighFirst);
    const uint8_t byte = data[static_cast<size_t>(e >> 1)];
    return high ? (byte >> 4) : (byte & 0xF);
  }
  return ElementBits(data, dtype, e);
}

std::optional<int64_t> Mismatch(std::span<const uint8_t> got, std::span<const uint8_t> want, DType dtype, int64_t count,
                                NibbleOrder order) {
  if (Bits(dtype) >= 8) return FirstMismatch(got, want, dtype, count);
  for (int64_t e = 0; e < count; ++e) {
    if (ElementAt(got, dtype, e, order) != ElementAt(want, dtype, e, order)) return e;
  }
  return std::nullopt;
}

Bytes Head(std::span<const uint8_t> data, uint64_t bytes) { return Bytes(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(bytes)); }

// The oracle's output for a layout case's input.
Bytes OracleOut(const LayoutCase& l, const Bytes& in) {
  if (l.matrix == Matrix::kB) {
    return l.to_native ? orc::BToNative(in, l.b, l.dtype, l.tp, l.plain_order, l.native_order)
                       : orc::BToPlain(in, l.b, l.dtype, l.tp, l.native_order, l.plain_order);
  }
  const int64_t cols = l.plain_dims[1];
  return l.to_native ? orc::RowBlockedToNative(in, l.M, cols, l.sub, l.dtype, l.plain_order, l.native_order)
                     : orc::RowBlockedToNorm(in, l.M, cols, l.sub, l.dtype, l.native_order, l.plain_order);
}

std::optional<Verdict> CompareOut(const LayoutCase& l, std::span<const uint8_t> got, const Bytes& want) {
  const int64_t count = l.to_native ? l.native_elems : l.plain_elems;
  const NibbleOrder order = l.to_native ? l.native_order : l.plain_order;
  if (auto e = Mismatch(got, want, l.dtype, count, order)) {
    return Verdict::Fail((l.to_native ? DescribeNative(l, *e) : DescribePlain(l, *e)) + " holds " +
                         Hex(ElementAt(got, l.dtype, *e, order), l.dtype) + ", expected " +
                         Hex(ElementAt(want, l.dtype, *e, order), l.dtype));
  }
  return std::nullopt;
}

enum class Aspect { kOracle, kPadding, kGuards };

Verdict CheckLayout(const PropertyContext& ctx, const Case& c, Aspect aspect) {
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  const LayoutCase l = LayoutOf(c, ctx.profile);
  const OutputResult& out = *k.answer.Output(l.out_name());
  if (auto v = CheckGuards(out)) return *v;
  if (aspect == Aspect::kGuards) return Verdict::Pass();
  if (k.answer.status != 0) return Verdict::Fail("status " + StatusText(k.answer.status) + " for a valid layout case");
  if (aspect == Aspect::kPadding) {
    const std::vector<bool> mask = l.matrix == Matrix::kB ? orc::BPadding(l.b)
                                                          : orc::RowBlockedPadding(l.M, l.plain_dims[1], l.sub);
    for (int64_t e = 0; e < l.native_elems; ++e) {
      if (mask[static_cast<size_t>(e)] && ElementAt(out.contents(), l.dtype, e, l.native_order) != 0) {
        return Verdict::Fail(DescribeNative(l, e) + " holds " +
                             Hex(ElementAt(out.contents(), l.dtype, e, l.native_order), l.dtype) + ", expected 0");
      }
    }
    return Verdict::Pass();
  }
  const Shape& want_dims = l.to_native ? l.native_dims : l.plain_dims;
  if (out.dims != want_dims || out.rank != static_cast<int32_t>(want_dims.size())) {
    return Verdict::Fail("'" + l.out_name() + "' dims " + (out.rank < 0 ? std::string("not reported") : ToString(out.dims)) +
                         ", expected " + ToString(want_dims));
  }
  return CompareOut(l, out.contents(), OracleOut(l, k.inv.Input(l.in_name())->bytes)).value_or(Verdict::Pass());
}

// inverse(forward(x)) == x through the port alone.
Verdict CheckRoundTrip(const PropertyContext& ctx, const Case& c) {
  Called fwd;
  if (auto v = CallPort(ctx, c, &fwd)) return *v;
  const LayoutCase l = LayoutOf(c, ctx.profile);
  if (fwd.answer.status != 0) return Verdict::Fail(c.routine + " status " + StatusText(fwd.answer.status));
  Case back_case = c;
  back_case.routine = InverseOf(c.routine);
  Invocation inv = ctx.suite.Materialize(back_case, ctx.profile);
  inv.inputs[0].bytes = Head(fwd.answer.Output(l.out_name())->contents(), l.native_bytes);
  Called back;
  if (auto v = CallPort(ctx, std::move(inv), &back)) return *v;
  if (back.answer.status != 0) return Verdict::Fail(back_case.routine + " status " + StatusText(back.answer.status));
  const Bytes& original = fwd.inv.Input(l.in_name())->bytes;
  const auto got = back.answer.Output(l.plain_name)->contents();
  if (auto e = Mismatch(got, original, l.dtype, l.plain_elems, l.plain_order)) {
    return Verdict::Fail(back_case.routine + "(" + c.routine + "(x)) differs at " + DescribePlain(l, *e) + ": " +
                         Hex(ElementAt(got, l.dtype, *e, l.plain_order), l.dtype) + ", x holds " +
                         Hex(ElementAt(original, l.dtype, *e, l.plain_order), l.dtype));
  }
  return Verdict::Pass();
}

// §3.3: segment t holds exactly the K rows [t·L, min((t+1)·L, K)), laid out as
// its own padded NATIVE block; the blocks are concatenated; the total is the
// sum of the segment sizes.
Verdict CheckSegmentation(const PropertyContext& ctx, const Case& c) {
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  const LayoutCase l = LayoutOf(c, ctx.profile);
  const OutputResult& out = *k.answer.Output(l.native_name);
  if (auto v = CheckGuards(out)) return *v;
  if (k.answer.status != 0) return Verdict::Fail("status " + StatusText(k.answer.status) + " for a valid layout case");
  int64_t total = 0;
  for (const auto& s : l.b.segments) total += s.elems;
  auto reported = NumElements(out.dims);
  if (out.rank != 4 || !reported || *reported != total) {
    return Verdict::Fail("B_native dims " + ToString(out.dims) + " hold " + (reported ? std::to_string(*reported) : "?") +
                         " elements; the " + std::to_string(l.b.segments.size()) + " segments hold " + std::to_string(total));
  }
  const Bytes& norm = k.inv.Input(l.plain_name)->bytes;
  const Bytes values = Bits(l.dtype) == 4 ? orc::UnpackNibbles(norm, l.plain_elems, l.plain_order) : norm;
  const int64_t elem_bytes = Bits(l.dtype) == 4 ? 1 : Bits(l.dtype) / 8;
  for (size_t t = 0; t < l.b.segments.size(); ++t) {
    const auto& s = l.b.segments[t];
    // The segment's K rows as a NORM matrix of its own, through the unsegmented oracle.
    const auto seg_layout = *orc::BLayoutOf(s.k_rows, l.N, l.b.sub_n, l.b.sub_k, 0);
    Bytes rows(values.begin() + s.k_begin * l.N * elem_bytes, values.begin() + (s.k_begin + s.k_rows) * l.N * elem_bytes);
    if (Bits(l.dtype) == 4) rows = orc::PackNibbles(rows, l.plain_order);
    const Bytes want = orc::BToNative(rows, seg_layout, l.dtype, false, l.plain_order, l.native_order);
    for (int64_t e = 0; e < s.elems; ++e) {
      const uint64_t got = ElementAt(out.contents(), l.dtype, s.offset_elems + e, l.native_order);
      const uint64_t expected = ElementAt(want, l.dtype, e, l.native_order);
      if (got != expected) {
        return Verdict::Fail("segment " + std::to_string(t) + " (K rows [" + std::to_string(s.k_begin) + ", " +
                             std::to_string(s.k_begin + s.k_rows) + "), at element " + std::to_string(s.offset_elems) +
                             "): " + DescribeNative(l, s.offset_elems + e) + " holds " + Hex(got, l.dtype) +
                             ", expected " + Hex(expected, l.dtype));
      }
    }
  }
  return Verdict::Pass();
}

// The layouts agree with the matmul they exist for (integer types with an
// integer C): C computed by a direct loop over the port's NATIVE A and NATIVE B
// through the §2.1/§3.3 index maps, handed to the port's c_native_to_norm,
// equals Eigen's A·B on the NORM matrices (int64 accumulation).
// The case is the B case; A's rows M come from its seed (1 most often, small
// values, 63..65; 1 when K crosses a segment threshold), so the B case alone
// replays the whole check.
int64_t MatmulRows(const Case& c) {
  static constexpr int64_t kRows[] = {1, 1, 1, 2, 3, 4, 5, 7, 8, 63, 64, 65};
  if (*c.Int("K") > 600) return 1;
  return kRows[static_cast<uint64_t>(c.Int("seed").value_or(0)) % std::size(kRows)];
}

Verdict CheckMatmul(const PropertyContext& ctx, const Case& c) {
  const RknnFacts& f = *ctx.profile.rknn;
  const RknnMatmulType& t = *f.FindType(static_cast<int32_t>(*c.Int("type")));
  const int64_t M = MatmulRows(c), K = *c.Int("K"), N = *c.Int("N");
  Case ca(kANorm2Native, ctx.profile.name);
  ca.Set("type", t.type).Set("M", M).Set("K", K).Set("seed", c.Int("seed").value_or(0));
  Called a, b;
  if (auto v = CallPort(ctx, ca, &a)) return *v;
  if (auto v = CallPort(ctx, c, &b)) return *v;
  if (a.answer.status != 0 || b.answer.status != 0) {
    return Verdict::Fail("a_norm_to_native status " + StatusText(a.answer.status) + ", b_norm_to_native status " +
                         StatusText(b.answer.status));
  }
  const LayoutCase la = LayoutOf(ca, ctx.profile), lb = LayoutOf(c, ctx.profile);
  const auto a_native = orc::IntValues(Head(a.answer.Output("A_native")->contents(), la.native_bytes), la.native_elems, t.a, la.native_order);
  const auto b_native = orc::IntValues(Head(b.answer.Output("B_native")->contents(), lb.native_bytes), lb.native_elems, t.b, lb.native_order);
  const int64_t c_sub = SubBlocksOf(f, t.type).c_sub_n;
  const auto c_native = orc::MatmulNative(a_native, b_native, M, K, N, la.sub, lb.b, c_sub);
  Case cc(kCNative2Norm, ctx.profile.name);
  cc.Set("type", t.type).Set("M", M).Set("N", N);
  Invocation inv = ctx.suite.Materialize(cc, ctx.profile);
  const int c_bytes = Bits(t.c) / 8;
  Bytes c_in(c_native.size() * static_cast<size_t>(c_bytes));
  for (size_t i = 0; i < c_native.size(); ++i) {
    const int32_t v32 = static_cast<int32_t>(c_native[i]);
    const int16_t v16 = static_cast<int16_t>(c_native[i]);
    std::memcpy(c_in.data() + i * c_bytes, c_bytes == 4 ? static_cast<const void*>(&v32) : &v16, c_bytes);
  }
  inv.inputs[0].bytes = c_in;
  Called back;
  if (auto v = CallPort(ctx, std::move(inv), &back)) return *v;
  if (back.answer.status != 0) return Verdict::Fail("c_native_to_norm status " + StatusText(back.answer.status));
  const auto got = orc::IntValues(Head(back.answer.Output("C")->contents(), static_cast<uint64_t>(M * N * c_bytes)), M * N, t.c, f.norm_nibble);
  const auto want = orc::MatmulNorm(orc::IntValues(a.inv.Input("A")->bytes, M * K, t.a, f.norm_nibble),
                                    orc::IntValues(b.inv.Input("B")->bytes, K * N, t.b, f.norm_nibble), M, K, N);
  for (int64_t e = 0; e < M * N; ++e) {
    if (got[e] != want[e]) {
      return Verdict::Fail("C[m=" + std::to_string(e / N) + "][n=" + std::to_string(e % N) + "] = " + std::to_string(got[e]) +
                           " through the NATIVE layouts, Eigen A·B on NORM gives " + std::to_string(want[e]));
    }
  }
  return Verdict::Pass();
}

// ---- generators ---------------------------------------------------------------------

rc::Gen<Case> LayoutGen(const PropertyContext& ctx, const std::string& routine) {
  const RknnFacts facts = *ctx.profile.rknn;
  const std::string name = ctx.profile.name;
  return rc::gen::mapcat(gen::rknn::SupportedType(facts), [facts, name, routine](int32_t type) {
    const oracle::rknn::SubBlocks sub = SubBlocksOf(facts, type);
    const bool is_b = routine.rfind("rknn.b_", 0) == 0;
    const bool is_a = routine.rfind("rknn.a_", 0) == 0;
    rc::Gen<int64_t> first = is_b ? gen::rknn::BK(sub.b_sub_k, facts.k_segment) : gen::rknn::M();
    rc::Gen<int64_t> second = gen::rknn::BlockedDim(is_b ? sub.b_sub_n : (is_a ? sub.a_sub_k : sub.c_sub_n));
    return rc::gen::map(rc::gen::tuple(first, second, gen::DataSeed()),
                        [=](const std::tuple<int64_t, int64_t, int64_t>& t) {
                          Case c(routine, name);
                          c.Set("type", int64_t{type}).Set("seed", std::get<2>(t));
                          const int64_t rows = std::get<0>(t), cols = gen::rknn::ClampCols(rows, std::get<1>(t));
                          if (is_b) c.Set("K", rows).Set("N", cols);
                          else c.Set("M", rows).Set(is_a ? "K" : "N", cols);
                          return c;
                        });
  });
}

rc::Gen<Case> SegmentGen(const PropertyContext& ctx) {
  const RknnFacts facts = *ctx.profile.rknn;
  const std::string name = ctx.profile.name;
  return rc::gen::mapcat(gen::rknn::SupportedType(facts), [facts, name](int32_t type) {
    const oracle::rknn::SubBlocks sub = SubBlocksOf(facts, type);
    return rc::gen::map(rc::gen::tuple(gen::rknn::SegmentThreshold(facts.k_segment), gen::DimNear(sub.b_sub_n, 1), gen::DataSeed()),
                        [=](const std::tuple<int64_t, int64_t, int64_t>& t) {
                          Case c(kBNorm2Native, name);
                          c.Set("type", int64_t{type}).Set("K", std::get<0>(t))
                              .Set("N", gen::rknn::ClampCols(std::get<0>(t), std::get<1>(t))).Set("seed", std::get<2>(t));
                          return c;
                        });
  });
}

std::vector<int32_t> MatmulTypes(const RknnFacts& f) {
  std::vector<int32_t> out;
  for (int32_t type : f.supported_types) {
    const RknnMatmulType& t = *f.FindType(type);
    const bool integer = [](DType d) { return d == DType::kInt4 || d == DType::kInt8; }(t.a) &&
                         (t.b == DType::kInt4 || t.b == DType::kInt8) && (t.c == DType::kInt32 || t.c == DType::kInt16);
    if (integer) out.push_back(type);
  }
  return out;
}

rc::Gen<Case> MatmulGen(const PropertyContext& ctx) {
  const RknnFacts facts = *ctx.profile.rknn;
  const std::string name = ctx.profile.name;
  return rc::gen::mapcat(rc::gen::elementOf(MatmulTypes(facts)), [facts, name](int32_t type) {
    const oracle::rknn::SubBlocks sub = SubBlocksOf(facts, type);
    // K ≤ 512 keeps an INT16 C exact (|Σ| ≤ 64·K); segment thresholds with tiny M, N.
    auto k = facts.k_segment > 0 && facts.FindType(type)->c != DType::kInt16
                 ? rc::gen::weightedOneOf<int64_t>({{5, gen::DimNear(sub.b_sub_k, 8)}, {1, gen::rknn::SegmentThreshold(facts.k_segment)}})
                 : gen::DimNear(sub.b_sub_k, 8);
    return rc::gen::map(rc::gen::tuple(gen::rknn::M(), k, gen::rknn::BlockedDim(sub.b_sub_n), gen::DataSeed()),
                        [=](const std::tuple<int64_t, int64_t, int64_t, int64_t>& t) {
                          const int64_t K = std::get<1>(t);
                          const bool big = K > 600;
                          Case c(kBNorm2Native, name);
                          c.Set("type", int64_t{type}).Set("K", K)
                              .Set("N", big ? std::min<int64_t>(std::get<2>(t), 5) : std::get<2>(t)).Set("seed", std::get<3>(t));
                          return c;
                        });
  });
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

Verdict CheckInt4(const PropertyContext& ctx, const Case& c, bool round_trip) {
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  const NibbleOrder order = CaseNibble(c, ctx.profile);
  const int64_t count = *c.Int("count");
  const bool pack = c.routine == kInt4Pack;
  const OutputResult& out = *k.answer.Output(pack ? "packed" : "values");
  if (auto v = CheckGuards(out)) return *v;
  if (k.answer.status != 0) return Verdict::Fail("status " + StatusText(k.answer.status));
  const Bytes& in = k.inv.inputs[0].bytes;
  const std::string order_name = NibbleOrderName(order);
  if (round_trip) {
    Case back = c;
    back.routine = kInt4Unpack;
    back.params.erase("values");
    Invocation inv = ctx.suite.Materialize(back, ctx.profile);
    inv.inputs[0].bytes = Head(out.contents(), static_cast<uint64_t>(count / 2 + count % 2));
    Called u;
    if (auto v = CallPort(ctx, std::move(inv), &u)) return *v;
    const auto got = u.answer.Output("values")->contents();
    for (int64_t e = 0; e < count; ++e) {
      if (got[e] != in[e]) {
        return Verdict::Fail("unpack(pack(x)) element " + std::to_string(e) + " (byte " + std::to_string(e / 2) + ", " +
                             ((e % 2 == 0) == (order == NibbleOrder::kLowFirst) ? "low" : "high") + " nibble, " + order_name +
                             ") = " + std::to_string(static_cast<int8_t>(got[e])) + ", x holds " + std::to_string(static_cast<int8_t>(in[e])));
      }
    }
    return Verdict::Pass();
  }
  const Bytes want = pack ? orc::PackInt4(in, order) : orc::UnpackInt4(in, count, order);
  const auto got = out.contents();
  for (size_t i = 0; i < want.size(); ++i) {
    if (got[i] != want[i]) {
      return Verdict::Fail(std::string(pack ? "packed byte " : "value ") + std::to_string(i) +
                           (pack ? " (elements " + std::to_string(2 * i) + ", " + std::to_string(2 * i + 1) + ", " + order_name + ")" : " (" + order_name + ")") +
                           " holds " + Hex(got[i], DType::kUint8) + ", expected " + Hex(want[i], DType::kUint8));
    }
  }
  // The documented vectors of §7.4 (v2.x, low nibble first): the oracle must agree.
  if (pack && order == NibbleOrder::kLowFirst && c.Find("values")) {
    for (const auto& row : PackRows()) {
      if (*c.IntList("values") == row.values && want != row.low_first) {
        return Verdict::Fail("the oracle disagrees with spec rknn.md §7.4 for " + ToString(row.values));
      }
    }
  }
  return Verdict::Pass();
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
  for (int64_t count : {0, 1, 2, 3, 31, 64, 1001}) {
    Case c(routine, ctx.profile.name);
    c.Set("count", count).Set("seed", seed++);
    out.push_back(c);
  }
  return out;
}

rc::Gen<Case> Int4Gen(const PropertyContext& ctx, const std::string& routine) {
  const std::string name = ctx.profile.name;
  return rc::gen::map(rc::gen::tuple(rc::gen::inRange<int64_t>(0, 5000), rc::gen::element<std::string>("", "low_first", "high_first"),
                                     gen::DataSeed()),
                      [=](const std::tuple<int64_t, std::string, int64_t>& t) {
                        Case c(routine, name);
                        c.Set("count", std::get<0>(t)).Set("seed", std::get<2>(t));
                        if (!std::get<1>(t).empty()) c.Set("nibble", std::get<1>(t));
                        return c;
                      });
}

// ---- registration -------------------------------------------------------------------

const std::vector<std::string> kAChoices = {};
const std::vector<std::string> kCChoices = {"rknn.native.c_sub_n_other_outputs"};
const std::vector<std::string> kBChoices = {"rknn.native.mixed_b_layout", "rknn.int4.native_b_nibble",
                                            "rknn.segment.order", "rknn.segment.b_dims", "rknn.sdk16.k_segment"};

std::vector<std::string> ChoicesFor(const std::string& routine) {
  if (routine.rfind("rknn.a_", 0) == 0) return kAChoices;
  if (routine.rfind("rknn.c_", 0) == 0) return kCChoices;
  std::vector<std::string> out = kBChoices;
  if (routine == kBTp2Native || routine == kBNative2Tp) out.push_back("rknn.tp_norm.dtypes");
  return out;
}

std::function<std::string(const Profile&)> NotApplicable(const std::string& routine) {
  const bool tp = routine == kBTp2Native || routine == kBNative2Tp;
  return [tp](const Profile& p) -> std::string {
    if (tp && p.rknn && p.rknn->has_tables && !p.rknn->tp_norm) return "no TP_NORM B on this platform (spec rknn.md §1.3, §8.11)";
    return "";
  };
}

}  // namespace

void rknn_props::AddLayoutProperties(std::vector<Property>* out) {
  const std::vector<std::string> forward = {kANorm2Native, kCNorm2Native, kBNorm2Native, kBTp2Native};
  const std::vector<std::string> all = {kANorm2Native, kANative2Norm, kCNorm2Native, kCNative2Norm,
                                        kBNorm2Native, kBNative2Norm, kBTp2Native, kBNative2Tp};
  for (const std::string& r : all) {
    const bool fwd = std::find(forward.begin(), forward.end(), r) != forward.end();
    auto edge = [r](const PropertyContext& ctx) {
      auto cases = EdgeLayoutCases(r, ctx.profile);
      auto seg = SegmentCases(r, ctx.profile, false);
      cases.insert(cases.end(), seg.begin(), seg.end());
      return cases;
    };
    auto with_real = [r, edge](const PropertyContext& ctx) {
      auto cases = edge(ctx);
      auto real = RealLayoutCases(r, ctx);
      cases.insert(cases.end(), real.begin(), real.end());
      return cases;
    };
    auto gen = [r](const PropertyContext& ctx) { return LayoutGen(ctx, r); };
    const std::string what = fwd ? "NORM -> NATIVE" : "NATIVE -> NORM";
    out->push_back({r + ".matches_oracle", r, {},
                    what + " equals the oracle's pad -> reshape -> shuffle (segments concatenated), dims included" +
                        (fwd ? "" : "; the input's padding (random here) is ignored"),
                    ChoicesFor(r), NotApplicable(r), with_real, gen,
                    [](const PropertyContext& ctx, const Case& c) { return CheckLayout(ctx, c, Aspect::kOracle); }});
    out->push_back({r + ".no_write_past_capacity", r, {}, "nothing is written outside the output's bytes (guard bytes)",
                    ChoicesFor(r), NotApplicable(r), edge, gen,
                    [](const PropertyContext& ctx, const Case& c) { return CheckLayout(ctx, c, Aspect::kGuards); }});
    if (!fwd) continue;
    out->push_back({r + ".padding_is_zero", r, {}, "every NATIVE slot outside the logical matrix holds 0 (M never padded)",
                    ChoicesFor(r), NotApplicable(r), edge, gen,
                    [](const PropertyContext& ctx, const Case& c) { return CheckLayout(ctx, c, Aspect::kPadding); }});
    out->push_back({r + ".round_trip", r, {InverseOf(r)}, "the inverse of the conversion gives the input back, through the port",
                    ChoicesFor(r), NotApplicable(r), edge, gen, CheckRoundTrip});
  }
  out->push_back({std::string(kBNorm2Native) + ".segmentation", kBNorm2Native, {},
                  "segment t holds exactly K rows [t*L, min((t+1)*L, K)), each padded on its own, concatenated; "
                  "total size = sum of segment sizes (spec rknn.md §3.3)",
                  {"rknn.segment.order", "rknn.segment.b_dims", "rknn.sdk16.k_segment"},
                  [](const Profile& p) -> std::string {
                    if (p.rknn && p.rknn->has_tables && p.rknn->k_segment == 0) return "no K segmentation on this platform (spec rknn.md §3.3)";
                    return "";
                  },
                  [](const PropertyContext& ctx) { return SegmentCases(kBNorm2Native, ctx.profile, true); }, SegmentGen,
                  CheckSegmentation});
  out->push_back({std::string(kBNorm2Native) + ".matmul_consistent", kBNorm2Native, {kANorm2Native, kCNative2Norm},
                  "C by a direct loop over the port's NATIVE A and NATIVE B index maps, converted back by the port, "
                  "equals Eigen's A*B on the NORM matrices (int64; integer types with an INT32/INT16 C)",
                  {"rknn.native.mixed_b_layout", "rknn.int4.native_b_nibble", "rknn.segment.order"},
                  [](const Profile& p) -> std::string {
                    if (p.rknn && p.rknn->has_tables && MatmulTypes(*p.rknn).empty()) return "no integer type with an integer C";
                    return "";
                  },
                  nullptr, MatmulGen, CheckMatmul});
  for (const char* r : {kInt4Pack, kInt4Unpack}) {
    const std::string routine = r;
    out->push_back({routine + ".matches_oracle", routine, {},
                    "two's-complement nibbles, even element in the low (v2.x) or high (SDK 1.6) nibble; spec rknn.md §2.4, §7.4",
                    {}, nullptr, [routine](const PropertyContext& ctx) { return Int4Explicit(ctx, routine); },
                    [routine](const PropertyContext& ctx) { return Int4Gen(ctx, routine); },
                    [](const PropertyContext& ctx, const Case& c) { return CheckInt4(ctx, c, false); }});
  }
  out->push_back({std::string(kInt4Pack) + ".round_trip", kInt4Pack, {kInt4Unpack}, "unpack(pack(x)) == x for x in -8..7",
                  {}, nullptr, [](const PropertyContext& ctx) { return Int4Explicit(ctx, kInt4Pack); },
                  [](const PropertyContext& ctx) { return Int4Gen(ctx, kInt4Pack); },
                  [](const PropertyContext& ctx, const Case& c) { return CheckInt4(ctx, c, true); }});
}

}  // namespace npuconf
