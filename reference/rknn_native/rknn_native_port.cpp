// The reference port's answers to the NC1HWC2 cases (spec layouts.md Part B):
// validation (rank 4, positive dims, a dtype of the platform's C2 table, buffers
// large enough; else RKNN_ERR_PARAM_INVALID with the outputs untouched), then
// the routines of nc1hwc2.h.
#include "reference/rknn_native/rknn_native_port.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "core/routines/rknn_native.h"
#include "core/status.h"
#include "reference/rknn_native/nc1hwc2.h"

namespace npuconf::rknn_native {
namespace {

namespace ids = routines::rknn_native;
using rknn::kRknnErrParamInvalid;
using rknn::kRknnSucc;

int32_t Rejected(int64_t* status) {
  *status = kRknnErrParamInvalid;
  return NPUCONF_CALL_ANSWERED;
}

bool Fits(const npuconf_tensor* t, uint64_t bytes) {
  return t && t->bytes >= bytes && (t->data || bytes == 0);
}

enum class Plain { kNchw, kNhwc };

// The geometry of the case's logical shape, or nullopt (rejected).
std::optional<Nc1hwc2Geometry> GeometryOf(const CaseView& view, const RknnFacts& f, DType dtype,
                                          Plain plain) {
  auto shape = view.IntList("shape");
  if (!shape || shape->size() != 4) return std::nullopt;
  auto c2 = f.nc1hwc2_c2.find(dtype);
  if (c2 == f.nc1hwc2_c2.end()) return std::nullopt;
  const Shape& s = *shape;
  const bool nhwc = plain == Plain::kNhwc;
  return Nc1hwc2GeometryFor(s[0], nhwc ? s[3] : s[1], nhwc ? s[1] : s[2], nhwc ? s[2] : s[3],
                            c2->second, Bits(dtype) / 8);
}

template <Plain kPlain, bool kToNative>
int32_t Layout(const CaseView& view, const Profile& profile, int64_t* status,
               std::string* message) {
  if (!profile.rknn || profile.rknn->nc1hwc2_c2.empty()) {
    *message =
        "the NC1HWC2 C2 of profile '" + profile.name + "' is not public (spec layouts.md §B.6.1)";
    return NPUCONF_CALL_UNCLAIMED;
  }
  auto dtype = view.DTypeParam("dtype");
  if (!dtype) {
    *message = "param 'dtype' is required";
    return NPUCONF_CALL_BAD_CASE;
  }
  const char* plain_name = kPlain == Plain::kNhwc ? "nhwc" : "nchw";
  const npuconf_tensor* in = view.Input(kToNative ? plain_name : "nc1hwc2");
  npuconf_tensor* out = view.Output(kToNative ? "nc1hwc2" : plain_name);
  if (!in || !out) {
    *message = std::string("needs tensors '") + plain_name + "' and 'nc1hwc2'";
    return NPUCONF_CALL_BAD_CASE;
  }
  auto g = GeometryOf(view, *profile.rknn, *dtype, kPlain);
  if (!g || !Fits(in, kToNative ? g->plain_bytes : g->native_bytes) ||
      !Fits(out, kToNative ? g->native_bytes : g->plain_bytes)) {
    return Rejected(status);
  }
  const auto* src = static_cast<const uint8_t*>(in->data);
  auto* dst = static_cast<uint8_t*>(out->data);
  if (kPlain == Plain::kNchw) {
    kToNative ? NchwToNc1hwc2(src, dst, *g) : Nc1hwc2ToNchw(src, dst, *g);
  } else {
    kToNative ? NhwcToNc1hwc2(src, dst, *g) : Nc1hwc2ToNhwc(src, dst, *g);
  }
  SetOutputShape(out, kToNative ? g->native_dims : *view.IntList("shape"));
  *status = kRknnSucc;
  return NPUCONF_CALL_ANSWERED;
}

double FloatParam(const CaseView& view, const char* key, double fallback) {
  const npuconf_param* p = view.Param(key);
  if (!p) return fallback;
  if (p->kind == NPUCONF_PARAM_FLOAT) return p->f;
  if (p->kind == NPUCONF_PARAM_INT) return static_cast<double>(p->i);
  return std::numeric_limits<double>::quiet_NaN();
}

int32_t Dequant(const CaseView& view, const Profile& profile, int64_t* status,
                std::string* message) {
  if (!profile.rknn || profile.rknn->nc1hwc2_c2.empty()) {
    *message = "the NC1HWC2 C2 of profile '" + profile.name + "' is not public";
    return NPUCONF_CALL_UNCLAIMED;
  }
  const npuconf_tensor* in = view.Input("nc1hwc2");
  npuconf_tensor* out = view.Output("nchw");
  if (!in || !out) {
    *message = "needs tensors 'nc1hwc2' and 'nchw'";
    return NPUCONF_CALL_BAD_CASE;
  }
  const double scale = FloatParam(view, "scale", 0.125);
  const int64_t zp = view.Int("zp").value_or(0);
  auto g = GeometryOf(view, *profile.rknn, DType::kInt8, Plain::kNchw);
  // rknn_tensor_attr: zp an int32, scale a float (§B.1).
  if (!g || !std::isfinite(scale) || zp < std::numeric_limits<int32_t>::min() ||
      zp > std::numeric_limits<int32_t>::max() || !Fits(in, g->native_bytes) ||
      !Fits(out, static_cast<uint64_t>(g->plain_elems) * sizeof(float))) {
    return Rejected(status);
  }
  Nc1hwc2Int8ToNchwFloat(static_cast<const int8_t*>(in->data), static_cast<float*>(out->data), *g,
                         static_cast<float>(scale), static_cast<int32_t>(zp));
  SetOutputShape(out, *view.IntList("shape"));
  *status = kRknnSucc;
  return NPUCONF_CALL_ANSWERED;
}

// size = N·C·H·W·elem (§B.1); size_with_stride = N·C1·C2·H·W'·elem with W' the
// W aligned per choice rknn.native_io.size_with_stride (§B.3).
int32_t Size(const CaseView& view, const Profile& profile, int64_t* status, std::string* message) {
  if (!profile.rknn || profile.rknn->nc1hwc2_c2.empty()) {
    *message = "the NC1HWC2 C2 of profile '" + profile.name + "' is not public";
    return NPUCONF_CALL_UNCLAIMED;
  }
  auto dtype = view.DTypeParam("dtype");
  npuconf_tensor* out = view.Output("attr");
  if (!dtype || !out) {
    *message = "needs param 'dtype' and output 'attr'";
    return NPUCONF_CALL_BAD_CASE;
  }
  const RknnFacts& f = *profile.rknn;
  auto g = GeometryOf(view, f, *dtype, Plain::kNchw);
  if (!g || !Fits(out, 2 * sizeof(uint64_t))) return Rejected(status);
  int64_t w = g->w;
  if (f.size_with_stride == "w_aligned" && f.output_w_align) {
    const int64_t a = *f.output_w_align;
    if (w > INT64_MAX - a) return Rejected(status);
    w = (w + a - 1) / a * a;
  }
  auto padded = Nc1hwc2GeometryFor(g->n, g->c, g->h, w, g->c2, g->elem_bytes);
  if (!padded) return Rejected(status);
  const uint64_t words[2] = {g->plain_bytes, padded->native_bytes};
  std::memcpy(out->data, words, sizeof(words));
  SetOutputShape(out, g->native_dims);
  *status = kRknnSucc;
  return NPUCONF_CALL_ANSWERED;
}

}  // namespace

const ReferenceFamily& RknnNativeReference() {
  static const ReferenceFamily family = {
      .routines = {{ids::kNchwToNc1hwc2, Layout<Plain::kNchw, true>},
                   {ids::kNc1hwc2ToNchw, Layout<Plain::kNchw, false>},
                   {ids::kNhwcToNc1hwc2, Layout<Plain::kNhwc, true>},
                   {ids::kNc1hwc2ToNhwc, Layout<Plain::kNhwc, false>},
                   {ids::kNc1hwc2Int8ToNchwFloat, Dequant},
                   {ids::kNc1hwc2Size, Size}}};
  return family;
}

int32_t RknnNativeReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                                uint64_t message_bytes) {
  return AnswerWith(RknnNativeReference(), c, status, message, message_bytes);
}

}  // namespace npuconf::rknn_native
