// Properties of aclnnCalculateConvolutionWeightSize, aclnnTransConvolutionWeight
// (spec layouts.md §A.9, §A.4) and aclnnNpuFormatCastCalculateSizeAndFormat
// (§A.10): each judged against the oracle (oracles/cann_convweight/) or the
// spec's own numbers, never against reference/.
#include <cstring>

#include "conformance/cann_convweight/family.h"
#include "conformance/harness/call.h"
#include "conformance/harness/layout_properties.h"
#include "core/routines/cann_convweight.h"
#include "core/status.h"
#include "generators/cann_convweight.h"

namespace npuconf::cann_convweight_props {
namespace {

namespace ids = routines::cann_convweight;
namespace g = gen::cann_convweight;
namespace orc = oracle::cann_convweight;

// Constants only: the suite may be built during another translation unit's
// static initialisation (the GoogleTest adapter registers its tests so), before
// any std::string or std::vector of this file would be constructed.
constexpr const char* kSize = ids::kCalculateConvolutionWeightSize;
constexpr const char* kTrans = ids::kTransConvolutionWeight;
constexpr const char* kCast = ids::kNpuFormatCastCalculateSizeAndFormat;

std::vector<std::string> GroupsChoice() { return {"cann.conv_weight.groups_range"}; }
std::vector<std::string> NullSrcChoice() { return {"cann.format_cast.null_src"}; }

std::string Status(int64_t s) { return StatusText("cann", s); }

bool Fact(const Profile& p, const char* name) {
  return p.raw.contains("conv_weight") && p.raw.at("conv_weight").at(name).at("value").get<bool>();
}

// §A.9: both conv-weight APIs return 161002 on every SoC but ASCEND310P.
std::string NoConvWeight(const Profile& p) {
  if (Fact(p, "supported")) return "";
  return "the conv-weight APIs return 161002 for every call off ASCEND310P (spec layouts.md "
         "§A.9): no valid call exists on " +
         p.name;
}
// §A.10: the format-cast size API exists on 950, 910_93 and 910B only.
std::string NoFormatCast(const Profile& p) {
  if (Fact(p, "format_cast_supported")) return "";
  return "aclnnNpuFormatCastCalculateSizeAndFormat returns 161002 for every call off 950, "
         "910_93 and 910B (spec layouts.md §A.10): no valid call exists on " +
         p.name;
}

uint64_t ReadU64(const OutputResult& out) {
  uint64_t v = 0;
  std::memcpy(&v, out.contents().data(), sizeof(v));
  return v;
}

// The port's status, and each output written exactly when the oracle says.
std::optional<Verdict> StatusIs(const Called& k, const orc::Expect& x) {
  if (k.answer.status == x.status) return std::nullopt;
  return Verdict::Fail("status " + Status(k.answer.status) + ", expected " + Status(x.status) +
                       ": " + x.rule);
}

std::optional<Verdict> LeftUntouched(const Called& k, const orc::Expect& x) {
  for (size_t i = 0; i < k.inv.outputs.size(); ++i) {
    const OutputResult& out = *k.answer.Output(k.inv.outputs[i].name);
    if (!out.guards_intact) return CheckGuards(out);
    if (!out.null && !Untouched(k.inv.outputs[i], out.contents())) {
      return Verdict::Fail("'" + out.name + "' modified although the status is " +
                           Status(x.status) + " (" + x.rule + ")");
    }
  }
  return std::nullopt;
}

// ---- calculate_convolution_weight_size ----------------------------------------------

// Status and size against the oracle; a rejection leaves the size untouched.
Verdict CheckSize(const PropertyContext& ctx, const Case& c) {
  const orc::Expect x = ExpectOf(ctx.profile, c);
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (auto v = StatusIs(k, x)) return *v;
  if (x.status != cann::kAclnnSuccess) return LeftUntouched(k, x).value_or(Verdict::Pass());
  const OutputResult& out = *k.answer.Output("weight_tensor_size");
  if (!out.guards_intact) return *CheckGuards(out);
  if (!k.Written("weight_tensor_size"))
    return Verdict::Fail("status SUCCESS but size was not written");
  const uint64_t got = ReadU64(out);
  if (got != x.size) {
    return Verdict::Fail("size " + std::to_string(got) + " elements, expected " +
                         std::to_string(x.size) + ": " + x.rule);
  }
  return Verdict::Pass();
}

Verdict CheckSizeRejects(const PropertyContext& ctx, const Case& c) {
  const orc::Expect x = ExpectOf(ctx.profile, c);
  if (x.status == cann::kAclnnSuccess)
    return Verdict::Skip("a valid call on " + ctx.profile.name + ": " + x.rule);
  return CheckSize(ctx, c);
}

// The spec's own number for a documented row (§A.9, §A.4), not the oracle's.
Verdict CheckDocumented(const PropertyContext& ctx, const Case& c) {
  for (const DocumentedSize& row : DocumentedSizes(ctx.profile)) {
    if (row.c.ToText() != c.ToText()) continue;
    Called k;
    if (auto v = CallPort(ctx, c, &k)) return *v;
    if (k.answer.status != cann::kAclnnSuccess)
      return Verdict::Fail("status " + Status(k.answer.status) + ", " + row.source + " succeeds");
    const uint64_t got = ReadU64(*k.answer.Output("weight_tensor_size"));
    if (got != row.size_elems) {
      return Verdict::Fail("size " + std::to_string(got) + " elements, " + row.source + " gives " +
                           std::to_string(row.size_elems));
    }
    return Verdict::Pass();
  }
  return Verdict::Fail("not a documented row of spec layouts.md §A.9/§A.4: " + c.ToText());
}

// ---- trans_convolution_weight ---------------------------------------------------------

// A call without a layout (a rejection, or §A.9's both-empty exit): the oracle's
// status, weightOut untouched.
Verdict CheckTransNoLayout(const PropertyContext& ctx, const Case& c) {
  const orc::Expect x = ExpectOf(ctx.profile, c);
  if (x.status == cann::kAclnnSuccess && !x.dims.empty())
    return Verdict::Skip("a packing call on " + ctx.profile.name + ": " + x.rule);
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (auto v = StatusIs(k, x)) return *v;
  return LeftUntouched(k, x).value_or(Verdict::Pass());
}

Verdict CheckTransRejects(const PropertyContext& ctx, const Case& c) {
  const orc::Expect x = ExpectOf(ctx.profile, c);
  if (x.status == cann::kAclnnSuccess)
    return Verdict::Skip("a valid call on " + ctx.profile.name + ": " + x.rule);
  return CheckTransNoLayout(ctx, c);
}

// The bytes of the FRACTAL_Z weight the port reports (product of its dims × 2)
// equal the port's own calculate_convolution_weight_size × 2 for the same
// shape and groups, and the capacity the oracle's layout gave (§A.9: "size =
// the product of the FZ storage dims", weightOut fp16).
Verdict CheckSizeLaw(const PropertyContext& ctx, const Case& c) {
  Called t;
  if (auto v = CallPort(ctx, c, &t)) return *v;
  const OutputResult& out = *t.answer.Output("weight_out");
  if (!out.guards_intact) return *CheckGuards(out);
  if (t.answer.status != cann::kAclnnSuccess)
    return Verdict::Fail("status " + Status(t.answer.status) + " for a valid call");
  if (out.rank < 0) return Verdict::Fail("weight_out dims not reported");
  const auto dims_elems = NumElements(out.dims);
  if (!dims_elems) return Verdict::Fail("weight_out dims " + ReportedDims(out) + " overflow");
  Case size(kSize, c.profile);
  size.Set("shape", *c.IntList("shape")).Set("groups", *c.Int("groups"));
  size.Set("dtype", DType::kFloat16);
  Called s;
  if (auto v = CallPort(ctx, size, &s)) return *v;
  if (s.answer.status != cann::kAclnnSuccess)
    return Verdict::Fail("calculate_convolution_weight_size status " + Status(s.answer.status));
  const uint64_t size_elems = ReadU64(*s.answer.Output("weight_tensor_size"));
  const uint64_t storage_bytes = static_cast<uint64_t>(*dims_elems) * 2;
  if (storage_bytes != size_elems * 2) {
    return Verdict::Fail(
        "weight_out dims " + ReportedDims(out) + " hold " + std::to_string(storage_bytes) +
        " bytes; calculate_convolution_weight_size gives " + std::to_string(size_elems) +
        " elements = " + std::to_string(size_elems * 2) + " bytes of fp16");
  }
  if (storage_bytes != t.inv.outputs[0].capacity_bytes) {
    return Verdict::Fail("weight_out dims " + ReportedDims(out) + " hold " +
                         std::to_string(storage_bytes) + " bytes; the oracle's layout has " +
                         std::to_string(t.inv.outputs[0].capacity_bytes));
  }
  return Verdict::Pass();
}

LayoutRoutine TransLayout() {
  return {
      .routine = kTrans,
      .vendor = "cann",
      .success = cann::kAclnnSuccess,
      .what =
          "NCHW -> fp16 grouped FRACTAL_Z (the oracle's block-diagonal Eigen tiles, §A.4; "
          "the buffer zero-filled first, so padding is 0)",
      .output_has_padding = true,
      .choices = GroupsChoice(),
      .not_applicable = NoConvWeight,
      .instance = TransInstance,
      .edge_cases =
          [](const PropertyContext& ctx) { return TransEdgeCases(ctx.profile, ctx.real_shapes); },
      .real_cases = [](const PropertyContext&) { return std::vector<Case>{}; },
      .generator =
          [](const PropertyContext& ctx) { return g::ValidTransCase(ctx.profile, ctx.Domain()); },
      .capacity_generator =
          [](const PropertyContext& ctx) {
            return gen::WeightedOneOf<Case>(
                {{3, g::ValidTransCase(ctx.profile, ctx.Domain())},
                 {1, g::InvalidConvCase(ctx.profile, ctx.Domain(), true)}});
          }};
}

// ---- npu_format_cast_calculate_size_and_format ----------------------------------------

Verdict CheckCast(const PropertyContext& ctx, const Case& c) {
  const orc::Expect x = ExpectOf(ctx.profile, c);
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (auto v = StatusIs(k, x)) return *v;
  if (x.status != cann::kAclnnSuccess) return LeftUntouched(k, x).value_or(Verdict::Pass());
  for (const OutputResult& out : k.answer.outputs) {
    if (!out.guards_intact) return *CheckGuards(out);
  }
  const uint64_t rank = ReadU64(*k.answer.Output("dst_shape_size"));
  if (rank != x.dims.size()) {
    return Verdict::Fail("dstShapeSize " + std::to_string(rank) + ", expected " +
                         std::to_string(x.dims.size()) + " (" + ToString(x.dims) + "): " + x.rule);
  }
  Shape got(x.dims.size());
  std::memcpy(got.data(), k.answer.Output("dst_shape")->contents().data(), got.size() * 8);
  if (got != x.dims) {
    return Verdict::Fail("dstShape " + ToString(got) + ", expected " + ToString(x.dims) + ": " +
                         x.rule);
  }
  int32_t format = 0;
  std::memcpy(&format, k.answer.Output("actual_format")->contents().data(), 4);
  if (format != x.actual_format) {
    return Verdict::Fail("actualFormat " + std::to_string(format) + ", expected " +
                         std::to_string(x.actual_format) + " (" + *c.String("dst_format") + ")");
  }
  return Verdict::Pass();
}

Verdict CheckCastRejects(const PropertyContext& ctx, const Case& c) {
  const orc::Expect x = ExpectOf(ctx.profile, c);
  if (x.status == cann::kAclnnSuccess)
    return Verdict::Skip("a valid call on " + ctx.profile.name + ": " + x.rule);
  return CheckCast(ctx, c);
}

}  // namespace

void AddProperties(std::vector<Property>* out) {
  out->push_back({.name = std::string(kSize) + ".documented_cases",
                  .routine = kSize,
                  .description =
                      "the doc example and the derived rows of spec layouts.md §A.9/§A.4 give "
                      "the spec's own sizes (16384 for [2,4,8,8], …)",
                  .not_applicable = NoConvWeight,
                  .explicit_cases =
                      [](const PropertyContext& ctx) {
                        std::vector<Case> cases;
                        for (const auto& row : DocumentedSizes(ctx.profile)) cases.push_back(row.c);
                        return cases;
                      },
                  .check = CheckDocumented});
  out->push_back(
      {.name = std::string(kSize) + ".matches_oracle",
       .routine = kSize,
       .description = "status and size (elements of the grouped FRACTAL_Z, C0 16) of valid calls "
                      "equal the oracle's (§A.9, §A.4)",
       .choices = GroupsChoice(),
       .not_applicable = NoConvWeight,
       .explicit_cases =
           [](const PropertyContext& ctx) { return SizeEdgeCases(ctx.profile, ctx.real_shapes); },
       .generator =
           [](const PropertyContext& ctx) { return g::ValidSizeCase(ctx.profile, ctx.Domain()); },
       .check = CheckSize});
  out->push_back(
      {.name = std::string(kSize) + ".rejects_invalid",
       .routine = kSize,
       .description = "every bad call gets §A.9's code in §A.9's order (161001 null pointers, "
                      "161002 CheckParams / dtype / dims, 561103 groups > 65535 as shipped); the "
                      "size is untouched",
       .choices = GroupsChoice(),
       .explicit_cases = [](const PropertyContext& ctx) { return SizeInvalidCases(ctx.profile); },
       .generator =
           [](const PropertyContext& ctx) {
             return g::InvalidConvCase(ctx.profile, ctx.Domain(), false);
           },
       .check = CheckSizeRejects});

  AddLayoutProperties(TransLayout(), out);
  out->push_back(
      {.name = std::string(kTrans) + ".rejects_invalid",
       .routine = kTrans,
       .description = "every bad call gets §A.9's code in §A.9's order (CheckParams, then the "
                      "dtypes, view formats, contiguity and empty sides: 161002; groups > 65535: "
                      "561103 as shipped); weightOut untouched",
       .choices = GroupsChoice(),
       .explicit_cases = [](const PropertyContext& ctx) { return TransInvalidCases(ctx.profile); },
       .generator =
           [](const PropertyContext& ctx) {
             return g::InvalidConvCase(ctx.profile, ctx.Domain(), true);
           },
       .check = CheckTransRejects});
  out->push_back(
      {.name = std::string(kTrans) + ".empty_leaves_out_untouched",
       .routine = kTrans,
       .description = "both sides empty: SUCCESS with weightOut untouched, before TransData "
                      "(§A.9: workspace 0)",
       .choices = GroupsChoice(),
       .not_applicable = NoConvWeight,
       .explicit_cases = [](const PropertyContext& ctx) { return TransEmptyCases(ctx.profile); },
       .check = CheckTransNoLayout});
  out->push_back(
      {.name = std::string(kTrans) + ".size_law",
       .routine = kTrans,
       .also_needs = {kSize},
       .description = "the reported FRACTAL_Z dims × 2 bytes == calculate_convolution_weight_size "
                      "elements × 2 (fp16) for the same shape and groups == the oracle's layout "
                      "bytes (§A.9)",
       .choices = GroupsChoice(),
       .not_applicable = NoConvWeight,
       .explicit_cases =
           [](const PropertyContext& ctx) { return TransEdgeCases(ctx.profile, ctx.real_shapes); },
       .generator =
           [](const PropertyContext& ctx) { return g::ValidTransCase(ctx.profile, ctx.Domain()); },
       .check = CheckSizeLaw});

  out->push_back(
      {.name = std::string(kCast) + ".matches_oracle",
       .routine = kCast,
       .description = "status, dstShape, dstShapeSize and actualFormat of §A.10's branches equal "
                      "the oracle's (§A.1/§A.3/§A.6/§A.7 shapes, C0 = 32 / sizeof)",
       .choices = NullSrcChoice(),
       .not_applicable = NoFormatCast,
       .explicit_cases = [](const PropertyContext& ctx) { return CastEdgeCases(ctx.profile); },
       .generator =
           [](const PropertyContext& ctx) { return g::ValidCastCase(ctx.profile, ctx.Domain()); },
       .check = CheckCast});
  out->push_back(
      {.name = std::string(kCast) + ".rejects_invalid",
       .routine = kCast,
       .description = "every bad call gets §A.10's code in §A.10's order (SoC, null src, dtype: "
                      "161002; empty on non-950, unsupported pair: 361001); outputs untouched",
       .choices = NullSrcChoice(),
       .explicit_cases = [](const PropertyContext& ctx) { return CastInvalidCases(ctx.profile); },
       .generator =
           [](const PropertyContext& ctx) { return g::InvalidCastCase(ctx.profile, ctx.Domain()); },
       .check = CheckCastRejects});
}

}  // namespace npuconf::cann_convweight_props
