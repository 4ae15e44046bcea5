// Properties of the RKNN NC1HWC2 routines (spec layouts.md Part B). The four
// layouts take matches_oracle, no_write_past_capacity and round_trip from the
// layout template with padding_unspecified set (§B.2, §B.6.3: the pad lanes'
// content is never asserted); every routine gets rejects_invalid; the dequant
// matches the oracle bit for bit (one float rounding); the size routine obeys
// the size law and matches the oracle's padded shape.
#include <cmath>
#include <cstring>

#include "conformance/harness/call.h"
#include "conformance/harness/layout_properties.h"
#include "conformance/harness/materialize.h"
#include "conformance/harness/suite.h"
#include "conformance/rknn_native/support.h"
#include "core/status.h"
#include "generators/rknn_native.h"
#include "oracles/rknn_native/nc1hwc2_oracle.h"
#include "verify/compare.h"

namespace npuconf::rknn_native_props {
namespace {

namespace orc = oracle::rknn_native;
using rknn::kRknnErrParamInvalid;
using rknn::kRknnSucc;

const std::vector<std::string> kLayoutChoices = {"rknn.native_io.pad_lanes",
                                                 "rknn.native_io.w_padding"};

LayoutInstance Instance(const Case& c, const Profile& profile) {
  const NativeGeometry g = GeometryOf(c, profile);
  const verify::ElementCodec codec{g.dtype, false};
  const auto native_map = std::make_shared<Nc1hwc2Map>(g.logical, g.nhwc, g.c2);
  const auto plain_map = PlainMapOf(g);
  LayoutInstance l;
  l.input = g.to_native ? g.plain_name() : "nc1hwc2";
  l.output = g.to_native ? "nc1hwc2" : g.plain_name();
  l.input_codec = l.output_codec = codec;
  l.input_elems = g.to_native ? g.plain_elems : g.native_elems;
  l.output_elems = g.to_native ? g.native_elems : g.plain_elems;
  l.output_dims = g.to_native ? g.native_dims : g.logical;
  l.oracle = [g](const Bytes& in) {
    const int eb = Bits(g.dtype) / 8;
    return g.to_native ? orc::ToNative(in, g.logical, g.nhwc, g.c2, eb)
                       : orc::ToPlain(in, g.logical, g.nhwc, g.c2, eb);
  };
  l.output_map = g.to_native ? std::shared_ptr<const verify::StorageMap>(native_map) : plain_map;
  l.input_map = g.to_native ? plain_map : std::shared_ptr<const verify::StorageMap>(native_map);
  return l;
}

std::string InverseOf(const std::string& r) {
  if (r == ids::kNchwToNc1hwc2) return ids::kNc1hwc2ToNchw;
  if (r == ids::kNc1hwc2ToNchw) return ids::kNchwToNc1hwc2;
  if (r == ids::kNhwcToNc1hwc2) return ids::kNc1hwc2ToNhwc;
  return ids::kNhwcToNc1hwc2;
}

LayoutRoutine Layout(const std::string& routine) {
  const bool nhwc = IsNhwc(routine), to_native = IsToNative(routine);
  const std::string plain = nhwc ? "NHWC" : "NCHW";
  return {.routine = routine,
          .inverse = InverseOf(routine),
          .vendor = "rknn",
          .success = kRknnSucc,
          .what = to_native ? plain + " -> NC1HWC2 (the oracle's pad C -> reshape -> shuffle)"
                            : "NC1HWC2 -> " + plain +
                                  " (the oracle's inverse; the input's pad lanes, random here, "
                                  "ignored)",
          .output_has_padding = to_native,
          .padding_unspecified = true,
          .choices = kLayoutChoices,
          .not_covered = NotCovered,
          .instance = Instance,
          .edge_cases =
              [routine](const PropertyContext& ctx) { return EdgeCases(routine, ctx.profile); },
          .real_cases =
              [routine](const PropertyContext& ctx) {
                return ctx.real_shapes ? RealCases(routine, ctx.profile) : std::vector<Case>{};
              },
          .generator =
              [routine, nhwc](const PropertyContext& ctx) {
                return gen::rknn_native::LayoutCase(ctx.profile.name, routine, nhwc,
                                                    C2Table(ctx.profile), ctx.Domain());
              }};
}

// ---- rejects_invalid ----------------------------------------------------------------

const OutputSpec* SpecOf(const Invocation& inv, const std::string& name) {
  for (const auto& o : inv.outputs) {
    if (o.name == name) return &o;
  }
  return nullptr;
}

Verdict CheckRejects(const PropertyContext& ctx, const Case& c) {
  std::string fault = "an invalid call";
  for (const auto& invalid : InvalidCases(c.routine, ctx.profile)) {
    if (invalid.c == c) fault = invalid.fault;
  }
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  for (const OutputResult& out : k.answer.outputs) {
    if (auto v = CheckGuards(out)) return *v;
  }
  if (k.answer.status != kRknnErrParamInvalid) {
    return Verdict::Fail(fault + ": status " + StatusText("rknn", k.answer.status) + ", expected " +
                         StatusText("rknn", kRknnErrParamInvalid));
  }
  for (const OutputResult& out : k.answer.outputs) {
    const OutputSpec* spec = SpecOf(k.inv, out.name);
    if (spec && !out.null && !Untouched(*spec, out.contents())) {
      return Verdict::Fail(fault + ": rejected, but output '" + out.name + "' was written");
    }
  }
  return Verdict::Pass();
}

Property Rejects(const std::string& routine) {
  return {.name = routine + ".rejects_invalid",
          .routine = routine,
          .description =
              "a shape of rank other than 4, a dim < 1, a dtype without a C2 "
              "(Table 4-6) or a zp past int32 gets RKNN_ERR_PARAM_INVALID (-5), "
              "its output untouched",
          .explicit_cases =
              [routine](const PropertyContext& ctx) {
                std::vector<Case> out;
                for (auto& invalid : InvalidCases(routine, ctx.profile)) out.push_back(invalid.c);
                return out;
              },
          .check = CheckRejects,
          .not_covered = NotCovered};
}

// ---- the dequant -------------------------------------------------------------------

double FloatOf(const Case& c, const char* key, double fallback) {
  const ParamValue* p = c.Find(key);
  if (!p) return fallback;
  return p->kind == ParamValue::Kind::kInt ? static_cast<double>(p->i) : p->f;
}

Verdict CheckDequant(const PropertyContext& ctx, const Case& c) {
  const NativeGeometry g = GeometryOf(c, ctx.profile);
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  const OutputResult& out = *k.answer.Output("nchw");
  if (auto v = CheckGuards(out)) return *v;
  if (k.answer.status != kRknnSucc) {
    return Verdict::Fail("status " + StatusText("rknn", k.answer.status) +
                         " for a valid dequant case");
  }
  const float scale = static_cast<float>(FloatOf(c, "scale", 0.125));
  const auto zp = static_cast<int32_t>(c.Int("zp").value_or(0));
  const Bytes want = orc::DequantToNchw(k.inv.Input("nc1hwc2")->bytes, g.logical, g.c2, scale, zp);
  const auto map = PlainMapOf(g);
  const auto comparison = verify::Compare({.output = "nchw",
                                           .got = out.contents(),
                                           .want = want,
                                           .codec = {DType::kFloat, false},
                                           .count = g.plain_elems,
                                           .map = map.get()});
  if (comparison.ok()) return Verdict::Pass();
  return FailFrom(comparison, DType::kFloat, map.get(),
                  "(float)(q - zp) * scale with zp " + std::to_string(zp) + ": ");
}

// ---- sizes -------------------------------------------------------------------------

struct SizeAnswer {
  uint64_t size = 0, size_with_stride = 0;
};

std::optional<Verdict> CallSize(const PropertyContext& ctx, const Case& c, SizeAnswer* got,
                                Called* k) {
  if (auto v = CallPort(ctx, c, k)) return v;
  const OutputResult& out = *k->answer.Output("attr");
  if (auto v = CheckGuards(out)) return v;
  if (k->answer.status != kRknnSucc) {
    return Verdict::Fail("status " + StatusText("rknn", k->answer.status) +
                         " for a valid size case");
  }
  std::memcpy(&got->size, out.contents().data(), 8);
  std::memcpy(&got->size_with_stride, out.contents().data() + 8, 8);
  return std::nullopt;
}

// The oracle's sizes: the dense tensor, and the product of the native dims with
// W padded per the profile's reading of rknn.native_io.size_with_stride.
SizeAnswer OracleSizes(const NativeGeometry& g, const Profile& profile) {
  const uint64_t elem = static_cast<uint64_t>(Bits(g.dtype) / 8);
  Shape padded = g.native_dims;
  const RknnFacts& f = *profile.rknn;
  if (f.size_with_stride == "w_aligned" && f.output_w_align) {
    const int64_t a = *f.output_w_align;
    padded[3] = (padded[3] + a - 1) / a * a;
  }
  return {static_cast<uint64_t>(g.plain_elems) * elem,
          static_cast<uint64_t>(*NumElements(padded)) * elem};
}

Verdict CheckSizeOracle(const PropertyContext& ctx, const Case& c) {
  const NativeGeometry g = GeometryOf(c, ctx.profile);
  SizeAnswer got;
  Called k;
  if (auto v = CallSize(ctx, c, &got, &k)) return *v;
  const SizeAnswer want = OracleSizes(g, ctx.profile);
  if (got.size != want.size || got.size_with_stride != want.size_with_stride) {
    return Verdict::Fail("size " + std::to_string(got.size) + ", size_with_stride " +
                         std::to_string(got.size_with_stride) + "; the oracle's " +
                         std::to_string(want.size) + ", " + std::to_string(want.size_with_stride) +
                         " (reading " + ctx.profile.rknn->size_with_stride + ")");
  }
  const OutputResult& out = *k.answer.Output("attr");
  if (out.dims != g.native_dims) {
    return Verdict::Fail("native dims " + ReportedDims(out) + ", expected " +
                         ToString(g.native_dims));
  }
  return Verdict::Pass();
}

// size = product of the logical dims · elem; size_with_stride >= product of the
// reported storage dims · elem >= size (§B.1, §B.3).
Verdict CheckSizeLaw(const PropertyContext& ctx, const Case& c) {
  const NativeGeometry g = GeometryOf(c, ctx.profile);
  SizeAnswer got;
  Called k;
  if (auto v = CallSize(ctx, c, &got, &k)) return *v;
  const uint64_t elem = static_cast<uint64_t>(Bits(g.dtype) / 8);
  const uint64_t dense = static_cast<uint64_t>(g.plain_elems) * elem;
  if (got.size != dense) {
    return Verdict::Fail("size " + std::to_string(got.size) + " is not the dense tensor's " +
                         std::to_string(dense) + " bytes (product of " + ToString(g.logical) +
                         " x " + std::to_string(elem) + ")");
  }
  const OutputResult& out = *k.answer.Output("attr");
  auto storage = out.rank == 5 ? NumElements(out.dims) : std::nullopt;
  if (!storage) return Verdict::Fail("native dims " + ReportedDims(out) + " are not 5-D");
  const uint64_t storage_bytes = static_cast<uint64_t>(*storage) * elem;
  if (got.size_with_stride < storage_bytes || storage_bytes < got.size) {
    return Verdict::Fail("size_with_stride " + std::to_string(got.size_with_stride) +
                         " >= storage dims " + ReportedDims(out) + " x " + std::to_string(elem) +
                         " = " + std::to_string(storage_bytes) + " >= size " +
                         std::to_string(got.size) + " does not hold");
  }
  return Verdict::Pass();
}

// The RK3588 yolov5 log of spec layouts.md §B.3: int8 NCHW outputs of
// rknn_yolov5_demo, SDK 2.3.2 (size, size_with_stride).
struct LoggedSize {
  Shape shape;
  uint64_t size, size_with_stride;
};
const std::vector<LoggedSize>& Rk3588Log() {
  static const std::vector<LoggedSize> rows = {{{1, 255, 80, 80}, 1632000, 1638400},
                                               {{1, 255, 40, 40}, 408000, 491520},
                                               {{1, 255, 20, 20}, 102000, 163840}};
  return rows;
}

std::vector<Case> SizeCases(const PropertyContext& ctx) {
  auto cases = EdgeCases(ids::kNc1hwc2Size, ctx.profile);
  if (!ctx.real_shapes) return cases;
  auto real = RealCases(ids::kNc1hwc2Size, ctx.profile);
  cases.insert(cases.end(), real.begin(), real.end());
  return cases;
}

Verdict CheckLoggedSize(const PropertyContext& ctx, const Case& c) {
  SizeAnswer got;
  Called k;
  if (auto v = CallSize(ctx, c, &got, &k)) return *v;
  for (const auto& row : Rk3588Log()) {
    if (*c.IntList("shape") != row.shape) continue;
    if (got.size != row.size || got.size_with_stride != row.size_with_stride) {
      return Verdict::Fail("size " + std::to_string(got.size) + ", size_with_stride " +
                           std::to_string(got.size_with_stride) + "; the RK3588 log has " +
                           std::to_string(row.size) + ", " + std::to_string(row.size_with_stride) +
                           " (spec layouts.md §B.3)");
    }
  }
  return Verdict::Pass();
}

}  // namespace

void AddProperties(std::vector<Property>* out) {
  for (const char* r :
       {ids::kNchwToNc1hwc2, ids::kNc1hwc2ToNchw, ids::kNhwcToNc1hwc2, ids::kNc1hwc2ToNhwc}) {
    AddLayoutProperties(Layout(r), out);
  }
  for (const char* r : {ids::kNchwToNc1hwc2, ids::kNc1hwc2ToNchw, ids::kNhwcToNc1hwc2,
                        ids::kNc1hwc2ToNhwc, ids::kNc1hwc2Int8ToNchwFloat, ids::kNc1hwc2Size}) {
    out->push_back(Rejects(r));
  }
  const std::string dq = ids::kNc1hwc2Int8ToNchwFloat;
  out->push_back({.name = dq + ".matches_oracle",
                  .routine = dq,
                  .description =
                      "NCHW float32 = (float)(q - zp) * scale of the NC1HWC2 int8 input, bit for "
                      "bit (an exact int subtraction, one float rounding; §B.1, §B.5); pad lanes "
                      "ignored",
                  .choices = kLayoutChoices,
                  .explicit_cases =
                      [dq](const PropertyContext& ctx) {
                        auto cases = EdgeCases(dq, ctx.profile);
                        if (!ctx.real_shapes) return cases;
                        auto real = RealCases(dq, ctx.profile);
                        cases.insert(cases.end(), real.begin(), real.end());
                        return cases;
                      },
                  .generator =
                      [dq](const PropertyContext& ctx) {
                        return gen::rknn_native::DequantCase(ctx.profile.name, dq,
                                                             C2Table(ctx.profile).at(DType::kInt8));
                      },
                  .check = CheckDequant,
                  .not_covered = NotCovered});
  const std::string size = ids::kNc1hwc2Size;
  auto size_gen = [size](const PropertyContext& ctx) {
    return gen::rknn_native::SizeCase(ctx.profile.name, size, C2Table(ctx.profile), ctx.Domain());
  };
  out->push_back({.name = size + ".matches_oracle",
                  .routine = size,
                  .description = "size = N*C*H*W*elem; size_with_stride = the product of the "
                                 "native dims with W padded per the reading; native dims "
                                 "[N, C1, H, W, C2] (§B.1, §B.3)",
                  .choices = {"rknn.native_io.size_with_stride"},
                  .explicit_cases = SizeCases,
                  .generator = size_gen,
                  .check = CheckSizeOracle,
                  .not_covered = NotCovered});
  out->push_back({.name = size + ".size_law",
                  .routine = size,
                  .description = "size = product of the logical dims x element size; "
                                 "size_with_stride >= product of the reported storage dims x "
                                 "element size >= size",
                  .explicit_cases = SizeCases,
                  .generator = size_gen,
                  .check = CheckSizeLaw,
                  .not_covered = NotCovered});
  out->push_back(
      {.name = size + ".device_log",
       .routine = size,
       .description = "the sizes rknn_yolov5_demo logged on RK3588 (SDK 2.3.2) for its int8 "
                      "outputs [1,255,80|40|20,80|40|20] (spec layouts.md §B.3)",
       .choices = {"rknn.native_io.size_with_stride"},
       .not_applicable = [](const Profile& p) -> std::string {
         if (p.rknn && p.rknn->platform == "RK3588" && p.rknn->sdk.rfind("2.", 0) == 0) return "";
         return "the log is of RK3588 with SDK 2.3.2";
       },
       .explicit_cases =
           [size](const PropertyContext& ctx) {
             std::vector<Case> cases;
             for (const auto& row : Rk3588Log()) {
               Case c(size, ctx.profile.name);
               c.Set("shape", row.shape).Set("dtype", DType::kInt8);
               cases.push_back(c);
             }
             return cases;
           },
       .check = CheckLoggedSize,
       .basis = "device logs (spec layouts.md §B.3: rknn_yolov5_demo on RK3588, SDK 2.3.2)",
       .not_covered = NotCovered});
}

}  // namespace npuconf::rknn_native_props
