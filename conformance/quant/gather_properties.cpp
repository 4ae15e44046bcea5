// Properties of GatherDequantInt8 and of the gen_data.py quantizer of its test
// data (spec cann.md §3). GatherDequantInt8's arithmetic does not depend on the
// SoC (its target, Kirin 9020, has no profile): it runs on every CANN profile of
// a run; the real embedding tables only on the first.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "conformance/harness/suite.h"
#include "conformance/quant/support.h"
#include "core/float16.h"
#include "core/prng.h"
#include "core/real_shapes.h"
#include "core/status.h"
#include "generators/quant.h"

namespace npuconf::quant_props {
namespace {

constexpr int64_t kRealIndices = 64;

double Ulp16(double y) {
  const double a = std::fabs(y);
  if (!std::isfinite(a)) return a;  // inf / NaN: no ulp
  if (a < 0x1.0p-14) return 0x1.0p-24;
  return std::ldexp(1.0, static_cast<int>(std::floor(std::log2(a))) - 10);
}

// "y[i=3, e=17] (row idx 912) = 0x388D, expected 0x388C (q 200, zp 0x57F8, scale 0x2004)"
std::string DescribeY(const Invocation& inv, int64_t flat, uint16_t got, uint16_t want) {
  const InputTensor& table = *inv.Input("table");
  const int64_t embed = table.shape[1];
  const int64_t i = flat / embed, e = flat % embed;
  const int32_t row = IndicesOf(inv)[i];
  const auto scale = Words16(inv.Input("scale")->bytes);
  const auto zp = Words16(inv.Input("zero_point")->bytes);
  return "y[i=" + std::to_string(i) + ", e=" + std::to_string(e) + "] (row idx " +
         std::to_string(row) + ") = " + Hex16(got) + ", expected " + Hex16(want) + " (q " +
         std::to_string(table.bytes[row * embed + e]) + ", zp " + Hex16(zp[row]) + ", scale " +
         Hex16(scale[row]) + ")";
}

bool ValidationClaimed(const PropertyContext& ctx) {
  return ctx.port.ClaimedChoice(kChoiceGatherValidation).value_or("") == "param_invalid";
}

// ---- cases -----------------------------------------------------------------------

rc::Gen<Case> ValidGather(const PropertyContext& ctx, bool positive_scales) {
  const bool any_embed =
      ctx.port.ClaimedChoice(kChoiceGatherEmbed).value_or("multiple_of_32") == "any";
  const std::string name = ctx.profile.name;
  const CaseDomain& d = ctx.Domain();
  auto index_shape = rc::gen::mapcat(gen::RankIn(d, "indices_shape", 0, 3), [d](size_t rank) {
    return rc::gen::container<Shape>(
        rank, gen::Within(d, "indices_shape", rc::gen::inRange<int64_t>(1, 6)));
  });
  return rc::gen::map(
      rc::gen::tuple(
          gen::Within(d, "vocab", gen::Vocab()),
          gen::Within(d, "embed", gen::EmbedDim(any_embed), {.step = any_embed ? 1 : 32}),
          index_shape,
          gen::TextWithin(d, "scales",
                          positive_scales ? gen::PositiveScaleKind() : gen::ScaleKind(),
                          positive_scales ? gen::kPositiveScaleKinds : gen::kScaleKinds),
          gen::TextWithin(d, "zps", gen::ZeroPointKind(), gen::kZeroPointKinds), gen::DataSeed()),
      [=](const std::tuple<int64_t, int64_t, Shape, std::string, std::string, int64_t>& t) {
        Case c(kGather, name);
        c.Set("vocab", std::get<0>(t))
            .Set("embed", std::get<1>(t))
            .Set("indices_shape", std::get<2>(t));
        c.Set("scales", std::get<3>(t)).Set("zps", std::get<4>(t)).Set("seed", std::get<5>(t));
        return c;
      });
}

// spec cann.md §3.7 A, B and the zp = 0, s = 1 row: one vocab row of the six
// (or three) q values, expected fp16 bits as the spec's table gives them.
struct GatherRow {
  const char* id;
  std::vector<int64_t> q;
  uint16_t zp_bits, scale_bits;
  std::vector<uint16_t> y_bits;
};
const std::vector<GatherRow>& GatherRows() {
  static const std::vector<GatherRow> rows = {
      {"§3.7 A",
       {0, 1, 127, 128, 200, 255},
       0x57F8,
       0x2004,
       {0xBC00, 0xBBF0, 0x9C04, 0x1C04, 0x388D, 0x3C00}},
      // zp = fp16(100.3) = 100.3125, s = fp16(0.0025); q = 255 checks the RN16 after the
      // subtraction.
      {"§3.7 B",
       {0, 1, 127, 128, 200, 255},
       HalfBits(Half(100.3f)),
       HalfBits(Half(0.0025f)),
       {0xB403, 0xB3F2, 0x2C45, 0x2C6E, 0x33FA, 0x3631}},
      {"§3.7 zp=0 s=1", {0, 128, 255}, 0x0000, 0x3C00, {0x0000, 0x5800, 0x5BF8}},
      // §3.7 D row 1 dequantized: [-1.0, 0.0039215087890625, 0.498046875, 1.0].
      {"§3.7 D row 1", {0, 128, 191, 255}, 0x57F8, 0x2004, {0xBC00, 0x1C04, 0x37F8, 0x3C00}},
  };
  return rows;
}

// Whether the port takes any embedding dim (choice cann.gather_dequant.embed_dim
// claimed `any`); otherwise it gets multiples of 32 only (spec cann.md §3.4).
bool AnyEmbed(const PropertyContext& ctx) {
  return ctx.port.ClaimedChoice(kChoiceGatherEmbed).value_or("") == "any";
}

// The row's embedding dim as a case has it: the spec's q values, or for a port
// taking multiples of 32 only, the same values repeated to 32 elements.
int64_t RowEmbed(const GatherRow& row, bool any_embed) {
  return any_embed ? static_cast<int64_t>(row.q.size()) : 32;
}

Case GatherRowCase(const GatherRow& row, const Profile& profile, bool any_embed) {
  const int64_t embed = RowEmbed(row, any_embed);
  Shape table;
  for (int64_t e = 0; e < embed; ++e) table.push_back(row.q[static_cast<size_t>(e) % row.q.size()]);
  Case c(kGather, profile.name);
  c.Set("vocab", int64_t{1}).Set("embed", embed);
  c.Set("table", table).Set("indices", Shape{0}).Set("indices_shape", Shape{});
  c.Set("scale_bits", Shape{row.scale_bits}).Set("zero_point_bits", Shape{row.zp_bits});
  return c;
}

std::vector<Case> GatherDocumented(const PropertyContext& ctx) {
  std::vector<Case> out;
  for (const auto& row : GatherRows())
    out.push_back(GatherRowCase(row, ctx.profile, AnyEmbed(ctx)));
  return out;
}

// Edge shapes: rank 0 and rank 3 indices, V = 1, E = 1, every documented row;
// then the real embedding tables [vocab, hidden] with indices across the whole
// vocabulary (first CANN profile of the run only: the routine is SoC-independent).
std::vector<Case> GatherExplicit(const PropertyContext& ctx) {
  std::vector<Case> out = GatherDocumented(ctx);
  const bool any_embed = AnyEmbed(ctx);
  int64_t seed = 1;
  for (const auto& [vocab, embed, shape] :
       std::vector<std::tuple<int64_t, int64_t, Shape>>{{1, 32, {}},
                                                        {1, 32, {4}},
                                                        {7, 64, {2, 3, 2}},
                                                        {1024, 256, {1, 30}},
                                                        {300, 32, {0}},
                                                        {5, 1, {3}},
                                                        {3, 33, {2, 2}},
                                                        {65537, 32, {1, 8}}}) {  // V past 2^16
    if (!any_embed && embed % 32 != 0) continue;
    Case c(kGather, ctx.profile.name);
    c.Set("vocab", vocab).Set("embed", embed).Set("indices_shape", shape).Set("seed", seed++);
    out.push_back(c);
  }
  if (ctx.real_shapes) {
    // The routine is SoC-independent: each real table runs on the first CANN
    // profile of the run whose claims admit it.
    std::vector<Shape> seen;
    for (const auto& real : RealShapes()) {
      if (real.tensor != "embed_tokens" || real.shape.size() != 2) continue;
      if (std::find(seen.begin(), seen.end(), real.shape) != seen.end()) continue;
      seen.push_back(real.shape);
      const int64_t case_seed = seed++;
      auto here = RunHere(ctx, [&](const Profile& p) {
        if (!p.cann || !p.verified) return std::vector<Case>{};
        Case c(kGather, p.name);
        c.Set("vocab", real.shape[0])
            .Set("embed", real.shape[1])
            .Set("indices_shape", Shape{kRealIndices});
        return std::vector<Case>{c.Set("seed", case_seed)};
      });
      if (here) out.push_back(std::move(*here));
    }
  }
  return out;
}

// ---- checks ----------------------------------------------------------------------

Verdict CheckGatherOracle(const PropertyContext& ctx, const Case& c) {
  Called k;
  if (auto v = CallQuantPort(ctx, c, &k)) return *v;
  const OutputResult& y = *k.answer.Output("y");
  if (auto v = CheckGuards(y)) return *v;
  const auto expect = oracle::quant::ExpectGather(GatherCallOf(k.inv, c));
  if (k.answer.status != expect.status) {
    return Verdict::Fail("status " + StatusText(kGather, k.answer.status) + ", expected " +
                         StatusText(kGather, expect.status) + ": " + expect.rule);
  }
  if (expect.status != cann::kAclnnSuccess) return Verdict::Pass();
  const InputTensor& table = *k.inv.Input("table");
  const auto want = oracle::quant::GatherDequantInt8(
      table.bytes, table.shape[0], table.shape[1], IndicesOf(k.inv),
      Words16(k.inv.Input("scale")->bytes), Words16(k.inv.Input("zero_point")->bytes));
  if (auto e = FirstDiff16(y.contents().data(), want, DType::kFloat16)) {
    return Verdict::Fail(
        DescribeY(k.inv, *e, Words16(y.contents().data() + 2 * *e, 1)[0], want[*e]));
  }
  return Verdict::Pass();
}

Verdict CheckGatherDocumented(const PropertyContext& ctx, const Case& c) {
  const GatherRow* row = nullptr;
  for (const auto& r : GatherRows()) {
    if (GatherRowCase(r, ctx.profile, AnyEmbed(ctx)) == c) row = &r;
  }
  if (!row) return Verdict::Fail("not a documented case of spec cann.md §3.7: " + c.ToText());
  std::vector<uint16_t> want;
  for (int64_t e = 0; e < RowEmbed(*row, AnyEmbed(ctx)); ++e)
    want.push_back(row->y_bits[static_cast<size_t>(e) % row->y_bits.size()]);
  Called k;
  if (auto v = CallQuantPort(ctx, c, &k)) return *v;
  if (k.answer.status != cann::kAclnnSuccess) {
    return Verdict::Fail("status " + StatusText(kGather, k.answer.status) + " for spec cann.md " +
                         row->id);
  }
  if (auto e = FirstDiff16(k.answer.Output("y")->contents().data(), want, DType::kFloat16)) {
    return Verdict::Fail("spec cann.md " + std::string(row->id) + ": " +
                         DescribeY(k.inv, *e,
                                   Words16(k.answer.Output("y")->contents().data() + 2 * *e, 1)[0],
                                   want[*e]));
  }
  return Verdict::Pass();
}

Verdict CheckShape(const PropertyContext& ctx, const Case& c) {
  Called k;
  if (auto v = CallQuantPort(ctx, c, &k)) return *v;
  if (k.answer.status != cann::kAclnnSuccess)
    return Verdict::Fail("status " + StatusText(kGather, k.answer.status));
  Shape want = k.inv.Input("indices")->shape;
  want.push_back(k.inv.Input("table")->shape[1]);
  const OutputResult& y = *k.answer.Output("y");
  if (y.rank != static_cast<int32_t>(want.size()) || y.dims != want) {
    return Verdict::Fail("y dims " + ReportedDims(y) + ", expected indices.shape ++ [E] = " +
                         ToString(want) + " (spec cann.md §3.2)");
  }
  return Verdict::Pass();
}

// y[i, :] from the full gather == the gather of [indices[i]] alone (rank-0 indices).
Verdict CheckRowEqualsDequant(const PropertyContext& ctx, const Case& c) {
  Called all;
  if (auto v = CallQuantPort(ctx, c, &all)) return *v;
  if (all.answer.status != cann::kAclnnSuccess)
    return Verdict::Fail("status " + StatusText(kGather, all.answer.status));
  if (!all.Written("y")) return Verdict::Fail("status SUCCESS but y was not written");
  const auto indices = IndicesOf(all.inv);
  const int64_t embed = all.inv.Input("table")->shape[1];
  const uint8_t* y = all.answer.Output("y")->contents().data();
  for (size_t i = 0; i < std::min<size_t>(indices.size(), 6); ++i) {
    Case one = c;
    one.Set("indices", Shape{indices[i]}).Set("indices_shape", Shape{});
    one.params.erase("bad_index");
    Called single;
    if (auto v = CallQuantPort(ctx, one, &single)) return *v;
    if (!single.Written("y"))
      return Verdict::Fail("gather of [" + std::to_string(indices[i]) + "] did not write y");
    const auto want = Words16(single.answer.Output("y")->contents().data(), embed);
    if (auto e = FirstDiff16(y + 2 * i * embed, want, DType::kFloat16)) {
      return Verdict::Fail(
          "y[i=" + std::to_string(i) + ", e=" + std::to_string(*e) + "] (row idx " +
          std::to_string(indices[i]) + ") = " + Hex16(Words16(y + 2 * (i * embed + *e), 1)[0]) +
          " but the gather of [" + std::to_string(indices[i]) + "] alone gives " + Hex16(want[*e]));
    }
  }
  return Verdict::Pass();
}

// For a positive scale, y is non-decreasing in q within every gathered row.
Verdict CheckMonotone(const PropertyContext& ctx, const Case& c) {
  Called k;
  if (auto v = CallQuantPort(ctx, c, &k)) return *v;
  if (k.answer.status != cann::kAclnnSuccess)
    return Verdict::Fail("status " + StatusText(kGather, k.answer.status));
  if (!k.Written("y")) return Verdict::Fail("status SUCCESS but y was not written");
  const InputTensor& table = *k.inv.Input("table");
  const int64_t embed = table.shape[1];
  const auto indices = IndicesOf(k.inv);
  const auto y = Words16(k.answer.Output("y")->contents().data(),
                         static_cast<int64_t>(indices.size()) * embed);
  const auto scale = Words16(k.inv.Input("scale")->bytes);
  for (size_t i = 0; i < indices.size(); ++i) {
    if (!(Value16(scale[indices[i]], DType::kFloat16) > 0)) continue;
    std::vector<int64_t> order(static_cast<size_t>(embed));
    std::iota(order.begin(), order.end(), 0);
    const uint8_t* q = table.bytes.data() + indices[i] * embed;
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return q[a] < q[b]; });
    for (size_t j = 1; j < order.size(); ++j) {
      const double lo = Value16(y[i * embed + order[j - 1]], DType::kFloat16);
      const double hi = Value16(y[i * embed + order[j]], DType::kFloat16);
      if (lo > hi) {
        return Verdict::Fail(
            "row idx " + std::to_string(indices[i]) + ": y[e=" + std::to_string(order[j - 1]) +
            "] (q " + std::to_string(q[order[j - 1]]) + ") = " + std::to_string(lo) +
            " > y[e=" + std::to_string(order[j]) + "] (q " + std::to_string(q[order[j]]) +
            ") = " + std::to_string(hi) + " with scale > 0");
      }
    }
  }
  return Verdict::Pass();
}

// Floats w near each table value's grid point, quantized by the suite
// (q = clip(RNE(w/s + zp), 0, 255)), dequantized by the port:
// |y − w| ≤ |s|/2 + |RN16(q − zp) − (q − zp)|·|s| + ulp16(y)/2.
Verdict CheckQuantizeRoundTrip(const PropertyContext& ctx, const Case& c) {
  Invocation inv = ctx.suite.Materialize(c, ctx.profile);
  InputTensor& table = const_cast<InputTensor&>(*inv.Input("table"));
  const int64_t vocab = table.shape[0], embed = table.shape[1];
  const auto scale = Words16(inv.Input("scale")->bytes);
  const auto zp = Words16(inv.Input("zero_point")->bytes);
  SplitMix64 rng(Seed(c) ^ 0x51ull);
  std::vector<double> w(static_cast<size_t>(vocab * embed));
  for (int64_t v = 0; v < vocab; ++v) {
    const double s = Value16(scale[v], DType::kFloat16), z = Value16(zp[v], DType::kFloat16);
    for (int64_t e = 0; e < embed; ++e) {
      const double u = static_cast<double>(rng.Next() >> 11) * 0x1.0p-53 * 0.98 - 0.49;
      const double target = std::clamp(
          std::floor(z) + 1 + static_cast<double>(table.bytes[v * embed + e] % 64), 0.0, 255.0);
      w[v * embed + e] = (target - z + u) * s;
      table.bytes[v * embed + e] =
          static_cast<uint8_t>(std::clamp(std::nearbyint(w[v * embed + e] / s + z), 0.0, 255.0));
    }
  }
  Called k;
  if (auto v = CallQuantPort(ctx, std::move(inv), &k)) return *v;
  if (k.answer.status != cann::kAclnnSuccess)
    return Verdict::Fail("status " + StatusText(kGather, k.answer.status));
  const auto indices = IndicesOf(k.inv);
  const auto y = Words16(k.answer.Output("y")->contents().data(),
                         static_cast<int64_t>(indices.size()) * embed);
  const InputTensor& q_table = *k.inv.Input("table");
  for (size_t i = 0; i < indices.size(); ++i) {
    const int64_t v = indices[i];
    const double s = Value16(scale[v], DType::kFloat16), z = Value16(zp[v], DType::kFloat16);
    for (int64_t e = 0; e < embed; ++e) {
      const double q = q_table.bytes[v * embed + e];
      const double ww = w[v * embed + e];
      if (std::nearbyint(ww / s + z) != q) continue;  // clipped: outside the range the bound covers
      const double got = Value16(y[i * embed + e], DType::kFloat16);
      const double diff = q - z;
      const double step = std::fabs(Value16(Bits16(diff, DType::kFloat16), DType::kFloat16) - diff);
      const double bound =
          std::fabs(s) / 2 + step * std::fabs(s) + Ulp16(got) / 2 + 1e-12 * std::fabs(ww);
      if (!(std::fabs(got - ww) <= bound)) {
        return Verdict::Fail("row idx " + std::to_string(v) + ", e=" + std::to_string(e) +
                             ": w = " + std::to_string(ww) + " quantized to q " +
                             std::to_string(static_cast<int>(q)) + " dequantizes to " +
                             std::to_string(got) + " (" + Hex16(y[i * embed + e]) + "), off by " +
                             std::to_string(std::fabs(got - ww)) + " > bound " +
                             std::to_string(bound) + " (|s|/2 + rounding; s " + Hex16(scale[v]) +
                             ", zp " + Hex16(zp[v]) + ")");
      }
    }
  }
  return Verdict::Pass();
}

std::vector<Case> InvalidGatherCases(const PropertyContext& ctx) {
  std::vector<Case> out;
  const std::string name = ctx.profile.name;
  for (int64_t seed : {1, 2}) {
    auto base = [&] {
      Case c(kGather, name);
      c.Set("vocab", int64_t{50})
          .Set("embed", int64_t{32})
          .Set("indices_shape", Shape{2, 3})
          .Set("seed", seed);
      return c;
    };
    for (int64_t bad :
         {int64_t{-1}, int64_t{50}, int64_t{51}, int64_t{INT32_MAX}, int64_t{INT32_MIN}}) {
      out.push_back(base().Set("bad_index", bad));
    }
    out.push_back(base().Set("scale_len", int64_t{49}));
    out.push_back(base().Set("zero_point_len", int64_t{51}));
    out.push_back(base().Set("scale_len", int64_t{0}));
    for (const char* missing : {"table", "indices", "scale", "zero_point"})
      out.push_back(base().Set("missing", missing));
    out.push_back(base().SetNull("y"));
    out.push_back(base().Set("vocab", int64_t{0}).Set("indices_shape", Shape{0}));
  }
  return out;
}

Verdict CheckRejects(const PropertyContext& ctx, const Case& c) {
  const auto expect_null = c.Find("missing") || OutputIsNull(c, "y");
  if (!expect_null && !ValidationClaimed(ctx)) {
    return Verdict::Skip(
        "upstream leaves bad indices and lengths undefined (spec cann.md §3.4); the port "
        "claims no choice:cann.gather_dequant.validation=param_invalid");
  }
  Called k;
  if (auto v = CallQuantPort(ctx, c, &k)) return *v;
  const auto expect = oracle::quant::ExpectGather(GatherCallOf(k.inv, c));
  if (k.answer.status != expect.status) {
    return Verdict::Fail("status " + StatusText(kGather, k.answer.status) + ", expected " +
                         StatusText(kGather, expect.status) + ": " + expect.rule);
  }
  if (auto v = CheckGuards(*k.answer.Output("y"))) return *v;
  return CheckUntouched(k, expect.rule).value_or(Verdict::Pass());
}

Verdict CheckGatherGuards(const PropertyContext& ctx, const Case& c) {
  Called k;
  if (auto v = CallQuantPort(ctx, c, &k)) return *v;
  return CheckGuards(*k.answer.Output("y")).value_or(Verdict::Pass());
}

// ---- gen_data.py quantizer ----------------------------------------------------------

struct GenDataRow {
  const char* id;
  std::vector<float> w;
  std::vector<int64_t> q;
  uint16_t scale_bits, zp_bits;
};
// spec cann.md §3.7 D.
const std::vector<GenDataRow>& GenDataRows() {
  static const std::vector<GenDataRow> rows = {
      {"§3.7 D row 1", {-1.0f, 0.0f, 0.5f, 1.0f}, {0, 128, 191, 255}, 0x2004, 0x57F8},
      {"§3.7 D constant row (scale 0, zp -inf)", {0.05f, 0.05f, 0.05f}, {0, 0, 0}, 0x0000, 0xFC00},
      {"§3.7 D all-zero row (zp -0.0)", {0.0f, 0.0f}, {0, 0}, 0x0000, 0x8000},
  };
  return rows;
}

Case GenDataRowCase(const GenDataRow& row, const Profile& profile) {
  Shape bits;
  for (float f : row.w) {
    uint32_t word;
    std::memcpy(&word, &f, 4);
    bits.push_back(word);
  }
  Case c(kGenData, profile.name);
  c.Set("vocab", int64_t{1})
      .Set("embed", static_cast<int64_t>(row.w.size()))
      .Set("weight_bits", bits);
  return c;
}

Verdict CheckGenData(const PropertyContext& ctx, const Case& c) {
  Called k;
  if (auto v = CallQuantPort(ctx, c, &k)) return *v;
  for (const char* out : {"table", "scale", "zero_point"}) {
    if (auto v = CheckGuards(*k.answer.Output(out))) return *v;
  }
  if (k.answer.status != cann::kAclnnSuccess)
    return Verdict::Fail("status " + StatusText(kGenData, k.answer.status));
  const InputTensor& weight = *k.inv.Input("weight");
  std::vector<float> w(weight.bytes.size() / 4);
  std::memcpy(w.data(), weight.bytes.data(), weight.bytes.size());
  const int64_t vocab = weight.shape[0], embed = weight.shape[1];
  const auto want = oracle::quant::GenDataQuantize(w, vocab, embed);
  const uint8_t* table = k.answer.Output("table")->contents().data();
  for (int64_t i = 0; i < vocab * embed; ++i) {
    if (table[i] != want.table[i]) {
      return Verdict::Fail("table[v=" + std::to_string(i / embed) +
                           ", e=" + std::to_string(i % embed) + "] = " + std::to_string(table[i]) +
                           ", expected " + std::to_string(want.table[i]) + " (w " +
                           std::to_string(w[i]) + ")");
    }
  }
  for (const auto& [name, bits] :
       {std::pair<const char*, const std::vector<uint16_t>*>{"scale", &want.scale_bits},
        {"zero_point", &want.zero_point_bits}}) {
    if (auto e = FirstDiff16(k.answer.Output(name)->contents().data(), *bits, DType::kFloat16)) {
      return Verdict::Fail(
          std::string(name) + "[v=" + std::to_string(*e) +
          "] = " + Hex16(Words16(k.answer.Output(name)->contents().data() + 2 * *e, 1)[0]) +
          ", expected " + Hex16((*bits)[*e]) + " (float64 value " +
          std::to_string(std::string(name) == "scale" ? want.scale64[*e] : want.zero_point64[*e]) +
          " cast once to fp16)");
    }
  }
  // The spec's own numbers for the documented rows.
  for (const auto& row : GenDataRows()) {
    if (!(GenDataRowCase(row, ctx.profile) == c)) continue;
    for (size_t e = 0; e < row.q.size(); ++e) {
      if (table[e] != row.q[e]) {
        return Verdict::Fail(std::string("spec cann.md ") + row.id + ": q[" + std::to_string(e) +
                             "] = " + std::to_string(table[e]) + ", spec gives " +
                             std::to_string(row.q[e]));
      }
    }
    const uint16_t s = Words16(k.answer.Output("scale")->contents().data(), 1)[0];
    const uint16_t z = Words16(k.answer.Output("zero_point")->contents().data(), 1)[0];
    if (s != row.scale_bits || z != row.zp_bits) {
      return Verdict::Fail(std::string("spec cann.md ") + row.id + ": scale " + Hex16(s) + ", zp " +
                           Hex16(z) + "; spec gives " + Hex16(row.scale_bits) + ", " +
                           Hex16(row.zp_bits));
    }
  }
  return Verdict::Pass();
}

rc::Gen<Case> ValidGenData(const PropertyContext& ctx) {
  const std::string name = ctx.profile.name;
  const CaseDomain& d = ctx.Domain();
  return rc::gen::map(
      rc::gen::tuple(
          gen::Within(d, "vocab", rc::gen::inRange<int64_t>(1, 40)),
          gen::Within(d, "embed", rc::gen::inRange<int64_t>(2, 300), {.lo = 2}),
          gen::TextWithin(d, "weights", rc::gen::element<std::string>("normal", "uniform"),
                          {"normal", "uniform"}),
          gen::DataSeed()),
      [=](const std::tuple<int64_t, int64_t, std::string, int64_t>& t) {
        Case c(kGenData, name);
        c.Set("vocab", std::get<0>(t)).Set("embed", std::get<1>(t)).Set("weights", std::get<2>(t));
        c.Set("seed", std::get<3>(t));
        return c;
      });
}

// Port quantizer → port gather of every row: |y − w| ≤ s64/2 + the error of
// storing scale and zp as fp16 + the two fp16 roundings (non-constant rows).
Verdict CheckGenDataRoundTrip(const PropertyContext& ctx, const Case& c) {
  Called quantized;
  if (auto v = CallQuantPort(ctx, c, &quantized)) return *v;
  if (quantized.answer.status != cann::kAclnnSuccess) {
    return Verdict::Fail("quantizer status " + StatusText(kGenData, quantized.answer.status));
  }
  const InputTensor& weight = *quantized.inv.Input("weight");
  const int64_t vocab = weight.shape[0], embed = weight.shape[1];
  std::vector<float> w(weight.bytes.size() / 4);
  std::memcpy(w.data(), weight.bytes.data(), weight.bytes.size());
  const auto exact = oracle::quant::GenDataQuantize(w, vocab, embed);
  Case g(kGather, ctx.profile.name);
  g.Set("vocab", vocab).Set("embed", embed).Set("indices_shape", Shape{vocab});
  Invocation inv = ctx.suite.Materialize(g, ctx.profile);
  auto set = [&](const char* name, const char* from, uint64_t bytes) {
    auto& in = const_cast<InputTensor&>(*inv.Input(name));
    const auto src = quantized.answer.Output(from)->contents();
    in.bytes.assign(src.begin(), src.begin() + static_cast<std::ptrdiff_t>(bytes));
  };
  set("table", "table", static_cast<uint64_t>(vocab * embed));
  set("scale", "scale", static_cast<uint64_t>(vocab) * 2);
  set("zero_point", "zero_point", static_cast<uint64_t>(vocab) * 2);
  std::vector<int32_t> iota(static_cast<size_t>(vocab));
  std::iota(iota.begin(), iota.end(), 0);
  auto& idx = const_cast<InputTensor&>(*inv.Input("indices"));
  std::memcpy(idx.bytes.data(), iota.data(), iota.size() * 4);
  Called k;
  if (auto v = CallQuantPort(ctx, std::move(inv), &k)) return *v;
  if (k.answer.status != cann::kAclnnSuccess)
    return Verdict::Fail("gather status " + StatusText(kGather, k.answer.status));
  const auto y = Words16(k.answer.Output("y")->contents().data(), vocab * embed);
  const auto s16 = Words16(k.inv.Input("scale")->bytes);
  const auto z16 = Words16(k.inv.Input("zero_point")->bytes);
  for (int64_t v = 0; v < vocab; ++v) {
    const double s = Value16(s16[v], DType::kFloat16), z = Value16(z16[v], DType::kFloat16);
    if (!std::isfinite(z) || s == 0) continue;  // the constant-row case (§3.7 D): NaN by design
    for (int64_t e = 0; e < embed; ++e) {
      const double q = k.inv.Input("table")->bytes[v * embed + e];
      const double got = Value16(y[v * embed + e], DType::kFloat16);
      const double diff = q - z;
      const double step = std::fabs(Value16(Bits16(diff, DType::kFloat16), DType::kFloat16) - diff);
      const double bound = exact.scale64[v] / 2 + std::fabs(z - exact.zero_point64[v]) * s +
                           std::fabs(q - exact.zero_point64[v]) * std::fabs(s - exact.scale64[v]) +
                           step * s + Ulp16(got) / 2 + 1e-9;
      if (!(std::fabs(got - w[v * embed + e]) <= bound)) {
        return Verdict::Fail("row " + std::to_string(v) + ", e=" + std::to_string(e) +
                             ": w = " + std::to_string(w[v * embed + e]) + " → q " +
                             std::to_string(static_cast<int>(q)) + " → y = " + std::to_string(got) +
                             ", off by " + std::to_string(std::fabs(got - w[v * embed + e])) +
                             " > bound " + std::to_string(bound));
      }
    }
  }
  return Verdict::Pass();
}

const std::vector<std::string> kGatherChoices = {kChoiceGatherValidation, kChoiceGatherEmbed,
                                                 "cann.gather_dequant.rounding"};

}  // namespace

void AddGatherProperties(std::vector<Property>* out) {
  const std::string g = kGather;
  auto valid = [](const PropertyContext& ctx) { return ValidGather(ctx, false); };
  auto positive = [](const PropertyContext& ctx) { return ValidGather(ctx, true); };
  out->push_back({g + ".documented_cases",
                  g,
                  {},
                  "the dequant tables of spec cann.md §3.7 (A, B, zp=0/s=1, D row 1) give the "
                  "spec's fp16 bits",
                  kGatherChoices,
                  nullptr,
                  GatherDocumented,
                  nullptr,
                  CheckGatherDocumented});
  out->push_back({g + ".matches_oracle",
                  g,
                  {},
                  "y equals RN16(RN16(q - zp) * s) of the Eigen oracle bit for bit (NaN as NaN), "
                  "every index rank, "
                  "real embedding tables [vocab, hidden] with indices across the vocabulary",
                  kGatherChoices,
                  nullptr,
                  GatherExplicit,
                  valid,
                  CheckGatherOracle});
  out->push_back({g + ".shape_inference",
                  g,
                  {},
                  "y dims = indices.shape ++ [E], rank 0 indices included (§3.2)",
                  kGatherChoices,
                  nullptr,
                  GatherDocumented,
                  valid,
                  CheckShape});
  out->push_back({g + ".gather_row_equals_dequant",
                  g,
                  {},
                  "row i of the gather equals the gather of indices[i] alone (rank-0 indices)",
                  kGatherChoices,
                  nullptr,
                  nullptr,
                  valid,
                  CheckRowEqualsDequant});
  out->push_back({g + ".dequant_monotone",
                  g,
                  {},
                  "for a positive scale, y is non-decreasing in q within a row",
                  kGatherChoices,
                  nullptr,
                  nullptr,
                  positive,
                  CheckMonotone});
  out->push_back({g + ".quantize_round_trip",
                  g,
                  {},
                  "w quantized by the suite and dequantized by the port is within |s|/2 plus the "
                  "two fp16 roundings",
                  kGatherChoices,
                  nullptr,
                  nullptr,
                  positive,
                  CheckQuantizeRoundTrip});
  out->push_back({g + ".rejects_invalid",
                  g,
                  {},
                  "null tensors give 161001; bad indices, scale/zero_point lengths != V and V = 0 "
                  "give 161002 with y "
                  "untouched (the latter only for a port claiming "
                  "cann.gather_dequant.validation=param_invalid)",
                  kGatherChoices,
                  nullptr,
                  InvalidGatherCases,
                  nullptr,
                  CheckRejects});
  out->push_back({g + ".no_write_past_capacity",
                  g,
                  {},
                  "nothing is written outside y (guard bytes)",
                  kGatherChoices,
                  nullptr,
                  InvalidGatherCases,
                  valid,
                  CheckGatherGuards});

  const std::string q = kGenData;
  out->push_back(
      {q + ".matches_oracle",
       q,
       {},
       "table, scale and zero_point equal the float64 Eigen quantizer of gen_data.py (§3.5), the "
       "documented rows of §3.7 D included (constant row: scale 0, zp -inf, as upstream)",
       {kChoiceConstantRow},
       nullptr,
       [](const PropertyContext& ctx) {
         std::vector<Case> cases;
         for (const auto& row : GenDataRows()) cases.push_back(GenDataRowCase(row, ctx.profile));
         return cases;
       },
       ValidGenData,
       CheckGenData});
  out->push_back({q + ".round_trip",
                  q,
                  {kGather},
                  "the port's quantizer then the port's gather give back w within s/2 plus the "
                  "fp16 storage of "
                  "scale/zp and the fp16 roundings (non-constant rows)",
                  {kChoiceConstantRow},
                  nullptr,
                  nullptr,
                  ValidGenData,
                  CheckGenDataRoundTrip});
}

// The oracle's answer of a GatherDequantInt8 case, for vector files: the
// status of the rule table (spec cann.md §3.4); on success y, each row the
// fp16 dequant of its table row rounded after each op (§3.3).
Expected ExpectGatherAnswer(const PropertyContext&, const Invocation& inv) {
  const auto expect = oracle::quant::ExpectGather(GatherCallOf(inv, inv.c));
  Expected e;
  e.rule = expect.rule;
  e.status = expect.status;
  if (expect.status != cann::kAclnnSuccess) {
    for (const OutputSpec& o : inv.outputs) {
      if (!o.null) e.untouched.push_back(o.name);
    }
    return e;
  }
  const InputTensor& table = *inv.Input("table");
  const auto want = oracle::quant::GatherDequantInt8(
      table.bytes, table.shape[0], table.shape[1], IndicesOf(inv),
      Words16(inv.Input("scale")->bytes), Words16(inv.Input("zero_point")->bytes));
  Bytes y(want.size() * 2);
  std::memcpy(y.data(), want.data(), y.size());  // little-endian hosts only
  e.outputs.push_back({"y", DType::kFloat16, {static_cast<int64_t>(want.size())}, y, std::nullopt});
  return e;
}
}  // namespace npuconf::quant_props
