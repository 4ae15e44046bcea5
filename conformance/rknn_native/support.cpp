#include "conformance/rknn_native/support.h"

#include <algorithm>

#include "conformance/harness/materialize.h"
#include "oracles/rknn_native/nc1hwc2_oracle.h"
#include "oracles/rknn_native/nhwc_stride_oracle.h"

namespace npuconf::rknn_native_props {

namespace orc = oracle::rknn_native;

std::map<DType, int64_t> C2Table(const Profile& profile) {
  if (!profile.rknn) return {};
  return profile.rknn->nc1hwc2_c2;
}

std::string NotCovered(const Profile& profile) {
  if (profile.family == "rknn" && C2Table(profile).empty()) {
    return "the NC1HWC2 C2 of this platform is not public (spec layouts.md §B.2, §B.6.1): "
           "nothing is checked against an invented C2";
  }
  return "";
}

bool IsNhwc(const std::string& r) { return r == ids::kNhwcToNc1hwc2 || r == ids::kNc1hwc2ToNhwc; }

bool IsToNative(const std::string& r) {
  return r == ids::kNchwToNc1hwc2 || r == ids::kNhwcToNc1hwc2;
}

NativeGeometry GeometryOf(const Case& c, const Profile& profile) {
  if (std::string why = NotCovered(profile); !why.empty())
    throw CaseError("profile '" + profile.name + "': " + why);
  NativeGeometry g;
  g.nhwc = IsNhwc(c.routine);
  g.to_native = IsToNative(c.routine);
  g.logical = RequireShape(c, "shape");
  if (g.logical.size() != 4) throw CaseError("shape=" + ToString(g.logical) + " must have rank 4");
  for (int64_t d : g.logical) {
    if (d < 1) throw CaseError("shape=" + ToString(g.logical) + " must have every dim >= 1");
  }
  g.dtype = c.routine == ids::kNc1hwc2Int8ToNchwFloat ? DType::kInt8 : RequireDType(c, "dtype");
  const auto table = C2Table(profile);
  auto c2 = table.find(g.dtype);
  if (c2 == table.end()) {
    throw CaseError("dtype " + std::string(Name(g.dtype)) + " has no C2 on " + profile.name +
                    " (spec layouts.md §B.2 Table 4-6)");
  }
  g.c2 = c2->second;
  g.native_dims = orc::NativeDims(g.logical, g.nhwc, g.c2);
  auto plain = NumElements(g.logical);
  auto native = NumElements(g.native_dims);
  if (!plain || !native) throw CaseError("shape " + ToString(g.logical) + " overflows int64");
  g.plain_elems = *plain;
  g.native_elems = *native;
  g.plain_bytes = ElemBytes(g.dtype, g.plain_elems, g.logical);
  g.native_bytes = ElemBytes(g.dtype, g.native_elems, g.native_dims);
  return g;
}

Nc1hwc2Map::Nc1hwc2Map(Shape s, bool nhwc, int64_t c2) : nhwc_(nhwc), c2_(c2) {
  n_ = s[0];
  c_ = nhwc ? s[3] : s[1];
  h_ = nhwc ? s[1] : s[2];
  w_ = nhwc ? s[2] : s[3];
  c1_ = c_ / c2_ + (c_ % c2_ != 0);
  elements_ = n_ * c1_ * h_ * w_ * c2_;
}

verify::Place Nc1hwc2Map::Locate(int64_t e) const {
  const int64_t lane = e % c2_, w = (e / c2_) % w_, h = (e / (c2_ * w_)) % h_,
                c1 = (e / (c2_ * w_ * h_)) % c1_, n = e / (c2_ * w_ * h_ * c1_);
  const int64_t c = c1 * c2_ + lane;
  verify::Place place;
  place.block = {{"n", n, n_}, {"C1 block", c1, c1_}};
  place.within = {{"h", h, h_}, {"w", w, w_}, {"lane", lane, c2_}};
  place.padding = c >= c_;
  if (!place.padding) {
    if (nhwc_) {
      place.logical = {{"n", n, n_}, {"h", h, h_}, {"w", w, w_}, {"c", c, c_}};
    } else {
      place.logical = {{"n", n, n_}, {"c", c, c_}, {"h", h, h_}, {"w", w, w_}};
    }
  }
  return place;
}

std::shared_ptr<verify::StorageMap> PlainMapOf(const NativeGeometry& g) {
  return std::make_shared<verify::RowMajorMap>(g.logical,
                                               g.nhwc
                                                   ? std::vector<std::string>{"n", "h", "w", "c"}
                                                   : std::vector<std::string>{"n", "c", "h", "w"},
                                               g.nhwc ? "NHWC" : "NCHW");
}

std::string ZeroCopyNotCovered(const Profile& profile) {
  if (profile.family != "rknn") return "";
  if (!profile.rknn || profile.rknn->zero_copy_channels.empty() ||
      profile.rknn->zero_copy_dtypes.empty()) {
    return "the zero-copy input conditions of this platform are not public (spec layouts.md "
           "§B.4, §B.6.1): nothing is checked against invented ones";
  }
  return "";
}

bool IsNhwcSize(const Case& c) {
  return c.routine == ids::kNc1hwc2Size && c.String("fmt").value_or("NC1HWC2") == "NHWC";
}

ZeroCopyGeometry ZeroCopyGeometryOf(const Case& c, const Profile& profile) {
  if (std::string why = ZeroCopyNotCovered(profile); !why.empty())
    throw CaseError("profile '" + profile.name + "': " + why);
  const RknnFacts& f = *profile.rknn;
  ZeroCopyGeometry g;
  g.logical = RequireShape(c, "shape");
  if (g.logical.size() != 4)
    throw CaseError("shape=" + ToString(g.logical) + " must have rank 4 (NHWC)");
  for (int64_t d : g.logical) {
    if (d < 1) throw CaseError("shape=" + ToString(g.logical) + " must have every dim >= 1");
  }
  g.dtype = RequireDType(c, "dtype");
  if (std::find(f.zero_copy_dtypes.begin(), f.zero_copy_dtypes.end(), g.dtype) ==
      f.zero_copy_dtypes.end()) {
    throw CaseError("dtype " + std::string(Name(g.dtype)) +
                    " is not a zero-copy NHWC input dtype (spec layouts.md §B.4: UINT8, INT8)");
  }
  const int64_t channels = g.logical[3];
  if (std::find(f.zero_copy_channels.begin(), f.zero_copy_channels.end(), channels) ==
      f.zero_copy_channels.end()) {
    throw CaseError("C=" + std::to_string(channels) +
                    ": an NHWC native input has 1, 3 or 4 channels (spec layouts.md §B.2, §B.4)");
  }
  g.w_stride = RequireInt(c, "w_stride");
  if (g.w_stride < 0 || (g.w_stride > 0 && g.w_stride < g.logical[2])) {
    throw CaseError("w_stride=" + std::to_string(g.w_stride) + " is below W=" +
                    std::to_string(g.logical[2]) + " (spec layouts.md §B.1: valid + fill pixels)");
  }
  g.stored_dims = oracle::rknn_native::StridedDims(g.logical, g.w_stride);
  auto plain = NumElements(g.logical);
  auto stored = NumElements(g.stored_dims);
  if (!plain || !stored) throw CaseError("shape " + ToString(g.stored_dims) + " overflows int64");
  g.plain_elems = *plain;
  g.stored_elems = *stored;
  g.plain_bytes = ElemBytes(g.dtype, g.plain_elems, g.logical);
  g.stored_bytes = ElemBytes(g.dtype, g.stored_elems, g.stored_dims);
  g.first_batch_only = f.nhwc_input_batch == "first_batch";
  return g;
}

StridedRowsMap::StridedRowsMap(const ZeroCopyGeometry& g)
    : n_(g.logical[0]),
      h_(g.logical[1]),
      w_(g.logical[2]),
      c_(g.logical[3]),
      stored_w_(g.stored_dims[2]),
      elements_(g.stored_elems),
      first_batch_only_(g.first_batch_only) {}

verify::Place StridedRowsMap::Locate(int64_t e) const {
  const int64_t c = e % c_, w = (e / c_) % stored_w_, h = (e / (c_ * stored_w_)) % h_,
                n = e / (c_ * stored_w_ * h_);
  verify::Place place;
  place.block = {{"n", n, n_}, {"row h", h, h_}};
  place.within = {{"w", w, stored_w_}, {"c", c, c_}};
  place.padding = w >= w_ || (first_batch_only_ && n > 0);
  if (!place.padding) place.logical = {{"n", n, n_}, {"h", h, h_}, {"w", w, w_}, {"c", c, c_}};
  return place;
}

}  // namespace npuconf::rknn_native_props
