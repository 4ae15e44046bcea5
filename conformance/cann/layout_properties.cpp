// Properties of aclnnTransMatmulWeight (spec cann.md §2.2–2.4) and of the
// ND ↔ FRACTAL_NZ layout itself (§2.5, int4 nibbles §4.4).
#include <algorithm>

#include "conformance/cann/cases.h"
#include "conformance/cann/support.h"
#include "verify/compare.h"
#include "conformance/harness/suite.h"
#include "core/status.h"
#include "generators/shapes.h"
#include "oracles/cann/fractal_nz_oracle.h"

namespace npuconf {
namespace {

using namespace cann_props;

// Random layout cases stay small; the real model shapes cover the large ones.
constexpr int64_t kMaxRandomElems = int64_t{1} << 18;

struct Layout {
  Shape shape;
  DType dtype;
  int64_t c0;
  Shape storage;
  int64_t nd_elems;
  int64_t nz_elems;
};

Layout LayoutOf(const Case& c, const Profile& profile) {
  Layout l;
  l.shape = *c.IntList("shape");
  l.dtype = *c.DTypeParam("dtype");
  l.c0 = CaseC0(c, profile);
  l.storage = *oracle::cann::NzStorageShape(l.shape, l.c0);
  l.nd_elems = *NumElements(l.shape);
  l.nz_elems = *NumElements(l.storage);
  return l;
}

Bytes Head(std::span<const uint8_t> data, uint64_t bytes) {
  return Bytes(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(bytes));
}

uint64_t NzBytes(const Layout& l) { return *BytesForElems(l.dtype, static_cast<uint64_t>(l.nz_elems)); }


// The NZ bytes at the head of `got` against the oracle's packing of `nd`.
std::optional<Verdict> CompareNz(std::span<const uint8_t> got, const Bytes& nd, const Layout& l) {
  const Bytes want = oracle::cann::NdToNz(nd, l.shape, l.dtype, l.c0);
  if (auto e = FirstMismatch(got, want, l.dtype, l.nz_elems)) {
    return Verdict::Fail(DescribeNzElement(l.shape, l.c0, *e) + " holds " +
                         Hex(ElementBits(got, l.dtype, *e), l.dtype) + ", expected " +
                         Hex(ElementBits(want, l.dtype, *e), l.dtype));
  }
  return std::nullopt;
}

std::optional<Verdict> CheckPaddingZero(std::span<const uint8_t> got, const Layout& l) {
  const std::vector<bool> padding = oracle::cann::NzPaddingMask(l.shape, l.c0);
  for (int64_t e = 0; e < l.nz_elems; ++e) {
    if (padding[static_cast<size_t>(e)] && ElementBits(got, l.dtype, e) != 0) {
      return Verdict::Fail(DescribeNzElement(l.shape, l.c0, e) + " holds " +
                           Hex(ElementBits(got, l.dtype, e), l.dtype) + ", expected 0");
    }
  }
  return std::nullopt;
}

std::optional<Verdict> CheckStorageDims(const OutputResult& out, const Layout& l) {
  if (out.dims == l.storage && out.rank == static_cast<int32_t>(l.storage.size())) {
    return std::nullopt;
  }
  return Verdict::Fail("storage shape " + (out.rank < 0 ? std::string("not reported") : ToString(out.dims)) +
                       ", expected " + ToString(l.storage) + " for ND " + ToString(l.shape) +
                       " with C0 " + std::to_string(l.c0));
}

// ---- aclnnTransMatmulWeight ----------------------------------------------------

enum class TransAspect { kOracle, kPadding, kGuards };

Verdict CheckTrans(const PropertyContext& ctx, const Case& c, TransAspect aspect) {
  const auto expected = ExpectTrans(ctx, c);
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  const OutputResult& out = *k.answer.Output("mm_weight_ref");
  if (aspect == TransAspect::kGuards) return CheckGuards(out).value_or(Verdict::Pass());
  if (k.answer.status != expected.status) {
    return Verdict::Fail("status " + StatusText(k.answer.status) + ", expected " +
                         StatusText(expected.status) + ": " + expected.rule);
  }
  if (auto v = CheckGuards(out)) return *v;
  const OutputSpec& spec = k.inv.outputs[0];
  if (!expected.converts) {
    if (aspect == TransAspect::kPadding) return Verdict::Skip("no conversion: " + expected.rule);
    const Bytes before = spec.Before();
    if (!out.null && !std::equal(before.begin(), before.end(), out.contents().begin())) {
      return Verdict::Fail("mmWeightRef modified although " + expected.rule);
    }
    return Verdict::Pass();
  }
  const Layout l = LayoutOf(c, ctx.profile);
  if (aspect == TransAspect::kPadding) {
    return CheckPaddingZero(out.contents(), l).value_or(Verdict::Pass());
  }
  if (auto v = CheckStorageDims(out, l)) return *v;
  if (auto v = CompareNz(out.contents(), spec.initial, l)) return *v;
  const uint64_t nz_bytes = NzBytes(l);
  auto rest = out.contents().subspan(nz_bytes);
  if (auto it = std::find_if(rest.begin(), rest.end(), [](uint8_t b) { return b != kSentinelByte; });
      it != rest.end()) {
    return Verdict::Fail("byte " + std::to_string(nz_bytes + (it - rest.begin())) +
                         " of mmWeightRef, past the " + std::to_string(nz_bytes) +
                         " NZ bytes, was written");
  }
  return Verdict::Pass();
}

rc::Gen<Case> ValidTransCase(const PropertyContext& ctx) {
  const CannFacts& facts = *ctx.profile.cann;
  const std::string name = ctx.profile.name;
  return rc::gen::mapcat(gen::ElementOf(facts.trans_dtypes), [facts, name](DType dtype) {
    const RankRange rank = dtype == DType::kInt8 ? facts.trans_rank_int8 : facts.trans_rank_other;
    auto batch_dim = rc::gen::inRange<int64_t>(1, 4);
    return rc::gen::map(
        rc::gen::tuple(rc::gen::inRange(rank.min, rank.max + 1), gen::Dim(), gen::Dim(),
                       rc::gen::container<Shape>(4, batch_dim), gen::DataSeed()),
        [=](const std::tuple<int, int64_t, int64_t, Shape, int64_t>& t) {
          Shape shape(std::get<3>(t).begin(), std::get<3>(t).begin() + (std::get<0>(t) - 2));
          shape.push_back(std::get<1>(t));
          shape.push_back(std::get<2>(t));
          Case c(kTrans, name);
          c.Set("shape", gen::ClampElems(shape, kMaxRandomElems))
              .Set("dtype", dtype)
              .Set("format", "ND")
              .Set("seed", std::get<4>(t));
          return c;
        });
  });
}

// Bad inputs alone and combined (null tensor, dtype off the SoC's list, NZ
// format, rank 9, empty tensor, rank outside the dtype's rule).
rc::Gen<Case> InvalidTransCase(const PropertyContext& ctx) {
  const CannFacts& facts = *ctx.profile.cann;
  const std::string name = ctx.profile.name;
  std::vector<DType> unsupported;
  int count = 0;
  const DTypeInfo* all = AllDTypes(&count);
  for (int i = 0; i < count; ++i) {
    if (!facts.TransSupports(all[i].dtype) && all[i].bits < 64) unsupported.push_back(all[i].dtype);
  }
  return rc::gen::map(
      rc::gen::tuple(rc::gen::inRange(1, 64), gen::ElementOf(facts.trans_dtypes),
                     gen::ElementOf(unsupported), rc::gen::element<std::string>("FRACTAL_NZ", "NCHW"),
                     rc::gen::elementOf(std::vector<int>{1, 3, 4, 5, 6, 7, 8, 9}),
                     gen::ShapeOf(rc::gen::just(2), gen::Dim()), gen::DataSeed()),
      [=](const std::tuple<int, DType, DType, std::string, int, Shape, int64_t>& t) {
        const int flags = std::get<0>(t);
        Shape shape = gen::ClampElems(std::get<5>(t), kMaxRandomElems);
        Case c(kTrans, name);
        c.Set("dtype", std::get<1>(t)).Set("format", "ND").Set("seed", std::get<6>(t));
        if (flags & 1) c.SetNull("mm_weight_ref");
        if (flags & 2) c.Set("dtype", std::get<2>(t));
        if (flags & 4) c.Set("format", std::get<3>(t));
        if (flags & 8) {
          // Ranks 7–9 with small leading dims; 1, 3–6 where the rule forbids them.
          const int rank = std::get<4>(t);
          Shape ranked(static_cast<size_t>(rank), 1);
          ranked.back() = shape.back();
          if (rank >= 2) ranked[ranked.size() - 2] = shape.front();
          shape = ranked;
        }
        if (flags & 16) shape[static_cast<size_t>(flags) % shape.size()] = 0;
        if ((flags & 31) == 8 && shape.size() >= 2 && shape.size() <= 6) {
          // Rank 3–6 alone is only invalid where the rule says 2.
          const DType dtype = *c.DTypeParam("dtype");
          const RankRange rule = dtype == DType::kInt8 ? facts.trans_rank_int8 : facts.trans_rank_other;
          if (rule.Contains(shape.size())) shape.assign({1, 1, 1, 1, 1, 1, 1, 1, 1});
        }
        c.Set("shape", shape);
        return c;
      });
}

// ---- ND ↔ FRACTAL_NZ -----------------------------------------------------------

// Every dtype of the profile's C0 table; FLOAT/INT32 and INT4 also with the
// other readings of their C0 (choices cann.nz.fp32_c0, cann.nz.int4_c0).
rc::Gen<Case> LayoutCase(const PropertyContext& ctx, const std::string& routine) {
  std::vector<std::pair<DType, int64_t>> variants;
  for (const auto& [dtype, c0] : ctx.profile.cann->nz_c0) {
    variants.emplace_back(dtype, 0);  // 0: the profile's C0 (no c0 param)
    if (dtype == DType::kFloat || dtype == DType::kInt32) variants.emplace_back(dtype, 16);
    if (dtype == DType::kInt4) {
      variants.emplace_back(dtype, 32);
      variants.emplace_back(dtype, 16);
    }
  }
  const std::string name = ctx.profile.name;
  return rc::gen::map(
      rc::gen::tuple(rc::gen::elementOf(variants), rc::gen::inRange(1, 5), gen::Dim(), gen::Dim(),
                     rc::gen::container<Shape>(2, rc::gen::inRange<int64_t>(1, 4)), gen::DataSeed()),
      [=](const std::tuple<std::pair<DType, int64_t>, int, int64_t, int64_t, Shape, int64_t>& t) {
        const int rank = std::get<1>(t);
        Shape shape(std::get<4>(t).begin(), std::get<4>(t).begin() + std::max(0, rank - 2));
        if (rank >= 2) shape.push_back(std::get<2>(t));
        shape.push_back(std::get<3>(t));
        Case c(routine, name);
        c.Set("shape", gen::ClampElems(shape, kMaxRandomElems))
            .Set("dtype", std::get<0>(t).first)
            .Set("seed", std::get<5>(t));
        if (std::get<0>(t).second) c.Set("c0", std::get<0>(t).second);
        return c;
      });
}

// Edge shapes every layout property runs first: single elements, exact
// blocks, block ±1, rank 1, batch dims, empty tensors.
std::vector<Case> EdgeLayoutCases(const PropertyContext& ctx, const std::string& routine) {
  const std::vector<Shape> shapes = {{1, 1},  {16, 16},  {16, 32}, {17, 33}, {15, 31},
                                     {1},     {33},      {2, 3, 17, 65}, {0, 5}, {5, 0},
                                     {2, 0, 16}, {64, 64}, {31, 1}};
  std::vector<Case> out;
  int64_t seed = 1;
  for (const auto& [dtype, c0] : ctx.profile.cann->nz_c0) {
    for (const auto& shape : shapes) {
      Case c(routine, ctx.profile.name);
      c.Set("shape", shape).Set("dtype", dtype).Set("seed", seed++);
      out.push_back(c);
    }
  }
  // The other C0 readings (spec cann.md §5.6, §5.7).
  for (const auto& [dtype, c0] : std::vector<std::pair<DType, int64_t>>{
           {DType::kFloat, 16}, {DType::kInt32, 16}, {DType::kInt4, 32}, {DType::kInt4, 16}}) {
    Case c(routine, ctx.profile.name);
    c.Set("shape", Shape{17, 33}).Set("dtype", dtype).Set("c0", c0).Set("seed", seed++);
    out.push_back(c);
  }
  return out;
}

std::vector<Case> LayoutExplicit(const PropertyContext& ctx, const std::string& routine) {
  auto cases = EdgeLayoutCases(ctx, routine);
  auto real = RealLayoutCases(routine, ctx);
  cases.insert(cases.end(), real.begin(), real.end());
  return cases;
}

enum class PackAspect { kOracle, kPadding, kGuards };

Verdict CheckPack(const PropertyContext& ctx, const Case& c, PackAspect aspect) {
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  const OutputResult& out = *k.answer.Output("nz");
  if (auto v = CheckGuards(out)) return *v;
  if (aspect == PackAspect::kGuards) return Verdict::Pass();
  if (k.answer.status != cann::kAclnnSuccess) {
    return Verdict::Fail("status " + StatusText(k.answer.status) + " for a valid layout case");
  }
  const Layout l = LayoutOf(c, ctx.profile);
  if (aspect == PackAspect::kPadding) return CheckPaddingZero(out.contents(), l).value_or(Verdict::Pass());
  if (auto v = CheckStorageDims(out, l)) return *v;
  return CompareNz(out.contents(), k.inv.Input("nd")->bytes, l).value_or(Verdict::Pass());
}

Verdict CheckUnpack(const PropertyContext& ctx, const Case& c, bool guards_only) {
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  const OutputResult& out = *k.answer.Output("nd");
  if (auto v = CheckGuards(out)) return *v;
  if (guards_only) return Verdict::Pass();
  if (k.answer.status != cann::kAclnnSuccess) {
    return Verdict::Fail("status " + StatusText(k.answer.status) + " for a valid layout case");
  }
  const Layout l = LayoutOf(c, ctx.profile);
  if (out.rank != static_cast<int32_t>(l.shape.size()) || out.dims != l.shape) {
    return Verdict::Fail("ND shape " + (out.rank < 0 ? std::string("not reported") : ToString(out.dims)) +
                         ", expected " + ToString(l.shape));
  }
  const Bytes want = oracle::cann::NzToNd(k.inv.Input("nz")->bytes, l.shape, l.dtype, l.c0);
  if (auto e = FirstMismatch(out.contents(), want, l.dtype, l.nd_elems)) {
    return Verdict::Fail(DescribeNdElement(l.shape, *e) + " holds " +
                         Hex(ElementBits(out.contents(), l.dtype, *e), l.dtype) + ", expected " +
                         Hex(ElementBits(want, l.dtype, *e), l.dtype));
  }
  return Verdict::Pass();
}

// unpack(pack(x)) == x through the port alone. With random data this also
// shows a pack that maps two elements to one slot (the later one wins, the
// earlier is lost), except when both hold equal values (2^-bits per pair).
Verdict CheckRoundTrip(const PropertyContext& ctx, const Case& c) {
  Called packed;
  if (auto v = CallPort(ctx, c, &packed)) return *v;
  if (packed.answer.status != cann::kAclnnSuccess) {
    return Verdict::Fail("nd_to_nz status " + StatusText(packed.answer.status));
  }
  const Layout l = LayoutOf(c, ctx.profile);
  Case back = c;
  back.routine = kUnpack;
  Invocation inv = ctx.suite.Materialize(back, ctx.profile);
  inv.inputs[0].bytes = Head(packed.answer.Output("nz")->contents(), NzBytes(l));
  Called unpacked;
  if (auto v = CallPort(ctx, std::move(inv), &unpacked)) return *v;
  if (unpacked.answer.status != cann::kAclnnSuccess) {
    return Verdict::Fail("nz_to_nd status " + StatusText(unpacked.answer.status));
  }
  const Bytes& original = packed.inv.Input("nd")->bytes;
  const auto nd = unpacked.answer.Output("nd")->contents();
  if (auto e = FirstMismatch(nd, original, l.dtype, l.nd_elems)) {
    return Verdict::Fail("nz_to_nd(nd_to_nz(x)) differs at " + DescribeNdElement(l.shape, *e) + ": " +
                         Hex(ElementBits(nd, l.dtype, *e), l.dtype) + ", x holds " +
                         Hex(ElementBits(original, l.dtype, *e), l.dtype));
  }
  return Verdict::Pass();
}

const std::vector<std::string> kLayoutChoices = {"cann.nz.fp32_c0", "cann.nz.int4_c0"};
const std::vector<std::string> kTransChoices = {"cann.trans.empty_tensor"};

}  // namespace

void cann_props::AddLayoutProperties(std::vector<Property>* out) {
  // Real model shapes run in the matches_oracle properties only: they compare
  // every storage byte (padding included, which the oracle holds at 0) and the
  // guard bytes, so the padding and capacity properties would repeat them.
  auto trans_real = [](const PropertyContext& ctx) {
    auto cases = DocumentedAsCases(kTrans, ctx.profile);
    auto real = RealLayoutCases(kTrans, ctx);
    cases.insert(cases.end(), real.begin(), real.end());
    return cases;
  };
  auto trans_explicit = [](const PropertyContext& ctx) { return DocumentedAsCases(kTrans, ctx.profile); };
  auto valid_trans = [](const PropertyContext& ctx) { return ValidTransCase(ctx); };
  auto any_trans = [](const PropertyContext& ctx) {
    return rc::gen::weightedOneOf<Case>({{1, ValidTransCase(ctx)}, {1, InvalidTransCase(ctx)}});
  };
  out->push_back({std::string(kTrans) + ".documented_cases", kTrans, {},
                  "every unit-test and derived case of spec cann.md §2.4 answers as the spec says",
                  kTransChoices, nullptr,
                  [](const PropertyContext& ctx) { return DocumentedAsCases(kTrans, ctx.profile); },
                  nullptr,
                  [](const PropertyContext& ctx, const Case& c) {
                    const DocumentedCase* row = FindDocumented(c, ctx.profile);
                    if (!row) return Verdict::Fail("not a documented case: " + c.ToText());
                    Called k;
                    if (auto v = CallPort(ctx, c, &k)) return *v;
                    if (k.answer.status != row->status) {
                      return Verdict::Fail("status " + StatusText(k.answer.status) + ", " +
                                           row->source + " gives " + StatusText(row->status));
                    }
                    return Verdict::Pass();
                  }});
  out->push_back({std::string(kTrans) + ".matches_oracle", kTrans, {},
                  "valid weights become the oracle's FRACTAL_NZ in place, storage shape included; "
                  "nothing past the NZ bytes is written",
                  kLayoutChoices, nullptr, trans_real, valid_trans,
                  [](const PropertyContext& ctx, const Case& c) { return CheckTrans(ctx, c, TransAspect::kOracle); }});
  out->push_back({std::string(kTrans) + ".rejects_invalid", kTrans, {},
                  "bad inputs get the documented status in the documented order (§2.2); the "
                  "weight is untouched (the empty tensor succeeds untouched)",
                  kTransChoices, nullptr, nullptr,
                  [](const PropertyContext& ctx) { return InvalidTransCase(ctx); },
                  [](const PropertyContext& ctx, const Case& c) { return CheckTrans(ctx, c, TransAspect::kOracle); }});
  out->push_back({std::string(kTrans) + ".padding_is_zero", kTrans, {},
                  "every NZ position with row >= n or col >= k holds 0 (§2.5)", kLayoutChoices, nullptr,
                  trans_explicit, valid_trans,
                  [](const PropertyContext& ctx, const Case& c) { return CheckTrans(ctx, c, TransAspect::kPadding); }});
  out->push_back({std::string(kTrans) + ".no_write_past_capacity", kTrans, {},
                  "nothing is written outside the V2-sized buffer (guard bytes), valid or not",
                  kLayoutChoices, nullptr, trans_explicit, any_trans,
                  [](const PropertyContext& ctx, const Case& c) { return CheckTrans(ctx, c, TransAspect::kGuards); }});

  auto pack_real = [](const PropertyContext& ctx) { return LayoutExplicit(ctx, kPack); };
  auto pack_explicit = [](const PropertyContext& ctx) { return EdgeLayoutCases(ctx, kPack); };
  auto pack_gen = [](const PropertyContext& ctx) { return LayoutCase(ctx, kPack); };
  out->push_back({std::string(kPack) + ".matches_oracle", kPack, {},
                  "ND -> FRACTAL_NZ equals pad -> reshape -> shuffle (Eigen oracle), storage shape "
                  "included, every dtype of the C0 table",
                  kLayoutChoices, nullptr, pack_real, pack_gen,
                  [](const PropertyContext& ctx, const Case& c) { return CheckPack(ctx, c, PackAspect::kOracle); }});
  out->push_back({std::string(kPack) + ".padding_is_zero", kPack, {},
                  "every NZ position with row >= n or col >= k holds 0 (§2.5)", kLayoutChoices, nullptr,
                  pack_explicit, pack_gen,
                  [](const PropertyContext& ctx, const Case& c) { return CheckPack(ctx, c, PackAspect::kPadding); }});
  out->push_back({std::string(kPack) + ".no_write_past_capacity", kPack, {},
                  "nothing is written outside the NZ storage bytes (guard bytes)", kLayoutChoices, nullptr,
                  pack_explicit, pack_gen,
                  [](const PropertyContext& ctx, const Case& c) { return CheckPack(ctx, c, PackAspect::kGuards); }});
  out->push_back({std::string(kPack) + ".round_trip", kPack, {kUnpack},
                  "nz_to_nd(nd_to_nz(x)) == x through the port; pack keeps every element apart",
                  kLayoutChoices, nullptr, pack_explicit, pack_gen, CheckRoundTrip});

  auto unpack_explicit = [](const PropertyContext& ctx) { return EdgeLayoutCases(ctx, kUnpack); };
  auto unpack_gen = [](const PropertyContext& ctx) { return LayoutCase(ctx, kUnpack); };
  out->push_back({std::string(kUnpack) + ".matches_oracle", kUnpack, {},
                  "FRACTAL_NZ -> ND equals the oracle's shuffle -> reshape -> slice; padding of "
                  "the input (random here) is ignored",
                  kLayoutChoices, nullptr, unpack_explicit, unpack_gen,
                  [](const PropertyContext& ctx, const Case& c) { return CheckUnpack(ctx, c, false); }});
  out->push_back({std::string(kUnpack) + ".no_write_past_capacity", kUnpack, {},
                  "nothing is written outside the ND bytes (guard bytes)", kLayoutChoices, nullptr,
                  unpack_explicit, unpack_gen,
                  [](const PropertyContext& ctx, const Case& c) { return CheckUnpack(ctx, c, true); }});
}

}  // namespace npuconf
