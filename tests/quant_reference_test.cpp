// reference/quant against the numbers spec cann.md §3.7 / §4.3 and spec rknn.md
// §7.3 state, plus the generic dequant/quantize rules (both readings of the
// RKNN per-group order, int4 nibbles, rounding sequences).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "core/float16.h"
#include "core/profile.h"
#include "core/status.h"
#include "reference/quant/cann_antiquant.h"
#include "reference/quant/dequant.h"
#include "reference/quant/gather_dequant_int8.h"
#include "reference/quant/rknn_dequant.h"

namespace npuconf::quant {
namespace {

std::vector<uint16_t> Gather(std::vector<uint8_t> table, int64_t embed, uint16_t zp, uint16_t scale,
                             int64_t* status = nullptr) {
  std::vector<int32_t> idx = {0};
  std::vector<uint16_t> y(table.size()), s = {scale}, z = {zp};
  GatherDequantArgs a{table.data(), 1, embed,    idx.data(), 1, s.data(), 1,
                      z.data(),     1, y.data(), y.size()};
  const int64_t st = GatherDequantInt8(a, nullptr);
  if (status) *status = st;
  return y;
}

// spec cann.md §3.7 A.
TEST(GatherDequantInt8, SpecTableA) {
  EXPECT_EQ(Gather({0, 1, 127, 128, 200, 255}, 6, 0x57F8, 0x2004),
            (std::vector<uint16_t>{0xBC00, 0xBBF0, 0x9C04, 0x1C04, 0x388D, 0x3C00}));
}

// spec cann.md §3.7 B: q = 255 is a tie after the subtraction (154.6875 → 154.75).
TEST(GatherDequantInt8, SpecTableBRoundsAfterTheSubtraction) {
  const uint16_t zp = HalfBits(Half(100.3f)), s = HalfBits(Half(0.0025f));
  EXPECT_EQ(zp, HalfBits(Half(100.3125f)));
  EXPECT_EQ(Gather({0, 1, 127, 128, 200, 255}, 6, zp, s),
            (std::vector<uint16_t>{0xB403, 0xB3F2, 0x2C45, 0x2C6E, 0x33FA, 0x3631}));
}

TEST(GatherDequantInt8, ZeroPointZeroScaleOneIsIdentity) {
  EXPECT_EQ(Gather({0, 128, 255}, 3, 0x0000, 0x3C00),
            (std::vector<uint16_t>{0x0000, 0x5800, 0x5BF8}));
}

TEST(GatherDequantInt8, LookupPathEqualsDirectPath) {
  std::vector<uint8_t> row(512);
  for (size_t i = 0; i < row.size(); ++i) row[i] = static_cast<uint8_t>(i * 37);
  const auto long_row = Gather(row, 512, 0x57F8, 0x2004);  // E ≥ 256: 256-entry table
  for (size_t e = 0; e < row.size(); ++e) {
    EXPECT_EQ(long_row[e], Gather({row[e]}, 1, 0x57F8, 0x2004)[0]) << e;
  }
}

TEST(GatherDequantInt8, RejectsIndexOutsideVocab) {
  std::vector<uint8_t> table(4, 1);
  std::vector<uint16_t> s = {0x3C00, 0x3C00}, z = {0, 0}, y(4, 0xCDCD);
  for (int32_t bad : {-1, 2, INT32_MAX}) {
    std::vector<int32_t> idx = {0, bad};
    GatherDequantArgs a{table.data(), 2, 2,        idx.data(), 2, s.data(), 2,
                        z.data(),     2, y.data(), y.size()};
    EXPECT_EQ(GatherDequantInt8(a, nullptr), cann::kAclnnErrParamInvalid) << bad;
    EXPECT_EQ(y, std::vector<uint16_t>(4, 0xCDCD));
  }
}

TEST(GatherDequantInt8, RankZeroIndicesGiveOneRow) {
  std::vector<uint8_t> table = {1, 2, 3, 4, 5, 6};
  std::vector<int32_t> idx = {1};
  std::vector<uint16_t> s = {0x3C00, 0x4000}, z = {0, 0}, y(3);
  GatherDequantArgs a{table.data(), 2, 3,        idx.data(), 1, s.data(), 2,
                      z.data(),     2, y.data(), y.size()};
  ASSERT_EQ(GatherDequantInt8(a, nullptr), cann::kAclnnSuccess);
  EXPECT_EQ(y, (std::vector<uint16_t>{HalfBits(Half(8.0f)), HalfBits(Half(10.0f)),
                                      HalfBits(Half(12.0f))}));
}

// spec cann.md §3.7 D, the gen_data.py quantizer.
TEST(GenDataQuantize, SpecTableD) {
  std::vector<uint8_t> q(4);
  uint16_t s = 0, z = 0;
  const std::vector<float> row1 = {-1, 0, 0.5f, 1};
  ASSERT_EQ(GenDataQuantize(row1.data(), 1, 4, q.data(), &s, &z, nullptr), cann::kAclnnSuccess);
  EXPECT_EQ(q, (std::vector<uint8_t>{0, 128, 191, 255}));  // 127.5 ties to 128
  EXPECT_EQ(s, 0x2004);
  EXPECT_EQ(z, 0x57F8);
  const std::vector<float> constant = {0.05f, 0.05f, 0.05f};
  ASSERT_EQ(GenDataQuantize(constant.data(), 1, 3, q.data(), &s, &z, nullptr), cann::kAclnnSuccess);
  EXPECT_EQ(s, 0x0000);  // 1e-8 underflows fp16
  EXPECT_EQ(z, 0xFC00);  // -5e6 → -inf
  EXPECT_TRUE(
      std::isnan(static_cast<float>(HalfFromBits(Gather({q[0]}, 1, z, s)[0]))));  // (0 + inf)·0
  const std::vector<float> zeros = {0, 0};
  ASSERT_EQ(GenDataQuantize(zeros.data(), 1, 2, q.data(), &s, &z, nullptr), cann::kAclnnSuccess);
  EXPECT_EQ(z, 0x8000);  // -0.0
  EXPECT_EQ(Gather({q[0], q[1]}, 2, z, s), (std::vector<uint16_t>{0x0000, 0x0000}));
}

TEST(HalfBitsFromDouble, RoundsOnceNotTwice) {
  // 1 + 2^-11 + 2^-40: above the fp16 midpoint, so it rounds up; through float
  // the 2^-40 is lost first and the tie rounds to even (down).
  const double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  EXPECT_EQ(HalfBitsFromDouble(x), 0x3C01);
  EXPECT_EQ(HalfBits(Half(static_cast<float>(x))), 0x3C00);
  EXPECT_EQ(HalfBitsFromDouble(65519.0), 0x7BFF);
  EXPECT_EQ(HalfBitsFromDouble(65520.0), 0x7C00);
  EXPECT_EQ(HalfBitsFromDouble(std::ldexp(1.0, -25)), 0x0000);  // tie to even: 0
  EXPECT_EQ(HalfBitsFromDouble(std::ldexp(1.5, -25)), 0x0001);
}

// ---- antiquant (spec cann.md §4) ----------------------------------------------------

// The SoC facts (arch gate, k/n limits) come from the profile, as in a run.
int64_t Antiquant(const char* profile_name, int64_t k, int64_t gs, Shape scale_shape,
                  DType weight = DType::kInt8) {
  const Profile& profile = *FindProfile(profile_name);
  const int64_t n = 16;
  std::vector<uint8_t> w(static_cast<size_t>(k * n), 1);
  std::vector<uint16_t> s(64, 0x3C00), y(static_cast<size_t>(k * n));
  AntiquantArgs a;
  a.npu_arch = profile.cann->npu_arch;
  a.soc_supported = profile.cann->antiquant_supported;
  a.kn_max = profile.cann->antiquant_kn_max;
  a.weight_dtype = weight;
  a.k = k;
  a.n = n;
  a.weight = w.data();
  a.weight_bytes = w.size();
  a.scale_shape = scale_shape;
  a.scale_bits = s.data();
  a.group_size = gs;
  a.y = y.data();
  a.y_capacity_elems = y.size();
  return CannAntiquant(a, nullptr);
}

// spec cann.md §4.3 examples.
TEST(CannAntiquant, GroupSizeExamples) {
  EXPECT_EQ(Antiquant("ascend910b", 64, 32, {2, 16}), cann::kAclnnSuccess);
  EXPECT_EQ(Antiquant("ascend910b", 64, 64, {1, 16}), cann::kAclnnErrParamInvalid);  // gs == k
  EXPECT_EQ(Antiquant("ascend910b", 65, 64, {2, 16}), cann::kAclnnSuccess);
  EXPECT_EQ(Antiquant("ascend910b", 65, 48, {2, 16}), cann::kAclnnErrParamInvalid);
  EXPECT_EQ(Antiquant("ascend910b", 65, -32, {2, 16}), cann::kAclnnErrParamInvalid);
}

TEST(CannAntiquant, ArchGateFirst) {
  EXPECT_EQ(Antiquant("ascend910", 64, 48, {2, 16}), cann::kAclnnErrRuntimeError);
  EXPECT_EQ(Antiquant("ascend310b", 64, 32, {2, 16}), cann::kAclnnErrRuntimeError);
  EXPECT_EQ(Antiquant("ascend310p", 64, 32, {2, 16}), cann::kAclnnSuccess);
}

TEST(CannAntiquant, ScaleShapes) {
  EXPECT_EQ(Antiquant("ascend950", 64, 0, {1}), cann::kAclnnSuccess);
  EXPECT_EQ(Antiquant("ascend950", 64, 0, {1, 1}), cann::kAclnnSuccess);
  EXPECT_EQ(Antiquant("ascend950", 64, 0, {1, 16}), cann::kAclnnSuccess);
  EXPECT_EQ(Antiquant("ascend950", 64, 0, {16}), cann::kAclnnSuccess);
  EXPECT_EQ(Antiquant("ascend950", 64, 0, {16, 1}),
            cann::kAclnnErrParamInvalid);  // the 310P doc's shape
  EXPECT_EQ(Antiquant("ascend950", 64, 32, {16}), cann::kAclnnErrParamInvalid);
}

// (w + offset) · scale with RN_I after each op; offset is added (§4.1), int4 low
// nibble first and two's complement (§4.4).
TEST(CannAntiquant, OffsetIsAddedInt4LowNibbleFirst) {
  std::vector<uint8_t> w = {0xF1, 0x78};  // [1, -1, -8, 7]
  std::vector<uint16_t> s = {HalfBits(Half(0.5f))}, o = {HalfBits(Half(3.0f))}, y(4);
  AntiquantArgs a;
  a.npu_arch = "DAV_2201";
  a.soc_supported = true;  // profiles/cann/ascend910b.json
  a.kn_max = 65535;
  a.weight_dtype = DType::kInt4;
  a.k = 1;
  a.n = 4;
  a.weight = w.data();
  a.weight_bytes = w.size();
  a.scale_shape = Shape{1};
  a.scale_bits = s.data();
  a.offset_shape = Shape{1};
  a.offset_bits = o.data();
  a.y = y.data();
  a.y_capacity_elems = 4;
  ASSERT_EQ(CannAntiquant(a, nullptr), cann::kAclnnSuccess);
  std::vector<float> got;
  for (uint16_t b : y) got.push_back(static_cast<float>(HalfFromBits(b)));
  EXPECT_EQ(got, (std::vector<float>{2.0f, 1.0f, -2.5f, 5.0f}));
}

// ---- RKNN B (spec rknn.md §5, §7.3) ------------------------------------------------

int64_t Rknn(int64_t k, int64_t n, RknnQuantType type, int64_t gs, int64_t scale_len,
             int32_t zp_value, bool channel_major, std::vector<float>* y_out = nullptr,
             bool asymmetric = false) {
  std::vector<uint8_t> b(static_cast<size_t>(k * n), 1);
  std::vector<float> s(static_cast<size_t>(std::max<int64_t>(scale_len, 1)));
  for (size_t i = 0; i < s.size(); ++i) s[i] = static_cast<float>(i + 1);
  std::vector<int32_t> zp(s.size(), 0);
  zp[0] = zp_value;
  std::vector<float> y(static_cast<size_t>(k * n));
  RknnDequantArgs a;
  a.k = k;
  a.n = n;
  a.b = b.data();
  a.b_bytes = b.size();
  a.quant_type = type;
  a.group_size = gs;
  a.channel_major_groups = channel_major;
  a.asymmetric = asymmetric;
  a.scale = s.data();
  a.scale_len = scale_len;
  a.zp = zp.data();
  a.zp_len = scale_len;
  a.y = y.data();
  a.y_capacity_elems = y.size();
  const int64_t status = RknnDequantB(a, nullptr);
  if (y_out) *y_out = y;
  return status;
}

TEST(RknnDequantB, PerGroupLengthAndIndexBothOrders) {
  std::vector<float> y;
  EXPECT_EQ(Rknn(128, 64, RknnQuantType::kPerGroup, 32, 255, 0, false), kRknnErrParamInvalid);
  ASSERT_EQ(Rknn(128, 64, RknnQuantType::kPerGroup, 32, 256, 0, false, &y), kRknnSuccess);
  EXPECT_EQ(y[70 * 64 + 5], 134.0f);  // param 133 = g·N + n (DEMO order)
  ASSERT_EQ(Rknn(128, 64, RknnQuantType::kPerGroup, 32, 256, 0, true, &y), kRknnSuccess);
  EXPECT_EQ(y[70 * 64 + 5], 23.0f);  // param 22 = n·(K/gs) + g (alternative reading)
}

TEST(RknnDequantB, RuntimeRestrictions) {
  EXPECT_EQ(Rknn(96, 8, RknnQuantType::kPerGroup, 64, 12, 0, false),
            kRknnErrParamInvalid);                                                        // K % gs
  EXPECT_EQ(Rknn(8, 8, RknnQuantType::kPerLayer, 0, 1, 1, false), kRknnErrParamInvalid);  // zp != 0
  std::vector<float> y;
  ASSERT_EQ(Rknn(8, 8, RknnQuantType::kPerLayer, 0, 1, 1, false, &y, true), kRknnSuccess);
  EXPECT_EQ(y[0], 0.0f);  // (1 − 1)·1 under the asymmetric reading
  EXPECT_EQ(Rknn(8, 8, RknnQuantType::kPerLayer, 0, 0, 0, false),
            kRknnErrParamInvalid);  // scale_len 0
  EXPECT_EQ(Rknn(8, 8, RknnQuantType::kPerChannel, 0, 7, 0, false), kRknnErrParamInvalid);
}

// ---- generic ------------------------------------------------------------------------

TEST(Quantize, InverseOfDequantWithinHalfAScale) {
  QuantGeometry g{6, 5, Granularity::kPerGroup, 4, GroupOrder::kGroupMajor};
  std::vector<float> x(30);
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::sin(static_cast<float>(i)) * (1.0f + i % 3);
  for (QType qt : {QType::kInt8, QType::kInt4}) {
    std::vector<float> s(static_cast<size_t>(g.ParamCount())), z(s.size());
    ASSERT_TRUE(ChooseParams(x.data(), g, qt, true, s.data(), z.data()));
    std::vector<uint8_t> q(30);
    ASSERT_TRUE(Quantize(x.data(), g, s.data(), nullptr, qt, NibbleOrder::kLowFirst, q.data()));
    DequantArgs d;
    d.q = q.data();
    d.qtype = qt;
    d.geometry = g;
    d.scale = s.data();
    d.rounding = Rounding::kFp32Once;
    d.out_type = OutType::kFloat;
    std::vector<float> y(30);
    ASSERT_TRUE(Dequantize(d, y.data()));
    for (size_t i = 0; i < x.size(); ++i) {
      const int64_t p = static_cast<int64_t>(i / 5 / 4 * 5 + i % 5);
      EXPECT_LE(std::fabs(y[i] - x[i]), s[p] / 2 * (1 + 1e-6)) << i;
    }
  }
}

TEST(Dequantize, PerStepDiffersFromOneRoundingOnSpecTableB) {
  const uint8_t q = 255;
  Half per_step, once;
  const float zp = 100.3125f, s = static_cast<float>(Half(0.0025f));
  DequantRow(&q, QType::kUint8, NibbleOrder::kLowFirst, 0, 1, s, zp, Rounding::kPerStep, &per_step);
  DequantRow(&q, QType::kUint8, NibbleOrder::kLowFirst, 0, 1, s, zp, Rounding::kFp32Once, &once);
  EXPECT_EQ(HalfBits(per_step), 0x3631);
  EXPECT_EQ(HalfBits(once), 0x3630);  // spec cann.md §3.7 B: "without the intermediate rounding"
}

}  // namespace
}  // namespace npuconf::quant
