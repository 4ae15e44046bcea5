// The conv-weight and format-cast size routines (spec layouts.md §A.9, §A.10):
// the reference and the oracle against the spec's examples, each other, and
// the check order.
#include <gtest/gtest.h>

#include <cstring>

#include "core/float16.h"
#include "core/prng.h"
#include "core/profile.h"
#include "core/status.h"
#include "oracles/cann_convweight/conv_weight_oracle.h"
#include "reference/cann_convweight/conv_weight.h"

namespace npuconf {
namespace {

namespace ref = cann_convweight;
namespace orc = oracle::cann_convweight;

ref::ConvWeightFacts Facts(const char* profile) {
  return ref::ReadConvWeightFacts(FindProfile(profile)->raw);
}

uint64_t RefSize(const Shape& s, int64_t groups, const char* profile = "ascend310p") {
  uint64_t size = 7;
  EXPECT_EQ(ref::CalculateConvolutionWeightSize(Facts(profile), &s, false, groups, DType::kFloat16,
                                                &size),
            cann::kAclnnSuccess);
  return size;
}

// docs/aclnnCalculateConvolutionWeightSize.md (spec layouts.md §A.9): [2,4,8,8]
// → FRACTAL_Z [64,1,16,16] → 16384.
TEST(ConvWeightSize, DocExample) {
  EXPECT_EQ(RefSize({2, 4, 8, 8}, 1), 16384u);
  EXPECT_EQ(*orc::GroupedFzDims({2, 4, 8, 8}, 1), (Shape{64, 1, 16, 16}));
}

// [derived] spec layouts.md §A.9: (2,2,32,16) g=1 → (512,1,16,16) = 131072.
TEST(ConvWeightSize, DerivedExample) {
  EXPECT_EQ(RefSize({2, 2, 32, 16}, 1), 131072u);
  EXPECT_EQ(*orc::GroupedFzDims({2, 2, 32, 16}, 1), (Shape{512, 1, 16, 16}));
}

// spec layouts.md §A.0 item 1 / §A.4 [derived]: (128,2,3,3) g=8 → (9,8,16,16);
// (16,8,1,1) g=4 → (2,1,16,16); TSU-UT (48,512,5,5) g=16 → (12800,3,16,16).
TEST(ConvWeightSize, GroupedShapes) {
  EXPECT_EQ(*orc::GroupedFzDims({128, 2, 3, 3}, 8), (Shape{9, 8, 16, 16}));
  EXPECT_EQ(RefSize({128, 2, 3, 3}, 8), 9u * 8 * 256);
  EXPECT_EQ(*orc::GroupedFzDims({16, 8, 1, 1}, 4), (Shape{2, 1, 16, 16}));
  EXPECT_EQ(*orc::GroupedFzDims({48, 512, 5, 5}, 16), (Shape{12800, 3, 16, 16}));
  EXPECT_EQ(RefSize({48, 512, 5, 5}, 16), 12800u * 3 * 256);
}

TEST(ConvWeightSize, CheckOrder) {
  const auto f = Facts("ascend310p");
  uint64_t size = 7;
  const Shape ok{2, 4, 8, 8}, rank3{2, 4, 8}, zero{0, 4, 8, 8}, neg{-1, 4, 8, 8};
  EXPECT_EQ(ref::CalculateConvolutionWeightSize(f, nullptr, false, 1, DType::kFloat16, &size),
            cann::kAclnnErrParamNullptr);
  EXPECT_EQ(ref::CalculateConvolutionWeightSize(f, &ok, false, 1, DType::kFloat16, nullptr),
            cann::kAclnnErrParamNullptr);
  EXPECT_EQ(ref::CalculateConvolutionWeightSize(f, &rank3, true, 0, DType::kFloat, &size),
            cann::kAclnnErrParamInvalid);
  EXPECT_EQ(ref::CalculateConvolutionWeightSize(f, &ok, false, 0, DType::kFloat16, &size),
            cann::kAclnnErrParamInvalid);
  EXPECT_EQ(ref::CalculateConvolutionWeightSize(f, &ok, false, 1, DType::kFloat, &size),
            cann::kAclnnErrParamInvalid);
  EXPECT_EQ(ref::CalculateConvolutionWeightSize(f, &neg, false, 1, DType::kFloat16, &size),
            cann::kAclnnErrParamInvalid);
  EXPECT_EQ(size, 7u);
  // A zero dim exits with 0 before TransData sees groups > 65535 (as_shipped, D13).
  EXPECT_EQ(ref::CalculateConvolutionWeightSize(f, &zero, false, 70000, DType::kFloat16, &size),
            cann::kAclnnSuccess);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(ref::CalculateConvolutionWeightSize(f, &ok, false, 70000, DType::kFloat16, &size),
            cann::kAclnnErrInnerNullptr);
  // Only ASCEND310P has the API.
  EXPECT_EQ(ref::CalculateConvolutionWeightSize(Facts("ascend910b"), &ok, false, 1, DType::kFloat16,
                                                &size),
            cann::kAclnnErrParamInvalid);
}

// The oracle's rule table gives the reference's status on the same calls.
TEST(ConvWeightSize, OracleAgreesOnStatus) {
  for (const char* p : {"ascend310p", "ascend910b"}) {
    const auto f = Facts(p);
    for (Shape s : {Shape{2, 4, 8, 8}, Shape{2, 4, 8}, Shape{0, 4, 8, 8}, Shape{-1, 4, 8, 8}}) {
      for (int64_t g : {int64_t{0}, int64_t{1}, int64_t{2}, int64_t{70000}}) {
        for (DType d : {DType::kFloat16, DType::kFloat}) {
          Case c("cann.calculate_convolution_weight_size", p);
          c.Set("shape", s).Set("groups", g).Set("dtype", d);
          uint64_t size = 0;
          const int64_t got = ref::CalculateConvolutionWeightSize(f, &s, false, g, d, &size);
          const auto want = orc::ExpectConvolutionWeightSize(FindProfile(p)->raw, c);
          EXPECT_EQ(got, want.status) << p << " " << ToString(s) << " g " << g << ": " << want.rule;
          if (got == 0) {
            EXPECT_EQ(size, want.size);
          }
        }
      }
    }
  }
}

// Reference (index loops) == oracle (block-diagonal Eigen tiles), byte for byte,
// fp16 and fp32 inputs, grouped and not, real conv-weight shapes among them
// (ResNet-50 conv1 [64,3,7,7], MobileNetV2 depthwise [32,1,3,3] g 32, YOLOv5s
// head [255,128,1,1]; torchvision/models/resnet.py, mobilenetv2.py,
// ultralytics/yolov5 models/yolo.py).
TEST(TransConvolutionWeight, ReferenceEqualsOracle) {
  struct Row {
    Shape s;
    int64_t g;
  };
  const std::vector<Row> rows = {{{2, 4, 8, 8}, 1},   {{31, 17, 2, 2}, 1},   {{128, 2, 3, 3}, 8},
                                 {{16, 8, 1, 1}, 4},  {{17, 3, 2, 3}, 4},    {{64, 3, 7, 7}, 1},
                                 {{32, 1, 3, 3}, 32}, {{255, 128, 1, 1}, 1}, {{48, 512, 5, 5}, 16}};
  const auto f = Facts("ascend310p");
  uint64_t seed = 1;
  for (const Row& r : rows) {
    for (DType d : {DType::kFloat16, DType::kFloat}) {
      const int64_t elems = r.s[0] * r.s[1] * r.s[2] * r.s[3];
      Bytes in(static_cast<size_t>(elems * (d == DType::kFloat ? 4 : 2)));
      SplitMix64 rng(seed++);
      for (int64_t i = 0; i < elems; ++i) {
        const float v = static_cast<float>(static_cast<int64_t>(rng.Next() % 20001) - 10000) / 97.f;
        if (d == DType::kFloat) {
          std::memcpy(in.data() + i * 4, &v, 4);
        } else {
          const uint16_t h = HalfBits(Half(v));
          std::memcpy(in.data() + i * 2, &h, 2);
        }
      }
      const auto want = orc::GroupedFz(in, d, r.s, r.g);
      Bytes out(want.size() * 2, 0xAB);
      ref::TransConvolutionWeightArgs a;
      a.shape = r.s;
      a.out_shape = r.s;
      a.dtype = d;
      a.groups = r.g;
      a.in = in.data();
      a.in_bytes = in.size();
      a.out = out.data();
      a.out_bytes = out.size();
      Shape storage;
      ASSERT_EQ(ref::TransConvolutionWeight(f, a, &storage), cann::kAclnnSuccess);
      EXPECT_EQ(storage, *orc::GroupedFzDims(r.s, r.g));
      EXPECT_EQ(std::memcmp(out.data(), want.data(), out.size()), 0)
          << ToString(r.s) << " g " << r.g << " " << Name(d);
    }
  }
}

// GE-UT hwcn_fractalz fp16_1c_1n_with_groups (spec layouts.md §A.4): HWCN
// (1,1,1,2) g=2, data {19, 88} → (1,1,16,16) with ret[0] = 19, ret[17] = 88.
// As NCHW that weight is (2,1,1,1).
TEST(TransConvolutionWeight, GeGroupedGold) {
  Bytes in(4);
  const uint16_t a = 19, b = 88;
  std::memcpy(in.data(), &a, 2);
  std::memcpy(in.data() + 2, &b, 2);
  const auto fz = orc::GroupedFz(in, DType::kFloat16, {2, 1, 1, 1}, 2);
  ASSERT_EQ(fz.size(), 256u);
  for (size_t i = 0; i < fz.size(); ++i) {
    EXPECT_EQ(fz[i], i == 0 ? 19 : i == 17 ? 88 : 0) << i;
  }
}

TEST(NpuFormatCast, ShapesAndChecks) {
  const auto f = Facts("ascend910b");
  ref::FormatCastResult r;
  ref::FormatCastArgs a{.shape = {4, 33, 7, 7},
                        .src_format = "NCHW",
                        .dst_format = "NC1HWC0",
                        .dtype = DType::kFloat16};
  ASSERT_EQ(ref::NpuFormatCastCalculateSizeAndFormat(f, a, &r), cann::kAclnnSuccess);
  EXPECT_EQ(r.dst_shape, (Shape{4, 3, 7, 7, 16}));
  a.dtype = DType::kFloat;  // C0 = 32 / 4 = 8 (§A.0.1 NFC)
  ASSERT_EQ(ref::NpuFormatCastCalculateSizeAndFormat(f, a, &r), cann::kAclnnSuccess);
  EXPECT_EQ(r.dst_shape, (Shape{4, 5, 7, 7, 8}));
  a.dst_format = "FRACTAL_Z";
  a.dtype = DType::kInt8;
  ASSERT_EQ(ref::NpuFormatCastCalculateSizeAndFormat(f, a, &r), cann::kAclnnSuccess);
  EXPECT_EQ(r.dst_shape, (Shape{2 * 49, 1, 16, 32}));
  EXPECT_EQ(r.actual_format, 4);
  a.dst_format = "NDC1HWC0";  // NCHW → 6HD is not a branch
  EXPECT_EQ(ref::NpuFormatCastCalculateSizeAndFormat(f, a, &r), cann::kAclnnErrRuntimeError);
  a = {.shape = {4, 3, 7, 7, 16},
       .src_format = "NC1HWC0",
       .dst_format = "NCHW",
       .dtype = DType::kFloat16};
  ASSERT_EQ(ref::NpuFormatCastCalculateSizeAndFormat(f, a, &r), cann::kAclnnSuccess);
  EXPECT_EQ(r.dst_shape, a.shape);  // a reverse branch returns the view shape
  a.null_src = true;                // D12 as shipped: 161002
  EXPECT_EQ(ref::NpuFormatCastCalculateSizeAndFormat(f, a, &r), cann::kAclnnErrParamInvalid);
  a = {.shape = {0, 3, 7, 7},
       .src_format = "NCHW",
       .dst_format = "NC1HWC0",
       .dtype = DType::kFloat16};
  EXPECT_EQ(ref::NpuFormatCastCalculateSizeAndFormat(f, a, &r), cann::kAclnnErrRuntimeError);
  EXPECT_EQ(ref::NpuFormatCastCalculateSizeAndFormat(Facts("ascend950"), a, &r),
            cann::kAclnnSuccess);
  EXPECT_EQ(ref::NpuFormatCastCalculateSizeAndFormat(Facts("ascend310p"), a, &r),
            cann::kAclnnErrParamInvalid);
  // The oracle agrees on each of these.
  for (const char* p : {"ascend910b", "ascend950", "ascend310p"}) {
    Case c("cann.npu_format_cast_calculate_size_and_format", p);
    c.Set("shape", Shape{4, 33, 7, 7}).Set("src_format", "NCHW").Set("dst_format", "FRACTAL_Z");
    c.Set("dtype", DType::kInt8);
    const auto want = orc::ExpectFormatCast(FindProfile(p)->raw, c);
    ref::FormatCastArgs b{.shape = {4, 33, 7, 7},
                          .src_format = "NCHW",
                          .dst_format = "FRACTAL_Z",
                          .dtype = DType::kInt8};
    ref::FormatCastResult got;
    EXPECT_EQ(ref::NpuFormatCastCalculateSizeAndFormat(Facts(p), b, &got), want.status) << p;
    if (want.status == 0) {
      EXPECT_EQ(got.dst_shape, want.dims);
    }
  }
}

}  // namespace
}  // namespace npuconf
