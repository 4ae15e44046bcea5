// The RKNN NC1HWC2 facts, reference and oracle (spec layouts.md Part B) against
// the spec's numbers, a third statement of the index map, and each other; the
// family's run on the reference port.
#include <gtest/gtest.h>

#include <cstring>

#include "conformance/rknn_native/support.h"
#include "core/prng.h"
#include "core/profile.h"
#include "oracles/rknn_native/nc1hwc2_oracle.h"
#include "oracles/rknn_native/nhwc_stride_oracle.h"
#include "reference/rknn_native/nc1hwc2.h"
#include "reference/rknn_native/nhwc_stride.h"
#include "test_util.h"

namespace npuconf {
namespace {

namespace orc = oracle::rknn_native;
using testing::ReadJson;
using testing::RunNpuconf;
using testing::TempDir;

const RknnFacts& Facts(const char* profile) { return *FindProfile(profile)->rknn; }

std::vector<uint8_t> Random(uint64_t seed, size_t n) {
  std::vector<uint8_t> out(n);
  FillRandomBytes(seed, out.data(), n);
  return out;
}

// spec layouts.md §B.2, RK-UG V1.5.2 Table 4-6.
TEST(Nc1hwc2Facts, C2PerPlatformAndDtypeIsTable4_6) {
  const std::map<DType, int64_t> rk3566 = {
      {DType::kInt8, 8}, {DType::kFloat16, 4}, {DType::kInt16, 4}};
  const std::map<DType, int64_t> others = {
      {DType::kInt8, 16}, {DType::kFloat16, 8}, {DType::kInt16, 8}};
  EXPECT_EQ(Facts("rk3566_rk3568").nc1hwc2_c2, rk3566);
  for (const char* p : {"rk3588", "rk3588_sdk1_6", "rk3562"})
    EXPECT_EQ(Facts(p).nc1hwc2_c2, others) << p;
}

TEST(Nc1hwc2Facts, PlatformsWithoutPublicC2AreNotCovered) {
  EXPECT_TRUE(Facts("rk3576").nc1hwc2_c2.empty());
  EXPECT_TRUE(Facts("rv1126b").nc1hwc2_c2.empty());
  EXPECT_FALSE(rknn_native_props::NotCovered(*FindProfile("rk3576")).empty());
  EXPECT_TRUE(rknn_native_props::NotCovered(*FindProfile("rk3588")).empty());
}

TEST(Nc1hwc2Facts, SizeWithStrideReadingIsAChoiceWithSources) {
  const Profile& rk3588 = *FindProfile("rk3588");
  const Choice* c = rk3588.FindChoice("rknn.native_io.size_with_stride");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->value, "w_aligned");
  EXPECT_TRUE(c->contradicted.count("unpadded_w"));
  EXPECT_EQ(Facts("rk3588").output_w_align, 16);
  for (const char* p : {"rk3562", "rk3566_rk3568", "rk3576"}) {
    const Choice* other = FindProfile(p)->FindChoice("rknn.native_io.size_with_stride");
    ASSERT_NE(other, nullptr) << p;
    EXPECT_EQ(other->value, "unpadded_w") << p;
    EXPECT_TRUE(other->cannot_check.count("w_aligned")) << p;
    ASSERT_NE(FindProfile(p)->FindChoice("rknn.native_io.pad_lanes"), nullptr) << p;
  }
}

// RK-UG example (§B.2): NHWC 1x1x1x32 int8 on RK3566 -> native 1x4x1x1x8.
TEST(Nc1hwc2Layout, UgExampleDims) {
  EXPECT_EQ(orc::NativeDims({1, 1, 1, 32}, true, 8), (Shape{1, 4, 1, 1, 8}));
  auto g = rknn_native::Nc1hwc2GeometryFor(1, 32, 1, 1, 8, 1);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->native_dims, (Shape{1, 4, 1, 1, 8}));
}

// The §B.2 map written out: (n,c,h,w) -> (((n·C1 + c div C2)·H + h)·W + w)·C2 + c mod C2.
int64_t NativeIndex(int64_t n, int64_t c, int64_t h, int64_t w, int64_t C, int64_t H, int64_t W,
                    int64_t c2) {
  const int64_t c1s = (C + c2 - 1) / c2;
  return (((n * c1s + c / c2) * H + h) * W + w) * c2 + c % c2;
}

struct LayoutRow {
  int64_t n, c, h, w, c2, elem;
};
const LayoutRow kRows[] = {{1, 1, 1, 1, 16, 1},   {1, 15, 3, 5, 16, 1}, {2, 17, 2, 7, 16, 1},
                           {1, 16, 4, 4, 8, 2},   {3, 9, 1, 1, 8, 2},   {1, 7, 5, 3, 4, 2},
                           {1, 255, 4, 4, 16, 1}, {2, 33, 3, 2, 8, 1}};

TEST(Nc1hwc2Layout, ReferenceOracleAndIndexMapAgreeBothWays) {
  uint64_t seed = 1;
  for (const auto& r : kRows) {
    auto g = rknn_native::Nc1hwc2GeometryFor(r.n, r.c, r.h, r.w, r.c2, r.elem);
    ASSERT_TRUE(g);
    for (bool nhwc : {false, true}) {
      const Shape logical = nhwc ? Shape{r.n, r.h, r.w, r.c} : Shape{r.n, r.c, r.h, r.w};
      const auto plain = Random(seed++, g->plain_bytes);
      std::vector<uint8_t> native(g->native_bytes, 0xEE);
      nhwc ? rknn_native::NhwcToNc1hwc2(plain.data(), native.data(), *g)
           : rknn_native::NchwToNc1hwc2(plain.data(), native.data(), *g);
      const auto want = orc::ToNative(plain, logical, nhwc, r.c2, static_cast<int>(r.elem));
      ASSERT_EQ(native, want) << "n" << r.n << " c" << r.c << " h" << r.h << " w" << r.w
                              << (nhwc ? " NHWC" : " NCHW");
      for (int64_t n = 0; n < r.n; ++n)
        for (int64_t c = 0; c < r.c; ++c)
          for (int64_t h = 0; h < r.h; ++h)
            for (int64_t w = 0; w < r.w; ++w) {
              const int64_t p =
                  nhwc ? ((n * r.h + h) * r.w + w) * r.c + c : ((n * r.c + c) * r.h + h) * r.w + w;
              const int64_t q = NativeIndex(n, c, h, w, r.c, r.h, r.w, r.c2);
              ASSERT_EQ(0, std::memcmp(&plain[p * r.elem], &want[q * r.elem], r.elem));
              ASSERT_FALSE(orc::IsPadLane(logical, nhwc, r.c2, q));
            }
      // Back, from a native input whose pad lanes are random: they are ignored.
      const auto noisy = Random(seed++, g->native_bytes);
      std::vector<uint8_t> back(g->plain_bytes);
      nhwc ? rknn_native::Nc1hwc2ToNhwc(noisy.data(), back.data(), *g)
           : rknn_native::Nc1hwc2ToNchw(noisy.data(), back.data(), *g);
      EXPECT_EQ(back, orc::ToPlain(noisy, logical, nhwc, r.c2, static_cast<int>(r.elem)));
      std::vector<uint8_t> round(g->plain_bytes);
      nhwc ? rknn_native::Nc1hwc2ToNhwc(native.data(), round.data(), *g)
           : rknn_native::Nc1hwc2ToNchw(native.data(), round.data(), *g);
      EXPECT_EQ(round, plain);
    }
  }
}

TEST(Nc1hwc2Layout, StorageMapPaddingIsThePadLanes) {
  for (const auto& r : kRows) {
    const Shape logical{r.n, r.c, r.h, r.w};
    const rknn_native_props::Nc1hwc2Map map(logical, false, r.c2);
    ASSERT_EQ(map.elements(), orc::NativeElems(logical, false, r.c2));
    int64_t data = 0;
    for (int64_t e = 0; e < map.elements(); ++e) {
      EXPECT_EQ(map.Locate(e).padding, orc::IsPadLane(logical, false, r.c2, e)) << e;
      data += !map.Locate(e).padding;
    }
    EXPECT_EQ(data, r.n * r.c * r.h * r.w);
  }
}

TEST(Nc1hwc2Layout, GeometryRejectsBadShapes) {
  EXPECT_FALSE(rknn_native::Nc1hwc2GeometryFor(1, 0, 1, 1, 16, 1));
  EXPECT_FALSE(rknn_native::Nc1hwc2GeometryFor(1, 1, -1, 1, 16, 1));
  EXPECT_FALSE(rknn_native::Nc1hwc2GeometryFor(1, 1, 1, 1, 16, 3));
  EXPECT_FALSE(rknn_native::Nc1hwc2GeometryFor(int64_t{1} << 40, 1 << 20, 1 << 10, 1, 16, 2));
}

// §B.1, §B.5: real = (float)(q - zp) * scale.
TEST(Nc1hwc2Dequant, ReferenceMatchesOracleBitForBit) {
  uint64_t seed = 9;
  for (const auto& r : kRows) {
    if (r.elem != 1) continue;
    auto g = rknn_native::Nc1hwc2GeometryFor(r.n, r.c, r.h, r.w, r.c2, 1);
    for (auto [zp, scale] : {std::pair<int32_t, float>{0, 0.125f},
                             {-128, 1.0f / 3.0f},
                             {127, 0.1f},
                             {-17, 0.00392156862745098f}}) {
      const auto q = Random(seed++, g->native_bytes);
      std::vector<float> y(static_cast<size_t>(g->plain_elems));
      rknn_native::Nc1hwc2Int8ToNchwFloat(reinterpret_cast<const int8_t*>(q.data()), y.data(), *g,
                                          scale, zp);
      const auto want = orc::DequantToNchw(q, {r.n, r.c, r.h, r.w}, r.c2, scale, zp);
      ASSERT_EQ(want.size(), y.size() * 4);
      EXPECT_EQ(0, std::memcmp(want.data(), y.data(), want.size())) << "zp " << zp;
    }
  }
}

TEST(Nc1hwc2Dequant, SpecValues) {
  // [1, 1, 1, 2] int8 with C2 16: lanes 0 and 1 of pixels 0 and 1.
  std::vector<uint8_t> q(32, 0);
  q[0] = static_cast<uint8_t>(int8_t{-128});
  q[16] = 127;
  const auto y = orc::DequantToNchw(q, {1, 1, 1, 2}, 16, 0.5f, -128);
  float v[2];
  std::memcpy(v, y.data(), sizeof(v));
  EXPECT_EQ(v[0], 0.0f);    // (-128 - -128) * 0.5
  EXPECT_EQ(v[1], 127.5f);  // (127 + 128) * 0.5
}

// The family on the reference port: every property passes where C2 is public,
// and RK3576 / RV1126B are not covered, never checked against a guess.
TEST(Nc1hwc2Family, ReferenceConformsAndUnpublishedPlatformsAreNotCovered) {
  TempDir dir("nc1hwc2");
  const auto run =
      RunNpuconf("run --quiet --jobs 1 --cases 20 --routine 'rknn.n*c*' --out " + dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto report = ReadJson(dir.path() + "/report.json");
  int checked = 0;
  for (const auto& r : report.at("results")) {
    const std::string profile = r.at("profile");
    const std::string outcome = r.at("result");
    if (profile == "rk3576" || profile == "rv1126b") {
      EXPECT_EQ(outcome, "not_covered") << r.at("property");
    } else {
      EXPECT_TRUE(outcome == "pass" || outcome == "not_applicable")
          << r.at("property") << " " << profile;
      checked += outcome == "pass";
    }
  }
  EXPECT_GE(checked, 4 * 22 - 4);
}

// ---- the zero-copy NHWC input rows (spec layouts.md §B.1, §B.4) ----------------------

// The log row of §B.4: [1,640,640,3] int8, w_stride 640, size_with_stride 1228800.
TEST(NhwcStride, SizesOfTheLogRow) {
  const auto g = rknn_native::StrideGeometryFor(1, 640, 640, 3, 640, 1);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->size_with_stride, 1228800u);
  EXPECT_EQ(g->plain_bytes, 1228800u);
  EXPECT_EQ(orc::StridedElems({1, 640, 640, 3}, 640), 1228800);
}

// rknn_api.h: w_stride 0 "means equal to width" (§B.1); the rows then follow
// each other. A w_stride below W, a dim < 1, an element size other than 1 or 2,
// or an overflowing size is no geometry.
TEST(NhwcStride, GeometryOfEdges) {
  const auto zero = rknn_native::StrideGeometryFor(2, 3, 5, 4, 0, 1);
  ASSERT_TRUE(zero);
  EXPECT_EQ(zero->w_stride, 5);
  EXPECT_EQ(zero->size_with_stride, zero->plain_bytes);
  EXPECT_EQ(orc::StoredWidth({2, 3, 5, 4}, 0), 5);
  const auto wide = rknn_native::StrideGeometryFor(2, 3, 5, 3, 16, 2);
  ASSERT_TRUE(wide);
  EXPECT_EQ(wide->row_bytes, 5u * 3 * 2);
  EXPECT_EQ(wide->stride_bytes, 16u * 3 * 2);
  EXPECT_EQ(wide->size_with_stride, 2u * 3 * 16 * 3 * 2);
  EXPECT_EQ(orc::StridedDims({2, 3, 5, 3}, 16), (Shape{2, 3, 16, 3}));
  EXPECT_FALSE(rknn_native::StrideGeometryFor(1, 3, 5, 3, 4, 1));
  EXPECT_FALSE(rknn_native::StrideGeometryFor(1, 3, 5, 3, -1, 1));
  EXPECT_FALSE(rknn_native::StrideGeometryFor(0, 3, 5, 3, 8, 1));
  EXPECT_FALSE(rknn_native::StrideGeometryFor(1, 3, 5, 3, 8, 4));
  EXPECT_FALSE(rknn_native::StrideGeometryFor(int64_t{1} << 40, int64_t{1} << 20, 5, 3, 8, 1));
}

// The reference's rows equal the oracle's padded tensor on every real pixel
// (the fill pixels w >= W are unspecified and stay as the buffer was), N > 1
// included (RK-ZOO deeplabv3.cc's batch loop), w_stride == W (one memcpy) too.
TEST(NhwcStride, ReferenceMatchesTheOracleOnEveryRealPixel) {
  struct Row {
    int64_t n, h, w, c, w_stride, elem;
  };
  const Row rows[] = {{1, 1, 1, 1, 0, 1},    {1, 4, 7, 3, 16, 1},  {3, 5, 9, 4, 16, 1},
                      {2, 3, 8, 1, 8, 1},    {2, 6, 13, 3, 13, 2}, {4, 2, 17, 3, 32, 2},
                      {1, 7, 640, 3, 640, 1}};
  uint64_t seed = 40;
  for (const Row& r : rows) {
    const auto g = rknn_native::StrideGeometryFor(r.n, r.h, r.w, r.c, r.w_stride, r.elem);
    ASSERT_TRUE(g);
    const Shape shape = {r.n, r.h, r.w, r.c};
    const auto src = Random(seed++, g->plain_bytes);
    std::vector<uint8_t> dst(g->size_with_stride, 0xC3);
    rknn_native::PackNhwcRows(src.data(), dst.data(), *g);
    const auto want = orc::PadRowsToStride(src, shape, r.w_stride, static_cast<int>(r.elem));
    ASSERT_EQ(want.size(), dst.size());
    const int64_t stored = orc::StoredWidth(shape, r.w_stride);
    for (int64_t row = 0; row < r.n * r.h; ++row) {
      for (int64_t x = 0; x < stored; ++x) {
        const size_t at = static_cast<size_t>((row * stored + x) * r.c * r.elem);
        const size_t bytes = static_cast<size_t>(r.c * r.elem);
        if (x < r.w) {
          ASSERT_EQ(0, std::memcmp(&dst[at], &want[at], bytes))
              << "row " << row << " pixel " << x << " of n" << r.n << " h" << r.h << " w" << r.w;
        } else {
          for (size_t b = 0; b < bytes; ++b) ASSERT_EQ(dst[at + b], 0xC3) << "fill pixel written";
        }
      }
    }
  }
}

}  // namespace
}  // namespace npuconf
