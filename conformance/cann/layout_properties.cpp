// Properties of the ND <-> FRACTAL_NZ layout (spec cann.md §2.5, int4 nibbles
// §4.4) and of aclnnTransMatmulWeight (§2.2–2.4), which validates and then
// converts in place. The layout properties come from the template of
// conformance/harness/layout_properties.h; TransMatmulWeight adds its
// documented cases and its validation.
#include "conformance/harness/layout_properties.h"

#include <algorithm>

#include "conformance/cann/cases.h"
#include "conformance/cann/nz_map.h"
#include "conformance/cann/support.h"
#include "conformance/harness/suite.h"
#include "core/status.h"
#include "generators/cann.h"
#include "oracles/cann/fractal_nz_oracle.h"

namespace npuconf {
namespace {

using namespace cann_props;

// A layout case: its shape, dtype and C0, and both sides' element counts.
struct NzGeometry {
  Shape shape;
  DType dtype = DType::kFloat16;
  int64_t c0 = 0;
  Shape storage;
  int64_t nd_elems = 0, nz_elems = 0;
};

NzGeometry GeometryOf(const Case& c, const Profile& profile) {
  NzGeometry g;
  g.shape = RequireShape(c, "shape");
  g.dtype = RequireDType(c, "dtype");
  g.c0 = CaseC0(c, profile);
  auto storage = oracle::cann::NzStorageShape(g.shape, g.c0);
  auto nd = NumElements(g.shape);
  auto nz = storage ? NumElements(*storage) : std::nullopt;
  if (!storage || !nd || !nz)
    throw CaseError("shape " + ToString(g.shape) + " has no FRACTAL_NZ form");
  g.storage = *storage;
  g.nd_elems = *nd;
  g.nz_elems = *nz;
  return g;
}

// nd_to_nz, nz_to_nd, and TransMatmulWeight (in place: reads the ND content of
// mm_weight_ref, leaves FRACTAL_NZ there).
LayoutInstance NzInstance(const Case& c, const Profile& profile, const std::string& routine) {
  const NzGeometry g = GeometryOf(c, profile);
  // The case's buffers against the budget before anything of its size is
  // built here (the oracle's panel list grows with the case: a claim like
  // shape%4096==0 once drew cases whose panel list alone took 16 GB).
  const uint64_t nd_bytes = ElemBytes(g.dtype, g.nd_elems, g.shape);
  const uint64_t nz_bytes = ElemBytes(g.dtype, g.nz_elems, g.storage);
  if (nd_bytes + nz_bytes > MaxCaseBytes()) throw CaseTooLarge(nd_bytes + nz_bytes, MaxCaseBytes());
  const bool to_nz = routine != kUnpack;
  LayoutInstance l;
  l.input = routine == kTrans ? "mm_weight_ref" : to_nz ? "nd" : "nz";
  l.output = routine == kTrans ? "mm_weight_ref" : to_nz ? "nz" : "nd";
  l.input_codec = l.output_codec = {g.dtype, false};  // INT4: even element in the low nibble (§4.4)
  auto nz_map = std::make_shared<NzStorageMap>(g.shape, g.c0);
  auto nd_map = NdMap(g.shape);
  l.input_elems = to_nz ? g.nd_elems : g.nz_elems;
  l.output_elems = to_nz ? g.nz_elems : g.nd_elems;
  l.output_dims = to_nz ? g.storage : g.shape;
  l.output_map = to_nz ? std::shared_ptr<const verify::StorageMap>(nz_map) : nd_map;
  l.input_map = to_nz ? nd_map : std::shared_ptr<const verify::StorageMap>(nz_map);
  l.oracle = [g, to_nz](const Bytes& in) {
    return to_nz ? oracle::cann::NdToNz(in, g.shape, g.dtype, g.c0)
                 : oracle::cann::NzToNd(in, g.shape, g.dtype, g.c0);
  };
  if (to_nz) {
    // Panels of at most 1 MiB (oracles/cann/fractal_nz_oracle.h NzPanel), and
    // of so few N1 blocks that their ND rows (16 per block, whole rows) stay
    // in cache while every column block reads them: 256 KiB of rows.
    const int64_t fractal_bytes = std::max<int64_t>(1, 16 * g.c0 * Bits(g.dtype) / 8);
    const int64_t k = g.shape.back();
    const int64_t block_row_bytes = std::max<int64_t>(1, 16 * k * Bits(g.dtype) / 8);
    const int64_t n1_step = std::clamp<int64_t>((int64_t{256} << 10) / block_row_bytes, 1,
                                                (int64_t{1} << 20) / fractal_bytes);
    auto panels = std::make_shared<const std::vector<oracle::cann::NzPanel>>(
        oracle::cann::NzPanels(g.shape, g.c0, n1_step));
    l.oracle_tiles = static_cast<int64_t>(panels->size());
    l.oracle_tile = [g, panels](std::span<const uint8_t> in, int64_t t) {
      const auto& panel = (*panels)[static_cast<size_t>(t)];
      return OracleTile{
          .offset_bytes = oracle::cann::NzPanelOffsetBytes(g.shape, g.dtype, g.c0, panel),
          .bytes = oracle::cann::NdToNzPanel(in, g.shape, g.dtype, g.c0, panel)};
    };
  }
  return l;
}

// Edge shapes every layout property runs first: single elements, exact blocks,
// block ±1, rank 1, batch dims, empty tensors; every dtype of the C0 table and
// every other C0 reading of the profile's choices. Every dtype also meets one
// large ragged n and one large ragged k (many N1 / C1 blocks), so a port wrong
// only past some size on one dtype is caught without the real shapes.
std::vector<Case> EdgeLayoutCases(const PropertyContext& ctx, const std::string& routine) {
  const std::vector<Shape> shapes = {
      {1, 1}, {16, 16}, {16, 32},   {17, 33}, {15, 31}, {1},        {33},       {2, 3, 17, 65},
      {0, 5}, {5, 0},   {2, 0, 16}, {64, 64}, {31, 1},  {0, 2, 16}, {1041, 17}, {9, 4129}};
  std::vector<Case> out;
  int64_t seed = 1;
  for (const gen::cann::LayoutVariant& v : gen::cann::LayoutVariants(ctx.profile)) {
    for (const auto& shape : v.c0 ? std::vector<Shape>{{17, 33}} : shapes) {
      Case c(routine, ctx.profile.name);
      c.Set("shape", shape).Set("dtype", v.dtype).Set("seed", seed++);
      if (v.c0) c.Set("c0", v.c0);
      out.push_back(c);
    }
  }
  // A dim past 2^16 (coverage class dim.past_2_16), on the first dtype only: 2 MB each.
  // Both axes: k past 2^16, and n (a row index of 16 bits overflows at row 65536).
  if (!out.empty()) {
    Case c = out.front();
    out.push_back(c.Set("shape", Shape{1, 65537}).Set("seed", seed++));
    out.push_back(c.Set("shape", Shape{65537, 1}).Set("seed", seed++));
  }
  return out;
}

const std::vector<std::string> kLayoutChoices = {"cann.nz.fp32_c0", "cann.nz.int4_c0"};

LayoutRoutine NzLayout(const std::string& routine) {
  const bool to_nz = routine == kPack;
  return {
      .routine = routine,
      .inverse = to_nz ? kUnpack : "",
      .vendor = "cann",
      .success = cann::kAclnnSuccess,
      .what =
          to_nz
              ? "ND -> FRACTAL_NZ (pad -> reshape -> shuffle, Eigen oracle)"
              : "FRACTAL_NZ -> ND (the oracle's shuffle -> reshape -> slice; the input's padding, "
                "random here, ignored)",
      // TransMatmulWeight writes FRACTAL_NZ too (spec cann.md §2.2, §2.5), so its padding is
      // checked.
      .output_has_padding = routine != kUnpack,
      .choices = kLayoutChoices,
      .instance = [routine](const Case& c, const Profile& p) { return NzInstance(c, p, routine); },
      .edge_cases = [routine](const PropertyContext& ctx) { return EdgeLayoutCases(ctx, routine); },
      // The real model shapes run ND -> NZ only (nz_to_nd of the same sizes adds nothing the
      // unpack's edge and random cases do not show, at the cost of minutes).
      .real_cases = to_nz ? std::function<std::vector<Case>(const PropertyContext&)>(
                                [routine](const PropertyContext& ctx) {
                                  return RealLayoutCases(routine, ctx);
                                })
                          : nullptr,
      .generator =
          [routine](const PropertyContext& ctx) {
            return gen::cann::LayoutCase(ctx.profile, routine, ctx.Domain());
          }};
}

// ---- aclnnTransMatmulWeight: the documented answers and the validation ----------

// The documented rows that convert (SUCCESS with a non-empty tensor), and those
// that do not (a rejection, or the empty tensor left untouched).
std::vector<Case> DocumentedTrans(const PropertyContext& ctx, bool converting) {
  std::vector<Case> out;
  for (const Case& c : DocumentedAsCases(kTrans, ctx.profile)) {
    if (ExpectTrans(ctx, c).converts == converting) out.push_back(c);
  }
  return out;
}

// Status as the documented check order gives it (§2.2), and mmWeightRef
// untouched whenever nothing is converted.
Verdict CheckTransRejects(const PropertyContext& ctx, const Case& c) {
  const auto expected = ExpectTrans(ctx, c);
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  const OutputResult& out = *k.answer.Output("mm_weight_ref");
  if (k.answer.status != expected.status) {
    return Verdict::Fail("status " + StatusText(k.answer.status) + ", expected " +
                         StatusText(expected.status) + ": " + expected.rule);
  }
  if (expected.converts)
    return Verdict::Fail("the suite drew a valid call as invalid: " + c.ToText());
  if (!out.null && !Untouched(k.inv.outputs[0], out.contents())) {
    return Verdict::Fail("mmWeightRef modified although " + expected.rule);
  }
  return Verdict::Pass();
}

Verdict CheckTransDocumented(const PropertyContext& ctx, const Case& c) {
  const DocumentedCase* row = FindDocumented(c, ctx.profile);
  if (!row) return Verdict::Fail("not a documented case: " + c.ToText());
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (k.answer.status != row->status) {
    return Verdict::Fail("status " + StatusText(k.answer.status) + ", " + row->source + " gives " +
                         StatusText(row->status));
  }
  return Verdict::Pass();
}

void AddTransProperties(std::vector<Property>* out) {
  const std::vector<std::string> trans_choices = {"cann.trans.empty_tensor"};
  LayoutRoutine trans = NzLayout(kTrans);
  trans.inverse = "";
  trans.what = "TransMatmulWeight's in-place ND -> FRACTAL_NZ of a valid weight (Eigen oracle)";
  trans.instance = [](const Case& c, const Profile& p) { return NzInstance(c, p, kTrans); };
  trans.edge_cases = [](const PropertyContext& ctx) { return DocumentedTrans(ctx, true); };
  trans.real_cases = [](const PropertyContext& ctx) { return RealLayoutCases(kTrans, ctx); };
  trans.generator = [](const PropertyContext& ctx) {
    return gen::cann::ValidTransCase(ctx.profile, ctx.Domain());
  };
  trans.capacity_generator = [](const PropertyContext& ctx) {
    return gen::WeightedOneOf<Case>({{1, gen::cann::ValidTransCase(ctx.profile, ctx.Domain())},
                                     {1, gen::cann::InvalidTransCase(ctx.profile, ctx.Domain())}});
  };
  out->push_back(
      {.name = std::string(kTrans) + ".documented_cases",
       .routine = kTrans,
       .description =
           "every unit-test and derived case of spec cann.md §2.4 answers as the spec says",
       .choices = trans_choices,
       .explicit_cases =
           [](const PropertyContext& ctx) { return DocumentedAsCases(kTrans, ctx.profile); },
       .check = CheckTransDocumented});
  out->push_back(
      {.name = std::string(kTrans) + ".rejects_invalid",
       .routine = kTrans,
       .description =
           "bad inputs get the documented status in the documented order (§2.2); the weight "
           "is untouched (the empty tensor succeeds untouched, as shipped)",
       .choices = trans_choices,
       .explicit_cases =
           [](const PropertyContext& ctx) {
             // The rank rule of §2.2 step 6 for every dtype of the SoC's list:
             // rank 1 and rank 7 (under step 4's 8, outside [2,6]).
             auto out = DocumentedTrans(ctx, false);
             for (DType dtype : ctx.profile.cann->trans_dtypes) {
               for (const Shape& shape : {Shape{32}, Shape{1, 1, 1, 1, 1, 16, 32}}) {
                 Case c(kTrans, ctx.profile.name);
                 out.push_back(c.Set("shape", shape).Set("dtype", dtype).Set("seed", int64_t{1}));
               }
             }
             return out;
           },
       .generator =
           [](const PropertyContext& ctx) {
             return gen::cann::InvalidTransCase(ctx.profile, ctx.Domain());
           },
       .check = CheckTransRejects});
  AddLayoutProperties(trans, out);
}

}  // namespace

void cann_props::AddLayoutProperties(std::vector<Property>* out) {
  AddTransProperties(out);
  npuconf::AddLayoutProperties(NzLayout(kPack), out);
  npuconf::AddLayoutProperties(NzLayout(kUnpack), out);
}

LayoutInstance cann_props::NzLayoutInstance(const Case& c, const Profile& profile,
                                            const std::string& routine) {
  return NzInstance(c, profile, routine);
}

}  // namespace npuconf
