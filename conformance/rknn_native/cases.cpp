// Explicit cases of the NC1HWC2 routines (spec layouts.md Part B): every C2
// edge of every dtype of the platform's table, H = W = 1, batches; the real
// feature maps of vectors/real/conv_shapes.json; the invalid calls of each routine.
#include <algorithm>
#include <array>

#include "conformance/rknn_native/support.h"
#include "core/conv_shapes.h"

namespace npuconf::rknn_native_props {
namespace {

// The logical shape of [n, c, h, w] in the routine's plain order.
Shape Ordered(const std::string& routine, int64_t n, int64_t c, int64_t h, int64_t w) {
  return IsNhwc(routine) ? Shape{n, h, w, c} : Shape{n, c, h, w};
}

bool TakesDtype(const std::string& routine) { return routine != ids::kNc1hwc2Int8ToNchwFloat; }

Case Make(const std::string& routine, const Profile& profile, DType dtype, const Shape& shape,
          int64_t seed) {
  Case c(routine, profile.name);
  c.Set("shape", shape);
  if (TakesDtype(routine)) c.Set("dtype", dtype);
  if (routine != ids::kNc1hwc2Size) c.Set("seed", seed);
  return c;
}

}  // namespace

std::vector<Case> EdgeCases(const std::string& routine, const Profile& profile) {
  std::vector<Case> out;
  int64_t seed = 1;
  for (const auto& [dtype, c2] : C2Table(profile)) {
    if (!TakesDtype(routine) && dtype != DType::kInt8) continue;
    // C mod C2 in {0, 1, C2 - 1}, one lane, two blocks + 1 (§B.2: C1 = ceil(C / C2)).
    for (int64_t c : {c2, c2 + 1, c2 - 1, int64_t{1}, 2 * c2 + 1}) {
      if (c < 1) continue;
      // N 3 and 4 too: a batch pointer that accumulates (the RKNN demo's, wrong
      // from the third image on) fails only there.
      for (auto [n, h, w] :
           {std::array<int64_t, 3>{1, 1, 1}, {1, 3, 5}, {2, 2, 7}, {3, 2, 3}, {4, 1, 2}})
        out.push_back(Make(routine, profile, dtype, Ordered(routine, n, c, h, w), seed++));
    }
  }
  if (routine == ids::kNc1hwc2Int8ToNchwFloat) {
    // zp at int8's ends, a scale whose products round (real = (q - zp) * scale, §B.1);
    // then zero points past float32's exact integers (2^24 + 1) and at int32's ends:
    // the subtraction is exact in integers, so a port subtracting in float (LdDl/
    // rknn-runtime's (float)q - (float)zp) differs there.
    for (auto [zp, scale] : {std::pair<int64_t, double>{-128, 0.00392156862745098},
                             {127, 1.0 / 3.0},
                             {-1, 0.1},
                             {(int64_t{1} << 24) + 1, 1.0},
                             {INT32_MIN, 1.0 / 3.0},
                             {INT32_MAX, 0.125}}) {
      out.push_back(Make(routine, profile, DType::kInt8, Shape{1, 17, 3, 5}, seed++)
                        .Set("zp", zp)
                        .Set("scale", ParamValue::Float(scale)));
    }
  }
  return out;
}

// The feature maps of vectors/real/conv_shapes.json (ConvShapes(): NCHW at a 640x640
// input, each model citing its source; YOLOv5s's are the rknn_yolov5_demo log of spec
// layouts.md §B.3, YOLOv8n's the rknn_model_zoo export of §B.2), INT8, largest first
// (stable): stride 8's maps of every model, then 16's, then 32's, the order (and so the
// seeds) these cases had when they were written out here.
std::vector<Case> RealCases(const std::string& routine, const Profile& profile) {
  std::vector<Case> out;
  const auto table = C2Table(profile);
  if (!table.count(DType::kInt8)) return out;
  std::vector<RealFeatureMap> maps = ConvShapes().feature_maps;
  std::stable_sort(maps.begin(), maps.end(), [](const RealFeatureMap& a, const RealFeatureMap& b) {
    return a.shape[2] * a.shape[3] > b.shape[2] * b.shape[3];
  });
  int64_t seed = 101;
  for (const RealFeatureMap& m : maps) {
    const Shape& s = m.shape;  // [N, C, H, W]
    out.push_back(
        Make(routine, profile, DType::kInt8, Ordered(routine, s[0], s[1], s[2], s[3]), seed++));
  }
  return out;
}

std::vector<InvalidCase> InvalidCases(const std::string& routine, const Profile& profile) {
  if (routine == ids::kNhwcZeroCopyPack) return ZeroCopyInvalidCases(routine, profile);
  std::vector<InvalidCase> out;
  auto add = [&](std::string fault, DType dtype, Shape shape) {
    out.push_back({std::move(fault), Make(routine, profile, dtype, shape, 7)});
  };
  if (TakesDtype(routine)) {
    add("dtype FLOAT has no C2 (Table 4-6: int8, float16, int16)", DType::kFloat, {1, 17, 3, 3});
    add("dtype INT32 has no C2", DType::kInt32, {1, 17, 3, 3});
  }
  add("rank 3 shape", DType::kInt8, {17, 3, 3});
  add("rank 5 shape", DType::kInt8, {1, 17, 3, 3, 1});
  add("zero channels", DType::kInt8, Ordered(routine, 1, 0, 3, 3));
  add("zero height", DType::kInt8, Ordered(routine, 1, 17, 0, 3));
  add("negative width", DType::kInt8, Ordered(routine, 1, 17, 3, -2));
  add("zero batch", DType::kInt8, Ordered(routine, 0, 17, 3, 3));
  if (routine == ids::kNc1hwc2Size) {
    out.push_back(
        {"w_stride with fmt NC1HWC2 (w_stride belongs to NHWC inputs, §B.1, §B.4)",
         Make(routine, profile, DType::kInt8, {1, 17, 3, 3}, 7).Set("w_stride", int64_t{16})});
  }
  if (routine == ids::kNc1hwc2Int8ToNchwFloat) {
    out.push_back(
        {"zp past int32 (rknn_tensor_attr.zp is an int32, §B.1)",
         Make(routine, profile, DType::kInt8, {1, 17, 3, 3}, 7).Set("zp", int64_t{1} << 33)});
  }
  if (routine == ids::kNc1hwc2Size) {
    for (auto& invalid : ZeroCopyInvalidCases(routine, profile)) out.push_back(std::move(invalid));
  }
  return out;
}

namespace {

int64_t AlignUp(int64_t x, int64_t a) { return (x + a - 1) / a * a; }

// A zero-copy case: an NHWC shape, a dtype, a w_stride; the size routine's
// with fmt NHWC and no seed.
Case ZeroCopy(const std::string& routine, const Profile& profile, DType dtype, const Shape& nhwc,
              int64_t w_stride, int64_t seed) {
  Case c(routine, profile.name);
  c.Set("shape", nhwc).Set("dtype", dtype).Set("w_stride", w_stride);
  if (routine == ids::kNc1hwc2Size) {
    c.Set("fmt", std::string("NHWC"));
  } else {
    c.Set("seed", seed);
  }
  return c;
}

}  // namespace

std::vector<Case> ZeroCopyEdgeCases(const std::string& routine, const Profile& profile) {
  std::vector<Case> out;
  if (!ZeroCopyNotCovered(profile).empty()) return out;
  const RknnFacts& f = *profile.rknn;
  const int64_t a = f.zero_copy_w_align.value_or(16);
  int64_t seed = 201;
  for (DType dtype : f.zero_copy_dtypes) {
    for (int64_t c : f.zero_copy_channels) {
      // One pixel, an odd width, two batches (the batch continues the rows,
      // §B.4), a width already aligned (w_stride == W: one memcpy).
      for (auto [n, h, w] : {std::array<int64_t, 3>{1, 1, 1}, {1, 3, 5}, {2, 2, 7}, {2, 3, a}}) {
        std::vector<int64_t> strides = {0, w, AlignUp(w, a), AlignUp(w, a) + a, w + 1};
        std::sort(strides.begin(), strides.end());
        strides.erase(std::unique(strides.begin(), strides.end()), strides.end());
        for (int64_t ws : strides)
          out.push_back(ZeroCopy(routine, profile, dtype, {n, h, w, c}, ws, seed++));
      }
    }
  }
  return out;
}

std::vector<InvalidCase> ZeroCopyInvalidCases(const std::string& routine, const Profile& profile) {
  std::vector<InvalidCase> out;
  auto add = [&](std::string fault, DType dtype, Shape shape, int64_t w_stride) {
    out.push_back({std::move(fault), ZeroCopy(routine, profile, dtype, shape, w_stride, 7)});
  };
  add("w_stride 4 below W 5 (§B.1: w_stride counts valid + fill pixels)", DType::kUint8,
      {1, 3, 5, 3}, 4);
  add("w_stride 1 below W 16", DType::kInt8, {2, 2, 16, 4}, 1);
  add("negative w_stride", DType::kUint8, {1, 3, 5, 3}, -16);
  add("C 2 (§B.2, §B.4: an NHWC native input has 1, 3 or 4 channels)", DType::kUint8, {1, 3, 5, 2},
      16);
  add("C 16 (NC1HWC2, not NHWC, for other channel counts)", DType::kInt8, {1, 3, 5, 16}, 16);
  add("dtype FLOAT16 (§B.4: zero copy needs an int8 quantized model: UINT8 or INT8 input)",
      DType::kFloat16, {1, 3, 5, 3}, 16);
  add("dtype FLOAT", DType::kFloat, {1, 3, 5, 3}, 16);
  add("rank 3 shape", DType::kUint8, {3, 5, 3}, 16);
  add("zero height", DType::kUint8, {1, 0, 5, 3}, 16);
  add("zero batch", DType::kUint8, {0, 3, 5, 3}, 16);
  add("negative width", DType::kUint8, {1, 3, -5, 3}, 16);
  return out;
}

}  // namespace npuconf::rknn_native_props
