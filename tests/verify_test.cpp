// The verifier: compare modes, structured mismatches and what they say about
// the held value; and the CANN storage map agreeing with the oracle's padding.
#include <gtest/gtest.h>

#include "conformance/cann/nz_map.h"
#include "core/buffer.h"
#include "oracles/cann/fractal_nz_oracle.h"
#include "verify/compare.h"

namespace npuconf::verify {
namespace {

Comparison CompareBytes(const Bytes& got, const Bytes& want, DType dtype, int64_t count,
                        CompareMode mode = {}, const StorageMap* map = nullptr) {
  return Compare({.output = "y",
                  .got = got,
                  .want = want,
                  .codec = {dtype, false},
                  .count = count,
                  .mode = mode,
                  .map = map});
}

TEST(Verify, ExactFindsEveryDifferenceAndReportsTheFirst) {
  const Bytes want = {1, 2, 3, 4, 5, 6};
  const Bytes got = {1, 2, 9, 4, 5, 7};
  const Comparison c = CompareBytes(got, want, DType::kUint8, 6);
  EXPECT_EQ(c.compared, 6);
  EXPECT_EQ(c.mismatches, 2);
  ASSERT_EQ(c.first.size(), 2u);
  EXPECT_EQ(c.first[0].storage_index, 2);
  EXPECT_EQ(c.first[0].actual, 9u);
  EXPECT_EQ(c.first[0].expected, 3u);
  EXPECT_TRUE(CompareBytes(want, want, DType::kUint8, 6).ok());
}

TEST(Verify, NanPayloadsAgreeOnlyWhereTheModeSaysSo) {
  const uint64_t quiet = 0x7E00, other_payload = 0x7E01, inf = 0x7C00;
  EXPECT_FALSE(Agree(quiet, other_payload, DType::kFloat16, CompareMode::Exact()));
  EXPECT_TRUE(Agree(quiet, other_payload, DType::kFloat16, CompareMode::ExactNanAnyPayload()));
  EXPECT_FALSE(Agree(quiet, inf, DType::kFloat16, CompareMode::ExactNanAnyPayload()));
  EXPECT_FALSE(Agree(0x3C00, 0x3C01, DType::kFloat16, CompareMode::ExactNanAnyPayload()));
  EXPECT_FALSE(Agree(0x7FC00000, 0x7F800000, DType::kFloat, CompareMode::ExactNanAnyPayload()));
}

TEST(Verify, UlpCountsAcrossZeroAndRefusesInfinities) {
  const CompareMode one = CompareMode::Ulp(1);
  EXPECT_TRUE(Agree(0x3C00, 0x3C01, DType::kFloat16, one));
  EXPECT_FALSE(Agree(0x3C00, 0x3C02, DType::kFloat16, one));
  EXPECT_TRUE(Agree(0x0001, 0x8000, DType::kFloat16, one));  // smallest subnormal vs -0
  EXPECT_FALSE(Agree(0x7C00, 0x7BFF, DType::kFloat16, CompareMode::Ulp(0)));
  EXPECT_TRUE(Agree(0x7C00, 0x7BFF, DType::kFloat16, one));  // inf is one step past the max finite
  EXPECT_FALSE(
      Agree(5, 6, DType::kInt32, CompareMode::Ulp(5)));  // integers are exact whatever the mode
}

TEST(Verify, SaysWhenAnElementHoldsTheRunnersFill) {
  Bytes got(8, 0);
  got[2] = kSentinelByte;
  got[3] = kSentinelByte;
  const Comparison c = CompareBytes(got, Bytes(8, 0), DType::kFloat16, 4);
  ASSERT_EQ(c.mismatches, 1);
  EXPECT_TRUE(c.first[0].unwritten);
  EXPECT_NE(c.first[0].meaning.find("runner's fill: the port never wrote"), std::string::npos)
      << c.first[0].meaning;
}

TEST(Verify, SaysWhenTheNibblesAreSwapped) {
  // Elements 0..3 = 1, 2, 3, 4, low nibble first; the port wrote them high first.
  const Bytes want = {0x21, 0x43};
  const Bytes got = {0x12, 0x34};
  const Comparison c = CompareBytes(got, want, DType::kInt4, 4);
  EXPECT_EQ(c.mismatches, 4);
  EXPECT_NE(c.first[0].meaning.find("nibble order is swapped"), std::string::npos)
      << c.first[0].meaning;
}

TEST(Verify, SaysWhenTheValueSitsInANeighbouringBlock) {
  // FRACTAL_NZ [16, 32] FLOAT16, C0 16: two blocks of 256; the port wrote them swapped.
  const Shape nd = {16, 32};
  cann_props::NzStorageMap map(nd, 16);
  Bytes want(1024);
  for (size_t i = 0; i < want.size(); ++i) want[i] = static_cast<uint8_t>(i * 7 + i / 256);
  Bytes got(want.begin() + 512, want.end());
  got.insert(got.end(), want.begin(), want.begin() + 512);
  const Comparison c = CompareBytes(got, want, DType::kFloat16, 512, {}, &map);
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.first[0].meaning.find(
                "the same place in the neighbouring C1 block (C1 block 1; this element is in C1 "
                "block 0)"),
            std::string::npos)
      << c.first[0].meaning;
  EXPECT_EQ(c.block_mismatches, (std::vector<int64_t>{256, 256}));
  EXPECT_EQ(c.first[0].place.block[0].axis, "C1 block");
  EXPECT_EQ(
      c.first[0].Text(DType::kFloat16, map.logical_name()).substr(0, 88),
      "y element 0 (C1 block 0 of 2, N1 block 0 of 1; row 0 of 16, col 0 of 16 = ND [n 0, k 0])");
}

TEST(Verify, OnlyPaddingOrOnlyDataSelectsByPlace) {
  const Shape nd = {1, 1};  // one element, 255 of padding (C0 16)
  cann_props::NzStorageMap map(nd, 16);
  Bytes got(512, 1), zeros(512, 0);
  auto padding = Compare({.output = "nz",
                          .got = got,
                          .want = zeros,
                          .codec = {DType::kFloat16, false},
                          .count = 256,
                          .map = &map,
                          .only = CompareRequest::Only::kPadding});
  EXPECT_EQ(padding.compared, 255);
  EXPECT_EQ(padding.mismatches, 255);
  EXPECT_TRUE(padding.first[0].place.padding);
  auto data = Compare({.output = "nz",
                       .got = got,
                       .want = zeros,
                       .codec = {DType::kFloat16, false},
                       .count = 256,
                       .map = &map,
                       .only = CompareRequest::Only::kData});
  EXPECT_EQ(data.compared, 1);
}

TEST(Verify, GuardMismatchSaysHowFarAndWhichSide) {
  EXPECT_NE(GuardMismatch("nz", 1030, 1024).meaning.find("guard byte 6 past the end"),
            std::string::npos);
  EXPECT_NE(GuardMismatch("nz", -3, 1024).meaning.find("3 bytes before the start"),
            std::string::npos);
}

TEST(NzStorageMap, PaddingAgreesWithTheOraclesMask) {
  for (const Shape& nd :
       {Shape{1, 1}, Shape{17, 33}, Shape{2, 3, 16, 32}, Shape{33}, Shape{5, 0}, Shape{31, 70}}) {
    for (int64_t c0 : {8, 16, 32, 64}) {
      cann_props::NzStorageMap map(nd, c0);
      const std::vector<bool> mask = oracle::cann::NzPaddingMask(nd, c0);
      ASSERT_EQ(static_cast<int64_t>(mask.size()), map.elements()) << ToString(nd) << " c0 " << c0;
      for (int64_t e = 0; e < map.elements(); ++e) {
        ASSERT_EQ(map.Locate(e).padding, mask[static_cast<size_t>(e)])
            << ToString(nd) << " c0 " << c0 << " e " << e;
      }
    }
  }
}

TEST(Verify, FoundAtNamesTheNeighbouringBlockThatHoldsTheExpectedValue) {
  // The same two swapped FRACTAL_NZ blocks as above: element 0's value is at 256.
  const Shape nd = {16, 32};
  cann_props::NzStorageMap map(nd, 16);
  Bytes want(1024);
  for (size_t i = 0; i < want.size(); ++i) want[i] = static_cast<uint8_t>(i * 7 + i / 256);
  Bytes got(want.begin() + 512, want.end());
  got.insert(got.end(), want.begin(), want.begin() + 512);
  const Comparison c = CompareBytes(got, want, DType::kFloat16, 512, {}, &map);
  ASSERT_FALSE(c.ok());
  ASSERT_TRUE(c.first[0].found_at.has_value());
  EXPECT_EQ(*c.first[0].found_at, 256);
  EXPECT_EQ(c.first[0].ToJson(DType::kFloat16, "ND")["found_at"], 256);
  // The first block, 16 rows of C0 16, every element found in the neighbour.
  EXPECT_EQ(c.first_block.block, 0);
  EXPECT_EQ(c.first_block.rows, 16);
  EXPECT_EQ(c.first_block.cols, 16);
  EXPECT_EQ(c.first_block.cells, std::string(256, 'n'));
}

TEST(Verify, FirstBlockCellsShowASwappedNibbleOrderAndPadding) {
  // FRACTAL_NZ [1, 3] INT4, C0 64: one block of 16 x 64; elements 0..2 are data
  // (k 0..2 of row 0), the rest padding. The port wrote the nibbles swapped.
  const Shape nd = {1, 3};
  cann_props::NzStorageMap map(nd, 64);
  Bytes want(512, 0), got(512, 0);
  want[0] = 0x21;  // elements 0, 1 = 1, 2 (low nibble first)
  want[1] = 0x03;  // element 2 = 3, element 3 padding 0
  got[0] = 0x12;
  got[1] = 0x30;
  const Comparison c = Compare({.output = "nz",
                                .got = got,
                                .want = want,
                                .codec = {DType::kInt4, false},
                                .count = 1024,
                                .map = &map});
  ASSERT_EQ(c.mismatches, 4);
  EXPECT_EQ(c.first[0].found_at, std::optional<int64_t>{1});
  EXPECT_EQ(c.first_block.rows, 16);
  EXPECT_EQ(c.first_block.cols, 64);
  ASSERT_EQ(c.first_block.cells.size(), 1024u);
  EXPECT_EQ(c.first_block.cells.substr(0, 6), "ssss__");
}

TEST(Verify, WithoutAMapTheFirstBlockIsARowOfPackedElements) {
  // INT4 elements 0..3 = 1, 2, 3, 4 low nibble first, written high first; 4..5 agree.
  const Bytes want = {0x21, 0x43, 0x65};
  const Bytes got = {0x12, 0x34, 0x65};
  const Comparison c = CompareBytes(got, want, DType::kInt4, 6);
  EXPECT_EQ(c.first_block.block, 0);
  EXPECT_EQ(c.first_block.elements, kMaplessRowElements);
  EXPECT_EQ(c.first_block.cells, "ssss..");
}

TEST(Verify, BelongsAtNamesTheOneElementWhereTheHeldValueIsExpected) {
  // UINT8 [3, 2] row-major; the port swapped rows 0 and 2 (not neighbours).
  const RowMajorMap map({3, 2}, {"n", "k"}, "B");
  const Bytes want = {10, 11, 20, 21, 30, 31}, got = {30, 31, 20, 21, 10, 11};
  const Comparison c = CompareBytes(got, want, DType::kUint8, 6, {}, &map);
  ASSERT_EQ(c.mismatches, 4);
  EXPECT_FALSE(c.first[0].found_at.has_value());
  EXPECT_EQ(c.first[0].belongs_at, std::optional<int64_t>{4});
  EXPECT_EQ(c.first[0].ToJson(DType::kUint8, "B")["belongs_at"], 4);
  EXPECT_NE(c.first[0].meaning.find("holds the value expected at"), std::string::npos);
}

// Six elements, the last one padding (C = 5 of a C0 of 6, say).
class LastIsPaddingMap : public StorageMap {
 public:
  int64_t elements() const override { return 6; }
  std::string logical_name() const override { return "NCHW"; }
  Place Locate(int64_t e) const override {
    Place p;
    p.padding = e == 5;
    p.within = {{"c0", e, 6}};
    if (!p.padding) p.logical = {{"c", e, 5}};
    return p;
  }
};

// Breaker F4: a zeroed element "held the value expected at" the one padding
// slot, whose 0 is the fill of padding, not a value shifted from there.
TEST(Verify, AZeroIsNotSaidToBelongToAPaddingSlot) {
  const LastIsPaddingMap map;
  const Bytes want = {10, 11, 12, 13, 14, 0}, got = {10, 11, 0, 13, 14, 0};
  const Comparison c = CompareBytes(got, want, DType::kUint8, 6, {}, &map);
  ASSERT_EQ(c.mismatches, 1);
  EXPECT_FALSE(c.first[0].belongs_at.has_value());
  EXPECT_EQ(c.first[0].meaning.find("holds the value expected at"), std::string::npos)
      << c.first[0].meaning;
}

}  // namespace
}  // namespace npuconf::verify
