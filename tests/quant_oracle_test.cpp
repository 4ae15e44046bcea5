// oracles/quant against the spec's numbers (spec cann.md §3.7, §4.4; rknn.md
// §7.3, §7.4), independently of reference/.
#include "oracles/quant/quant_oracle.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/float16.h"
#include "core/status.h"

namespace npuconf::oracle::quant {
namespace {

TEST(QuantOracle, GatherSpecTablesAAndB) {
  const std::vector<uint8_t> table = {0, 1, 127, 128, 200, 255, 0, 1, 127, 128, 200, 255};
  const auto y = GatherDequantInt8(table, 2, 6, {0, 1}, {0x2004, HalfBits(Half(0.0025f))},
                                   {0x57F8, HalfBits(Half(100.3f))});
  EXPECT_EQ(y, (std::vector<uint16_t>{0xBC00, 0xBBF0, 0x9C04, 0x1C04, 0x388D, 0x3C00, 0xB403,
                                      0xB3F2, 0x2C45, 0x2C6E, 0x33FA, 0x3631}));
}

TEST(QuantOracle, GenDataSpecTableD) {
  const auto d = GenDataQuantize({-1, 0, 0.5f, 1}, 1, 4);
  EXPECT_EQ(d.table, (std::vector<uint8_t>{0, 128, 191, 255}));
  EXPECT_EQ(d.scale_bits[0], 0x2004);
  EXPECT_EQ(d.zero_point_bits[0], 0x57F8);
  const auto c = GenDataQuantize({0.05f, 0.05f, 0.05f}, 1, 3);
  EXPECT_EQ(c.scale_bits[0], 0x0000);
  EXPECT_EQ(c.zero_point_bits[0], 0xFC00);
  const auto nan = GatherDequantInt8(c.table, 1, 3, {0}, c.scale_bits, c.zero_point_bits);
  EXPECT_TRUE(std::isnan(static_cast<float>(HalfFromBits(nan[0]))));
}

TEST(QuantOracle, NearestHalfRoundsOnce) {
  EXPECT_EQ(NearestHalfBits(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), 0x3C01);
  EXPECT_EQ(NearestHalfBits(1.0 + std::ldexp(1.0, -11)), 0x3C00);  // tie → even
  EXPECT_EQ(NearestHalfBits(-1e-8), 0x8000);
  EXPECT_EQ(NearestHalfBits(-5e6), 0xFC00);
}

// spec rknn.md §7.4 / cann.md §4.4: [1, -1] → 0xF1; [-8, 7, 3, -2] → 0x78, 0xE3.
TEST(QuantOracle, Int4LowNibbleFirst) {
  EXPECT_EQ(EncodeQ({1, -1}, DType::kInt4), (std::vector<uint8_t>{0xF1}));
  EXPECT_EQ(EncodeQ({-8, 7, 3, -2}, DType::kInt4), (std::vector<uint8_t>{0x78, 0xE3}));
  EXPECT_EQ(DecodeQ({0x78, 0xE3}, DType::kInt4, 4), (std::vector<int32_t>{-8, 7, 3, -2}));
  EXPECT_EQ(DecodeQ({0x78, 0xE3}, DType::kInt4, 4, true), (std::vector<int32_t>{7, -8, -2, 3}));
}

// spec rknn.md §5.2 / §7.3: B[70][5] with K=128, N=64, gs=32 uses param 133
// (g·N + n) or 22 (n·(K/gs) + g).
TEST(QuantOracle, RknnGroupOrderBothReadings) {
  EXPECT_EQ(ParamIndexMap(128, 64, 32, 256, true)[70 * 64 + 5], 133);
  EXPECT_EQ(ParamIndexMap(128, 64, 32, 256, false)[70 * 64 + 5], 22);
  EXPECT_EQ(ParamIndexMap(4, 3, 0, 3, true)[2 * 3 + 1], 1);  // per-channel
  EXPECT_EQ(ParamIndexMap(4, 3, 0, 1, true)[11], 0);         // per-tensor
}

TEST(QuantOracle, RknnValidation) {
  RknnCall c;
  c.k = 96;
  c.n = 8;
  c.quant_type = 4;
  c.group_size = 64;
  c.scale_len = c.zp_len = 12;
  EXPECT_EQ(ExpectRknn(c).status, -5);  // §7.3 K=96, gs=64
  c.k = 128;
  c.scale_len = c.zp_len = 16;
  EXPECT_EQ(ExpectRknn(c).status, 0);
  c.any_nonzero_zp = true;
  EXPECT_EQ(ExpectRknn(c).status, -5);  // §5.4
  c.asymmetric = true;
  EXPECT_EQ(ExpectRknn(c).status, 0);
}

// spec cann.md §4.5: RN_I(RN_I(w + offset) · scale); short last group uses its own row.
TEST(QuantOracle, AntiquantShortLastGroup) {
  AntiquantCall c;
  c.npu_arch = "DAV_2201";
  c.soc_supported = true;  // profiles/cann/ascend910b.json
  c.kn_max = 65535;
  c.k = 65;
  c.n = 1;
  c.group_size = 64;
  c.scale_shape = Shape{2, 1};
  ASSERT_EQ(ExpectAntiquant(c).status, cann::kAclnnSuccess);
  const std::vector<uint8_t> w(65, 2);
  const auto y = Antiquant(c, w, {HalfBits(Half(1.0f)), HalfBits(Half(3.0f))}, {});
  EXPECT_EQ(y[63], HalfBits(Half(2.0f)));
  EXPECT_EQ(y[64], HalfBits(Half(6.0f)));
  c.group_size = 48;
  EXPECT_EQ(ExpectAntiquant(c).status, cann::kAclnnErrParamInvalid);
  c.npu_arch = "DAV_1001";
  c.soc_supported = false;  // profiles/cann/ascend910.json
  EXPECT_EQ(ExpectAntiquant(c).status, cann::kAclnnErrRuntimeError);
}

}  // namespace
}  // namespace npuconf::oracle::quant
