// The reference port's answers to the NC1HWC2 cases (spec layouts.md Part B):
// validation (rank 4, positive dims, a dtype of the platform's C2 table, buffers
// large enough; else RKNN_ERR_PARAM_INVALID with the outputs untouched), then
// the routines of nc1hwc2.h.
#include "reference/rknn_native/rknn_native_port.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/routines/rknn_native.h"
#include "core/status.h"
#include "reference/rknn_native/nc1hwc2.h"
#include "reference/rknn_native/nhwc_stride.h"

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

bool Contains(const auto& list, const auto& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// The zero-copy NHWC geometry of the case, or nullopt (rejected): rank 4, a
// zero-copy dtype and channel count of the profile (§B.4), w_stride 0 or >= W.
std::optional<StrideGeometry> ZeroCopyGeometryOf(const CaseView& view, const RknnFacts& f,
                                                 DType dtype, int64_t w_stride) {
  auto shape = view.IntList("shape");
  if (!shape || shape->size() != 4) return std::nullopt;
  const Shape& s = *shape;
  if (!Contains(f.zero_copy_dtypes, dtype) || !Contains(f.zero_copy_channels, s[3]))
    return std::nullopt;
  return StrideGeometryFor(s[0], s[1], s[2], s[3], w_stride, Bits(dtype) / 8);
}

bool ZeroCopyPublic(const Profile& profile) {
  return profile.rknn && !profile.rknn->zero_copy_channels.empty() &&
         !profile.rknn->zero_copy_dtypes.empty();
}

std::string ZeroCopyNotPublic(const Profile& profile) {
  return "the zero-copy input conditions of profile '" + profile.name +
         "' are not public (spec layouts.md §B.4, §B.6.1)";
}

// §B.4: each of the N·H rows copies W·C elements, the destination advancing
// w_stride·C; the fill pixels keep the caller's bytes.
int32_t ZeroCopyPack(const CaseView& view, const Profile& profile, int64_t* status,
                     std::string* message) {
  if (!ZeroCopyPublic(profile)) {
    *message = ZeroCopyNotPublic(profile);
    return NPUCONF_CALL_UNCLAIMED;
  }
  auto dtype = view.DTypeParam("dtype");
  auto w_stride = view.Int("w_stride");
  const npuconf_tensor* src = view.Input("src");
  npuconf_tensor* dst = view.Output("dst");
  if (!dtype || !w_stride || !src || !dst) {
    *message = "needs params 'dtype', 'w_stride' and tensors 'src', 'dst'";
    return NPUCONF_CALL_BAD_CASE;
  }
  auto g = ZeroCopyGeometryOf(view, *profile.rknn, *dtype, *w_stride);
  if (!g || !Fits(src, g->plain_bytes) || !Fits(dst, g->size_with_stride)) return Rejected(status);
  PackNhwcRows(static_cast<const uint8_t*>(src->data), static_cast<uint8_t*>(dst->data), *g);
  SetOutputShape(dst, {g->n, g->h, g->w_stride, g->c});
  *status = kRknnSucc;
  return NPUCONF_CALL_ANSWERED;
}

// fmt NHWC: size = N·H·W·C·elem, size_with_stride = N·H·w_stride·C·elem (§B.4).
int32_t NhwcInputSize(const CaseView& view, const Profile& profile, DType dtype,
                      npuconf_tensor* out, int64_t* status, std::string* message) {
  if (!ZeroCopyPublic(profile)) {
    *message = ZeroCopyNotPublic(profile);
    return NPUCONF_CALL_UNCLAIMED;
  }
  auto w_stride = view.Int("w_stride");
  if (!w_stride) {
    *message = "fmt NHWC needs param 'w_stride'";
    return NPUCONF_CALL_BAD_CASE;
  }
  auto g = ZeroCopyGeometryOf(view, *profile.rknn, dtype, *w_stride);
  if (!g || !Fits(out, 2 * sizeof(uint64_t))) return Rejected(status);
  const uint64_t words[2] = {g->plain_bytes, g->size_with_stride};
  std::memcpy(out->data, words, sizeof(words));
  SetOutputShape(out, {g->n, g->h, g->w, g->c});
  *status = kRknnSucc;
  return NPUCONF_CALL_ANSWERED;
}

// size = N·C·H·W·elem (§B.1); size_with_stride = N·C1·C2·H·W'·elem with W' the
// W aligned per choice rknn.native_io.size_with_stride (§B.3). fmt NHWC: above.
int32_t Size(const CaseView& view, const Profile& profile, int64_t* status, std::string* message) {
  const auto fmt = view.String("fmt").value_or("NC1HWC2");
  if (fmt == "NHWC") {
    auto dtype = view.DTypeParam("dtype");
    npuconf_tensor* out = view.Output("attr");
    if (!dtype || !out) {
      *message = "needs param 'dtype' and output 'attr'";
      return NPUCONF_CALL_BAD_CASE;
    }
    return NhwcInputSize(view, profile, *dtype, out, status, message);
  }
  if (fmt != "NC1HWC2") {
    *message = "param 'fmt' is '" + fmt + "': NC1HWC2 or NHWC";
    return NPUCONF_CALL_BAD_CASE;
  }
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
  // w_stride belongs to NHWC inputs (§B.1, §B.4): an NC1HWC2 output has none.
  if (!g || view.Param("w_stride") || !Fits(out, 2 * sizeof(uint64_t))) return Rejected(status);
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
                   {ids::kNc1hwc2Size, Size},
                   {ids::kNhwcZeroCopyPack, ZeroCopyPack}}};
  return family;
}

int32_t RknnNativeReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                                uint64_t message_bytes) {
  return AnswerWith(RknnNativeReference(), c, status, message, message_bytes);
}

}  // namespace npuconf::rknn_native
