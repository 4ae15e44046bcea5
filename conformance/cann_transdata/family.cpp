// The CANN TransData family (spec layouts.md §A.1–A.8): how a
// cann.trans_data case becomes buffers, its properties, and the family as
// registered in cli/families.cpp.
#include "conformance/cann_transdata/family.h"

#include "conformance/cann_transdata/layout.h"
#include "conformance/harness/call.h"
#include "conformance/harness/layout_properties.h"
#include "conformance/harness/materialize.h"
#include "core/routines/cann_transdata.h"
#include "core/status.h"
#include "generators/cann_transdata.h"
#include "verify/compare.h"

namespace npuconf {
namespace {

using namespace cann_transdata_props;
using routines::cann_transdata::kGeSuccess;
using routines::cann_transdata::kTransData;
namespace orc = oracle::cann_transdata;
namespace g = gen::cann_transdata;

// A rejected call's dst: room that must stay untouched (rejects_invalid).
constexpr uint64_t kRejectedDstBytes = 64;

const std::vector<std::string> kChoices = {
    "cann.trans_data.fp32_c0",         "cann.trans_data.int8_c0", "cann.trans_data.group_factor",
    "cann.trans_data.groups_exceed_n", "cann.trans_data.nz_1d",   "cann.trans_data.fz_c04_c0",
    "cann.trans_data.fz_c04_c_over_4", "cann.nz.fp32_c0"};

Invocation Materialize(const Case& c, const Profile& profile) {
  if (!profile.cann || !profile.raw.contains("trans_data"))
    throw CaseError("routine " + c.routine + " needs a CANN profile, not '" + profile.name + "'");
  const orc::TransDataCall call = CallOf(c);
  const orc::TransDataExpect x = orc::ExpectTransData(profile.raw, call);
  Invocation inv{c, {}, {}};
  if (x.status != kGeSuccess) {
    // A rejected call reads nothing: no data (the 2^41-element case must not allocate).
    inv.inputs.push_back({"src", call.dtype, {}, {}});
    inv.outputs.push_back({"dst", call.dtype, kRejectedDstBytes, false, {}});
    return inv;
  }
  const Shape src_dims = x.pack ? call.shape : x.storage;
  const uint64_t src_bytes = ElemBytes(call.dtype, x.src_elems, src_dims);
  const uint64_t dst_bytes = ElemBytes(call.dtype, x.dst_elems, x.dst_dims);
  inv.inputs.push_back({"src", call.dtype, src_dims, RandomBytes(Seed(c), src_bytes)});
  inv.outputs.push_back({"dst", call.dtype, dst_bytes, false, {}});
  return inv;
}

Expected ExpectAnswer(const PropertyContext& ctx, const Invocation& inv) {
  const orc::TransDataExpect x = orc::ExpectTransData(ctx.profile.raw, CallOf(inv.c));
  if (x.status == kGeSuccess) {
    return ExpectLayout(TransDataInstance(inv.c, ctx.profile), kGeSuccess, inv,
                        "spec layouts.md §A.1/§A.3–§A.7 (Eigen pad -> reshape -> shuffle oracle)");
  }
  Expected e;
  e.rule = x.rule;
  e.status = x.status;
  e.untouched.push_back("dst");
  return e;
}

const RoutineSpec* Spec() { return &routines::cann_transdata::Specs().front(); }

std::string Status(int64_t s) { return StatusText("cann", s); }

bool ElementIsZero(std::span<const uint8_t> data, int64_t e, int64_t bytes) {
  for (int64_t b = 0; b < bytes; ++b) {
    if (data[static_cast<size_t>(e * bytes + b)] != 0) return false;
  }
  return true;
}

// A valid call answered with SUCCESS and intact guards, and its layout.
std::optional<Verdict> CallValid(const PropertyContext& ctx, const Case& c, Called* k,
                                 LayoutInstance* l) {
  if (auto v = CallPort(ctx, c, k)) return v;
  const OutputResult& out = *k->answer.Output("dst");
  if (!out.guards_intact) return CheckGuards(out);
  if (k->answer.status != kGeSuccess)
    return Verdict::Fail("status " + Status(k->answer.status) + " for a valid call");
  *l = TransDataInstance(c, ctx.profile);
  return std::nullopt;
}

// unpack(pack(x)) == x, the output channels no group reads (N mod g) as 0.
Verdict CheckRoundTrip(const PropertyContext& ctx, const Case& c) {
  Called fwd;
  LayoutInstance l;
  if (auto v = CallValid(ctx, c, &fwd, &l)) return *v;
  const auto produced = fwd.answer.Output("dst")->contents();
  Case back = c;
  back.Set("src_format", *c.String("dst_format")).Set("dst_format", *c.String("src_format"));
  // A port may claim one direction only (breaker F1: the unclaimed way back
  // was called and its "unclaimed" blamed on the port).
  if (!ctx.Inside(back)) {
    return Verdict::OutsideClaims("the way back, src_format=" + *back.String("src_format") +
                                  " dst_format=" + *back.String("dst_format"));
  }
  back.inputs = {{"src", l.output_codec.dtype, l.output_dims,
                  Bytes(produced.begin(),
                        produced.begin() +
                            static_cast<std::ptrdiff_t>(l.output_codec.Bytes(l.output_elems)))}};
  Called bwd;
  LayoutInstance lb;
  if (auto v = CallValid(ctx, back, &bwd, &lb)) return *v;
  const orc::TransDataCall call = CallOf(c);
  const orc::TransDataExpect x = orc::ExpectTransData(ctx.profile.raw, call);
  Bytes want = fwd.inv.Input("src")->bytes;
  for (int64_t i = 0; i < x.src_elems; ++i) {
    if (NOfPlainIndex(call, i) >= x.groups * x.cout) {
      std::fill_n(want.begin() + i * x.elem_bytes, x.elem_bytes, 0);
    }
  }
  const auto comparison = verify::Compare({.output = "src",
                                           .got = bwd.answer.Output("dst")->contents(),
                                           .want = want,
                                           .codec = l.input_codec,
                                           .count = l.input_elems,
                                           .map = lb.output_map.get()});
  if (comparison.ok()) return Verdict::Pass();
  return FailFrom(comparison, l.input_codec.dtype, lb.output_map.get(),
                  "trans_data back(trans_data(x)) differs from x: ");
}

// The documented status in the documented order; dst untouched.
Verdict CheckRejects(const PropertyContext& ctx, const Case& c) {
  const orc::TransDataExpect x = orc::ExpectTransData(ctx.profile.raw, CallOf(c));
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (k.answer.status != x.status) {
    // x.rule is the requirement the call breaks (or, for SUCCESS, empty): say
    // that it fails, so a rank-5 shape is not described as "rank 4" (breaker F4).
    return Verdict::Fail(
        "status " + Status(k.answer.status) + ", expected " + Status(x.status) +
        (x.rule.empty() ? "" : " because the call breaks the rule '" + x.rule + "'"));
  }
  if (x.status == kGeSuccess) return Verdict::Fail("the suite drew a valid call as invalid");
  const OutputResult& out = *k.answer.Output("dst");
  if (!out.guards_intact) return *CheckGuards(out);
  if (!Untouched(k.inv.outputs[0], out.contents()))
    return Verdict::Fail("dst modified although the call breaks the rule '" + x.rule + "'");
  return Verdict::Pass();
}

bool IsNzCall(const Case& c) {
  return c.String("src_format") == "ND" || c.String("dst_format") == "ND";
}

// bytes = product of the reported storage dims × element size = the layout's
// bytes, a whole number of blocks (C0 for NC1HWC0 and NDC1HWC0, 16·C0 for
// FRACTAL_Z, FRACTAL_Z_3D and FRACTAL_Z_C04).
Verdict CheckSizeLaw(const PropertyContext& ctx, const Case& c) {
  Called k;
  LayoutInstance l;
  if (auto v = CallValid(ctx, c, &k, &l)) return *v;
  const OutputResult& out = *k.answer.Output("dst");
  int64_t elems = 1;
  for (int64_t d : out.dims) elems *= d;
  if (out.rank < 0) return Verdict::Fail("dst dims not reported");
  const orc::TransDataExpect x = orc::ExpectTransData(ctx.profile.raw, CallOf(c));
  const uint64_t bytes = static_cast<uint64_t>(elems * x.elem_bytes);
  if (bytes != l.output_codec.Bytes(l.output_elems)) {
    return Verdict::Fail("dims " + ToString(out.dims) + " give " + std::to_string(bytes) +
                         " bytes; the layout has " +
                         std::to_string(l.output_codec.Bytes(l.output_elems)));
  }
  if (x.pack) {
    const bool nz = IsNzCall(c);
    const bool five_or_six_hd = x.storage.size() == 5 || x.storage.size() == 6;
    const int64_t block = five_or_six_hd && !nz ? x.c0 : 16 * x.c0;
    if (elems % block != 0)
      return Verdict::Fail(std::to_string(elems) + " elements is not a whole number of blocks");
  }
  return Verdict::Pass();
}

// groups = 1 (and its alias 0, GE fz_c04.cc) equals the ungrouped map of the
// oracle's plain pad → reshape → shuffle, not its block-diagonal one (NCHW ->
// FRACTAL_Z and NCDHW -> FRACTAL_Z_3D).
Verdict CheckGroupsOne(const PropertyContext& ctx, const Case& c) {
  Called one;
  LayoutInstance l;
  if (auto v = CallValid(ctx, c, &one, &l)) return *v;
  Case zero = c;
  zero.Set("groups", int64_t{0});
  Called k0;
  LayoutInstance l0;
  if (auto v = CallValid(ctx, zero, &k0, &l0)) return *v;
  const orc::TransDataCall call = CallOf(c);
  const orc::TransDataExpect x = orc::ExpectTransData(ctx.profile.raw, call);
  const auto from = orc::UngroupedFractalZ(call.shape, x.c0);
  const Bytes& in = one.inv.Input("src")->bytes;
  Bytes want(static_cast<size_t>(x.dst_elems * x.elem_bytes), 0);
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] > 0) {
      std::copy_n(in.begin() + (from[i] - 1) * x.elem_bytes, x.elem_bytes,
                  want.begin() + static_cast<std::ptrdiff_t>(i) * x.elem_bytes);
    }
  }
  for (const auto* k : {&one, &k0}) {
    const auto comparison = verify::Compare({.output = "dst",
                                             .got = k->answer.Output("dst")->contents(),
                                             .want = want,
                                             .codec = l.output_codec,
                                             .count = l.output_elems,
                                             .map = l.output_map.get()});
    if (!comparison.ok()) {
      return FailFrom(comparison, l.output_codec.dtype, l.output_map.get(),
                      std::string(k == &one ? "groups=1" : "groups=0") +
                          " differs from the ungrouped FRACTAL_Z: ");
    }
  }
  return Verdict::Pass();
}

// Grouped FRACTAL_Z holds g·cout·Cin·H·W source elements: the oracle's map has
// that many non-padding slots, and the port's dst as many non-zero elements as
// the source has among the g·cout output channels the groups read.
Verdict CheckGroupedCount(const PropertyContext& ctx, const Case& c) {
  Called k;
  LayoutInstance l;
  if (auto v = CallValid(ctx, c, &k, &l)) return *v;
  const orc::TransDataCall call = CallOf(c);
  const orc::TransDataExpect x = orc::ExpectTransData(ctx.profile.raw, call);
  const Shape& sh = call.shape;
  const std::string& src = call.src_format;
  const size_t c_axis = src == "NHWC"    ? 3
                        : src == "HWCN"  ? 2
                        : src == "NDHWC" ? 4
                        : src == "DHWCN" ? 3
                                         : 1;
  const size_t n_axis = src == "HWCN" ? 3 : src == "DHWCN" ? 4 : 0;
  const int64_t cin = sh[c_axis];
  int64_t hw = 1;  // every axis but N and C: H·W, or D·H·W
  for (size_t i = 0; i < sh.size(); ++i) {
    if (i != c_axis && i != n_axis) hw *= sh[i];
  }
  const int64_t want_slots = x.groups * x.cout * cin * hw;
  int64_t slots = 0;
  for (int64_t s : orc::DstSources(ctx.profile.raw, call)) slots += s > 0;
  if (slots != want_slots) {
    return Verdict::Fail("the oracle's map has " + std::to_string(slots) +
                         " non-padding slots, g·cout·Cin·H·W = " + std::to_string(want_slots));
  }
  const Bytes& in = k.inv.Input("src")->bytes;
  int64_t nonzero_in = 0, nonzero_out = 0;
  for (int64_t i = 0; i < x.src_elems; ++i) {
    if (NOfPlainIndex(call, i) < x.groups * x.cout && !ElementIsZero(in, i, x.elem_bytes))
      ++nonzero_in;
  }
  const auto out = k.answer.Output("dst")->contents();
  for (int64_t i = 0; i < x.dst_elems; ++i) nonzero_out += !ElementIsZero(out, i, x.elem_bytes);
  if (nonzero_in != nonzero_out) {
    return Verdict::Fail("dst holds " + std::to_string(nonzero_out) +
                         " non-zero elements; the source's g·cout channels hold " +
                         std::to_string(nonzero_in));
  }
  return Verdict::Pass();
}

// A 3-D call with D = 1 equals the 4-D call of the same tensor (spec layouts.md
// §A.6, §A.7, §A.0.2 "a 4-D origin gets D = 1"): NDC1HWC0 is NC1HWC0 with a unit D
// axis and FRACTAL_Z_3D is FRACTAL_Z, grouped alike: the same input bytes give the
// same output bytes.
Verdict CheckDepthOne(const PropertyContext& ctx, const Case& c) {
  Called k3;
  LayoutInstance l3;
  if (auto v = CallValid(ctx, c, &k3, &l3)) return *v;
  const std::string plain = *c.String("src_format"), blocked = *c.String("dst_format");
  const size_t d_axis = plain == "NCDHW" ? 2 : plain == "NDHWC" ? 1 : 0;
  Shape shape = *c.IntList("shape");
  shape.erase(shape.begin() + static_cast<std::ptrdiff_t>(d_axis));
  Case flat = c;
  flat.Set("src_format", plain == "NCDHW"   ? "NCHW"
                         : plain == "NDHWC" ? "NHWC"
                                            : "HWCN")
      .Set("dst_format", blocked == "NDC1HWC0" ? "NC1HWC0" : "FRACTAL_Z")
      .Set("shape", shape);
  if (!ctx.Inside(flat)) return Verdict::OutsideClaims("the 4-D call " + flat.ToText());
  Called k4;
  LayoutInstance l4;
  if (auto v = CallValid(ctx, flat, &k4, &l4)) return *v;
  if (k3.inv.Input("src")->bytes != k4.inv.Input("src")->bytes)
    return Verdict::Fail("suite error: the two calls got different inputs");
  const OutputResult& a = *k3.answer.Output("dst");
  const OutputResult& b = *k4.answer.Output("dst");
  Shape dims = a.dims;
  if (blocked == "NDC1HWC0" && dims.size() == 6 && dims[1] == 1) dims.erase(dims.begin() + 1);
  if (dims != b.dims) {
    return Verdict::Fail("dims " + ToString(a.dims) + " (D = 1); the 4-D call reports " +
                         ToString(b.dims));
  }
  const auto comparison = verify::Compare({.output = "dst",
                                           .got = a.contents(),
                                           .want = Bytes(b.contents().begin(), b.contents().end()),
                                           .codec = l3.output_codec,
                                           .count = l3.output_elems,
                                           .map = l3.output_map.get()});
  if (comparison.ok()) return Verdict::Pass();
  return FailFrom(comparison, l3.output_codec.dtype, l3.output_map.get(),
                  blocked + " with D = 1 differs from the 4-D call " + flat.ToText() + ": ");
}

// The 4-D and 5-D pairs three times in four, ND <-> FRACTAL_NZ the fourth;
// only the kinds the claim admits (a port claiming rank(shape)=2 is drawn ND
// <-> FRACTAL_NZ alone, by construction, not by discarding).
rc::Gen<Case> AnyValid(const PropertyContext& ctx, bool pack_only) {
  const std::vector<bool> directions =
      pack_only ? std::vector<bool>{true} : std::vector<bool>{true, false};
  const bool blocked = g::AdmitsSomeRoute(ctx.Domain(), g::Pairs(), directions);
  const bool nz = g::AdmitsSomeRoute(ctx.Domain(), g::NzPairs(false), directions);
  std::vector<std::pair<uint32_t, rc::Gen<Case>>> arms;
  if (blocked || !nz)
    arms.emplace_back(3, g::ValidCase(ctx.profile, ctx.Domain(), {.pack_only = pack_only}));
  if (nz || !blocked) arms.emplace_back(1, g::NzCase(ctx.profile, ctx.Domain(), pack_only, false));
  return gen::WeightedOneOf<Case>(std::move(arms));
}

// trans_data ND -> FRACTAL_NZ equals cann.nd_to_nz of the same shape, dtype and
// seed (the same input bytes): bytes and dims (spec layouts.md §A.8).
Verdict CheckNzEqualsNdToNz(const PropertyContext& ctx, const Case& c) {
  Called td;
  LayoutInstance l;
  if (auto v = CallValid(ctx, c, &td, &l)) return *v;
  Case nz("cann.nd_to_nz", c.profile);
  nz.Set("shape", *c.IntList("shape")).Set("dtype", *c.DTypeParam("dtype"));
  nz.Set("seed", c.Int("seed").value_or(0));
  if (auto c0 = c.Int("c0")) nz.Set("c0", *c0);
  Called k;
  if (auto v = CallPort(ctx, nz, &k)) return *v;
  if (k.answer.status != 0) return Verdict::Fail("cann.nd_to_nz status " + Status(k.answer.status));
  if (td.inv.Input("src")->bytes != k.inv.Input("nd")->bytes)
    return Verdict::Fail("suite error: the two calls got different inputs");
  const OutputResult& a = *td.answer.Output("dst");
  const OutputResult& b = *k.answer.Output("nz");
  if (a.dims != b.dims)
    return Verdict::Fail("dims " + ToString(a.dims) + ", cann.nd_to_nz " + ToString(b.dims));
  const auto comparison = verify::Compare({.output = "dst",
                                           .got = a.contents(),
                                           .want = Bytes(b.contents().begin(), b.contents().end()),
                                           .codec = l.output_codec,
                                           .count = l.output_elems,
                                           .map = l.output_map.get()});
  if (comparison.ok()) return Verdict::Pass();
  return FailFrom(comparison, l.output_codec.dtype, l.output_map.get(),
                  "cann.trans_data ND -> FRACTAL_NZ differs from cann.nd_to_nz: ");
}

LayoutRoutine Layout() {
  return {.routine = kTransData,
          .vendor = "cann",
          .success = kGeSuccess,
          .what =
              "TransData (the oracle's position map: pad -> reshape -> shuffle of an index "
              "tensor, grouped FRACTAL_Z / FRACTAL_Z_3D as block-diagonal tensors)",
          .output_has_padding = true,
          .choices = kChoices,
          .instance = TransDataInstance,
          .edge_cases = [](const PropertyContext& ctx) { return EdgeCases(ctx.profile); },
          .real_cases =
              [](const PropertyContext& ctx) {
                // FLOAT16 conv weights give the same bytes on every CANN profile (C0 16 in every
                // trans_data.c0 table): they run on the first profile of the run only.
                const bool first =
                    ctx.run_profiles.empty() || ctx.run_profiles.front()->name == ctx.profile.name;
                return ctx.real_shapes && first ? RealCases(ctx.profile) : std::vector<Case>{};
              },
          .generator = [](const PropertyContext& ctx) { return AnyValid(ctx, false); },
          .capacity_generator =
              [](const PropertyContext& ctx) {
                return gen::WeightedOneOf<Case>(
                    {{3, AnyValid(ctx, false)}, {1, g::InvalidCase(ctx.profile, ctx.Domain())}});
              }};
}

std::vector<Case> Only(std::vector<Case> cases, const std::function<bool(const Case&)>& keep) {
  std::vector<Case> out;
  for (auto& c : cases) {
    if (keep(c)) out.push_back(std::move(c));
  }
  return out;
}

bool Packs(const Case& c) {
  const auto src = c.String("src_format").value_or("");
  return src == "NCHW" || src == "NHWC" || src == "HWCN" || src == "ND" || g::IsThreeD(src);
}

void AddProperties(std::vector<Property>* out) {
  const std::string r = kTransData;
  AddLayoutProperties(Layout(), out);
  out->push_back(GoldProperty());
  out->push_back(
      {.name = r + ".round_trip",
       .routine = r,
       .description = "trans_data back (formats swapped) of trans_data(x) == x through the port "
                      "(the output channels past g·cout as 0); no two elements share a slot",
       .choices = kChoices,
       .explicit_cases =
           [](const PropertyContext& ctx) { return Only(EdgeCases(ctx.profile), Packs); },
       .generator = [](const PropertyContext& ctx) { return AnyValid(ctx, true); },
       .check = CheckRoundTrip});
  out->push_back(
      {.name = r + ".nz_equals_nd_to_nz",
       .routine = r,
       .also_needs = {"cann.nd_to_nz"},
       .description =
           "ND -> FRACTAL_NZ (rank >= 2) equals cann.nd_to_nz of the same shape, "
           "dtype and input, byte for byte and dims (spec layouts.md §A.8, cann.md §2.5)",
       .choices = {"cann.nz.fp32_c0"},
       .generator =
           [](const PropertyContext& ctx) {
             return g::NzCase(ctx.profile, ctx.Domain(), true, true, 2);
           },
       .check = CheckNzEqualsNdToNz});
  out->push_back(
      {.name = r + ".rejects_invalid",
       .routine = r,
       .description = "every bad call gets GE's code in GE's order (§A.1 steps 1–2, §A.3–A.7: "
                      "145020 format, 145021 shape, 145022 dtype); dst untouched",
       .choices = kChoices,
       .explicit_cases = [](const PropertyContext& ctx) { return InvalidCases(ctx.profile); },
       .generator =
           [](const PropertyContext& ctx) { return g::InvalidCase(ctx.profile, ctx.Domain()); },
       .check = CheckRejects});
  out->push_back(
      {.name = r + ".size_matches_layout",
       .routine = r,
       .description = "the bytes of dst = product of its reported dims × element size = the "
                      "layout's bytes, whole blocks of C0 (NC1HWC0, NDC1HWC0) or 16·C0 "
                      "(FRACTAL_Z, FRACTAL_Z_3D, FRACTAL_Z_C04)",
       .choices = kChoices,
       .explicit_cases = [](const PropertyContext& ctx) { return EdgeCases(ctx.profile); },
       .generator = [](const PropertyContext& ctx) { return AnyValid(ctx, false); },
       .check = CheckSizeLaw});
  out->push_back({.name = r + ".groups_one_is_ungrouped",
                  .routine = r,
                  .description =
                      "NCHW -> FRACTAL_Z and NCDHW -> FRACTAL_Z_3D with groups 1 and with groups 0 "
                      "(the same sub-format, GE fz_c04.cc) equal the oracle's ungrouped pad -> "
                      "reshape -> shuffle (§A.3, §A.7)",
                  .choices = kChoices,
                  .generator =
                      [](const PropertyContext& ctx) {
                        return g::ValidCase(ctx.profile, ctx.Domain(),
                                            {.pack_only = true,
                                             .fractal_z_only = true,
                                             .nchw_only = true,
                                             .min_groups = 1,
                                             .max_groups = 1});
                      },
                  .check = CheckGroupsOne});
  out->push_back(
      {.name = r + ".grouped_nonpadding_count",
       .routine = r,
       .description = "grouped FRACTAL_Z (FRACTAL_Z_3D) holds g·cout·Cin·(D·)H·W elements "
                      "(§A.4): the oracle's non-padding slots, and the port's non-zero elements "
                      "those of the source",
       .choices = kChoices,
       .generator =
           [](const PropertyContext& ctx) {
             return g::ValidCase(ctx.profile, ctx.Domain(),
                                 {.pack_only = true, .fractal_z_only = true, .min_groups = 2});
           },
       .check = CheckGroupedCount});
  out->push_back({.name = r + ".depth_one_equals_4d",
                  .routine = r,
                  .description =
                      "NCDHW/NDHWC/DHWCN with D = 1 -> NDC1HWC0 / FRACTAL_Z_3D equals "
                      "NCHW/NHWC/HWCN -> NC1HWC0 (a unit D axis) / FRACTAL_Z of the same tensor, "
                      "groups alike (§A.6, §A.7, §A.0.2)",
                  .choices = kChoices,
                  .generator =
                      [](const PropertyContext& ctx) {
                        return g::ValidCase(ctx.profile, ctx.Domain(),
                                            {.pack_only = true, .three_d_only = true});
                      },
                  .check = CheckDepthOne});
}

// A case that leaves c0 out takes the C0 the oracle derives for a valid call
// (the profile's trans_data.c0 for the dtype, fractal_nz.c0 for FRACTAL_NZ, 4
// for NC1HWC0_C04, choice cann.trans_data.fz_c04_c0; spec layouts.md §A.0.1,
// §A.2, §A.5, §A.8); none for a call rejected first.
std::optional<ParamValue> Effective(const Case& c, const Profile& profile, const ParamSpec& param) {
  if (param.key != "c0") return std::nullopt;
  try {
    const orc::TransDataExpect x = orc::ExpectTransData(profile.raw, CallOf(c));
    if (x.status != kGeSuccess || x.c0 <= 0) return std::nullopt;
    return ParamValue::Int(x.c0);
  } catch (const std::exception&) {
    return std::nullopt;  // a malformed case: no claim holds for it
  }
}

}  // namespace

Family CannTransDataFamily() {
  return {.name = "cann_transdata",
          .routines = {{Spec(), Materialize, ExpectAnswer, Effective}},
          .add_properties = AddProperties};
}

}  // namespace npuconf
