// The RKNN reference and oracle against the numbers of spec rknn.md §7 and §2.4,
// and against each other.
#include <gtest/gtest.h>

#include <cstring>

#include "conformance/rknn/cases.h"
#include "conformance/rknn/native_map.h"
#include "conformance/rknn/support.h"
#include "core/prng.h"
#include "core/profile.h"
#include "oracles/rknn/create_oracle.h"
#include "oracles/rknn/layout_oracle.h"
#include "oracles/rknn/sub_block_oracle.h"
#include "reference/rknn/int4.h"
#include "reference/rknn/matmul_create.h"
#include "reference/rknn/native_layout.h"
#include "reference/rknn/sub_blocks.h"
#include "reports/blocks.h"
#include "test_util.h"
#include "verify/compare.h"

namespace npuconf {
namespace {

const RknnFacts& Facts(const char* profile) { return *FindProfile(profile)->rknn; }

std::vector<uint8_t> Random(uint64_t seed, size_t n) {
  std::vector<uint8_t> out(n);
  FillRandomBytes(seed, out.data(), n);
  return out;
}

TEST(RknnProfiles, ParseWithFacts) {
  EXPECT_EQ(Facts("rk3588").k_segment, 8192);
  EXPECT_EQ(Facts("rk3576").k_segment, 4096);
  EXPECT_EQ(Facts("rk3562").k_segment, 0);
  EXPECT_FALSE(Facts("rk3566_rk3568").tp_norm);
  EXPECT_EQ(Facts("rk3588_sdk1_6").norm_nibble, NibbleOrder::kHighFirst);
  EXPECT_FALSE(FindProfile("rv1126b")->verified);
  EXPECT_FALSE(Facts("rv1126b").has_tables);
}

// spec rknn.md §2.2, "Reading of the rule" under c_dtype_row: FP16xINT8->FP32,
// FP16xINT4->FP32 and FP16xINT4->FP16 use B [N/16,K/32,16,32]; INT8xINT4->INT32
// uses [N/32,K/32,32,32]; A the row of its own dtype. The reference and the
// oracle derive this apart; both must give the spec's numbers.
struct SubRow {
  const char* profile;
  int type;
  int64_t a_sub_k, b_sub_n, b_sub_k, c_sub_n;
  const char* source;
};
const SubRow kSubRows[] = {
    {"rk3576", 5, 8, 16, 32, 4, "§2.2 mixed FP16xINT8->FP32: C FLOAT takes the FP16 row"},
    {"rk3576", 7, 8, 16, 32, 4, "§2.2 mixed FP16xINT4->FP32"},
    {"rk3576", 8, 8, 16, 32, 8, "§2.2 mixed FP16xINT4->FP16 (C FLOAT16: §8.6 reading 16_bytes)"},
    {"rk3576", 11, 16, 32, 32, 4, "§2.2 mixed INT8xINT4->INT32: C INT32 takes the INT8 row"},
    {"rk3576", 2, 16, 32, 32, 4, "§2.2 Table 3-5 INT8 row"},
    {"rk3588", 10, 32, 64, 32, 8, "§2.2 Table 3-5 INT4 row"},
    {"rk3588", 4, 8, 16, 32, 8, "§2.2, §8.6 FP16 C, reading 16_bytes"},
    {"rk3588", 3, 16, 32, 32, 16, "§2.2, §8.6 INT8 C, reading 16_bytes"},
    {"rk3566_rk3568", 1, 4, 8, 16, 4, "§2.2 Table 3-5 RK3566/68 FP16 row"},
};

TEST(RknnSubBlocks, ReferenceAndOracleGiveTheSpecRows) {
  for (const SubRow& row : kSubRows) {
    const auto ref = rknn::SubBlocksFor(Facts(row.profile), row.type);
    const auto orc = oracle::rknn::SubBlocksOf(Facts(row.profile), row.type);
    ASSERT_TRUE(ref && orc) << row.profile << " type " << row.type;
    EXPECT_EQ(std::vector<int64_t>({ref->a_sub_k, ref->b_sub_n, ref->b_sub_k, ref->c_sub_n}),
              std::vector<int64_t>({row.a_sub_k, row.b_sub_n, row.b_sub_k, row.c_sub_n}))
        << "reference, " << row.profile << " type " << row.type << ": " << row.source;
    EXPECT_EQ(std::vector<int64_t>({orc->a_sub_k, orc->b_sub_n, orc->b_sub_k, orc->c_sub_n}),
              std::vector<int64_t>({row.a_sub_k, row.b_sub_n, row.b_sub_k, row.c_sub_n}))
        << "oracle, " << row.profile << " type " << row.type << ": " << row.source;
  }
}

// The other readings the explicit cases check (§8.14 b_dtype_row, §8.6 "4").
TEST(RknnSubBlocks, OracleGivesTheOtherReadings) {
  EXPECT_EQ(
      oracle::rknn::SubBlocksOf(Facts("rk3576"), 7, {.mixed_b_layout = "b_dtype_row"})->b_sub_n,
      64);
  EXPECT_EQ(
      oracle::rknn::SubBlocksOf(Facts("rk3576"), 5, {.mixed_b_layout = "b_dtype_row"})->b_sub_n,
      32);
  EXPECT_EQ(oracle::rknn::SubBlocksOf(Facts("rk3588"), 4, {.c_sub_n_other = "4"})->c_sub_n, 4);
  EXPECT_EQ(oracle::rknn::SubBlocksOf(Facts("rk3588"), 3, {.c_sub_n_other = "4"})->c_sub_n, 4);
  EXPECT_FALSE(oracle::rknn::SubBlocksOf(Facts("rk3588"), 7));  // not on RK3588 (§3.1)
  EXPECT_FALSE(rknn::SubBlocksFor(Facts("rk3588"), 7));
}

// Each storage map's padding is the oracle's: the padding the verifier names in
// a message is what padding_is_zero checks.
TEST(RknnStorageMaps, RowBlockedPaddingAgreesWithTheOraclesMask) {
  for (int64_t m : {1, 4, 5}) {
    for (int64_t cols : {1, 7, 8, 9, 33, 64}) {
      for (int64_t sub : {4, 8, 16, 32}) {
        for (bool is_a : {true, false}) {
          rknn_props::RowBlockedMap map(m, cols, sub, is_a);
          const std::vector<bool> mask = oracle::rknn::RowBlockedPadding(m, cols, sub);
          ASSERT_EQ(static_cast<int64_t>(mask.size()), map.elements())
              << m << "x" << cols << " sub " << sub;
          for (int64_t e = 0; e < map.elements(); ++e) {
            const verify::Place place = map.Locate(e);
            ASSERT_EQ(place.padding, mask[static_cast<size_t>(e)])
                << m << "x" << cols << " sub " << sub << " e " << e;
            if (place.padding) continue;
            // The logical element the map names is where NORM -> NATIVE put it.
            const int64_t mm = place.logical[0].index, x = place.logical[1].index;
            ASSERT_EQ(oracle::rknn::ANativeIndex(mm, x, m, sub), e);
          }
        }
      }
    }
  }
}

TEST(RknnStorageMaps, BNativePaddingAgreesWithTheOraclesMask) {
  struct BCase {
    int64_t k, n, sub_n, sub_k, seg_len;
  };
  for (const BCase& b : {BCase{1, 1, 16, 32, 0}, BCase{33, 17, 32, 32, 0}, BCase{64, 64, 64, 32, 0},
                         BCase{70, 45, 16, 32, 32}, BCase{97, 3, 8, 16, 40},
                         BCase{8193, 33, 32, 32, 8192}, BCase{4097, 5, 16, 32, 4096}}) {
    const auto layout = *oracle::rknn::BLayoutOf(b.k, b.n, b.sub_n, b.sub_k, b.seg_len);
    rknn_props::BNativeMap map(layout);
    const std::vector<bool> mask = oracle::rknn::BPadding(layout);
    ASSERT_EQ(static_cast<int64_t>(mask.size()), map.elements()) << b.k << "x" << b.n;
    for (int64_t e = 0; e < map.elements(); ++e) {
      const verify::Place place = map.Locate(e);
      ASSERT_EQ(place.padding, mask[static_cast<size_t>(e)]) << b.k << "x" << b.n << " e " << e;
      if (place.padding) continue;
      const int64_t k = place.logical[0].index, n = place.logical[1].index;
      ASSERT_EQ(oracle::rknn::BNativeIndex(k, n, layout), e)
          << b.k << "x" << b.n << " B[" << k << "][" << n << "]";
    }
  }
}

// A message names the segment, the tiles and the logical element (§3.3, §7.2:
// RK3588 fp16 K=8224, N=64, the second segment starts at element 524 288).
TEST(RknnStorageMaps, BNativePlaceNamesSegmentAndTile) {
  const auto layout = *oracle::rknn::BLayoutOf(8224, 64, 16, 32, 8192);
  rknn_props::BNativeMap map(layout);
  EXPECT_EQ(map.Locate(524288).Text(map.logical_name()),
            "segment 1 of 2, N1 block 0 of 4, K1 block 0 of 1; row 0 of 16, col 0 of 32 = B [k "
            "8192, n 0]");
  // K = 8200: segment 1 holds 8 rows, so col 8 of its K1 block is padding.
  rknn_props::BNativeMap short_last(*oracle::rknn::BLayoutOf(8200, 64, 16, 32, 8192));
  EXPECT_TRUE(short_last.Locate(524288 + 8).padding);
  EXPECT_FALSE(short_last.Locate(524288 + 7).padding);
}

// A value found across a segment boundary is named as such, not as "a
// neighbouring block", and the picture lays the blocks out by segment and N1
// block with a line between segments (issue 15 item 8).
TEST(RknnStorageMaps, AValueFromAnotherSegmentIsNamedAndDrawnAsSuch) {
  const auto layout = *oracle::rknn::BLayoutOf(8224, 64, 16, 32, 8192);
  rknn_props::BNativeMap map(layout);
  const int64_t elems = map.elements(), e = 524288, tile = 16 * 32;
  Bytes want(static_cast<size_t>(elems) * 2), got;
  for (int64_t i = 0; i < elems; ++i) {
    want[static_cast<size_t>(2 * i)] = static_cast<uint8_t>(i);
    want[static_cast<size_t>(2 * i + 1)] = static_cast<uint8_t>((i >> 8) & 0x7F);
  }
  got = want;
  // Segment 1's first element shows up where segment 0's last tile had it.
  std::copy_n(want.begin() + 2 * e, 2, got.begin() + 2 * (e - tile));
  got[static_cast<size_t>(2 * e)] = 0xFF;
  got[static_cast<size_t>(2 * e + 1)] = 0xFF;
  const auto c = verify::Compare({.output = "B_native",
                                  .got = got,
                                  .want = want,
                                  .codec = {DType::kFloat16, false},
                                  .count = elems,
                                  .map = &map});
  ASSERT_GE(c.first.size(), 2u);
  EXPECT_NE(c.first[1].meaning.find("the neighbouring segment (segment 0; this element is in "
                                    "segment 1)"),
            std::string::npos)
      << c.first[1].meaning;
  const auto rows = map.BlockRows();
  ASSERT_EQ(rows.size(), 8u);  // 2 segments x 4 N1 blocks
  EXPECT_EQ(rows[4].label, "segment 1, N1 block 0");
  EXPECT_TRUE(rows[4].boundary);
  EXPECT_EQ(rows[4].count, 1);  // one K1 block in the 32-row segment
  nlohmann::json evidence = {{"output", "B_native"},
                             {"dtype", "FLOAT16"},
                             {"block_elements", tile},
                             {"block_mismatches", c.block_mismatches}};
  nlohmann::json list = nlohmann::json::array();
  for (const auto& r : rows)
    list.push_back(
        {{"first", r.first}, {"count", r.count}, {"label", r.label}, {"boundary", r.boundary}});
  evidence["block_rows"] = list;
  evidence["block_row_axis"] = "segment × N1 block";
  evidence["block_col_axis"] = "K1 block";
  const std::string svg = report::BlockGridSvg(evidence);
  EXPECT_NE(svg.find("Rows: segment × N1 block (8)"), std::string::npos) << svg.substr(0, 400);
  EXPECT_NE(svg.find("the start of the next K segment"), std::string::npos);
  EXPECT_NE(svg.find("<line"), std::string::npos);
  EXPECT_NE(svg.find("segment 1, N1 block 0, K1 block 0"), std::string::npos);
}

struct Row71 {
  const char* profile;
  int type;
  int64_t M, K, N;
  uint64_t a, b, c;  // NORM bytes
  Shape na;
  uint64_t na_bytes;
  Shape nb;
  uint64_t nb_bytes;
  Shape nc;
  uint64_t nc_bytes;
  const char* align_unit;
};

const Row71 kRows71[] = {
    {"rk3588",
     2,
     4,
     64,
     32,
     256,
     2048,
     512,
     {4, 4, 16},
     256,
     {1, 2, 32, 32},
     2048,
     {8, 4, 4},
     512,
     ""},
    {"rk3588",
     1,
     1,
     32,
     16,
     64,
     1024,
     64,
     {4, 1, 8},
     64,
     {1, 1, 16, 32},
     1024,
     {4, 1, 4},
     64,
     "header_elements"},
    {"rk3588",
     1,
     4,
     64,
     32,
     512,
     4096,
     512,
     {8, 4, 8},
     512,
     {2, 2, 16, 32},
     4096,
     {8, 4, 4},
     512,
     ""},
    {"rk3588",
     10,
     1,
     64,
     128,
     32,
     4096,
     256,
     {2, 1, 32},
     32,
     {2, 2, 64, 32},
     4096,
     {16, 1, 8},
     256,
     ""},
    {"rk3588",
     10,
     4,
     64,
     64,
     128,
     2048,
     512,
     {2, 4, 32},
     128,
     {1, 2, 64, 32},
     2048,
     {8, 4, 8},
     512,
     ""},
    {"rk3566_rk3568",
     2,
     4,
     64,
     32,
     256,
     2048,
     512,
     {8, 4, 8},
     256,
     {2, 2, 16, 32},
     2048,
     {8, 4, 4},
     512,
     ""},
    {"rk3562",
     2,
     4,
     64,
     32,
     256,
     2048,
     512,
     {4, 4, 16},
     256,
     {2, 2, 16, 32},
     2048,
     {8, 4, 4},
     512,
     ""},
    {"rk3562",
     1,
     4,
     64,
     32,
     512,
     4096,
     512,
     {8, 4, 8},
     512,
     {4, 2, 8, 32},
     4096,
     {8, 4, 4},
     512,
     ""},
};

TEST(RknnMatmulCreate, ReferenceAndOracleGiveTheSpec71Sizes) {
  for (const Row71& r : kRows71) {
    for (int native = 0; native < 2; ++native) {
      rknn::MatmulInfo info;
      info.type = r.type;
      info.M = r.M;
      info.K = r.K;
      info.N = r.N;
      info.AC_layout = info.B_layout = native;
      rknn::IoAttr io;
      std::string why;
      ASSERT_EQ(rknn::MatmulCreate(Facts(r.profile), info, {r.align_unit, "", ""}, &io, &why), 0)
          << why;
      oracle::rknn::Info oi{r.M, r.K, r.N, r.type, native, native, 0, 0, 0, 0};
      const auto want = oracle::rknn::ExpectCreate(Facts(r.profile), oi, {r.align_unit, "", ""});
      ASSERT_EQ(want.status, 0) << want.rule;
      const Shape a = native ? r.na : Shape{r.M, r.K}, b = native ? r.nb : Shape{r.K, r.N},
                  c = native ? r.nc : Shape{r.M, r.N};
      const uint64_t ab = native ? r.na_bytes : r.a, bb = native ? r.nb_bytes : r.b,
                     cb = native ? r.nc_bytes : r.c;
      EXPECT_EQ(io.A.Dims(), a) << r.profile << " type " << r.type;
      EXPECT_EQ(io.B.Dims(), b);
      EXPECT_EQ(io.C.Dims(), c);
      EXPECT_EQ(io.A.size_bytes, ab);
      EXPECT_EQ(io.B.size_bytes, bb);
      EXPECT_EQ(io.C.size_bytes, cb);
      EXPECT_EQ(want.A.dims, a);
      EXPECT_EQ(want.B.size_bytes, bb);
      EXPECT_EQ(want.C.size_bytes, cb);
    }
  }
}

// §7.1 row 2 / §3.2a: FP16 with N = 16 was created on RK3588, so the profile
// reads the header's alignments as elements; the UG reading rejects it.
TEST(RknnMatmulCreate, Row71Fp16N16HoldsUnderTheDefaultAndFailsUnderTheUgReading) {
  rknn::MatmulInfo info;
  info.type = 1;
  info.M = 1;
  info.K = 32;
  info.N = 16;
  rknn::IoAttr io;
  std::string why;
  EXPECT_EQ(rknn::MatmulCreate(Facts("rk3588"), info, {}, &io, &why), rknn::kRknnSucc) << why;
  EXPECT_EQ(rknn::MatmulCreate(Facts("rk3588"), info, {.align_unit = "ug_elements"}, &io, &why),
            rknn::kRknnErrParamInvalid);
  EXPECT_NE(why.find("N:16"), std::string::npos) << why;
}

TEST(RknnMatmulCreate, RejectsSpec73Rows) {
  rknn::MatmulInfo info;
  info.type = 2;
  info.M = 4;
  info.K = 128;
  info.N = 64;
  info.B_quant_type = rknn::kQuantPerGroupSym;
  info.group_size = 32;
  rknn::IoAttr io;
  std::string why;
  EXPECT_EQ(rknn::MatmulCreate(Facts("rk3588"), info, {}, &io, &why), -5)
      << "per-group with NORM layouts";
  info.AC_layout = info.B_layout = 1;
  EXPECT_EQ(rknn::MatmulCreate(Facts("rk3588"), info, {}, &io, &why), 0) << why;
  info.K = 96;
  info.group_size = 64;
  EXPECT_EQ(rknn::MatmulCreate(Facts("rk3588"), info, {}, &io, &why), -5) << "K=96, gs=64";
  info.K = 128;
  info.group_size = 32;
  info.zp = 1;
  EXPECT_EQ(rknn::MatmulCreate(Facts("rk3588"), info, {}, &io, &why), -5) << "zp=1";
}

// §3.3 worked examples and §7.2.
TEST(RknnSegmentation, SegmentOffsetsOfSpec72) {
  auto g = rknn::BNativeGeometryFor(8224, 64, 16, 32, 8192, DType::kFloat16);
  ASSERT_TRUE(g);
  ASSERT_EQ(g->segments.size(), 2u);
  EXPECT_EQ(g->segments[1].offset_elems, 524288);
  auto h = rknn::BNativeGeometryFor(10240, 2048, 16, 32, 4096, DType::kFloat16);
  ASSERT_EQ(h->segments.size(), 3u);
  EXPECT_EQ(h->segments[1].offset_elems * 2, 16777216);
  EXPECT_EQ(h->segments[2].offset_elems * 2, 33554432);
  EXPECT_EQ(h->native_bytes, 41943040u);
  auto i = rknn::BNativeGeometryFor(20480, 4096, 16, 32, 8192, DType::kFloat16);
  EXPECT_EQ(i->segments[2].k_rows, 4096);
  EXPECT_EQ(i->native_bytes, 167772160u);
  auto o = oracle::rknn::BLayoutOf(10240, 2048, 32, 32, 4096);
  EXPECT_EQ(o->segments[1].offset_elems, 8388608);  // int8 byte offsets 0, 8388608, 16777216
  EXPECT_EQ(o->segments[2].offset_elems, 16777216);
}

// §7.4 int4 packing (v2.x).
TEST(RknnInt4, PacksSpec74Vectors) {
  const int8_t a[] = {1, -1};
  uint8_t out[2] = {};
  rknn::PackInt4(a, out, 2, NibbleOrder::kLowFirst);
  EXPECT_EQ(out[0], 0xF1);
  const int8_t b[] = {-8, 7, 3, -2};
  rknn::PackInt4(b, out, 4, NibbleOrder::kLowFirst);
  EXPECT_EQ(out[0], 0x78);
  EXPECT_EQ(out[1], 0xE3);
  EXPECT_EQ(oracle::rknn::PackInt4({0xF8, 7, 3, 0xFE}, NibbleOrder::kLowFirst),
            (std::vector<uint8_t>{0x78, 0xE3}));
  int8_t back[4];
  rknn::UnpackInt4(out, back, 4, NibbleOrder::kLowFirst);
  EXPECT_EQ(std::vector<int8_t>(back, back + 4), std::vector<int8_t>(b, b + 4));
}

// Index map of §2.1 (and §5.2's example element B[70][5]) through the oracle's algebra.
TEST(RknnOracle, IndexMapAgreesWithTheAlgebra) {
  const auto l = *oracle::rknn::BLayoutOf(128, 64, 32, 32, 0);
  std::vector<uint8_t> b(128 * 64, 0);
  b[70 * 64 + 5] = 7;
  const auto native = oracle::rknn::BToNative(b, l, DType::kInt8, false, NibbleOrder::kLowFirst,
                                              NibbleOrder::kLowFirst);
  const int64_t e = oracle::rknn::BNativeIndex(70, 5, l);
  EXPECT_EQ(e, ((5 / 32) * 4 + 70 / 32) * 1024 + (5 % 32) * 32 + 70 % 32);
  EXPECT_EQ(native[static_cast<size_t>(e)], 7);
}

TEST(RknnReference, MatchesOracleOnOddShapes) {
  struct Shape3 {
    int64_t k, n, sn, sk, seg;
    DType dtype;
  };
  for (const Shape3& s :
       {Shape3{33, 17, 32, 32, 0, DType::kInt8}, Shape3{70, 45, 16, 32, 32, DType::kFloat16},
        Shape3{65, 129, 64, 32, 0, DType::kInt4}, Shape3{97, 3, 8, 16, 40, DType::kInt4}}) {
    for (bool tp : {false, true}) {
      auto g = *rknn::BNativeGeometryFor(s.k, s.n, s.sn, s.sk, s.seg, s.dtype);
      auto l = *oracle::rknn::BLayoutOf(s.k, s.n, s.sn, s.sk, s.seg);
      const auto in = Random(5, g.norm_bytes);
      std::vector<uint8_t> got(g.native_bytes, 0xCD);
      rknn::BPlainToNative(in.data(), got.data(), g, tp, NibbleOrder::kLowFirst,
                           NibbleOrder::kHighFirst);
      EXPECT_EQ(got, oracle::rknn::BToNative(in, l, s.dtype, tp, NibbleOrder::kLowFirst,
                                             NibbleOrder::kHighFirst))
          << s.k << "x" << s.n << " tp=" << tp;
      std::vector<uint8_t> back(g.norm_bytes, 0);
      rknn::BNativeToPlain(got.data(), back.data(), g, tp, NibbleOrder::kHighFirst,
                           NibbleOrder::kLowFirst);
      if (Bits(s.dtype) == 4 && (s.k * s.n) % 2) back.back() &= 0x0F;
      auto in_cmp = in;
      if (Bits(s.dtype) == 4 && (s.k * s.n) % 2) in_cmp.back() &= 0x0F;
      EXPECT_EQ(back, in_cmp);
    }
  }
  auto a = *rknn::RowBlockedGeometryFor(5, 33, 16, DType::kInt4);
  const auto in = Random(9, a.norm_bytes);
  std::vector<uint8_t> got(a.native_bytes);
  rknn::RowBlockedToNative(in.data(), got.data(), a, NibbleOrder::kLowFirst,
                           NibbleOrder::kLowFirst);
  EXPECT_EQ(got, oracle::rknn::RowBlockedToNative(in, 5, 33, 16, DType::kInt4,
                                                  NibbleOrder::kLowFirst, NibbleOrder::kLowFirst));
}

}  // namespace
}  // namespace npuconf

namespace npuconf {
namespace {

// Issue 17 item 2: every device-observed row of spec rknn.md §3.2a agrees with
// the profile's default readings (a device outranks a document), in the oracle
// and in the reference; the reading the devices contradict says so.
TEST(DeviceRows, TheDefaultReadingsAgreeWithEveryDeviceRow) {
  int rows = 0;
  for (const Profile& profile : BuiltinProfiles()) {
    for (const rknn_props::DeviceRow& row : rknn_props::DeviceRows(profile)) {
      ++rows;
      const auto e = oracle::rknn::ExpectCreate(*profile.rknn, rknn_props::InfoOf(row.c), {});
      EXPECT_EQ(e.status == oracle::rknn::kSucc, row.created)
          << profile.name << " " << row.c.ToText() << ": " << e.rule << " / " << row.source;
    }
  }
  EXPECT_EQ(rows, 8);  // every row of §3.2a (three of #471, #154, #88, two of #550, PR #412)
  const Choice* align = FindProfile("rk3588")->FindChoice("rknn.limits.align_unit");
  ASSERT_NE(align, nullptr);
  EXPECT_EQ(align->value, "header_elements");
  EXPECT_TRUE(align->contradicted.count("ug_elements"));
  const auto run =
      testing::RunNpuconf("case rknn.matmul_create profile=rk3588 M=1 K=128 N=16 type=1");
  EXPECT_NE(run.output.find("status: 0 (RKNN_SUCC)"), std::string::npos) << run.output;
  const auto facts = testing::RunNpuconf("list facts --profile rk3588");
  EXPECT_NE(facts.output.find("reading ug_elements is contradicted by a device"),
            std::string::npos);
}

}  // namespace
}  // namespace npuconf
