// oracles/cann against spec cann.md, independently of reference/.
#include <gtest/gtest.h>

#include "core/profile.h"
#include "core/status.h"
#include "oracles/cann/fractal_nz_oracle.h"
#include "oracles/cann/validation_oracle.h"

namespace npuconf::oracle::cann {
namespace {

TEST(OracleSize, DocumentedExamples) {
  EXPECT_EQ(PaddedWeightElems({510, 510}, 16), 262144);  // §1.7 doc, fp16
  EXPECT_EQ(PaddedWeightElems({510, 270}, 32), 147456);  // §1.7 doc, int8
  EXPECT_EQ(PaddedWeightElems({16, 16, 32, 16}, 16), 131072);
  EXPECT_EQ(PaddedWeightElems({17, 16, 16}, 16), 4352);
  EXPECT_FALSE(PaddedWeightElems({int64_t{1} << 40, int64_t{1} << 40}, 16));
  EXPECT_FALSE(PaddedWeightElems({5}, 16));
}

TEST(OracleSize, AsShippedNegativeReadingFollowsCeilAlign) {
  // §1.5: [16,-1] fp16 → CeilAlign(-1,16) = 0 → 0; [-17,16] → -256 as uint64.
  const CannFacts& facts = *FindProfile("ascend910b")->cann;
  SizeCall call{Shape{16, -1}, false, DType::kFloat16};
  auto e = ExpectV2Size(facts, call, "as_shipped", "param_invalid");
  EXPECT_EQ(e.status, npuconf::cann::kAclnnSuccess);
  EXPECT_EQ(e.size, 0);
  call.shape = Shape{-17, 16};
  e = ExpectLegacySize(facts, call, "as_shipped", "param_invalid");
  EXPECT_EQ(static_cast<uint64_t>(*e.size), 18446744073709551360ull);
  e = ExpectLegacySize(facts, call, "", "");
  EXPECT_TRUE(e.undefined);
}

// The overflow rule (documented with the size routines' output, list routines):
// the running product in dim order; the first partial product past INT64_MAX
// overflows, even when a later dim is 0; a 0 before it keeps the product 0.
TEST(OracleSize, OverflowIsTheRunningProductInDimOrder) {
  const CannFacts& facts = *FindProfile("ascend910b")->cann;
  SizeCall call{Shape{3018119122007453, 192, 1, 0}, false, DType::kFloat16};
  auto e = ExpectLegacySize(facts, call, "param_invalid", "param_invalid");
  EXPECT_EQ(e.status, npuconf::cann::kAclnnErrParamInvalid) << e.rule;
  EXPECT_TRUE(ExpectLegacySize(facts, call, "param_invalid", "unspecified").undefined);
  call.shape = Shape{0, 3018119122007453, 192, 16};
  e = ExpectLegacySize(facts, call, "param_invalid", "param_invalid");
  EXPECT_EQ(e.status, npuconf::cann::kAclnnSuccess);
  EXPECT_EQ(e.size, 0);
}

TEST(OracleValidation, TransCheckOrderOfSpecTable) {
  const CannFacts& b910 = *FindProfile("ascend910b")->cann;
  const CannFacts& b950 = *FindProfile("ascend950")->cann;
  EXPECT_EQ(ExpectTrans(b910, {false, DType::kFloat16, "ND", {16, 16, 16, 16, 16, 16, 32}}).status,
            npuconf::cann::kAclnnErrParamInvalid);  // T4
  EXPECT_EQ(ExpectTrans(b910, {false, DType::kInt8, "FRACTAL_NZ", {16, 32}}).status,
            npuconf::cann::kAclnnErrParamInvalid);  // T5
  EXPECT_EQ(ExpectTrans(b950, {false, DType::kFloat16, "ND", {16, 16, 32}}).status,
            npuconf::cann::kAclnnErrParamInvalid);  // T6
  EXPECT_TRUE(ExpectTrans(b950, {false, DType::kInt8, "ND", {4, 16, 32}}).converts);
  const auto empty = ExpectTrans(b910, {false, DType::kFloat16, "ND", {16, 0}});  // T3
  EXPECT_EQ(empty.status, npuconf::cann::kAclnnSuccess);
  EXPECT_FALSE(empty.converts);
}

TEST(OracleNz, SmallFp16ExampleByHand) {
  // ND [2, 3] fp16 with C0 16: one fractal of 16 × 16; row r at r·16.
  std::vector<uint8_t> nd(12);
  for (int i = 0; i < 6; ++i) nd[2 * i] = static_cast<uint8_t>(i + 1);
  const auto nz = NdToNz(nd, {2, 3}, DType::kFloat16, 16);
  ASSERT_EQ(nz.size(), 16u * 16u * 2u);
  EXPECT_EQ(nz[0], 1);
  EXPECT_EQ(nz[2], 2);
  EXPECT_EQ(nz[4], 3);
  EXPECT_EQ(nz[6], 0);   // padding col 3
  EXPECT_EQ(nz[32], 4);  // row 1 col 0 at element 16
  EXPECT_EQ(nz[36], 6);
  EXPECT_EQ(NzToNd(nz, {2, 3}, DType::kFloat16, 16), nd);
  EXPECT_EQ(NzStorageShape({2, 3}, 16), (Shape{1, 1, 16, 16}));
}

TEST(OracleNz, Int4NibblesFollowTheLinearIndex) {
  const std::vector<uint8_t> nd = {0x21, 0x43, 0x05};  // [2,3] int4: 1,2,3 / 4,5,0
  const auto nz = NdToNz(nd, {2, 3}, DType::kInt4, 64);
  EXPECT_EQ(nz[0], 0x21);
  EXPECT_EQ(nz[1], 0x03);
  EXPECT_EQ(nz[32], 0x54);
  EXPECT_EQ(NzToNd(nz, {2, 3}, DType::kInt4, 64), nd);
}

TEST(OracleNz, PaddingMaskMarksExactlyTheOutOfRangeSlots) {
  const auto mask = NzPaddingMask({17, 33}, 16);
  int64_t padding = 0;
  for (bool m : mask) padding += m;
  EXPECT_EQ(static_cast<int64_t>(mask.size()) - padding, 17 * 33);
}

}  // namespace
}  // namespace npuconf::oracle::cann
