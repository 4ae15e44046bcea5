// Every fast path of reference/ byte for byte against the oracles of oracles/
// (and, where the oracle would be slow, against the portable path): per dtype
// width, tile size, kernel path, aligned vs ragged shapes and buffers,
// streamed (≥ simd::kStreamMinBytes) vs cached stores, segmented vs not, TP_NORM vs NORM, and
// both int4 nibble orders. Each test runs once on every path this build has
// and this CPU runs (portable, AVX2, AVX-512 on such an x86-64; portable and
// NEON on aarch64), each failure naming its path.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "core/float16.h"
#include "core/prng.h"
#include "oracles/cann/fractal_nz_oracle.h"
#include "oracles/quant/quant_oracle.h"
#include "oracles/rknn/layout_oracle.h"
#include "reference/blocks/channel_blocks.h"
#include "reference/cann/fractal_nz.h"
#include "reference/quant/cann_antiquant.h"
#include "reference/quant/dequant.h"
#include "reference/quant/gather_dequant_int8.h"
#include "reference/quant/half_lanes.h"
#include "reference/quant/rknn_dequant.h"
#include "reference/rknn/native_layout.h"
#include "reference/simd/isa.h"

namespace npuconf {
namespace {

using Bytes = std::vector<uint8_t>;

Bytes Random(uint64_t seed, uint64_t n) {
  Bytes out(n);
  FillRandomBytes(seed, out.data(), n);
  return out;
}

// The ISAs to run: every path this build has and this CPU runs (portable
// always; AVX2 and AVX-512 on such an x86-64, NEON on aarch64).
std::vector<simd::Isa> Paths() { return simd::SupportedIsas(); }

// Runs `body` with the kernels limited to `isa`.
void On(simd::Isa isa, const std::function<void()>& body) {
  simd::ScopedIsa force(isa);
  ASSERT_EQ(simd::ActiveIsa(), isa);
  body();
}

// An output buffer of `size` bytes starting `offset` bytes past a 64-byte
// boundary, with 64 guard bytes on each side holding a sentinel, so a
// misaligned destination is tested and a stray write shows.
class Guarded {
 public:
  static constexpr uint8_t kSentinel = 0xCD;
  Guarded(uint64_t size, uint64_t offset) : storage_(size + offset + 256, kSentinel), size_(size) {
    const auto base = reinterpret_cast<uintptr_t>(storage_.data());
    begin_ = static_cast<size_t>((64 - base % 64) % 64 + 64 + offset);
  }
  uint8_t* data() { return storage_.data() + begin_; }
  Bytes Contents() const {
    return Bytes(storage_.begin() + begin_, storage_.begin() + begin_ + size_);
  }
  bool GuardsIntact() const {
    for (size_t i = 0; i < storage_.size(); ++i) {
      if ((i < begin_ || i >= begin_ + size_) && storage_[i] != kSentinel) return false;
    }
    return true;
  }

 private:
  Bytes storage_;
  uint64_t size_;
  size_t begin_;
};

// An input copy of `bytes` at `offset` past a 64-byte boundary.
class Placed {
 public:
  Placed(const Bytes& bytes, uint64_t offset) : storage_(bytes.size() + offset + 128) {
    const auto base = reinterpret_cast<uintptr_t>(storage_.data());
    begin_ = static_cast<size_t>((64 - base % 64) % 64 + offset);
    std::copy(bytes.begin(), bytes.end(), storage_.begin() + begin_);
  }
  const uint8_t* data() const { return storage_.data() + begin_; }

 private:
  Bytes storage_;
  size_t begin_;
};

TEST(SimdDispatch, EveryRunnablePathCanBeForcedForAScope) {
  const simd::Isa before = simd::ActiveIsa();
  for (simd::Isa isa : simd::SupportedIsas()) {
    {
      simd::ScopedIsa force(isa);
      EXPECT_EQ(simd::ActiveIsa(), isa) << simd::IsaName(isa);
    }
    EXPECT_EQ(simd::ActiveIsa(), before);
  }
  std::printf("note: kernel paths tested here: %s\n", simd::SupportedIsaNames().c_str());
}

TEST(SimdDispatch, APathTheCpuLacksIsRefusedAndChangesNothing) {
  const simd::Isa before = simd::ActiveIsa();
  for (simd::Isa isa :
       {simd::Isa::kPortable, simd::Isa::kAvx2, simd::Isa::kAvx512, simd::Isa::kNeon}) {
    const bool runs = simd::IsSupported(isa);
    EXPECT_EQ(simd::SetIsa(isa), runs) << simd::IsaName(isa);
    EXPECT_EQ(simd::ActiveIsa(), runs ? isa : before) << simd::IsaName(isa);
    simd::SetIsa(before);
  }
  // x86-64 and aarch64 builds never both have their SIMD paths.
  EXPECT_FALSE(simd::IsSupported(simd::Isa::kNeon) && simd::IsSupported(simd::Isa::kAvx2));
  EXPECT_TRUE(simd::IsSupported(simd::Isa::kPortable));
}

TEST(SimdDispatch, NamesRoundTripAndUnknownNamesAreNone) {
  for (simd::Isa isa :
       {simd::Isa::kPortable, simd::Isa::kAvx2, simd::Isa::kAvx512, simd::Isa::kNeon}) {
    EXPECT_EQ(simd::IsaFromName(simd::IsaName(isa)), isa);
  }
  EXPECT_EQ(simd::IsaFromName("AVX2"), std::nullopt);  // the variable's values are lower case
  EXPECT_EQ(simd::IsaFromName("sse2"), std::nullopt);
  EXPECT_EQ(simd::IsaFromName(""), std::nullopt);
}

// ---- FRACTAL_NZ (spec cann.md §2.5) ----------------------------------------------

struct NzCase {
  Shape shape;
  DType dtype;
  int64_t c0;
  uint64_t nd_offset = 0, nz_offset = 0;  // buffer misalignment, bytes
  const char* why = "";
};

// Shapes named by the path they reach: 32-byte cube rows (every default C0)
// take the AVX-512 kernel; full and ragged N1 blocks, even and odd counts of
// whole C1 blocks (pairs vs the single tail), a C0 tail, batches, misaligned
// buffers, and ≥ 8 MiB (streamed stores) with and without 64-byte alignment.
std::vector<NzCase> NzCases() {
  return {
      {{64, 256}, DType::kInt8, 32, 0, 0, "aligned, pairs of C1 blocks"},
      {{48, 96}, DType::kInt8, 32, 0, 0, "odd number of C1 blocks"},
      {{17, 33}, DType::kInt8, 32, 0, 0, "ragged n and k"},
      {{3, 31, 70}, DType::kFloat16, 16, 0, 0, "batch, ragged"},
      {{16, 16}, DType::kBf16, 16, 0, 0, "one fractal"},
      {{5, 9}, DType::kFloat, 8, 0, 0, "fp32 C0 8: 32-byte rows"},
      {{40, 70}, DType::kFloat, 16, 0, 0, "fp32 C0 16: 64-byte rows, portable"},
      {{33, 130}, DType::kInt4, 64, 0, 0, "int4 even k: byte path"},
      {{33, 129}, DType::kInt4, 64, 0, 0, "int4 odd k: nibble path"},
      {{1}, DType::kInt8, 32, 0, 0, "rank 1"},
      {{2, 16, 64}, DType::kUint8, 32, 7, 33, "misaligned buffers"},
      {{4096, 2048}, DType::kInt8, 32, 0, 0, "8 MiB: streamed"},
      {{2048, 2080}, DType::kFloat16, 16, 0, 0, "8 MiB: streamed, k not a line multiple"},
      {{4097, 2049}, DType::kInt8, 32, 0, 0, "8 MiB: streamed, ragged"},
      {{4096, 2048}, DType::kInt8, 32, 16, 32, "8 MiB, misaligned: cached stores"},
  };
}

TEST(FastPaths, NzPackAndUnpackMatchTheOracleOnEveryPath) {
  for (const NzCase& c : NzCases()) {
    SCOPED_TRACE(ToString(c.shape) + " " + std::string(Name(c.dtype)) + " C0 " +
                 std::to_string(c.c0) + ": " + c.why);
    auto g = cann::NzGeometryFor(c.shape, c.dtype, c.c0);
    ASSERT_TRUE(g);
    const Bytes nd = Random(1, g->nd_bytes);
    const Bytes want_nz = oracle::cann::NdToNz(nd, c.shape, c.dtype, c.c0);
    // Unpack reads a random NZ buffer: padding must be ignored.
    const Bytes nz_in = Random(2, g->storage_bytes);
    const Bytes want_nd = oracle::cann::NzToNd(nz_in, c.shape, c.dtype, c.c0);
    for (simd::Isa isa : Paths()) {
      SCOPED_TRACE(simd::IsaName(isa));
      On(isa, [&] {
        Placed src(nd, c.nd_offset);
        Guarded nz(g->storage_bytes, c.nz_offset);
        cann::PackNdToNz(src.data(), nz.data(), *g);
        EXPECT_TRUE(nz.Contents() == want_nz) << "pack differs from the oracle";
        EXPECT_TRUE(nz.GuardsIntact()) << "pack wrote outside the NZ buffer";
        Placed packed(nz_in, c.nz_offset);
        Guarded back(g->nd_bytes, c.nd_offset);
        cann::UnpackNzToNd(packed.data(), back.data(), *g);
        EXPECT_TRUE(back.Contents() == want_nd) << "unpack differs from the oracle";
        EXPECT_TRUE(back.GuardsIntact()) << "unpack wrote outside the ND buffer";
      });
    }
  }
}

// ---- RKNN NATIVE B (spec rknn.md §2.1, §3.3) -------------------------------------

struct BCase {
  int64_t k, n, sub_n, sub_k, seg_len;
  DType dtype;
  uint64_t plain_offset = 0, native_offset = 0;
  const char* why = "";
};

// Every §2.2 B tile (int8 32×32 and 16×32, fp16 16×32, 8×32 and 8×16, int4
// 64×32) plus tiles no kernel knows; K and N multiples of the block or not;
// segments that end on or inside a band; ≥ 8 MiB for streamed stores.
std::vector<BCase> BCases() {
  return {
      {128, 128, 32, 32, 0, DType::kInt8, 0, 0, "int8 32x32, whole blocks"},
      {96, 200, 32, 32, 0, DType::kInt8, 0, 0, "int8 32x32, ragged N"},
      {100, 64, 32, 32, 0, DType::kInt8, 0, 0, "int8 32x32, ragged K"},
      {64, 96, 16, 32, 0, DType::kInt8, 0, 0, "int8 16x32 (RK3562)"},
      {64, 160, 64, 32, 0, DType::kInt8, 0, 0, "int8 64x32, ragged N"},
      {96, 64, 16, 32, 0, DType::kFloat16, 0, 0, "fp16 16x32"},
      {70, 45, 16, 32, 0, DType::kFloat16, 0, 0, "fp16 16x32, ragged both"},
      {64, 40, 8, 32, 0, DType::kFloat16, 0, 0, "fp16 8x32 (RK3562)"},
      {48, 40, 8, 16, 0, DType::kFloat16, 0, 0, "fp16 8x16 (RK3566): portable"},
      {64, 96, 24, 32, 0, DType::kInt8, 0, 0, "subN 24: portable"},
      {96, 128, 64, 32, 0, DType::kInt4, 0, 0, "int4 64x32"},
      {65, 129, 64, 32, 0, DType::kInt4, 0, 0, "int4 64x32, ragged, odd count"},
      {100, 66, 64, 32, 64, DType::kInt4, 0, 0, "int4, segments ending inside a band"},
      {97, 3, 8, 16, 40, DType::kInt4, 1, 3, "int4, generic tile, odd everything"},
      {100, 256, 64, 32, 0, DType::kInt4, 0, 0, "int4 as bytes: fused bands, then a short one"},
      {200, 128, 64, 32, 64, DType::kInt4, 0, 0, "int4 as bytes, segments of 2 bands + 8 rows"},
      {96, 128, 64, 32, 0, DType::kInt4, 3, 1, "int4 as bytes, misaligned buffers"},
      {4096, 4096, 64, 32, 0, DType::kInt4, 0, 0, "8 MiB int4 as bytes: streamed (in pairs)"},
      {4096, 4160, 64, 32, 0, DType::kInt4, 0, 0,
       "8 MiB int4 as bytes, an odd count of 32-byte blocks: streamed one at a time"},
      {4096, 4096, 16, 32, 0, DType::kInt4, 0, 16,
       "8 MiB int4 16x32 (RK3576 type 8), band path, "
       "NATIVE 16-byte aligned only: cached stores"},
      {4096, 4096, 16, 32, 0, DType::kInt4, 0, 0, "8 MiB int4 16x32, band path: streamed"},
      {256, 128, 32, 32, 64, DType::kInt8, 0, 0, "segments of 2 bands"},
      {200, 96, 16, 32, 80, DType::kFloat16, 0, 0, "segments ending inside a band"},
      {160, 64, 32, 32, 64, DType::kInt8, 5, 3, "misaligned buffers"},
      {4096, 2048, 32, 32, 0, DType::kInt8, 0, 0, "8 MiB int8: streamed"},
      {2048, 2048, 16, 32, 0, DType::kFloat16, 0, 0, "8 MiB fp16: streamed"},
      {4096, 2048, 32, 32, 1024, DType::kInt8, 0, 0, "8 MiB int8, segmented: streamed"},
      {4160, 2016, 32, 32, 0, DType::kInt8, 0, 0, "8 MiB int8, lines not 64-aligned"},
      {4096, 2048, 32, 32, 0, DType::kInt8, 8, 32, "8 MiB, misaligned: cached stores"},
  };
}

TEST(FastPaths, RknnBMatchesTheOracleOnEveryPath) {
  for (const BCase& c : BCases()) {
    for (bool tp : {false, true}) {
      for (NibbleOrder plain_order : {NibbleOrder::kLowFirst, NibbleOrder::kHighFirst}) {
        const NibbleOrder native_order = plain_order == NibbleOrder::kLowFirst
                                             ? NibbleOrder::kHighFirst
                                             : NibbleOrder::kLowFirst;
        if (Bits(c.dtype) != 4 && plain_order == NibbleOrder::kHighFirst) continue;
        SCOPED_TRACE(std::to_string(c.k) + "x" + std::to_string(c.n) + " tile " +
                     std::to_string(c.sub_n) + "x" + std::to_string(c.sub_k) + " L " +
                     std::to_string(c.seg_len) + " " + std::string(Name(c.dtype)) +
                     (tp ? " TP_NORM" : " NORM") + " plain " + NibbleOrderName(plain_order) + ": " +
                     c.why);
        auto g = rknn::BNativeGeometryFor(c.k, c.n, c.sub_n, c.sub_k, c.seg_len, c.dtype);
        auto l = oracle::rknn::BLayoutOf(c.k, c.n, c.sub_n, c.sub_k, c.seg_len);
        ASSERT_TRUE(g && l);
        const Bytes plain = Random(3, g->norm_bytes);
        const Bytes want_native =
            oracle::rknn::BToNative(plain, *l, c.dtype, tp, plain_order, native_order);
        const Bytes native_in = Random(4, g->native_bytes);
        const Bytes want_plain =
            oracle::rknn::BToPlain(native_in, *l, c.dtype, tp, native_order, plain_order);
        for (simd::Isa isa : Paths()) {
          SCOPED_TRACE(simd::IsaName(isa));
          On(isa, [&] {
            Placed src(plain, c.plain_offset);
            Guarded native(g->native_bytes, c.native_offset);
            rknn::BPlainToNative(src.data(), native.data(), *g, tp, plain_order, native_order);
            EXPECT_TRUE(native.Contents() == want_native) << "to NATIVE differs from the oracle";
            EXPECT_TRUE(native.GuardsIntact()) << "to NATIVE wrote outside its buffer";
            Placed packed(native_in, c.native_offset);
            Guarded back(g->norm_bytes, c.plain_offset);
            rknn::BNativeToPlain(packed.data(), back.data(), *g, tp, native_order, plain_order);
            EXPECT_TRUE(back.Contents() == want_plain) << "back differs from the oracle";
            EXPECT_TRUE(back.GuardsIntact()) << "back wrote outside its buffer";
          });
        }
      }
    }
  }
}

// ---- RKNN NATIVE A / C (spec rknn.md §2.1) ---------------------------------------

struct RowBlockedCase {
  int64_t rows, cols, sub;
  DType dtype;
  uint64_t norm_offset = 0, native_offset = 0;
  const char* why = "";
};

// 16-byte NATIVE rows take the AVX-512 or AVX2 kernel (A int8 subK 16, fp16 8,
// int4 32; C int32/fp32 4, int16 8); 8-byte rows (RK3566 A) stay portable;
// every path walks rows in bands of 16.
std::vector<RowBlockedCase> RowBlockedCases() {
  return {
      {8, 128, 16, DType::kInt8, 0, 0, "A int8, whole quads"},
      {7, 100, 16, DType::kInt8, 0, 0, "A int8, ragged rows and cols"},
      {12, 72, 8, DType::kFloat16, 0, 0, "A fp16"},
      {5, 33, 32, DType::kInt4, 0, 0, "A int4, odd count"},
      {8, 256, 32, DType::kInt4, 0, 0, "A int4, whole quads"},
      {9, 40, 4, DType::kInt32, 0, 0, "C int32"},
      {35, 112, 16, DType::kInt8, 0, 0, "A int8, three bands, odd rows, half a quad left"},
      {16, 48, 4, DType::kFloat, 3, 17, "C fp32, misaligned buffers"},
      {6, 64, 8, DType::kInt8, 0, 0, "RK3566 A int8 subK 8: portable"},
      {8192, 1024, 16, DType::kInt8, 0, 0, "8 MiB: streamed"},
      {8009, 1056, 16, DType::kInt8, 0, 0,
       "8 MiB: streamed, an odd count of 32-byte pieces, a short last band"},
      {2046, 1040, 4, DType::kFloat, 0, 0, "8 MiB, ragged: cached stores"},
  };
}

TEST(FastPaths, RknnRowBlockedMatchesTheOracleOnEveryPath) {
  for (const RowBlockedCase& c : RowBlockedCases()) {
    SCOPED_TRACE(std::to_string(c.rows) + "x" + std::to_string(c.cols) + " sub " +
                 std::to_string(c.sub) + " " + std::string(Name(c.dtype)) + ": " + c.why);
    auto g = rknn::RowBlockedGeometryFor(c.rows, c.cols, c.sub, c.dtype);
    ASSERT_TRUE(g);
    const NibbleOrder norm_order = NibbleOrder::kLowFirst, native_order = NibbleOrder::kHighFirst;
    const Bytes norm = Random(5, g->norm_bytes);
    const Bytes want_native = oracle::rknn::RowBlockedToNative(norm, c.rows, c.cols, c.sub, c.dtype,
                                                               norm_order, native_order);
    const Bytes native_in = Random(6, g->native_bytes);
    const Bytes want_norm = oracle::rknn::RowBlockedToNorm(native_in, c.rows, c.cols, c.sub,
                                                           c.dtype, native_order, norm_order);
    for (simd::Isa isa : Paths()) {
      SCOPED_TRACE(simd::IsaName(isa));
      On(isa, [&] {
        Placed src(norm, c.norm_offset);
        Guarded native(g->native_bytes, c.native_offset);
        rknn::RowBlockedToNative(src.data(), native.data(), *g, norm_order, native_order);
        EXPECT_TRUE(native.Contents() == want_native) << "to NATIVE differs from the oracle";
        EXPECT_TRUE(native.GuardsIntact());
        Placed packed(native_in, c.native_offset);
        Guarded back(g->norm_bytes, c.norm_offset);
        rknn::RowBlockedToNorm(packed.data(), back.data(), *g, native_order, norm_order);
        EXPECT_TRUE(back.Contents() == want_norm) << "to NORM differs from the oracle";
        EXPECT_TRUE(back.GuardsIntact());
      });
    }
  }
}

// ---- dequant (reference/quant) -------------------------------------------------

// The rounding helpers against Eigen: every fp16 and bf16 input widened, and
// every sign/exponent/top-7-mantissa prefix of fp32 with the low 16 bits set
// to the patterns that decide a rounding (round bit, sticky bits, ties, odd
// and even last kept bits) — all fp16 subnormal, overflow and NaN cases.
TEST(HalfLanes, AgreeWithEigenBitForBit) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const auto bits = static_cast<uint16_t>(h);
    ASSERT_EQ(std::bit_cast<uint32_t>(quant::HalfBitsToFloat(bits)),
              std::bit_cast<uint32_t>(static_cast<float>(HalfFromBits(bits))))
        << std::hex << h;
    ASSERT_EQ(std::bit_cast<uint32_t>(quant::BFloat16BitsToFloat(bits)),
              std::bit_cast<uint32_t>(static_cast<float>(BFloat16FromBits(bits))))
        << std::hex << h;
  }
  std::vector<uint32_t> lows = {0x0000, 0x0001, 0x0FFF, 0x1000, 0x1001, 0x1FFF, 0x2000, 0x2001,
                                0x3000, 0x3FFF, 0x4000, 0x5000, 0x6000, 0x7FFF, 0x8000, 0x8001,
                                0x9000, 0xA000, 0xBFFF, 0xC000, 0xE000, 0xEFFF, 0xF000, 0xFFFF};
  SplitMix64 rng(7);
  for (int i = 0; i < 16; ++i) lows.push_back(static_cast<uint32_t>(rng.Next() & 0xFFFF));
  for (uint32_t high = 0; high < 0x10000; ++high) {
    for (uint32_t low : lows) {
      const float f = std::bit_cast<float>(high << 16 | low);
      ASSERT_EQ(quant::HalfBitsRne(f), HalfBits(Half(f))) << std::hex << (high << 16 | low);
      ASSERT_EQ(quant::BFloat16BitsRne(f), BFloat16Bits(BFloat16(f)))
          << std::hex << (high << 16 | low);
    }
  }
}

// Param values that reach every branch of the roundings: ordinary scales,
// fp16 subnormals and overflow, signed zeros, infinities, NaNs with payloads.
// Without `with_specials`, ordinary values only: the AVX2 fp16 path computes with
// F16C only where every param of a group is finite (reference/quant/dequant.cpp).
std::vector<float> Params(uint64_t seed, int64_t count, bool with_specials = true) {
  const float specials[] = {0.0f,
                            -0.0f,
                            1.0f,
                            -3.5f,
                            65504.0f,
                            70000.0f,
                            6.0e-8f,
                            -3.0e-5f,
                            1e-30f,
                            std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::bit_cast<float>(0x7FC00001u),
                            std::bit_cast<float>(0xFF812345u),
                            100.3125f,
                            0.0025f};
  SplitMix64 rng(seed);
  std::vector<float> out(static_cast<size_t>(count));
  for (float& v : out) {
    const uint64_t r = rng.Next();
    if (with_specials && r % 8 == 0) {
      v = specials[(r >> 8) % std::size(specials)];
    } else {
      v = static_cast<float>(static_cast<int64_t>(r >> 40) % 2000 - 1000) / 97.0f;
    }
  }
  return out;
}

struct DequantCase {
  int64_t rows, cols;
  quant::Granularity granularity;
  int64_t group_size;
  quant::GroupOrder order;
  const char* why;
};

// Rows per group below and above the table threshold (8), cols below, at and
// above a 32-col step with a tail, odd cols (int4 rows starting mid-byte),
// a short last group, both per-group param orders.
std::vector<DequantCase> DequantCases() {
  using G = quant::Granularity;
  using O = quant::GroupOrder;
  return {
      {64, 96, G::kPerGroup, 32, O::kGroupMajor, "per-group, table path, 32-col steps"},
      {70, 45, G::kPerGroup, 16, O::kGroupMajor, "odd cols, short last group, tail cols"},
      {40, 64, G::kPerGroup, 8, O::kChannelMajor, "channel-major params"},
      {12, 33, G::kPerGroup, 4, O::kGroupMajor, "4 rows per group: direct path"},
      {9, 130, G::kPerChannel, 0, O::kGroupMajor, "per-channel"},
      {17, 31, G::kPerTensor, 0, O::kGroupMajor, "per-tensor, odd cols"},
      {3, 7, G::kPerTensor, 0, O::kGroupMajor, "tiny"},
  };
}

TEST(FastPaths, DequantizeEqualsTheElementwiseDefinition) {
  using quant::OutType;
  using quant::QType;
  using quant::Rounding;
  for (const DequantCase& c : DequantCases()) {
    for (QType qtype : {QType::kInt8, QType::kUint8, QType::kInt4}) {
      for (NibbleOrder nibbles : {NibbleOrder::kLowFirst, NibbleOrder::kHighFirst}) {
        if (qtype != QType::kInt4 && nibbles == NibbleOrder::kHighFirst) continue;
        for (OutType out_type : {OutType::kFloat, OutType::kFloat16, OutType::kBf16}) {
          for (Rounding rounding : {Rounding::kPerStep, Rounding::kFp32Once}) {
            for (int variant = 0; variant < 4; ++variant) {
              const bool with_zero_point = variant % 2 == 0, specials = variant < 2;
              quant::DequantArgs a;
              a.geometry = {c.rows, c.cols, c.granularity, c.group_size, c.order};
              const int64_t count = c.rows * c.cols;
              const Bytes q = Random(11, qtype == QType::kInt4 ? (count + 1) / 2 : count);
              const auto scale = Params(12, a.geometry.ParamCount(), specials);
              const auto zero = Params(13, a.geometry.ParamCount(), specials);
              a.q = q.data();
              a.qtype = qtype;
              a.nibbles = nibbles;
              a.scale = scale.data();
              a.zero_point = with_zero_point ? zero.data() : nullptr;
              a.rounding = rounding;
              a.out_type = out_type;
              const size_t out_bytes =
                  static_cast<size_t>(count) * (out_type == OutType::kFloat ? 4 : 2);
              Bytes want(out_bytes);
              ASSERT_TRUE(quant::DequantizeElementwise(a, want.data()));
              for (simd::Isa isa : Paths()) {
                On(isa, [&] {
                  Bytes got(out_bytes, 0xCD);
                  ASSERT_TRUE(quant::Dequantize(a, got.data()));
                  EXPECT_TRUE(got == want)
                      << c.why << ": qtype " << static_cast<int>(qtype) << " "
                      << NibbleOrderName(nibbles) << " out " << static_cast<int>(out_type)
                      << " rounding " << static_cast<int>(rounding) << " zp " << with_zero_point
                      << " specials " << specials << " on " << simd::IsaName(isa);
                });
              }
            }
          }
        }
      }
    }
  }
}

// DequantRow (the gather kernel) against a one-row per-tensor Dequantize,
// from every int4 parity and across its 512-element chunks.
TEST(FastPaths, DequantRowEqualsTheElementwiseDefinition) {
  using quant::QType;
  const Bytes q = Random(21, 2000);
  for (QType qtype : {QType::kInt8, QType::kUint8, QType::kInt4}) {
    for (int64_t offset : {0, 1, 7}) {
      for (int64_t count : {1, 33, 700}) {
        const float scale = 0.0025f, zero_point = -100.3125f;  // rounds after the subtraction
        quant::DequantArgs a;
        a.geometry = {1, count, quant::Granularity::kPerTensor, 0, quant::GroupOrder::kGroupMajor};
        // Element `offset` of q is where the row starts: shift by whole bytes
        // and keep the parity for int4.
        const int64_t byte_shift = qtype == QType::kInt4 ? offset / 2 : offset;
        a.q = q.data() + byte_shift;
        a.qtype = qtype;
        a.scale = &scale;
        a.zero_point = &zero_point;
        a.rounding = quant::Rounding::kPerStep;
        a.out_type = quant::OutType::kFloat16;
        const int64_t parity = qtype == QType::kInt4 ? offset % 2 : 0;
        if (parity) continue;  // an odd start has no one-row Dequantize form; covered below
        std::vector<uint16_t> want(static_cast<size_t>(count));
        ASSERT_TRUE(quant::DequantizeElementwise(a, want.data()));
        for (simd::Isa isa : Paths()) {
          On(isa, [&] {
            std::vector<Half> got(static_cast<size_t>(count));
            quant::DequantRow(q.data(), qtype, NibbleOrder::kLowFirst, offset, count, scale,
                              zero_point, quant::Rounding::kPerStep, got.data());
            for (int64_t e = 0; e < count; ++e) {
              ASSERT_EQ(HalfBits(got[e]), want[e])
                  << "element " << e << " on " << simd::IsaName(isa);
            }
          });
        }
      }
    }
  }
  // An odd int4 start: element by element against the two's-complement nibble.
  for (simd::Isa isa : Paths()) {
    On(isa, [&] {
      std::vector<float> got(9);
      quant::DequantRow(q.data(), quant::QType::kInt4, NibbleOrder::kHighFirst, 3, 9, 1.0f, 0.0f,
                        quant::Rounding::kFp32Once, got.data());
      for (int64_t i = 0; i < 9; ++i) {
        const int64_t e = 3 + i;
        const uint8_t byte = q[static_cast<size_t>(e / 2)];
        const int nibble = e % 2 == 0 ? byte >> 4 : byte & 0xF;  // high first: even = high
        EXPECT_EQ(got[static_cast<size_t>(i)],
                  static_cast<float>(nibble >= 8 ? nibble - 16 : nibble));
      }
    });
  }
}

// The vendor routines that sit on Dequantize / DequantRow, against their
// oracles at sizes that reach the table, 32-col and tail paths.
TEST(FastPaths, VendorDequantMatchesTheOracles) {
  for (simd::Isa isa : Paths()) {
    SCOPED_TRACE(simd::IsaName(isa));
    On(isa, [&] {
      // CANN antiquant, int4 and int8 per-group, fp16 and bf16 (spec cann.md §4).
      for (DType weight : {DType::kInt4, DType::kInt8}) {
        for (DType x : {DType::kFloat16, DType::kBf16}) {
          const int64_t k = 256, n = 72, gs = 64;
          oracle::quant::AntiquantCall call{
              "DAV_2201", true,   65535,  // profiles/cann/ascend910b.json
              x,          weight, k,     n, false, false, Shape{k / gs, n}, Shape{k / gs, n}, gs};
          const Bytes w = Random(31, weight == DType::kInt8 ? k * n : k * n / 2);
          std::vector<uint16_t> s(static_cast<size_t>(k / gs * n)), o(s.size());
          SplitMix64 rng(32);
          for (size_t i = 0; i < s.size(); ++i) {
            s[i] = x == DType::kBf16 ? BFloat16Bits(BFloat16(0.001f * (i % 50 + 1)))
                                     : HalfBits(Half(0.001f * (i % 50 + 1)));
            // Any bits but NaN: the reference subtracts −offset where the
            // oracle adds offset (spec cann.md §4.1), so a NaN offset comes
            // out with opposite signs — a difference older than these paths.
            do {
              o[i] = static_cast<uint16_t>(rng.Next());
            } while ((o[i] & 0x7C00) == 0x7C00 && (o[i] & 0x03FF) != 0);
          }
          quant::AntiquantArgs a;
          a.npu_arch = "DAV_2201";
          a.soc_supported = true;  // profiles/cann/ascend910b.json
          a.kn_max = 65535;
          a.x_dtype = x;
          a.weight_dtype = weight;
          a.k = k;
          a.n = n;
          a.weight = w.data();
          a.weight_bytes = w.size();
          a.scale_shape = Shape{k / gs, n};
          a.scale_bits = s.data();
          a.offset_shape = Shape{k / gs, n};
          a.offset_bits = o.data();
          a.group_size = gs;
          std::vector<uint16_t> y(static_cast<size_t>(k * n));
          a.y = y.data();
          a.y_capacity_elems = y.size();
          ASSERT_EQ(quant::CannAntiquant(a, nullptr), 0);
          EXPECT_EQ(y, oracle::quant::Antiquant(call, w, s, o)) << Name(weight) << " → " << Name(x);
        }
      }
      // RKNN B dequant, int4 both nibble orders and int8, per-group (spec rknn.md §5).
      for (DType b : {DType::kInt4, DType::kInt8}) {
        for (bool high : {false, true}) {
          if (b == DType::kInt8 && high) continue;
          const int64_t k = 128, n = 96, gs = 32;
          const Bytes q = Random(41, b == DType::kInt8 ? k * n : k * n / 2);
          std::vector<float> scale = Params(42, k / gs * n);
          for (float& v : scale) v = std::isfinite(v) ? v : 0.5f;
          std::vector<int32_t> zp(scale.size());
          for (size_t i = 0; i < zp.size(); ++i) zp[i] = static_cast<int32_t>(i % 7) - 3;
          quant::RknnDequantArgs a;
          a.b_dtype = b;
          a.nibbles = high ? NibbleOrder::kHighFirst : NibbleOrder::kLowFirst;
          a.k = k;
          a.n = n;
          a.b = q.data();
          a.b_bytes = q.size();
          a.quant_type = quant::RknnQuantType::kPerGroup;
          a.group_size = gs;
          a.asymmetric = true;
          a.scale = scale.data();
          a.scale_len = static_cast<int64_t>(scale.size());
          a.zp = zp.data();
          a.zp_len = static_cast<int64_t>(zp.size());
          std::vector<float> y(static_cast<size_t>(k * n));
          a.y = y.data();
          a.y_capacity_elems = y.size();
          ASSERT_EQ(quant::RknnDequantB(a, nullptr), 0);
          oracle::quant::RknnCall call;
          call.b_dtype = b;
          call.even_high = high;
          call.k = k;
          call.n = n;
          call.quant_type = 5;  // RKNN_QUANT_TYPE_PER_GROUP_ASYM
          call.group_size = gs;
          call.asymmetric = true;
          call.scale_len = call.zp_len = a.scale_len;
          call.any_nonzero_zp = true;
          const auto want = oracle::quant::RknnDequantB(call, q, scale, zp);
          ASSERT_EQ(want.size(), y.size());
          EXPECT_EQ(std::memcmp(want.data(), y.data(), y.size() * sizeof(float)), 0)
              << Name(b) << (high ? " high_first" : " low_first");
        }
      }
      // GatherDequantInt8: embed 300 takes the 256-entry table, 40 the direct row.
      for (int64_t embed : {300, 40}) {
        const int64_t vocab = 50;
        const Bytes table = Random(51, vocab * embed);
        std::vector<uint16_t> s(static_cast<size_t>(vocab)), z(s.size());
        SplitMix64 rng(52);
        for (size_t i = 0; i < s.size(); ++i) {
          s[i] = static_cast<uint16_t>(rng.Next());
          z[i] = static_cast<uint16_t>(rng.Next());
        }
        std::vector<int32_t> idx = {0, 49, 7, 7, 23};
        std::vector<uint16_t> y(idx.size() * static_cast<size_t>(embed));
        quant::GatherDequantArgs a{table.data(), vocab,    embed, idx.data(), 5,       s.data(),
                                   vocab,        z.data(), vocab, y.data(),   y.size()};
        ASSERT_EQ(quant::GatherDequantInt8(a, nullptr), 0);
        EXPECT_EQ(y, oracle::quant::GatherDequantInt8(table, vocab, embed, idx, s, z))
            << "embed " << embed;
      }
    });
  }
}

// ---- CANN TransData C0 blocks (spec layouts.md §A.1, §A.3) -----------------------

// Both directions of one C0-block move on every path this machine runs: `pack`
// writes into a buffer of want_blocked's size that must then hold
// want_blocked, `unpack` likewise want_plain (Guarded::kSentinel where a side
// is not written); neither may write outside its buffer.
void ExpectC0BlocksOnEveryPath(const Bytes& want_blocked, const std::function<void(uint8_t*)>& pack,
                               const Bytes& want_plain,
                               const std::function<void(uint8_t*)>& unpack) {
  for (simd::Isa isa : Paths()) {
    SCOPED_TRACE(simd::IsaName(isa));
    On(isa, [&] {
      Guarded blocked(want_blocked.size(), 0);
      std::fill(blocked.data(), blocked.data() + want_blocked.size(), Guarded::kSentinel);
      pack(blocked.data());
      blocks::FinishStreaming();
      EXPECT_TRUE(blocked.Contents() == want_blocked) << "to C0 blocks differs";
      EXPECT_TRUE(blocked.GuardsIntact()) << "to C0 blocks wrote outside its buffer";
      Guarded back(want_plain.size(), 0);
      std::fill(back.data(), back.data() + want_plain.size(), Guarded::kSentinel);
      unpack(back.data());
      blocks::FinishStreaming();
      EXPECT_TRUE(back.Contents() == want_plain) << "to planes differs";
      EXPECT_TRUE(back.GuardsIntact()) << "to planes wrote outside its buffer";
    });
  }
}

// The definition, written out: element j of plane r is lane r of blocked row j;
// lanes [planes, c0) are 0 after a pack.
TEST(FastPaths, C0BlocksMatchTheirDefinitionOnEveryPath) {
  struct C0Case {
    int64_t elem_bytes, c0, planes, cols, plain_pad, row_pad;
    bool stream;
  };
  std::vector<C0Case> cases;
  for (int64_t elem_bytes : {1, 2, 4}) {
    // C0 4: NC1HWC0_C04 and FRACTAL_Z_C04's pixels (§A.2, §A.5).
    for (int64_t c0 : {4, 8, 16, 32}) {
      if (c0 * elem_bytes > 64) continue;
      // The columns of one scratch chunk (channel_blocks.cpp: 16 KiB / C0).
      const int64_t chunk = (int64_t{16} << 10) / c0 / elem_bytes;
      for (int64_t planes : {int64_t{1}, c0 - 1, c0}) {
        // 48 and 80: an odd count of whole tiles. chunk ± a few: one scratch
        // chunk and the tiles or elements after it; 2 · chunk + 37 two chunks.
        for (int64_t cols :
             {int64_t{1}, int64_t{7}, int64_t{8}, int64_t{16}, int64_t{17}, int64_t{32},
              int64_t{48}, int64_t{80}, int64_t{100}, chunk, chunk + 16, 2 * chunk + 37}) {
          for (bool stream : {false, true}) {
            cases.push_back({elem_bytes, c0, planes, cols, 0, 0, stream});
            // Plane gaps (a plane of an NCHW block inside a larger C) and
            // blocked rows apart (FRACTAL_Z rows Np · C0 apart): not streamed.
            cases.push_back({elem_bytes, c0, planes, cols, 6, 3 * c0 * elem_bytes, stream});
            // Planes 4 KiB apart: one L1 set (the cached unpack's scratch).
            if (cols * elem_bytes <= 4096) {
              cases.push_back({elem_bytes, c0, planes, cols, 4096 - cols * elem_bytes, 0, stream});
            }
          }
        }
      }
    }
  }
  for (const C0Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.elem_bytes) + "-byte C0 " + std::to_string(c.c0) + ", " +
                 std::to_string(c.planes) + " planes × " + std::to_string(c.cols) +
                 (c.stream ? ", streamed" : ""));
    const bool stream = c.stream;
    const int64_t e = c.elem_bytes;
    const int64_t plain_stride = c.cols * e + c.plain_pad;
    const int64_t row_stride = c.c0 * e + c.row_pad;
    const uint64_t plain_bytes = static_cast<uint64_t>((c.planes - 1) * plain_stride + c.cols * e);
    const uint64_t blocked_bytes = static_cast<uint64_t>((c.cols - 1) * row_stride + c.c0 * e);
    const Bytes plain = Random(21, plain_bytes);
    const Bytes blocked_in = Random(22, blocked_bytes);
    // What each side must hold; Guarded's sentinel where a side is not written.
    Bytes want_blocked(blocked_bytes, Guarded::kSentinel);
    Bytes want_plain(plain_bytes, Guarded::kSentinel);
    for (int64_t j = 0; j < c.cols; ++j) {
      for (int64_t r = 0; r < c.c0; ++r) {
        for (int64_t b = 0; b < e; ++b) {
          const int64_t at_blocked = j * row_stride + r * e + b;
          if (r >= c.planes) {
            want_blocked[at_blocked] = 0;
            continue;
          }
          const int64_t at_plain = r * plain_stride + j * e + b;
          want_blocked[at_blocked] = plain[at_plain];
          want_plain[at_plain] = blocked_in[at_blocked];
        }
      }
    }
    ExpectC0BlocksOnEveryPath(
        want_blocked,
        [&](uint8_t* to) {
          blocks::PlanesToC0(plain.data(), plain_stride, c.planes, c.cols, c.c0, e, to, row_stride,
                             stream);
        },
        want_plain,
        [&](uint8_t* to) {
          blocks::C0ToPlanes(blocked_in.data(), row_stride, c.planes, c.cols, c.c0, e, to,
                             plain_stride, stream);
        });
  }
}

// PlanesToC0Images / C0ToPlanesImages (FRACTAL_Z's chunk of n in one call),
// written out: image i is the definition above at plain + i · plain_image and
// blocked + i · blocked_image. As FRACTAL_Z lays them out (images' rows
// interleaved, each image one C0 run of a longer row; trans_data.cpp,
// FractalZBlocks) and disjoint; full C0 (the tiles) and one plane short (the
// element loop); column counts with and without a tail after the tiles.
TEST(FastPaths, C0BlockImagesMatchTheirDefinitionOnEveryPath) {
  for (const auto& [e, c0] :
       {std::pair<int64_t, int64_t>{1, 32}, {1, 16}, {2, 16}, {2, 8}, {2, 4}, {4, 16}, {4, 8}}) {
    for (int64_t planes : {c0, c0 - 1}) {
      for (int64_t cols : {16, 40, 64}) {
        for (bool interleaved : {true, false}) {
          for (bool stream : {false, true}) {
            const int64_t images = 5, run = c0 * e;
            SCOPED_TRACE(std::to_string(e) + "-byte C0 " + std::to_string(c0) + ", " +
                         std::to_string(planes) + " planes × " + std::to_string(cols) +
                         (interleaved ? ", rows interleaved" : ", disjoint") +
                         (stream ? ", streamed" : ""));
            const int64_t plain_stride = cols * e + 32;  // a plane, with a gap
            const int64_t plain_image = planes * plain_stride + 64;
            const int64_t row_stride = interleaved ? images * run : run;
            const int64_t blocked_image = interleaved ? run : cols * run;
            const auto plain_bytes = static_cast<uint64_t>(images * plain_image);
            const auto blocked_bytes = static_cast<uint64_t>(images * cols * run);
            const Bytes plain = Random(51, plain_bytes);
            const Bytes blocked_in = Random(52, blocked_bytes);
            Bytes want_blocked(blocked_bytes, Guarded::kSentinel);
            Bytes want_plain(plain_bytes, Guarded::kSentinel);
            for (int64_t i = 0; i < images; ++i) {
              for (int64_t j = 0; j < cols; ++j) {
                for (int64_t r = 0; r < c0; ++r) {
                  for (int64_t b = 0; b < e; ++b) {
                    const int64_t at_blocked = i * blocked_image + j * row_stride + r * e + b;
                    if (r >= planes) {
                      want_blocked[at_blocked] = 0;
                      continue;
                    }
                    const int64_t at_plain = i * plain_image + r * plain_stride + j * e + b;
                    want_blocked[at_blocked] = plain[at_plain];
                    want_plain[at_plain] = blocked_in[at_blocked];
                  }
                }
              }
            }
            ExpectC0BlocksOnEveryPath(
                want_blocked,
                [&](uint8_t* to) {
                  blocks::PlanesToC0Images(images, plain_image, blocked_image, plain.data(),
                                           plain_stride, planes, cols, c0, e, to, row_stride,
                                           stream);
                },
                want_plain,
                [&](uint8_t* to) {
                  blocks::C0ToPlanesImages(images, blocked_image, plain_image, blocked_in.data(),
                                           row_stride, planes, cols, c0, e, to, plain_stride,
                                           stream);
                });
          }
        }
      }
    }
  }
}

// PlanesToC04Runs / C04RunsToPlanes (FRACTAL_Z_C04 fp16, §A.5), written out:
// pixel j of plane r of image i is lane r of pixel j of the flattened row,
// which is element 4j + r of it, in run (4j + r) div 16 at run_stride apart,
// image i's runs 32 bytes after image i − 1's; lanes past `planes` are 0. A
// path without the tile must say so and write nothing.
TEST(FastPaths, C04RunsMatchTheirDefinitionOnEveryPath) {
  for (int64_t planes : {1, 3, 4}) {
    for (int64_t cols : {16, 48}) {
      for (bool stream : {false, true}) {
        SCOPED_TRACE(std::to_string(planes) + " planes × " + std::to_string(cols) +
                     (stream ? ", streamed" : ""));
        const int64_t images = 3, rows = cols * 4 / 16;
        const int64_t plain_stride = cols * 2 + 32, plain_image = 4 * plain_stride + 64;
        const int64_t run_stride = images * 32 + 64;  // rows Np · C0 apart, with a gap
        const auto plain_bytes = static_cast<uint64_t>(images * plain_image);
        const auto runs_bytes = static_cast<uint64_t>(rows * run_stride);
        const Bytes plain = Random(61, plain_bytes);
        const Bytes runs_in = Random(62, runs_bytes);
        Bytes want_runs(runs_bytes, Guarded::kSentinel),
            want_plain(plain_bytes, Guarded::kSentinel);
        for (int64_t i = 0; i < images; ++i) {
          for (int64_t j = 0; j < cols; ++j) {
            for (int64_t r = 0; r < 4; ++r) {
              const int64_t f = 4 * j + r;  // element of the flattened row
              for (int64_t b = 0; b < 2; ++b) {
                const int64_t at_run = (f / 16) * run_stride + i * 32 + (f % 16) * 2 + b;
                if (r >= planes) {
                  want_runs[at_run] = 0;
                  continue;
                }
                const int64_t at_plain = i * plain_image + r * plain_stride + 2 * j + b;
                want_runs[at_run] = plain[at_plain];
                want_plain[at_plain] = runs_in[at_run];
              }
            }
          }
        }
        for (simd::Isa isa : Paths()) {
          SCOPED_TRACE(simd::IsaName(isa));
          On(isa, [&] {
            Guarded runs(runs_bytes, 0);
            std::fill(runs.data(), runs.data() + runs_bytes, Guarded::kSentinel);
            if (blocks::PlanesToC04Runs(images, plain_image, plain.data(), plain_stride, planes,
                                        cols, runs.data(), run_stride, stream)) {
              blocks::FinishStreaming();
              EXPECT_TRUE(runs.Contents() == want_runs) << "to runs differs";
            } else {
              EXPECT_TRUE(runs.Contents() == Bytes(runs_bytes, Guarded::kSentinel))
                  << "declined, but wrote";
            }
            EXPECT_TRUE(runs.GuardsIntact()) << "to runs wrote outside its buffer";
            Guarded back(plain_bytes, 0);
            std::fill(back.data(), back.data() + plain_bytes, Guarded::kSentinel);
            if (blocks::C04RunsToPlanes(images, plain_image, runs_in.data(), run_stride, planes,
                                        cols, back.data(), plain_stride)) {
              EXPECT_TRUE(back.Contents() == want_plain) << "to planes differs";
            } else {
              EXPECT_TRUE(back.Contents() == Bytes(plain_bytes, Guarded::kSentinel))
                  << "declined, but wrote";
            }
            EXPECT_TRUE(back.GuardsIntact()) << "to planes wrote outside its buffer";
          });
        }
      }
    }
  }
}

// C0RunPairs (FRACTAL_Z (_3D) fp16, C0 16), written out: plane r of image i,
// column j = b · block_cols + k ↔ element r of the run at b · block_stride + k
// · run_stride + i · 32. Odd image counts (the last image alone), two and
// four column blocks (FRACTAL_Z_3D's d; four, so a pair of blocks other than
// the first is written), streamed, and outputs off a 64-byte boundary
// (streaming declined) all meet the definition; a path that declines writes
// nothing.
TEST(FastPaths, C0RunPairsMatchTheirDefinitionOnEveryPath) {
  for (int64_t images : {1, 4, 5}) {
    for (int64_t block_cols : {16, 32}) {
      for (int64_t blocks : {1, 2, 4}) {
        for (bool stream : {false, true}) {
          for (uint64_t offset : {uint64_t{0}, uint64_t{32}}) {
            SCOPED_TRACE(std::to_string(images) + " images, " + std::to_string(blocks) + " × " +
                         std::to_string(block_cols) + " columns" + (stream ? ", streamed" : "") +
                         ", offset " + std::to_string(offset));
            const int64_t cols = blocks * block_cols;
            const int64_t plain_stride = cols * 2 + 64, plain_image = 16 * plain_stride + 128;
            const int64_t run_stride = images * 32 + 64 * (images % 2 + 1);  // Np · C0, a gap
            const int64_t block_stride = block_cols * run_stride + 192;
            const auto plain_bytes = static_cast<uint64_t>(images * plain_image);
            const auto runs_bytes = static_cast<uint64_t>(blocks * block_stride);
            const Bytes plain = Random(63, plain_bytes);
            const Bytes runs_in = Random(64, runs_bytes);
            Bytes want_runs(runs_bytes, Guarded::kSentinel),
                want_plain(plain_bytes, Guarded::kSentinel);
            for (int64_t i = 0; i < images; ++i) {
              for (int64_t j = 0; j < cols; ++j) {
                for (int64_t r = 0; r < 16; ++r) {
                  for (int64_t b = 0; b < 2; ++b) {
                    const int64_t at_run = j / block_cols * block_stride +
                                           j % block_cols * run_stride + i * 32 + r * 2 + b;
                    const int64_t at_plain = i * plain_image + r * plain_stride + 2 * j + b;
                    want_runs[at_run] = plain[at_plain];
                    want_plain[at_plain] = runs_in[at_run];
                  }
                }
              }
            }
            for (simd::Isa isa : Paths()) {
              SCOPED_TRACE(simd::IsaName(isa));
              On(isa, [&] {
                // One direction: its output against `want`, its input unchanged.
                const auto check = [&](bool to_c0, const Bytes& in, const Bytes& want) {
                  SCOPED_TRACE(to_c0 ? "to runs" : "to planes");
                  Guarded out(want.size(), offset);
                  Bytes from = in;
                  uint8_t* planes_at = to_c0 ? from.data() : out.data();
                  uint8_t* runs_at = to_c0 ? out.data() : from.data();
                  if (blocks::C0RunPairs(to_c0, images, plain_image, planes_at, plain_stride, 16,
                                         cols, block_cols, 2, 16, runs_at, run_stride, block_stride,
                                         stream)) {
                    blocks::FinishStreaming();
                    EXPECT_TRUE(out.Contents() == want) << "differs";
                  } else {
                    EXPECT_TRUE(out.Contents() == Bytes(want.size(), Guarded::kSentinel))
                        << "declined, but wrote";
                  }
                  EXPECT_TRUE(out.GuardsIntact()) << "wrote outside its buffer";
                  EXPECT_TRUE(from == in) << "changed its input";
                };
                check(true, plain, want_runs);
                check(false, runs_in, want_plain);
              });
            }
          }
        }
      }
    }
  }
}

// GatherRuns / ScatterRuns (FRACTAL_Z_C04's chunks), written out: run i is
// bytes [i · stride, i · stride + run) of the strided side and [i · run, (i + 1)
// · run) of the packed side. Every size the switch names and one it does not;
// streamed to a 32-byte aligned and to a misaligned packed side.
TEST(FastPaths, RunsMatchTheirDefinitionOnEveryPath) {
  for (int64_t run : {16, 24, 32, 64, 96}) {
    for (int64_t count : {1, 7, 64}) {
      for (uint64_t offset : {0, 8}) {
        for (bool stream : {false, true}) {
          SCOPED_TRACE(std::to_string(count) + " runs of " + std::to_string(run) +
                       " bytes, packed side at +" + std::to_string(offset) +
                       (stream ? ", streamed" : ""));
          const int64_t stride = run + 40;
          const auto strided_bytes = static_cast<uint64_t>((count - 1) * stride + run);
          const auto packed_bytes = static_cast<uint64_t>(count * run);
          const Bytes strided = Random(41, strided_bytes);
          const Bytes packed = Random(42, packed_bytes);
          Bytes want_packed(packed_bytes), want_strided(strided_bytes, Guarded::kSentinel);
          for (int64_t i = 0; i < count; ++i) {
            for (int64_t b = 0; b < run; ++b) {
              want_packed[i * run + b] = strided[i * stride + b];
              want_strided[i * stride + b] = packed[i * run + b];
            }
          }
          for (simd::Isa isa : Paths()) {
            SCOPED_TRACE(simd::IsaName(isa));
            On(isa, [&] {
              Guarded gathered(packed_bytes, offset);
              blocks::GatherRuns(strided.data(), stride, count, run, gathered.data(), stream);
              blocks::FinishStreaming();
              EXPECT_TRUE(gathered.Contents() == want_packed) << "gather differs";
              EXPECT_TRUE(gathered.GuardsIntact()) << "gather wrote outside its buffer";
              Guarded scattered(strided_bytes, offset);
              blocks::ScatterRuns(packed.data(), count, run, scattered.data(), stride);
              EXPECT_TRUE(scattered.Contents() == want_strided) << "scatter differs";
              EXPECT_TRUE(scattered.GuardsIntact()) << "scatter wrote outside its buffer";
            });
          }
        }
      }
    }
  }
}

// NHWC pixels ↔ channel-block planes, written out: byte i of pixel p is byte
// i mod block of row p of plane i div block; the last plane's pad bytes are 0.
TEST(FastPaths, PixelBlocksMatchTheirDefinition) {
  for (int64_t block : {16, 24, 32, 64}) {
    // 4 · block and 12 · block: whole 64-byte chunks for 16 and 32 (the
    // AVX-512 pixel groups). 2 · block and 6 · block: 1 and 3 chunks of 32
    // bytes for 16 (the odd chunk of the streamed AVX2 pairs), 2 and 6 for 32
    // (StreamedToPixels' groups of 4 and its tail of 2).
    for (int64_t c_bytes : {int64_t{1}, block - 1, block, block + 1, 2 * block, 3 * block,
                            5 * block + 7, 4 * block, 6 * block, 12 * block}) {
      for (int64_t count : {1, 63, 64, 65, 200}) {
        for (int64_t gap : {0, 40}) {
          SCOPED_TRACE("block " + std::to_string(block) + ", pixel " + std::to_string(c_bytes) +
                       " bytes × " + std::to_string(count) + ", plane gap " + std::to_string(gap));
          const int64_t planes = (c_bytes + block - 1) / block;
          const int64_t plane_stride = count * block + gap;
          const auto pixel_bytes = static_cast<uint64_t>(count * c_bytes);
          const auto blocked_bytes =
              static_cast<uint64_t>((planes - 1) * plane_stride + count * block);
          const Bytes pixels = Random(31, pixel_bytes);
          const Bytes blocked_in = Random(32, blocked_bytes);
          Bytes want_blocked(blocked_bytes, Guarded::kSentinel);
          Bytes want_pixels(pixel_bytes, 0);
          for (int64_t p = 0; p < count; ++p) {
            for (int64_t i = 0; i < planes * block; ++i) {
              const int64_t at = (i / block) * plane_stride + p * block + i % block;
              want_blocked[at] = i < c_bytes ? pixels[p * c_bytes + i] : 0;
              if (i < c_bytes) want_pixels[p * c_bytes + i] = blocked_in[at];
            }
          }
          // 64-byte aligned inputs: the streamed path takes whole aligned blocks.
          const Placed pixels_in(pixels, 0), blocked_from(blocked_in, 0);
          for (simd::Isa isa : Paths()) {
            for (bool stream : {false, true}) {
              SCOPED_TRACE(std::string(simd::IsaName(isa)) + (stream ? ", streamed" : ""));
              On(isa, [&] {
                Guarded blocked(blocked_bytes, 0);
                std::fill(blocked.data(), blocked.data() + blocked_bytes, Guarded::kSentinel);
                blocks::PixelsToBlocks(pixels_in.data(), count, c_bytes, block, blocked.data(),
                                       plane_stride, stream);
                blocks::FinishStreaming();
                EXPECT_TRUE(blocked.Contents() == want_blocked) << "to blocks differs";
                EXPECT_TRUE(blocked.GuardsIntact()) << "to blocks wrote outside its buffer";
                Guarded back(pixel_bytes, 0);
                blocks::BlocksToPixels(blocked_from.data(), plane_stride, count, c_bytes, block,
                                       back.data(), stream);
                blocks::FinishStreaming();
                EXPECT_TRUE(back.Contents() == want_pixels) << "to pixels differs";
                EXPECT_TRUE(back.GuardsIntact()) << "to pixels wrote outside its buffer";
              });
            }
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace npuconf
