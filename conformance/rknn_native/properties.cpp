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
#include "oracles/rknn_native/nhwc_stride_oracle.h"
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

// ---- the zero-copy pack (§B.4) -----------------------------------------------------

const std::vector<std::string> kPackChoices = {"rknn.native_io.nhwc_input_batch"};

LayoutInstance PackInstance(const Case& c, const Profile& profile) {
  const ZeroCopyGeometry g = ZeroCopyGeometryOf(c, profile);
  LayoutInstance l;
  l.input = "src";
  l.output = "dst";
  l.input_codec = l.output_codec = verify::ElementCodec{g.dtype, false};
  l.input_elems = g.plain_elems;
  l.output_elems = g.stored_elems;
  l.output_dims = g.stored_dims;
  l.oracle = [g](const Bytes& in) {
    return orc::PadRowsToStride(in, g.logical, g.w_stride, Bits(g.dtype) / 8);
  };
  l.output_map = std::make_shared<StridedRowsMap>(g);
  l.input_map = std::make_shared<verify::RowMajorMap>(
      g.logical, std::vector<std::string>{"n", "h", "w", "c"}, "NHWC");
  return l;
}

// A 640x640 RGB image, the shape of the §B.4 log (int8, w_stride 640), and the
// same image one alignment step wider (the rows then copied one by one).
std::vector<Case> PackRealCases(const PropertyContext& ctx) {
  std::vector<Case> out;
  if (!ctx.real_shapes || !ZeroCopyNotCovered(ctx.profile).empty()) return out;
  const int64_t a = ctx.profile.rknn->zero_copy_w_align.value_or(16);
  int64_t seed = 301;
  for (DType dtype : ctx.profile.rknn->zero_copy_dtypes) {
    for (int64_t ws : {int64_t{640}, 640 + a}) {
      Case c(ids::kNhwcZeroCopyPack, ctx.profile.name);
      c.Set("shape", Shape{1, 640, 640, 3})
          .Set("dtype", dtype)
          .Set("w_stride", ws)
          .Set("seed", seed++);
      out.push_back(c);
    }
  }
  return out;
}

rc::Gen<Case> PackGen(const PropertyContext& ctx, const std::string& routine, bool size) {
  const RknnFacts& f = *ctx.profile.rknn;
  return gen::rknn_native::ZeroCopyCase(ctx.profile.name, routine, f.zero_copy_dtypes,
                                        f.zero_copy_channels, f.zero_copy_w_align.value_or(16),
                                        ctx.Domain(), size);
}

LayoutRoutine PackLayout() {
  const std::string r = ids::kNhwcZeroCopyPack;
  return {
      .routine = r,
      .vendor = "rknn",
      .success = kRknnSucc,
      .what =
          "NHWC -> rows w_stride pixels apart (the oracle's pad of W to w_stride; the "
          "fill pixels w >= W unspecified, never compared)",
      .output_has_padding = true,
      .padding_unspecified = true,
      .choices = kPackChoices,
      .not_covered = ZeroCopyNotCovered,
      .instance = PackInstance,
      .edge_cases = [r](const PropertyContext& ctx) { return ZeroCopyEdgeCases(r, ctx.profile); },
      .real_cases = PackRealCases,
      .generator = [r](const PropertyContext& ctx) { return PackGen(ctx, r, false); }};
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

// fmt NHWC (§B.4): size = N*H*W*C*elem, size_with_stride = the oracle's
// [N, H, w_stride, C] buffer, dims [N, H, W, C].
Verdict CheckNhwcSizeOracle(const PropertyContext& ctx, const Case& c) {
  const ZeroCopyGeometry g = ZeroCopyGeometryOf(c, ctx.profile);
  SizeAnswer got;
  Called k;
  if (auto v = CallSize(ctx, c, &got, &k)) return *v;
  if (got.size != g.plain_bytes || got.size_with_stride != g.stored_bytes) {
    return Verdict::Fail("NHWC input " + ToString(g.logical) + " w_stride " +
                         std::to_string(g.w_stride) + ": size " + std::to_string(got.size) +
                         ", size_with_stride " + std::to_string(got.size_with_stride) +
                         "; the oracle's " + std::to_string(g.plain_bytes) + ", " +
                         std::to_string(g.stored_bytes) + " (the bytes of " +
                         ToString(g.stored_dims) + ", §B.4)");
  }
  const OutputResult& out = *k.answer.Output("attr");
  if (out.dims != g.logical) {
    return Verdict::Fail("NHWC input dims " + ReportedDims(out) + ", expected " +
                         ToString(g.logical));
  }
  return Verdict::Pass();
}

Verdict CheckSizeOracle(const PropertyContext& ctx, const Case& c) {
  if (IsNhwcSize(c)) return CheckNhwcSizeOracle(ctx, c);
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
// fmt NHWC: size = product of the logical dims x elem = product of the
// reported dims x elem; size_with_stride >= size and whole rows of N*H rows.
Verdict CheckNhwcSizeLaw(const PropertyContext& ctx, const Case& c) {
  const ZeroCopyGeometry g = ZeroCopyGeometryOf(c, ctx.profile);
  SizeAnswer got;
  Called k;
  if (auto v = CallSize(ctx, c, &got, &k)) return *v;
  const uint64_t elem = static_cast<uint64_t>(Bits(g.dtype) / 8);
  const OutputResult& out = *k.answer.Output("attr");
  auto reported = out.rank == 4 ? NumElements(out.dims) : std::nullopt;
  if (!reported) return Verdict::Fail("NHWC input dims " + ReportedDims(out) + " are not 4-D");
  const uint64_t dense = static_cast<uint64_t>(g.plain_elems) * elem;
  if (got.size != dense || static_cast<uint64_t>(*reported) * elem != dense) {
    return Verdict::Fail("size " + std::to_string(got.size) + " and reported dims " +
                         ReportedDims(out) + " x " + std::to_string(elem) +
                         " must both be the dense tensor's " + std::to_string(dense) + " bytes");
  }
  const uint64_t rows = static_cast<uint64_t>(g.logical[0] * g.logical[1]);
  const uint64_t pixel = static_cast<uint64_t>(g.logical[3]) * elem;
  if (got.size_with_stride < got.size || got.size_with_stride % (rows * pixel) != 0) {
    return Verdict::Fail("size_with_stride " + std::to_string(got.size_with_stride) +
                         " is not >= size " + std::to_string(got.size) + " in whole rows of " +
                         std::to_string(rows) + " rows x " + std::to_string(pixel) +
                         " bytes a pixel");
  }
  return Verdict::Pass();
}

Verdict CheckSizeLaw(const PropertyContext& ctx, const Case& c) {
  if (IsNhwcSize(c)) return CheckNhwcSizeLaw(ctx, c);
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
  auto nhwc = ZeroCopyEdgeCases(ids::kNc1hwc2Size, ctx.profile);
  cases.insert(cases.end(), nhwc.begin(), nhwc.end());
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

// The pack's capacity (the oracle's [N, H, w_stride, C] bytes, the dst the
// pack was handed and filled) is what the port's own size routine answers as
// size_with_stride for the same input (fmt NHWC), as the vendor demos allocate
// it (§B.3: rknn_create_mem(ctx, size_with_stride)).
Verdict CheckCapacityIsSizeWithStride(const PropertyContext& ctx, const Case& c) {
  const ZeroCopyGeometry g = ZeroCopyGeometryOf(c, ctx.profile);
  Called pack;
  if (auto v = CallPort(ctx, c, &pack)) return *v;
  const OutputResult& dst = *pack.answer.Output("dst");
  if (auto v = CheckGuards(dst)) return *v;
  if (pack.answer.status != kRknnSucc) {
    return Verdict::Fail("status " + StatusText("rknn", pack.answer.status) + " for a dst of " +
                         std::to_string(g.stored_bytes) + " bytes (N*H*w_stride*C*elem)");
  }
  Case size(ids::kNc1hwc2Size, c.profile);
  size.Set("shape", g.logical)
      .Set("dtype", g.dtype)
      .Set("fmt", std::string("NHWC"))
      .Set("w_stride", g.w_stride);
  SizeAnswer got;
  Called k;
  if (auto v = CallSize(ctx, size, &got, &k)) return *v;
  if (got.size_with_stride != g.stored_bytes) {
    return Verdict::Fail("rknn.nc1hwc2_size (fmt NHWC) gives size_with_stride " +
                         std::to_string(got.size_with_stride) + ", but the pack fills " +
                         std::to_string(g.stored_bytes) + " bytes (" + ToString(g.stored_dims) +
                         ")");
  }
  return Verdict::Pass();
}

// The NHWC input log of spec layouts.md §B.4: [1,640,640,3] int8, w_stride
// 640, size_with_stride 1228800 (platform not stated: a formula check on every
// covered profile).
constexpr uint64_t kLoggedNhwcSizeWithStride = 1228800;

Case LoggedNhwcCase(const Profile& profile) {
  Case c(ids::kNc1hwc2Size, profile.name);
  c.Set("shape", Shape{1, 640, 640, 3})
      .Set("dtype", DType::kInt8)
      .Set("fmt", std::string("NHWC"))
      .Set("w_stride", int64_t{640});
  return c;
}

Verdict CheckLoggedNhwcSize(const PropertyContext& ctx, const Case& c) {
  SizeAnswer got;
  Called k;
  if (auto v = CallSize(ctx, c, &got, &k)) return *v;
  if (got.size_with_stride != kLoggedNhwcSizeWithStride) {
    return Verdict::Fail("size_with_stride " + std::to_string(got.size_with_stride) +
                         " for NHWC [1,640,640,3] int8 w_stride 640; the log has 1228800 (spec "
                         "layouts.md §B.4)");
  }
  return Verdict::Pass();
}

}  // namespace

void AddProperties(std::vector<Property>* out) {
  AddLayoutProperties(PackLayout(), out);
  const std::string pack = ids::kNhwcZeroCopyPack;
  out->push_back(Rejects(pack));
  out->back().not_covered = ZeroCopyNotCovered;
  out->back().description =
      "w_stride negative or in (0, W), C not 1, 3 or 4, a dtype other than UINT8 / INT8 "
      "(§B.2, §B.4), a shape of rank other than 4 or a dim < 1 gets RKNN_ERR_PARAM_INVALID (-5), "
      "dst untouched";
  out->push_back(
      {.name = pack + ".capacity_is_size_with_stride",
       .routine = pack,
       .also_needs = {ids::kNc1hwc2Size},
       .description = "the pack fills a dst of N*H*w_stride*C*elem bytes (the oracle's padded "
                      "shape) and rknn.nc1hwc2_size with fmt NHWC answers that as "
                      "size_with_stride (§B.3, §B.4)",
       .choices = kPackChoices,
       .explicit_cases =
           [pack](const PropertyContext& ctx) { return ZeroCopyEdgeCases(pack, ctx.profile); },
       .generator = [pack](const PropertyContext& ctx) { return PackGen(ctx, pack, false); },
       .check = CheckCapacityIsSizeWithStride,
       .not_covered = ZeroCopyNotCovered});
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
  auto size_gen = [size](const PropertyContext& ctx) -> rc::Gen<Case> {
    auto native =
        gen::rknn_native::SizeCase(ctx.profile.name, size, C2Table(ctx.profile), ctx.Domain());
    if (!ZeroCopyNotCovered(ctx.profile).empty()) return native;
    auto nhwc = PackGen(ctx, size, true);
    // fmt NC1HWC2 (the default, left unset) twice as often as NHWC.
    return rc::gen::mapcat(
        gen::PickIn(ctx.Domain(), "fmt", std::vector<std::string>{"NC1HWC2", "NC1HWC2", "NHWC"}),
        [native, nhwc](const std::string& fmt) { return fmt == "NHWC" ? nhwc : native; });
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
  out->push_back({.name = size + ".nhwc_input_log",
                  .routine = size,
                  .description =
                      "fmt NHWC [1,640,640,3] int8 with w_stride 640 has size_with_stride "
                      "1228800, as logged (spec layouts.md §B.4; platform not stated)",
                  .explicit_cases =
                      [](const PropertyContext& ctx) {
                        return std::vector<Case>{LoggedNhwcCase(ctx.profile)};
                      },
                  .check = CheckLoggedNhwcSize,
                  .basis = "a device log (spec layouts.md §B.4)",
                  .not_covered = ZeroCopyNotCovered});
}

}  // namespace npuconf::rknn_native_props
