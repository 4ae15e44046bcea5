// reference/cann against the values spec cann.md states, and against the
// element map of §2.5 written out a third way (index by index).
#include <gtest/gtest.h>

#include <numeric>

#include "core/buffer.h"
#include "core/prng.h"
#include "core/profile.h"
#include "core/status.h"
#include "reference/cann/fractal_nz.h"
#include "reference/cann/trans_matmul_weight.h"
#include "reference/cann/weight_size.h"

namespace npuconf::cann {
namespace {

const CannFacts& Facts(const char* profile) { return *FindProfile(profile)->cann; }

uint64_t V2(const char* profile, Shape shape, DType dtype, int64_t* status = nullptr) {
  uint64_t size = 0;
  const int64_t s = CalculateMatmulWeightSizeV2(Facts(profile), &shape, dtype, &size);
  if (status) *status = s;
  return s == kAclnnSuccess ? size : UINT64_MAX;
}

// spec cann.md §1.7, documented examples.
TEST(WeightSizeV2, DocumentedExamples) {
  EXPECT_EQ(V2("ascend910b", {510, 510}, DType::kFloat16), 262144u);
  EXPECT_EQ(V2("ascend910b", {510, 510}, DType::kBf16), 262144u);
  EXPECT_EQ(V2("ascend910b", {510, 270}, DType::kInt8), 147456u);
  EXPECT_EQ(V2("ascend310p", {32, 16}, DType::kInt8), 1024u);  // example program
}

// spec cann.md §1.7, derived rows.
TEST(WeightSizeV2, DerivedRows) {
  EXPECT_EQ(V2("ascend910b", {510, 270}, DType::kFloat16), 139264u);
  EXPECT_EQ(V2("ascend910b", {17, 33}, DType::kInt8), 2048u);
  EXPECT_EQ(V2("ascend910b", {2, 2, 2, 2, 32, 16}, DType::kInt8), 16384u);
  EXPECT_EQ(V2("ascend950", {32, 16}, DType::kFloat), 1024u);  // "other" rule for FLOAT
}

TEST(WeightSizeV2, SocGateComesBeforeEveryOtherCheck) {
  uint64_t size = 7;
  EXPECT_EQ(CalculateMatmulWeightSizeV2(Facts("ascend910"), nullptr, DType::kFloat16, nullptr),
            kAclnnErrRuntimeError);
  EXPECT_EQ(CalculateMatmulWeightSizeV2(Facts("ascend310b"), nullptr, DType::kInt8, &size),
            kAclnnErrRuntimeError);
  EXPECT_EQ(size, 7u);
}

TEST(WeightSizeV2, RejectsRankSevenAndZeroDims) {
  int64_t status = 0;
  V2("ascend310p", {2, 2, 2, 2, 2, 32, 16}, DType::kFloat16, &status);  // U7
  EXPECT_EQ(status, kAclnnErrParamInvalid);
  V2("ascend310p", {0, 16}, DType::kInt8, &status);  // U6
  EXPECT_EQ(status, kAclnnErrParamInvalid);
}

TEST(WeightSizeV2, NegativeDimsAndOverflowAreRejectedByChoice) {
  int64_t status = 0;
  V2("ascend910b", {16, -1}, DType::kFloat16, &status);
  EXPECT_EQ(status, kAclnnErrParamInvalid);
  V2("ascend910b", {int64_t{1} << 40, int64_t{1} << 40}, DType::kFloat16, &status);
  EXPECT_EQ(status, kAclnnErrParamInvalid);
}

TEST(WeightSize, LegacyIsAlways16By16AndKeepsBatchUnaligned) {
  uint64_t size = 0;
  Shape int8_weight = {32, 16};
  ASSERT_EQ(CalculateMatmulWeightSize(Facts("ascend910b"), &int8_weight, &size), kAclnnSuccess);
  EXPECT_EQ(size, 512u);  // §5.2: legacy under-allocates an int8 weight
  Shape batch17 = {17, 16, 16};
  ASSERT_EQ(CalculateMatmulWeightSize(Facts("ascend910b"), &batch17, &size), kAclnnSuccess);
  EXPECT_EQ(size, 4352u);
  Shape zero = {16, 0};
  ASSERT_EQ(CalculateMatmulWeightSize(Facts("ascend310p"), &zero, &size), kAclnnSuccess);
  EXPECT_EQ(size, 0u);
  Shape rank3 = {16, 16, 32};
  EXPECT_EQ(CalculateMatmulWeightSize(Facts("ascend950"), &rank3, &size), kAclnnErrParamInvalid);
}

TEST(WeightSize, SaturatedCeilAlignTimesZeroIsZero) {
  // CeilAlign saturates to INT64_MAX (§0.3); 1 · INT64_MAX · 0 is defined.
  uint64_t size = 9;
  Shape shape = {1, INT64_MAX, 0};
  ASSERT_EQ(CalculateMatmulWeightSize(Facts("ascend910b"), &shape, &size), kAclnnSuccess);
  EXPECT_EQ(size, 0u);
}

// The element map of spec cann.md §2.5, index by index:
// b·(C1·N1·16·C0) + (c div C0)·(N1·16·C0) + r·C0 + (c mod C0).
Bytes PackBySpecFormula(const Bytes& nd, int64_t batch, int64_t n, int64_t k, int64_t c0,
                        int bytes) {
  const int64_t n1 = (n + 15) / 16, c1 = (k + c0 - 1) / c0;
  Bytes nz(static_cast<size_t>(batch * c1 * n1 * 16 * c0 * bytes), 0);
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t r = 0; r < n; ++r) {
      for (int64_t c = 0; c < k; ++c) {
        const int64_t to = b * (c1 * n1 * 16 * c0) + (c / c0) * (n1 * 16 * c0) + r * c0 + c % c0;
        const int64_t from = (b * n + r) * k + c;
        std::memcpy(&nz[to * bytes], &nd[from * bytes], bytes);
      }
    }
  }
  return nz;
}

struct PackCase {
  Shape shape;
  DType dtype;
  int64_t c0;
};

void PrintTo(const PackCase& p, std::ostream* os) {
  *os << ToString(p.shape) << " " << Name(p.dtype) << " C0 " << p.c0;
}

class NzPack : public ::testing::TestWithParam<PackCase> {};

TEST_P(NzPack, MatchesTheSpecElementMapAndUnpacksBack) {
  const PackCase& p = GetParam();
  auto g = NzGeometryFor(p.shape, p.dtype, p.c0);
  ASSERT_TRUE(g.has_value());
  Bytes nd(g->nd_bytes);
  FillRandomBytes(42, nd.data(), nd.size());
  Bytes nz(g->storage_bytes, 0xCD);
  PackNdToNz(nd.data(), nz.data(), *g);
  const int bytes = Bits(p.dtype) / 8;
  EXPECT_EQ(nz, PackBySpecFormula(nd, g->batch, g->n, g->k, p.c0, bytes));
  Bytes back(g->nd_bytes, 0xCD);
  UnpackNzToNd(nz.data(), back.data(), *g);
  EXPECT_EQ(back, nd);
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, NzPack,
    ::testing::Values(PackCase{{17, 33}, DType::kFloat16, 16}, PackCase{{16, 16}, DType::kBf16, 16},
                      PackCase{{1, 1}, DType::kInt8, 32}, PackCase{{33, 65}, DType::kUint8, 32},
                      PackCase{{2, 3, 31, 17}, DType::kFloat, 8},
                      PackCase{{5, 40}, DType::kInt32, 16}, PackCase{{70}, DType::kHiFloat8, 32},
                      PackCase{{3, 0, 5}, DType::kFloat16, 16}));

TEST(NzPack, StorageShapeIsC1N1By16ByC0) {
  auto g = NzGeometryFor({2, 17, 33}, DType::kFloat16, 16);
  ASSERT_TRUE(g.has_value());
  EXPECT_EQ(g->storage_shape, (Shape{2, 3, 2, 16, 16}));
  auto one_row = NzGeometryFor({70}, DType::kInt8, 32);  // §2.5: [k] is one row
  EXPECT_EQ(one_row->storage_shape, (Shape{3, 1, 16, 32}));
}

TEST(NzPack, Int4EvenElementInTheLowNibble) {
  // spec cann.md §4.4 / rknn.md §7.4: [1, -1] packs to 0xF1.
  auto g = NzGeometryFor({1, 2}, DType::kInt4, 64);
  ASSERT_TRUE(g.has_value());
  const Bytes nd = {0xF1};
  Bytes nz(g->storage_bytes, 0xCD);
  PackNdToNz(nd.data(), nz.data(), *g);
  EXPECT_EQ(nz[0], 0xF1);
  EXPECT_TRUE(std::all_of(nz.begin() + 1, nz.end(), [](uint8_t b) { return b == 0; }));
}

TEST(NzPack, Int4OddRowLengthCrossesBytes) {
  // [2, 3]: ND element (1, 0) is linear index 3, the high nibble of byte 1.
  auto g = NzGeometryFor({2, 3}, DType::kInt4, 64);
  const Bytes nd = {0x21, 0x43, 0x05};  // elements 1,2,3,4,5,0
  Bytes nz(g->storage_bytes, 0);
  PackNdToNz(nd.data(), nz.data(), *g);
  EXPECT_EQ(nz[0], 0x21);   // row 0: 1, 2
  EXPECT_EQ(nz[1], 0x03);   // row 0: 3, padding
  EXPECT_EQ(nz[32], 0x54);  // row 1 starts at element 64 = byte 32: 4, 5
  EXPECT_EQ(nz[33], 0x00);  // row 1: 0, padding
}

TEST(NzGeometry, RejectsOverflowNegativeAndRankZero) {
  EXPECT_FALSE(NzGeometryFor({int64_t{1} << 62, int64_t{1} << 62}, DType::kFloat16, 16));
  EXPECT_FALSE(NzGeometryFor({4, -1}, DType::kFloat16, 16));
  EXPECT_FALSE(NzGeometryFor({}, DType::kFloat16, 16));
  EXPECT_FALSE(NzGeometryFor({4, 4}, DType::kInt4, 63));
}

TEST(TransMatmulWeight, EmptyTensorSucceedsUntouchedBeforeTheRankRule) {
  Bytes buffer(16, 0xAB);
  TransMatmulWeightArgs args;
  args.dtype = DType::kFloat16;
  args.view_shape = {1, 1, 1, 1, 1, 1, 0};  // 7-D and empty: §2.2 step 5 before step 6
  args.data = buffer.data();
  args.capacity_bytes = buffer.size();
  Shape storage;
  EXPECT_EQ(TransMatmulWeight(Facts("ascend950"), args, &storage), kAclnnSuccess);
  EXPECT_EQ(buffer, Bytes(16, 0xAB));
}

TEST(TransMatmulWeight, DtypeListAndFormatComeBeforeRank) {
  Bytes buffer(4096, 0);
  TransMatmulWeightArgs args;
  args.data = buffer.data();
  args.capacity_bytes = buffer.size();
  Shape storage;
  args.dtype = DType::kBf16;  // not on 310P's list (§2.3)
  args.view_shape = {16, 32};
  EXPECT_EQ(TransMatmulWeight(Facts("ascend310p"), args, &storage), kAclnnErrParamInvalid);
  args.dtype = DType::kInt8;  // T7
  EXPECT_EQ(TransMatmulWeight(Facts("ascend310p"), args, &storage), kAclnnSuccess);
  EXPECT_EQ(storage, (Shape{1, 1, 16, 32}));
  args.null_tensor = true;
  EXPECT_EQ(TransMatmulWeight(Facts("ascend910b"), args, &storage), kAclnnErrParamNullptr);
}

}  // namespace
}  // namespace npuconf::cann
