// Properties of the weight dequants: the antiquant of aclnnWeightQuantBatchMatmulV2
// (spec cann.md §4) and RKNN Matmul B (spec rknn.md §5). Both map a [rows, cols]
// q tensor through one param per tensor / channel / group; the invariants that
// hold for both (monotone in q, group isolation, quantize round trip) are
// written once over that view.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "conformance/harness/suite.h"
#include "conformance/quant/support.h"
#include "core/float16.h"
#include "core/prng.h"
#include "core/status.h"
#include "generators/quant.h"

namespace npuconf::quant_props {
namespace {

// ---- the common view of a materialized case ---------------------------------------

struct WeightView {
  int64_t rows = 0, cols = 0;
  DType out = DType::kFloat;  // FLOAT16 / BF16 (per-step) or FLOAT (fp32 once)
  DType qdtype = DType::kInt8;
  bool even_high = false;
  std::string weight_input;  // "weight" / "b"
  std::vector<int32_t> q;
  std::vector<int64_t> map;         // element → param
  std::vector<double> scale, zero;  // per param: y = (q − zero) · scale
  int64_t groups = 1, group_size = 0;
  bool groups_major = true;
};

bool IsAntiquant(const Case& c) { return c.routine == kAntiquant; }

WeightView ViewOf(const PropertyContext& ctx, const Case& c, const Invocation& inv) {
  WeightView v;
  v.rows = *c.Int("k");
  v.cols = *c.Int("n");
  if (IsAntiquant(c)) {
    const DType x = *c.DTypeParam("x_dtype");
    v.out = x;
    v.qdtype = *c.DTypeParam("weight_dtype");
    v.weight_input = "weight";
    const InputTensor& s = *inv.Input("scale");
    const auto scale = Words16(s.bytes);
    const InputTensor* o = inv.Input("offset");
    const auto offset = o ? Words16(o->bytes) : std::vector<uint16_t>{};
    v.group_size = c.Int("group_size").value_or(0);
    for (size_t i = 0; i < scale.size(); ++i) {
      v.scale.push_back(Value16(scale[i], x));
      v.zero.push_back(o ? -Value16(offset[i], x) : 0.0);  // offset = −zero point (§4.1)
    }
  } else {
    const auto call = RknnCallOf(ctx, c, inv);
    v.out = DType::kFloat;
    v.qdtype = call.b_dtype;
    v.even_high = call.even_high;
    v.weight_input = "b";
    v.groups_major = !call.n_major;
    v.group_size = call.quant_type >= 4 ? call.group_size : 0;
    const InputTensor& s = *inv.Input("scale");
    const InputTensor& z = *inv.Input("zp");
    for (size_t i = 0; i + 4 <= s.bytes.size(); i += 4) {
      float f;
      int32_t zp;
      std::memcpy(&f, s.bytes.data() + i, 4);
      std::memcpy(&zp, z.bytes.data() + i, 4);
      v.scale.push_back(f);
      v.zero.push_back(zp);
    }
  }
  v.groups = v.group_size > 0 ? v.rows / v.group_size + (v.rows % v.group_size != 0) : 1;
  v.q = oracle::quant::DecodeQ(inv.Input(v.weight_input.c_str())->bytes, v.qdtype, v.rows * v.cols,
                               v.even_high);
  v.map = oracle::quant::ParamIndexMap(v.rows, v.cols, v.group_size,
                                       static_cast<int64_t>(v.scale.size()), v.groups_major);
  return v;
}

double OutValue(const OutputResult& y, const WeightView& v, int64_t e) {
  if (v.out == DType::kFloat) {
    float f;
    std::memcpy(&f, y.contents().data() + 4 * e, 4);
    return f;
  }
  return Value16(Words16(y.contents().data() + 2 * e, 1)[0], v.out);
}

std::string Bits(const OutputResult& y, const WeightView& v, int64_t e) {
  if (v.out == DType::kFloat) return Hex32(static_cast<float>(OutValue(y, v, e)));
  return Hex16(Words16(y.contents().data() + 2 * e, 1)[0]);
}

// "y[k=70, n=5] (group 2, param 133)"
std::string Where(const WeightView& v, int64_t e) {
  const int64_t r = e / v.cols, c = e % v.cols;
  std::string text = "y[k=" + std::to_string(r) + ", n=" + std::to_string(c) + "]";
  if (v.group_size > 0)
    text +=
        " (group " + std::to_string(r / v.group_size) + ", param " + std::to_string(v.map[e]) + ")";
  else if (v.scale.size() > 1)
    text += " (channel " + std::to_string(c) + ")";
  return text;
}

double UlpOf(double y, DType dtype) {
  const double a = std::fabs(y);
  const int mant = dtype == DType::kFloat ? 23 : dtype == DType::kBf16 ? 7 : 10;
  const int min_exp = dtype == DType::kFloat16 ? -14 : -126;
  const int exp = a > 0 ? std::max(static_cast<int>(std::floor(std::log2(a))), min_exp) : min_exp;
  return std::ldexp(1.0, exp - mant);
}

double RoundTo(double x, DType dtype) {
  if (dtype == DType::kFloat) return static_cast<float>(x);
  return Value16(Bits16(static_cast<float>(x), dtype), dtype);
}

constexpr int64_t kRknnSucc = 0;  // RKNN_SUCC (spec rknn.md §1.10)
int64_t SuccessOf(const Case& c) { return IsAntiquant(c) ? cann::kAclnnSuccess : kRknnSucc; }

// ---- matches_oracle, rejects_invalid, guards --------------------------------------------

oracle::quant::Expectation Expect(const PropertyContext& ctx, const Case& c,
                                  const Invocation& inv) {
  if (IsAntiquant(c)) return oracle::quant::ExpectAntiquant(AntiquantCallOf(c, inv, ctx.profile));
  return oracle::quant::ExpectRknn(RknnCallOf(ctx, c, inv));
}

enum class Aspect { kOracle, kRejects, kGuards };

std::optional<Verdict> SkipUnsupportedRknn(const PropertyContext& ctx, const Case& c);

Verdict CheckWeight(const PropertyContext& ctx, const Case& c, Aspect aspect) {
  if (auto skip = SkipUnsupportedRknn(ctx, c)) return *skip;
  Called k;
  if (auto v = CallQuantPort(ctx, c, &k)) return *v;
  const OutputResult& y = *k.answer.Output("y");
  if (auto v = CheckGuards(y)) return *v;
  if (aspect == Aspect::kGuards) return Verdict::Pass();
  const auto expect = Expect(ctx, c, k.inv);
  if (k.answer.status != expect.status) {
    return Verdict::Fail("status " + StatusText(c.routine, k.answer.status) + ", expected " +
                         StatusText(c.routine, expect.status) + ": " + expect.rule);
  }
  if (expect.status != SuccessOf(c))
    return CheckUntouched(k, expect.rule).value_or(Verdict::Pass());
  const WeightView v = ViewOf(ctx, c, k.inv);
  std::optional<int64_t> diff;
  std::string want_text;
  if (IsAntiquant(c)) {
    const auto call = AntiquantCallOf(c, k.inv, ctx.profile);
    const InputTensor* o = k.inv.Input("offset");
    const auto want = oracle::quant::Antiquant(call, k.inv.Input("weight")->bytes,
                                               Words16(k.inv.Input("scale")->bytes),
                                               o ? Words16(o->bytes) : std::vector<uint16_t>{});
    diff = FirstDiff16(y.contents().data(), want, v.out);
    if (diff) want_text = Hex16(want[*diff]);
  } else {
    const auto call = RknnCallOf(ctx, c, k.inv);
    std::vector<float> scale(v.scale.begin(), v.scale.end());
    std::vector<int32_t> zp(v.zero.begin(), v.zero.end());
    const auto want = oracle::quant::RknnDequantB(call, k.inv.Input("b")->bytes, scale, zp);
    diff = FirstDiff32(y.contents().data(), want);
    if (diff) want_text = Hex32(want[*diff]);
  }
  if (diff) {
    return Verdict::Fail(Where(v, *diff) + " = " + Bits(y, v, *diff) + ", expected " + want_text +
                         " (q " + std::to_string(v.q[*diff]) + ", scale " +
                         std::to_string(v.scale[v.map[*diff]]) + ", zero point " +
                         std::to_string(v.zero[v.map[*diff]]) + ")");
  }
  if (y.rank != 2 || y.dims != Shape{v.rows, v.cols}) {
    return Verdict::Fail("y dims " + ReportedDims(y) + ", expected " +
                         ToString(Shape{v.rows, v.cols}));
  }
  return Verdict::Pass();
}

// ---- the common invariants ---------------------------------------------------------------

// For a positive scale, y is non-decreasing in q within every (group, channel).
Verdict CheckMonotone(const PropertyContext& ctx, const Case& c) {
  if (auto skip = SkipUnsupportedRknn(ctx, c)) return *skip;
  Called k;
  if (auto v = CallQuantPort(ctx, c, &k)) return *v;
  if (k.answer.status != SuccessOf(c))
    return Verdict::Fail("status " + StatusText(c.routine, k.answer.status));
  if (!k.Written("y")) return Verdict::Fail("status SUCCESS but y was not written");
  const WeightView v = ViewOf(ctx, c, k.inv);
  const OutputResult& y = *k.answer.Output("y");
  std::vector<std::vector<int64_t>> by_param(v.scale.size());
  for (int64_t e = 0; e < v.rows * v.cols; ++e) by_param[v.map[e]].push_back(e);
  for (size_t p = 0; p < by_param.size(); ++p) {
    if (!(v.scale[p] > 0)) continue;
    auto& elems = by_param[p];
    std::stable_sort(elems.begin(), elems.end(),
                     [&](int64_t a, int64_t b) { return v.q[a] < v.q[b]; });
    for (size_t j = 1; j < elems.size(); ++j) {
      const double lo = OutValue(y, v, elems[j - 1]), hi = OutValue(y, v, elems[j]);
      if (lo > hi) {
        return Verdict::Fail(Where(v, elems[j - 1]) + " (q " + std::to_string(v.q[elems[j - 1]]) +
                             ") = " + std::to_string(lo) + " > " + Where(v, elems[j]) + " (q " +
                             std::to_string(v.q[elems[j]]) + ") = " + std::to_string(hi) +
                             " with scale " + std::to_string(v.scale[p]) + " > 0");
      }
    }
  }
  return Verdict::Pass();
}

// Changing param p's scale changes only the elements that use p, and every one
// of them whose value the new scale changes after rounding (t = q - zp != 0
// and RN(RN(t)·s) != RN(RN(t)·s')): a port that updates part of a group (a stale
// cache, a loop bound one short) fails on the first element left behind.
Verdict CheckGroupIsolation(const PropertyContext& ctx, const Case& c) {
  if (auto skip = SkipUnsupportedRknn(ctx, c)) return *skip;
  Called before;
  if (auto v = CallQuantPort(ctx, c, &before)) return *v;
  if (before.answer.status != SuccessOf(c))
    return Verdict::Fail("status " + StatusText(c.routine, before.answer.status));
  const WeightView v = ViewOf(ctx, c, before.inv);
  const int64_t p = static_cast<int64_t>(Seed(c) % v.scale.size());
  Invocation changed = before.inv;
  InputTensor& s = const_cast<InputTensor&>(*changed.Input("scale"));
  const double new_scale = v.scale[p] == 1.0 ? 2.0 : 1.0;
  if (v.out == DType::kFloat) {
    const float f = static_cast<float>(new_scale);
    std::memcpy(s.bytes.data() + 4 * p, &f, 4);
  } else {
    const uint16_t bits = Bits16(new_scale, v.out);
    std::memcpy(s.bytes.data() + 2 * p, &bits, 2);
  }
  Called after;
  if (auto verdict = CallQuantPort(ctx, std::move(changed), &after)) return *verdict;
  const OutputResult& y0 = *before.answer.Output("y");
  const OutputResult& y1 = *after.answer.Output("y");
  const int64_t width = v.out == DType::kFloat ? 4 : 2;
  for (int64_t e = 0; e < v.rows * v.cols; ++e) {
    const bool same =
        std::memcmp(y0.contents().data() + width * e, y1.contents().data() + width * e, width) == 0;
    if (v.map[e] != p && !same) {
      return Verdict::Fail("changing only the scale of param " + std::to_string(p) + " changed " +
                           Where(v, e) + ", which belongs to param " + std::to_string(v.map[e]) +
                           ": " + Bits(y0, v, e) + " -> " + Bits(y1, v, e));
    }
    if (v.map[e] == p && same) {
      const double t = v.q[e] - v.zero[p];
      const double before_value = RoundTo(RoundTo(t, v.out) * v.scale[p], v.out);
      const double after_value = RoundTo(RoundTo(t, v.out) * new_scale, v.out);
      if (std::isfinite(t) && t != 0 && before_value != after_value) {
        return Verdict::Fail("changing the scale of param " + std::to_string(p) + " (" +
                             std::to_string(v.scale[p]) + " -> " + std::to_string(new_scale) +
                             ") left " + Where(v, e) + " (q " + std::to_string(v.q[e]) + ") at " +
                             Bits(y0, v, e) + "; it should become " + std::to_string(after_value));
      }
    }
  }
  return Verdict::Pass();
}

// Floats w near grid points of each param, quantized by the suite
// (q = clip(RNE(w/s + zp))), dequantized by the port:
// |y − w| ≤ |s|/2 + [per-step: |RN(q − zp) − (q − zp)|·|s|] + ulp(y)/2.
Verdict CheckRoundTrip(const PropertyContext& ctx, const Case& c) {
  if (auto skip = SkipUnsupportedRknn(ctx, c)) return *skip;
  Invocation inv = ctx.suite.Materialize(c, ctx.profile);
  const WeightView v = ViewOf(ctx, c, inv);
  const int32_t lo = v.qdtype == DType::kInt8 ? -128 : -8, hi = v.qdtype == DType::kInt8 ? 127 : 7;
  SplitMix64 rng(Seed(c) ^ 0xA7ull);
  std::vector<double> w(v.q.size());
  std::vector<int32_t> q(v.q.size());
  for (size_t e = 0; e < v.q.size(); ++e) {
    const double s = v.scale[v.map[e]], z = v.zero[v.map[e]];
    const double u = static_cast<double>(rng.Next() >> 11) * 0x1.0p-53 * 0.98 - 0.49;
    const double target = std::clamp<double>(std::round(z) + v.q[e] / 2, lo, hi);
    w[e] = (target - z + u) * s;
    q[e] = static_cast<int32_t>(std::clamp<double>(std::nearbyint(w[e] / s + z), lo, hi));
  }
  auto& weight = const_cast<InputTensor&>(*inv.Input(v.weight_input));
  weight.bytes = oracle::quant::EncodeQ(q, v.qdtype, v.even_high);
  Called k;
  if (auto verdict = CallQuantPort(ctx, std::move(inv), &k)) return *verdict;
  if (k.answer.status != SuccessOf(c))
    return Verdict::Fail("status " + StatusText(c.routine, k.answer.status));
  const OutputResult& y = *k.answer.Output("y");
  for (size_t e = 0; e < q.size(); ++e) {
    const double s = v.scale[v.map[e]], z = v.zero[v.map[e]];
    if (std::nearbyint(w[e] / s + z) != q[e]) continue;  // clipped
    const double got = OutValue(y, v, static_cast<int64_t>(e));
    const double t_exact = q[e] - z;
    if (!std::isfinite(RoundTo(RoundTo(t_exact, v.out) * s, v.out)))
      continue;  // overflows the output type
    const double t = q[e] - z;
    const double step = v.out == DType::kFloat ? 0.0 : std::fabs(RoundTo(t, v.out) - t);
    const double bound =
        std::fabs(s) / 2 + step * std::fabs(s) + UlpOf(got, v.out) / 2 + 1e-12 * std::fabs(w[e]);
    if (!(std::fabs(got - w[e]) <= bound)) {
      return Verdict::Fail(Where(v, static_cast<int64_t>(e)) + ": w = " + std::to_string(w[e]) +
                           " quantized to q " + std::to_string(q[e]) + " dequantizes to " +
                           Bits(y, v, static_cast<int64_t>(e)) + ", off by " +
                           std::to_string(std::fabs(got - w[e])) + " > bound " +
                           std::to_string(bound) + " (scale " + std::to_string(s) +
                           ", zero point " + std::to_string(z) + ")");
    }
  }
  return Verdict::Pass();
}

// ---- antiquant cases -----------------------------------------------------------------

std::string AntiquantNotApplicable(const Profile& p) {
  if (!p.cann) return "not a CANN profile";
  if (p.cann->antiquant_supported) return "";
  return p.cann->npu_arch +
         " has no aclnnWeightQuantBatchMatmulV2: every call returns 361001 (spec cann.md §4.1a "
         "step 1), checked by cann.antiquant.rejects_invalid";
}

// Random weights stay at most this many elements (k·n), whatever the dims.
constexpr int64_t kMaxWeightElems = int64_t{1} << 18;

// The weight dtype, x dtype and mode come first: the dims depend on them (an
// INT4 weight packs n in pairs, an INT32 carrier in eights, per-group needs
// k >= 33 for a group size in [32, k-1]); every param is drawn inside the
// port's claim (generators/shapes.h Within, PickIn).
rc::Gen<Case> ValidAntiquant(const PropertyContext& ctx, bool per_group_only, bool positive) {
  const std::string name = ctx.profile.name;
  const bool p310 = ctx.profile.cann && ctx.profile.cann->npu_arch == "DAV_2002";
  const bool n_by_1 = Reading(ctx, kChoiceChannel2d, "as_code") == "as_310p_doc";
  const CaseDomain d = ctx.Domain();
  const std::vector<std::string> modes =
      per_group_only ? std::vector<std::string>{"per_group"}
                     : std::vector<std::string>{"per_tensor", "per_channel", "per_group"};
  auto kinds = rc::gen::tuple(
      gen::PickIn(d, "weight_dtype", std::vector<DType>{DType::kInt8, DType::kInt4, DType::kInt32}),
      gen::PickIn(d, "x_dtype", std::vector<DType>{DType::kFloat16, DType::kBf16}),
      gen::PickIn(d, "mode", modes));
  return rc::gen::mapcat(kinds, [=](const std::tuple<DType, DType, std::string>& kind) {
    // Copies, not a structured binding: clang 14 (the fuzz build) cannot capture a structured
    // binding in a lambda.
    const DType weight = std::get<0>(kind), x = std::get<1>(kind);
    const std::string mode = std::get<2>(kind);
    const bool grouped = mode == "per_group";
    const int64_t step = weight == DType::kInt4 ? 2 : weight == DType::kInt32 ? 8 : 1;
    // k reaches the documented limit 65535 (spec cann.md §4.3) too.
    auto k_draw = rc::gen::weightedOneOf<int64_t>({{3, rc::gen::inRange<int64_t>(1, 40)},
                                                   {3, gen::DimNear(32, 6)},
                                                   {1, rc::gen::inRange<int64_t>(40, 300)},
                                                   {1, rc::gen::inRange<int64_t>(300, 65536)}});
    if (grouped) k_draw = rc::gen::map(k_draw, [](int64_t k) { return std::max<int64_t>(k, 33); });
    auto k_gen =
        gen::Within(d, "k", k_draw, {.lo = grouped ? 33 : 1, .hi = 65535, .hard_hi = true});
    return rc::gen::mapcat(k_gen, [=](int64_t k) {
      // n is cut so that k·n stays ≤ 2^18 elements, then counted in the weight's packing.
      const int64_t n_units = std::max<int64_t>(1, kMaxWeightElems / std::max<int64_t>(k, 1));
      auto n_draw =
          rc::gen::map(rc::gen::weightedOneOf<int64_t>({{6, rc::gen::inRange<int64_t>(1, 24)},
                                                        {1, rc::gen::inRange<int64_t>(24, 8192)}}),
                       [=](int64_t n) { return std::min(n, n_units) * step; });
      auto gs_gen = grouped ? gen::Within(d, "group_size", gen::AntiquantGroupSize(k),
                                          {.lo = 32, .hi = k - 1, .step = 32, .hard_hi = true})
                            : rc::gen::just<int64_t>(0);
      return rc::gen::map(
          rc::gen::tuple(
              gen::Within(d, "n", n_draw, {.lo = step, .hi = n_units * step, .step = step}), gs_gen,
              gen::TextWithin(d, "scales", positive ? gen::PositiveScaleKind() : gen::ScaleKind(),
                              positive ? gen::kPositiveScaleKinds : gen::kScaleKinds),
              gen::TextWithin(d, "zps", gen::ZeroPointKind(), gen::kZeroPointKinds),
              gen::PickIn(d, "offset", std::vector<int64_t>{0, 1}), rc::gen::arbitrary<bool>(),
              gen::DataSeed()),
          [=](const std::tuple<int64_t, int64_t, std::string, std::string, int64_t, bool, int64_t>&
                  t) {
            const auto& [n, gs, scales, zps, offset, two_d, seed] = t;
            Case c(kAntiquant, name);
            c.Set("k", k).Set("n", n).Set("weight_dtype", weight).Set("x_dtype", x);
            c.Set("group_size", gs).Set("mode", mode).Set("offset", offset);
            c.Set("scales", scales).Set("zps", zps).Set("seed", seed);
            if (two_d && mode == "per_tensor") c.Set("scale_shape", Shape{1, 1});
            // The 2-D per-channel scale as the reading has it (§4.2, §5.12); on
            // 310P only under the doc's reading.
            if (two_d && mode == "per_channel" && n_by_1) c.Set("scale_shape", Shape{n, 1});
            if (two_d && mode == "per_channel" && !n_by_1 && !p310)
              c.Set("scale_shape", Shape{1, n});
            return c;
          });
    });
  });
}

// One rule broken at a time (§4.2–4.4), or an unsupported arch (every case).
// Rejections random draws rarely reach (coverage classes status.161002_k_n_range,
// status.161002_weight_dtype, status.161001_null, status.161002_int32_n): k past
// the DAV_2201 limit 65535 (§4.3; valid on DAV_3510), a weight dtype outside
// INT8/INT4/INT32, a null weight, an INT32 carrier with n % 8 != 0 (§4.4).
// n = 0 too: its per-channel scale [0] is a present, empty tensor, so the null
// check (§4.1a step 2) passes and the k/n limits (§4.3, "no empty tensors")
// reject it with 161002, not 161001.
std::vector<Case> AntiquantEdgeRejects(const PropertyContext& ctx) {
  std::vector<Case> out;
  auto base = [&](int64_t k, int64_t n) {
    Case c(kAntiquant, ctx.profile.name);
    return c.Set("k", k).Set("n", n).Set("weight_dtype", "INT8").Set("x_dtype", "FLOAT16");
  };
  out.push_back(base(0, 16));
  out.push_back(base(16, 0));
  out.push_back(base(65536, 1));
  out.push_back(base(16, 16).Set("missing", "weight"));
  out.push_back(base(16, 12).Set("weight_dtype", "INT32"));
  out.push_back(base(16, 16).Set("weight_dtype", "INT16"));
  out.push_back(base(16, 16).Set("weight_dtype", "FLOAT16"));
  return out;
}

// Fault `how` (0..11) applied to the valid case `c`.
Case AntiquantFault(Case c, int how) {
  const int64_t k = *c.Int("k"), n = *c.Int("n");
  const int64_t gs = c.Int("group_size").value_or(0);
  switch (how) {
    case 0:
      c.Set("group_size", int64_t{-32});
      break;
    case 1:
      c.Set("group_size", int64_t{48}).Set("mode", "per_group");
      break;
    case 2:
      c.Set("group_size", ((k + 31) / 32) * 32).Set("mode", "per_group");
      break;  // ≥ k
    case 3:
      c.Set("scale_shape", Shape{n + 1});
      break;
    case 4:
      c.Set("scale_shape", gs > 0 ? Shape{(k + gs - 1) / gs + 1, n} : Shape{2, n});
      break;
    case 5:
      c.Set("offset", int64_t{1}).Set("offset_shape", Shape{n, 2});
      break;
    case 6:
      c.Set("weight_dtype", "INT4").Set("n", n | 1).params.erase("scale_shape");
      break;
    case 7:
      c.Set("weight_dtype", "INT32").Set("n", n * 8 + 4).params.erase("scale_shape");
      break;
    case 8:
      c.Set("x_dtype", "INT8");
      break;
    case 9:
      c.Set("missing", (c.Int("seed").value_or(0) % 2) ? "weight" : "scale");
      break;
    case 10:
      c.SetNull("y");
      break;
    default:
      c.Set("k", int64_t{0})
          .Set("group_size", int64_t{0})
          .Set("mode", "per_channel")
          .params.erase("scale_shape");
      break;
  }
  if (how == 3 && n == 0) c.Set("scale_shape", Shape{2});
  return c;
}

// A valid case inside the claim with one fault; one that would take it outside
// the claim gives way to the next (FirstFaultInside).
rc::Gen<Case> InvalidAntiquant(const PropertyContext& ctx) {
  const CaseDomain d = ctx.Domain();
  return rc::gen::mapcat(ValidAntiquant(ctx, false, false), [d](Case valid) {
    return rc::gen::map(rc::gen::inRange<size_t>(0, 12), [d, valid](size_t how) {
      return gen::FirstFaultInside(
          d, 12, how, [&](size_t h) { return AntiquantFault(valid, static_cast<int>(h)); });
    });
  });
}

// spec cann.md §4.3 examples (k = 64: gs 32 OK, gs 64 → 161002; k = 65: gs 64
// OK with scale (2, n); gs = 48 → 161002) and the §4.2 per-tensor/per-channel shapes.
struct AntiquantRow {
  const char* id;
  int64_t k, gs;
  Shape scale_shape;
  int64_t status;
};
const std::vector<AntiquantRow>& AntiquantRows() {
  static const std::vector<AntiquantRow> rows = {
      {"§4.3 k=64 gs=32", 64, 32, {2, 16}, cann::kAclnnSuccess},
      {"§4.3 k=64 gs=64", 64, 64, {1, 16}, cann::kAclnnErrParamInvalid},
      {"§4.3 k=65 gs=64 scale (2,n)", 65, 64, {2, 16}, cann::kAclnnSuccess},
      {"§4.3 gs=48", 65, 48, {2, 16}, cann::kAclnnErrParamInvalid},
      {"§4.2 per-tensor (1,)", 64, 0, {1}, cann::kAclnnSuccess},
      {"§4.2 per-tensor (1,1)", 64, 0, {1, 1}, cann::kAclnnSuccess},
      {"§4.2 per-channel (n,)", 64, 0, {16}, cann::kAclnnSuccess},
      {"§4.2 1-D scale with gs > 0", 64, 32, {16}, cann::kAclnnErrParamInvalid},
  };
  return rows;
}

Case AntiquantRowCase(const AntiquantRow& row, const Profile& profile) {
  Case c(kAntiquant, profile.name);
  c.Set("k", row.k).Set("n", int64_t{16}).Set("weight_dtype", "INT8").Set("x_dtype", "FLOAT16");
  c.Set("group_size", row.gs).Set("scale_shape", row.scale_shape).Set("seed", int64_t{1});
  return c;
}

Verdict CheckAntiquantDocumented(const PropertyContext& ctx, const Case& c) {
  for (const auto& row : AntiquantRows()) {
    if (!(AntiquantRowCase(row, ctx.profile) == c)) continue;
    const int64_t want =
        AntiquantNotApplicable(ctx.profile).empty() ? row.status : cann::kAclnnErrRuntimeError;
    Called k;
    if (auto v = CallQuantPort(ctx, c, &k)) return *v;
    if (k.answer.status != want) {
      return Verdict::Fail("status " + StatusText(kAntiquant, k.answer.status) + ", spec cann.md " +
                           row.id + " gives " + StatusText(kAntiquant, want));
    }
    return Verdict::Pass();
  }
  return Verdict::Fail("not a documented case of spec cann.md §4.2/§4.3: " + c.ToText());
}

// ---- RKNN cases -----------------------------------------------------------------------

// The (quant_type, B dtype) pairs the platform supports (RknnDequantSupport).
std::vector<std::pair<int64_t, DType>> RknnCombos(const Profile& profile, bool per_group_only) {
  std::vector<std::pair<int64_t, DType>> out;
  for (const auto& [q, dtypes] : RknnDequantSupport(profile).by_quant_type) {
    if (per_group_only && q < 4) continue;
    for (DType d : dtypes) out.emplace_back(q, d);
  }
  return out;
}

// A case of a quant type and B dtype the platform supports (or one of the
// invalid values rejects_invalid checks), else a Skip naming the source.
std::optional<Verdict> SkipUnsupportedRknn(const PropertyContext& ctx, const Case& c) {
  if (c.routine != kRknnB) return std::nullopt;
  const int64_t q = c.Int("quant_type").value_or(-1);
  const auto dtype = c.DTypeParam("dtype");
  if (q < 0 || q > 5 || !dtype || (*dtype != DType::kInt8 && *dtype != DType::kInt4))
    return std::nullopt;
  if (RknnDequantSupport(ctx.profile).Supports(q, *dtype)) return std::nullopt;
  return Verdict::Skip("B_quant_type " + std::to_string(q) + " with B " +
                       std::string(Name(*dtype)) + " is not supported on " + ctx.profile.name +
                       " (" + kRknnDequantSupportSource + ")");
}

// The quant type × B dtype pair first (only those the platform supports, issue
// #9 item 7), then the group size, then K as whole groups (or sevens) and N cut
// so that K·N stays ≤ 2^18 elements; each inside the port's claim.
rc::Gen<Case> ValidRknn(const PropertyContext& ctx, bool per_group_only, bool positive) {
  const std::string name = ctx.profile.name;
  const bool only32 = ctx.profile.rknn && ctx.profile.rknn->group_size_rule == "32_only";
  const std::string zero_point = Reading(ctx, kChoiceZeroPoint, "symmetric_only");
  const CaseDomain d = ctx.Domain();
  const auto combos =
      gen::KeepOrAll(RknnCombos(ctx.profile, per_group_only), [&](const auto& combo) {
        return d.AdmitsInt("quant_type", combo.first) && d.AdmitsText("dtype", Name(combo.second));
      });
  return rc::gen::mapcat(gen::Pick(combos), [=](const std::pair<int64_t, DType>& combo) {
    // Copies, not a structured binding: clang 14 (the fuzz build) cannot capture a structured
    // binding in a lambda.
    const int64_t quant_type = combo.first;
    const DType dtype = combo.second;
    const bool grouped = quant_type >= 4;
    auto gs_gen = grouped ? gen::Within(d, "group_size",
                                        only32 ? rc::gen::just<int64_t>(32) : gen::RknnGroupSize())
                          : rc::gen::just<int64_t>(0);
    return rc::gen::mapcat(gs_gen, [=](int64_t gs) {
      // K up to 2048 groups (or sevens: a K that is no power of two).
      const int64_t unit = grouped ? gs : 7;
      auto k_gen = gen::Within(
          d, "k",
          rc::gen::map(rc::gen::weightedOneOf<int64_t>({{4, rc::gen::inRange<int64_t>(1, 9)},
                                                        {1, rc::gen::inRange<int64_t>(9, 2049)}}),
                       [unit](int64_t units) { return units * unit; }),
          {.step = grouped ? gs : 1});
      return rc::gen::mapcat(k_gen, [=](int64_t k) {
        const int64_t n_max = std::max<int64_t>(1, kMaxWeightElems / k);
        auto n_gen = gen::Within(d, "n",
                                 rc::gen::map(rc::gen::weightedOneOf<int64_t>(
                                                  {{4, rc::gen::inRange<int64_t>(1, 40)},
                                                   {1, rc::gen::inRange<int64_t>(40, 4097)}}),
                                              [n_max](int64_t n) { return std::min(n, n_max); }),
                                 {.hi = n_max});
        return rc::gen::map(
            rc::gen::tuple(
                n_gen,
                gen::TextWithin(d, "scales", positive ? gen::PositiveScaleKind() : gen::ScaleKind(),
                                positive ? gen::kPositiveScaleKinds : gen::kScaleKinds),
                gen::TextWithin(d, "zps", rc::gen::element<std::string>("zero", "integer"),
                                {"zero", "integer"}),
                gen::DataSeed()),
            [=](const std::tuple<int64_t, std::string, std::string, int64_t>& t) {
              const auto& [n, scales, zps, seed] = t;
              Case c(kRknnB, name);
              c.Set("k", k).Set("n", n);
              c.Set("dtype", dtype).Set("quant_type", quant_type).Set("scales", scales);
              if (grouped) c.Set("group_size", gs);
              if (zero_point == "asymmetric") c.Set("zps", zps);
              c.Set("seed", seed);
              return c;
            });
      });
    });
  });
}

// Rejections random draws rarely reach (coverage classes status.-5_k_n,
// status.-5_b_dtype): K = 0, N = 0, a B dtype outside INT8/INT4 (spec rknn.md §5).
std::vector<Case> RknnEdgeRejects(const PropertyContext& ctx) {
  std::vector<Case> out;
  auto base = [&](int64_t k, int64_t n) {
    Case c(kRknnB, ctx.profile.name);
    return c.Set("k", k).Set("n", n).Set("dtype", "INT8").Set("quant_type", int64_t{0});
  };
  out.push_back(base(0, 8));
  out.push_back(base(8, 0));
  out.push_back(base(8, 8).Set("dtype", "INT16"));
  // The per-group rules (§5.3) on each supported per-group pair: group_size 0,
  // K not a multiple of group_size.
  for (const auto& [q, dtype] : RknnCombos(ctx.profile, true)) {
    out.push_back(
        base(64, 2).Set("dtype", dtype).Set("quant_type", q).Set("group_size", int64_t{0}));
    out.push_back(
        base(33, 2).Set("dtype", dtype).Set("quant_type", q).Set("group_size", int64_t{32}));
    // Group sizes other than 32 that divide K: valid under divides_k, rejected
    // under 32_only (choice rknn.quant.group_size, §5.3), 48 no power of two.
    for (const int64_t gs : {64, 48}) {
      out.push_back(base(2 * gs, 2).Set("dtype", dtype).Set("quant_type", q).Set("group_size", gs));
    }
  }
  return out;
}

// Fault `how` (0..7) applied to the valid case `c`.
Case RknnFault(Case c, int how, bool asym) {
  const int64_t k = *c.Int("k");
  switch (how) {
    case 0:
      c.Set("scale_len", int64_t{0});
      break;
    case 1:
      c.Set("scale_len", (c.Int("seed").value_or(0) % 2) ? int64_t{2} : int64_t{1} + *c.Int("n"));
      break;
    case 2:
      c.Set("zp_len", int64_t{3});
      break;
    case 3:
      c.Set("quant_type", int64_t{4}).Set("group_size", k + 1);
      break;  // K not a multiple
    case 4:
      c.Set("quant_type", int64_t{4}).Set("group_size", int64_t{0});
      break;
    case 5:
      c.Set("quant_type", (c.Int("seed").value_or(0) % 2) ? int64_t{6} : int64_t{-1});
      break;
    case 6:
      if (!asym) {
        c.Set("nonzero_zp", int64_t{1});
        break;
      }
      [[fallthrough]];
    default:
      c.Set("dtype", "INT16");
      break;
  }
  return c;
}

rc::Gen<Case> InvalidRknn(const PropertyContext& ctx) {
  const bool asym = Reading(ctx, kChoiceZeroPoint, "symmetric_only") == "asymmetric";
  const CaseDomain d = ctx.Domain();
  return rc::gen::mapcat(ValidRknn(ctx, false, false), [asym, d](Case valid) {
    return rc::gen::map(rc::gen::inRange<size_t>(0, 8), [asym, d, valid](size_t how) {
      return gen::FirstFaultInside(
          d, 8, how, [&](size_t h) { return RknnFault(valid, static_cast<int>(h), asym); });
    });
  });
}

// spec rknn.md §7.3 (and §5.1–5.4): expected status, and for the index row the
// value of y[70][5] under each reading of the group order.
struct RknnRow {
  const char* id;
  int64_t k, n, quant_type, gs;
  std::optional<int64_t> scale_len;
  std::optional<int64_t> nonzero_zp;
  const char* group_order;  // "" or a reading
  int64_t status;
  std::optional<double> y_70_5;
};
const std::vector<RknnRow>& RknnRows() {
  static const std::vector<RknnRow> rows = {
      {"§7.3 per-group length K=128 N=64 gs=32 -> 256", 128, 64, 4, 32, 256, {}, "", 0, {}},
      {"§7.3 per-group length 255", 128, 64, 4, 32, 255, {}, "", -5, {}},
      {"§7.3 per-group index B[70][5] -> 133 (g*N+n)", 128, 64, 4, 32, {}, {}, "g_major", 0, 134.0},
      {"§7.3 per-group index B[70][5] -> 22 (n*(K/gs)+g)",
       128,
       64,
       4,
       32,
       {},
       {},
       "n_major",
       0,
       23.0},
      {"§7.3 K=96 gs=64", 96, 64, 4, 64, {}, {}, "", -5, {}},
      {"§7.3 nonzero zp", 128, 64, 0, 0, {}, 1, "", -5, {}},
      {"§7.3 default per-layer scale 1.0 zp 0", 128, 64, 0, 0, {}, {}, "", 0, 1.0},
  };
  return rows;
}

Case RknnRowCase(const RknnRow& row, const Profile& profile) {
  Case c(kRknnB, profile.name);
  c.Set("k", row.k).Set("n", row.n).Set("dtype", "INT8").Set("quant_type", row.quant_type);
  if (row.gs) c.Set("group_size", row.gs);
  if (row.scale_len) c.Set("scale_len", *row.scale_len);
  if (row.nonzero_zp) c.Set("nonzero_zp", *row.nonzero_zp);
  if (*row.group_order) c.Set("group_order", row.group_order);
  c.Set("scales", row.y_70_5 && *row.y_70_5 > 1 ? "index" : "ones");
  c.Set("b_fill", int64_t{1});  // every q = 1: y = the scale used
  return c;
}

Verdict CheckRknnDocumented(const PropertyContext& ctx, const Case& c) {
  if (auto skip = SkipUnsupportedRknn(ctx, c)) return *skip;
  for (const auto& row : RknnRows()) {
    if (!(RknnRowCase(row, ctx.profile) == c)) continue;
    if (row.nonzero_zp && Reading(ctx, kChoiceZeroPoint, "symmetric_only") == "asymmetric") {
      return Verdict::Skip("holds under rknn.quant.zero_point = symmetric_only");
    }
    Called k;
    if (auto v = CallQuantPort(ctx, c, &k)) return *v;
    if (k.answer.status != row.status) {
      return Verdict::Fail("status " + StatusText(kRknnB, k.answer.status) + ", spec rknn.md " +
                           row.id + " gives " + StatusText(kRknnB, row.status));
    }
    if (row.y_70_5) {
      float got;
      std::memcpy(&got, k.answer.Output("y")->contents().data() + 4 * (70 * row.n + 5), 4);
      if (got != *row.y_70_5) {
        return Verdict::Fail("spec rknn.md " + std::string(row.id) +
                             ": y[70][5] = " + std::to_string(got) + " (scale index " +
                             std::to_string(static_cast<int64_t>(got) - 1) + "), expected " +
                             std::to_string(*row.y_70_5) + " (scale index " +
                             std::to_string(static_cast<int64_t>(*row.y_70_5) - 1) + ")");
      }
    }
    return Verdict::Pass();
  }
  return Verdict::Fail("not a documented case of spec rknn.md §7.3: " + c.ToText());
}

std::string RknnNotApplicable(const Profile& p) {
  return p.family == "rknn" ? "" : "not an RKNN profile";
}

std::string RknnGroupedNotApplicable(const Profile& p) {
  if (std::string why = RknnNotApplicable(p); !why.empty()) return why;
  if (!p.rknn || !p.rknn->has_tables || !RknnCombos(p, true).empty()) return "";
  return "no per-group B_quant_type is supported on " + p.name + " (" + kRknnDequantSupportSource +
         ")";
}

const std::vector<std::string> kAntiquantChoices = {kChoiceChannel2d};
const std::vector<std::string> kRknnChoices = {kChoiceGroupOrder, kChoiceZeroPoint,
                                               kChoiceGroupSize};

}  // namespace

void AddAntiquantProperties(std::vector<Property>* out) {
  const std::string a = kAntiquant;
  auto valid = [](const PropertyContext& ctx) { return ValidAntiquant(ctx, false, false); };
  auto grouped = [](const PropertyContext& ctx) { return ValidAntiquant(ctx, true, false); };
  auto positive = [](const PropertyContext& ctx) { return ValidAntiquant(ctx, false, true); };
  auto documented = [](const PropertyContext& ctx) {
    std::vector<Case> cases;
    for (const auto& row : AntiquantRows()) cases.push_back(AntiquantRowCase(row, ctx.profile));
    return cases;
  };
  auto check = [](Aspect aspect) {
    return
        [aspect](const PropertyContext& ctx, const Case& c) { return CheckWeight(ctx, c, aspect); };
  };
  out->push_back({a + ".documented_cases",
                  a,
                  {},
                  "the group-size and scale-shape examples of spec cann.md §4.2-4.3",
                  kAntiquantChoices,
                  nullptr,
                  documented,
                  nullptr,
                  CheckAntiquantDocumented});
  out->push_back({a + ".matches_oracle",
                  a,
                  {},
                  "W' = RN_I(RN_I(w + offset) * scale) equals the Eigen oracle bit for bit: "
                  "INT8/INT4/INT32 carrier, "
                  "FLOAT16/BF16, per-tensor/channel/group, short last group",
                  kAntiquantChoices,
                  AntiquantNotApplicable,
                  documented,
                  valid,
                  check(Aspect::kOracle)});
  out->push_back({a + ".rejects_invalid",
                  a,
                  {},
                  "361001 off DAV_2201/3510/2002, 161001 for null weight/scale/y, 161002 for the "
                  "group-size, shape, "
                  "dtype and int4 rules of §4.2-4.4; y untouched",
                  kAntiquantChoices,
                  nullptr,
                  AntiquantEdgeRejects,
                  InvalidAntiquant,
                  check(Aspect::kRejects)});
  out->push_back(
      {a + ".group_isolation",
       a,
       {},
       "changing one (group, channel) scale changes exactly the outputs of that group and channel",
       kAntiquantChoices,
       AntiquantNotApplicable,
       nullptr,
       grouped,
       CheckGroupIsolation});
  out->push_back({a + ".dequant_monotone",
                  a,
                  {},
                  "for a positive scale, W' is non-decreasing in w per group/channel",
                  kAntiquantChoices,
                  AntiquantNotApplicable,
                  nullptr,
                  positive,
                  CheckMonotone});
  out->push_back({a + ".quantize_round_trip",
                  a,
                  {},
                  "w quantized by the suite and dequantized by the port is within |s|/2 plus the "
                  "two RN_I roundings",
                  kAntiquantChoices,
                  AntiquantNotApplicable,
                  nullptr,
                  positive,
                  CheckRoundTrip});
  out->push_back({a + ".no_write_past_capacity",
                  a,
                  {},
                  "nothing is written outside y, valid or not (guard bytes)",
                  kAntiquantChoices,
                  nullptr,
                  nullptr,
                  [](const PropertyContext& ctx) {
                    return rc::gen::weightedOneOf<Case>(
                        {{1, ValidAntiquant(ctx, false, false)}, {1, InvalidAntiquant(ctx)}});
                  },
                  check(Aspect::kGuards)});
}

void AddRknnDequantProperties(std::vector<Property>* out) {
  const std::string r = kRknnB;
  auto valid = [](const PropertyContext& ctx) { return ValidRknn(ctx, false, false); };
  auto grouped = [](const PropertyContext& ctx) { return ValidRknn(ctx, true, false); };
  auto positive = [](const PropertyContext& ctx) { return ValidRknn(ctx, false, true); };
  auto documented = [](const PropertyContext& ctx) {
    std::vector<Case> cases;
    for (const auto& row : RknnRows()) cases.push_back(RknnRowCase(row, ctx.profile));
    return cases;
  };
  auto check = [](Aspect aspect) {
    return
        [aspect](const PropertyContext& ctx, const Case& c) { return CheckWeight(ctx, c, aspect); };
  };
  out->push_back({r + ".documented_cases",
                  r,
                  {},
                  "spec rknn.md §7.3: per-group length, the B[70][5] param index under both "
                  "orders, K % gs, zp != 0",
                  kRknnChoices,
                  RknnNotApplicable,
                  documented,
                  nullptr,
                  CheckRknnDocumented});
  out->push_back({r + ".matches_oracle",
                  r,
                  {},
                  "y = fp32(q - zp) * s equals the Eigen oracle bit for bit: INT8/INT4 NORM B, "
                  "per-layer/channel/group",
                  kRknnChoices,
                  RknnNotApplicable,
                  documented,
                  valid,
                  check(Aspect::kOracle)});
  out->push_back({r + ".rejects_invalid",
                  r,
                  {},
                  "-5 for scale_len 0, lengths that do not fit the quant type, K % group_size != "
                  "0, quant_type "
                  "outside 0..5, non-zero zp (symmetric_only), B dtype; y untouched",
                  kRknnChoices,
                  RknnNotApplicable,
                  RknnEdgeRejects,
                  InvalidRknn,
                  check(Aspect::kRejects)});
  out->push_back({r + ".group_isolation",
                  r,
                  {},
                  "changing one per-group scale changes exactly the outputs of that group and "
                  "column (order g*N+n)",
                  kRknnChoices,
                  RknnGroupedNotApplicable,
                  nullptr,
                  grouped,
                  CheckGroupIsolation});
  out->push_back({r + ".dequant_monotone",
                  r,
                  {},
                  "for a positive scale, y is non-decreasing in q per group/channel",
                  kRknnChoices,
                  RknnNotApplicable,
                  nullptr,
                  positive,
                  CheckMonotone});
  out->push_back({r + ".quantize_round_trip",
                  r,
                  {},
                  "w quantized by the suite and dequantized by the port is within |s|/2 plus the "
                  "fp32 rounding",
                  kRknnChoices,
                  RknnNotApplicable,
                  nullptr,
                  positive,
                  CheckRoundTrip});
  out->push_back({r + ".no_write_past_capacity",
                  r,
                  {},
                  "nothing is written outside y, valid or not (guard bytes)",
                  kRknnChoices,
                  RknnNotApplicable,
                  nullptr,
                  [](const PropertyContext& ctx) {
                    return rc::gen::weightedOneOf<Case>(
                        {{1, ValidRknn(ctx, false, false)}, {1, InvalidRknn(ctx)}});
                  },
                  check(Aspect::kGuards)});
}

// The oracle's answer of an antiquant or rknn.dequant_b case, for vector files:
// the status of the rule tables; on success y [k, n] from the Eigen dequant.
Expected ExpectWeightAnswer(const PropertyContext& ctx, const Invocation& inv) {
  const Case& c = inv.c;
  const auto expect = Expect(ctx, c, inv);
  Expected e;
  e.rule = expect.rule;
  e.status = expect.status;
  if (expect.status != SuccessOf(c)) {
    for (const OutputSpec& o : inv.outputs) {
      if (!o.null) e.untouched.push_back(o.name);
    }
    return e;
  }
  const WeightView v = ViewOf(ctx, c, inv);
  Bytes y;
  if (IsAntiquant(c)) {
    const InputTensor* o = inv.Input("offset");
    const auto want = oracle::quant::Antiquant(
        AntiquantCallOf(c, inv, ctx.profile), inv.Input("weight")->bytes,
        Words16(inv.Input("scale")->bytes), o ? Words16(o->bytes) : std::vector<uint16_t>{});
    y.resize(want.size() * 2);
    std::memcpy(y.data(), want.data(), y.size());  // little-endian hosts only
  } else {
    std::vector<float> scale(v.scale.begin(), v.scale.end());
    std::vector<int32_t> zp(v.zero.begin(), v.zero.end());
    const auto want =
        oracle::quant::RknnDequantB(RknnCallOf(ctx, c, inv), inv.Input("b")->bytes, scale, zp);
    y.resize(want.size() * 4);
    std::memcpy(y.data(), want.data(), y.size());
  }
  e.outputs.push_back({"y", v.out, {v.rows, v.cols}, y, Shape{v.rows, v.cols}});
  return e;
}
}  // namespace npuconf::quant_props
