// The oracles' tile entry points (issue 10): the tiles, concatenated at their
// offsets, are exactly the whole-tensor oracle's output, padding included, and
// the tiled compare of the layout template accepts only equal bytes.
#include "conformance/harness/oracle_tiles.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "conformance/harness/layout_properties.h"
#include "core/prng.h"
#include "oracles/cann/fractal_nz_oracle.h"
#include "oracles/rknn/layout_oracle.h"

namespace npuconf {
namespace {

std::vector<uint8_t> Random(uint64_t seed, uint64_t bytes) {
  std::vector<uint8_t> out(bytes);
  FillRandomBytes(seed, out.data(), bytes);
  return out;
}

uint64_t NdBytes(const Shape& shape, DType dtype) {
  uint64_t elems = 1;
  for (int64_t d : shape) elems *= static_cast<uint64_t>(d);
  return (elems * Bits(dtype) + 7) / 8;
}

// C0 per dtype as in the CANN profiles (spec cann.md §2.5); the panels must
// agree with the whole oracle for any C0, so the exact table does not matter.
const std::vector<std::pair<DType, int64_t>> kNzClasses = {
    {DType::kFloat16, 16}, {DType::kInt8, 32},  {DType::kFloat, 8},
    {DType::kInt4, 64},    {DType::kFloat, 16}, {DType::kInt8, 5}};

TEST(NzPanels, ConcatenatedPanelsAreTheWholeOracle) {
  const std::vector<Shape> shapes = {{17, 33}, {2, 3, 17, 65}, {32, 64},   {1, 1},   {33},
                                     {0, 5},   {5, 0},         {100, 128}, {48, 256}};
  uint64_t seed = 1;
  for (const auto& [dtype, c0] : kNzClasses) {
    for (const Shape& shape : shapes) {
      const auto nd = Random(seed++, NdBytes(shape, dtype));
      const auto whole = oracle::cann::NdToNz(nd, shape, dtype, c0);
      for (int64_t max_fractals : {1, 3, 1000}) {
        // Each panel where it belongs: together they write every byte once.
        std::vector<uint8_t> joined(whole.size(), 0xEE);
        std::vector<int> writes(whole.size(), 0);
        for (const auto& panel : oracle::cann::NzPanels(shape, c0, max_fractals)) {
          const uint64_t at = oracle::cann::NzPanelOffsetBytes(shape, dtype, c0, panel);
          const auto bytes = oracle::cann::NdToNzPanel(nd, shape, dtype, c0, panel);
          ASSERT_LE(at + bytes.size(), whole.size());
          for (size_t i = 0; i < bytes.size(); ++i) {
            joined[at + i] = bytes[i];
            ++writes[at + i];
          }
        }
        EXPECT_EQ(joined, whole) << Name(dtype) << " C0 " << c0 << " " << ToString(shape)
                                 << " panels of " << max_fractals;
        EXPECT_EQ(std::count(writes.begin(), writes.end(), 1),
                  static_cast<std::ptrdiff_t>(writes.size()))
            << "a byte written twice or never";
      }
    }
  }
}

TEST(BNativeTiles, ConcatenatedTilesAreTheWholeOracle) {
  struct B {
    int64_t k, n, sub_n, sub_k, seg_len;
  };
  const std::vector<B> layouts = {{33, 17, 16, 32, 0},   {64, 32, 16, 32, 0},
                                  {100, 40, 32, 16, 32}, {1, 1, 16, 32, 0},
                                  {70, 33, 8, 4, 16},    {8192, 3, 16, 32, 4096}};
  uint64_t seed = 100;
  for (const B& b : layouts) {
    const auto layout = oracle::rknn::BLayoutOf(b.k, b.n, b.sub_n, b.sub_k, b.seg_len);
    ASSERT_TRUE(layout);
    for (DType dtype : {DType::kInt8, DType::kFloat16, DType::kInt4, DType::kFloat}) {
      for (bool tp : {false, true}) {
        for (auto order : {NibbleOrder::kLowFirst, NibbleOrder::kHighFirst}) {
          const auto plain = Random(seed++, NdBytes({b.k, b.n}, dtype));
          const auto whole =
              oracle::rknn::BToNative(plain, *layout, dtype, tp, order, NibbleOrder::kHighFirst);
          std::vector<uint8_t> joined;
          for (int64_t t = 0; t < oracle::rknn::BTileCount(*layout); ++t) {
            ASSERT_EQ(
                static_cast<uint64_t>(oracle::rknn::BTileOffsetElems(*layout, t)) * Bits(dtype) / 8,
                joined.size());
            const auto tile = oracle::rknn::BToNativeTile(plain, *layout, dtype, tp, order,
                                                          NibbleOrder::kHighFirst, t);
            joined.insert(joined.end(), tile.begin(), tile.end());
          }
          EXPECT_EQ(joined, whole) << "K " << b.k << " N " << b.n << " " << Name(dtype)
                                   << (tp ? " TP" : "") << " seg " << b.seg_len;
        }
      }
    }
  }
}

// A two-tile layout instance over a 64-byte output.
LayoutInstance TwoTiles(std::vector<uint8_t> want, uint64_t second_offset) {
  LayoutInstance l;
  l.output_codec = {DType::kUint8, false};
  l.output_elems = static_cast<int64_t>(want.size());
  l.oracle_tiles = 2;
  l.oracle_tile = [want, second_offset](std::span<const uint8_t>, int64_t t) {
    const uint64_t begin = t == 0 ? 0 : second_offset, end = t == 0 ? 32 : want.size();
    return OracleTile{.offset_bytes = begin,
                      .bytes = Bytes(want.begin() + static_cast<std::ptrdiff_t>(begin),
                                     want.begin() + static_cast<std::ptrdiff_t>(end))};
  };
  return l;
}

TEST(CompareTiles, PassesEqualBytesOnlyAndRefusesTilesThatDoNotCoverTheLayout) {
  const auto want = Random(7, 64);
  std::vector<uint8_t> got = want;
  got.resize(80, kSentinelByte);  // a buffer larger than the layout: the tail is not compared
  EXPECT_TRUE(CompareTiles(TwoTiles(want, 32), {}, got).equal);
  for (size_t at : {size_t{0}, size_t{31}, size_t{32}, size_t{63}}) {
    std::vector<uint8_t> bad = got;
    bad[at] ^= 1;
    const TiledCompare r = CompareTiles(TwoTiles(want, 32), {}, bad);
    EXPECT_FALSE(r.equal) << "byte " << at;
    EXPECT_TRUE(r.suite_error.empty());
  }
  EXPECT_FALSE(CompareTiles(TwoTiles(want, 40), {}, got).suite_error.empty());  // a gap
  EXPECT_FALSE(CompareTiles(TwoTiles(want, 16), {}, got).suite_error.empty());  // an overlap
  // The tiles may come in any order (the NZ panels do not follow storage order).
  LayoutInstance reversed = TwoTiles(want, 32);
  reversed.oracle_tile = [inner = reversed.oracle_tile](std::span<const uint8_t> in, int64_t t) {
    return inner(in, 1 - t);
  };
  EXPECT_TRUE(CompareTiles(reversed, {}, got).equal);
  std::vector<uint8_t> bad_first = got;
  bad_first[5] ^= 1;
  const TiledCompare r = CompareTiles(reversed, {}, bad_first);
  EXPECT_FALSE(r.equal);
  EXPECT_EQ(r.first_byte, 5u);
  LayoutInstance short_tiles = TwoTiles(want, 32);
  short_tiles.output_elems = 65;  // the tiles stop a byte short of the layout
  EXPECT_FALSE(CompareTiles(short_tiles, {}, got).suite_error.empty());
}

}  // namespace
}  // namespace npuconf
