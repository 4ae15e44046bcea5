#include "reference/rknn/native_layout.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "reference/rknn/int4.h"
#include "reference/simd/avx2_blocks.h"
#include "reference/simd/avx512_blocks.h"
#include "reference/simd/isa.h"

#if NPUCONF_HAVE_NEON_KERNELS
#include <arm_neon.h>
#endif

namespace npuconf::rknn {
namespace {

bool SupportedBits(int bits) { return bits == 4 || bits == 8 || bits == 16 || bits == 32; }

std::optional<uint64_t> BytesOf(int64_t elems, int bits) {
  auto total_bits = CheckedMul(elems, bits);
  if (!total_bits) return std::nullopt;
  return static_cast<uint64_t>((*total_bits + 7) / 8);
}

// Outputs at least this large are written with non-temporal stores (AVX-512
// path); the threshold and its measurement are in isa.h.
constexpr uint64_t kStreamMinBytes = simd::kStreamMinBytes;

#if NPUCONF_HAVE_AVX512_KERNELS
bool Aligned64(const void* p) { return reinterpret_cast<uintptr_t>(p) % 64 == 0; }
#endif

// Shift of a byte's first element for a nibble order (§2.4): 0 or 4.
int FirstShift(NibbleOrder order) { return order == NibbleOrder::kLowFirst ? 0 : 4; }

// int4 B through the byte kernels (see BInt4AsBytes): the first-element shift
// of the NORM side's bytes and of the NATIVE side's.
struct Nibbles {
  int plain_first = 0;
  int native_first = 0;
};

// ---- A / C -------------------------------------------------------------------

// Portable path, rows [r0, r1) × blocks [b0, b1): every NATIVE row of `sub`
// elements is one run of a NORM row. Rows go in bands of kRowBand, all blocks
// per band, as the vector kernels below do: the band's NORM rows are read as
// sequential streams and each block gets kRowBand contiguous rows. Walking
// one block down all rows instead read a line per row and measured 3.5-6.9×
// memcpy (A and C, 64 MiB, AVX2 machine, issue 19).
constexpr int64_t kRowBand = 16;

void RowBlockedRange(uint8_t* norm, uint8_t* native, const RowBlockedGeometry& g, int elem_bytes,
                     bool to_native, int64_t r0, int64_t r1, int64_t b0, int64_t b1) {
  const int64_t row_bytes = g.cols * elem_bytes;
  const int64_t sub_bytes = g.sub * elem_bytes;
  const int64_t block_bytes = g.rows * sub_bytes;
  for (int64_t band = r0; band < r1; band += kRowBand) {
    const int64_t band_end = std::min(r1, band + kRowBand);
    for (int64_t b = b0; b < b1; ++b) {
      const int64_t copy = std::min(sub_bytes, row_bytes - b * sub_bytes);
      uint8_t* block = native + b * block_bytes;
      if (to_native) {
        const uint8_t* column = norm + b * sub_bytes;
        for (int64_t r = band; r < band_end; ++r) {
          std::memcpy(block + r * sub_bytes, column + r * row_bytes, static_cast<size_t>(copy));
          if (copy < sub_bytes) {
            std::memset(block + r * sub_bytes + copy, 0, static_cast<size_t>(sub_bytes - copy));
          }
        }
      } else {
        uint8_t* out = norm + b * sub_bytes;
        for (int64_t r = band; r < band_end; ++r) {
          std::memcpy(out + r * row_bytes, block + r * sub_bytes, static_cast<size_t>(copy));
        }
      }
    }
  }
}

#if NPUCONF_HAVE_AVX512_KERNELS
namespace avx = simd::avx512;

// 16-byte NATIVE rows (subK · elem = 16: every §2.2 A and C but RK3566 A):
// four NORM rows × 64 bytes are four blocks × four rows, i.e. a 4 × 4
// transpose of 128-bit lanes, and every load and store is a whole line.
// Rows go in bands of 16, all blocks per band: 16 NORM rows are read as
// sequential streams and each block gets 256 contiguous bytes per band
// (bands of 4 rows, 64 bytes per block, were 2.3-2.9× memcpy; of 16, 1.0-1.2×;
// A int8 8192 × 8192, same process). Covers rows [0, rows − rows % 4) × the
// blocks of the first cols / 64 bytes; returns them so the portable path does
// the rest.

template <bool kStream>
NPUCONF_AVX512 void RowBlocked16Avx512(uint8_t* norm, uint8_t* native, const RowBlockedGeometry& g,
                                       int elem_bytes, bool to_native, int64_t* rows_done,
                                       int64_t* blocks_done) {
  const int64_t row_bytes = g.cols * elem_bytes;
  const int64_t block_bytes = g.rows * 16;
  const int64_t quads = row_bytes / 64;
  const int64_t rows4 = g.rows - g.rows % 4;
  for (int64_t r0 = 0; r0 < rows4; r0 += kRowBand) {
    const int64_t r1 = std::min(rows4, r0 + kRowBand);
    for (int64_t q = 0; q < quads; ++q) {
      for (int64_t r = r0; r < r1; r += 4) {
        uint8_t* norm_rows = norm + r * row_bytes;
        uint8_t* native_rows = native + r * 16;
        __m512i v[4];
        if (to_native) {
          for (int i = 0; i < 4; ++i) v[i] = avx::Load(norm_rows + i * row_bytes + q * 64);
          avx::TransposeLanes4x4(v);  // v[l]: rows r…r+3 of block 4q + l
          for (int l = 0; l < 4; ++l) {
            avx::Store<kStream>(native_rows + (4 * q + l) * block_bytes, v[l]);
          }
        } else {
          for (int l = 0; l < 4; ++l) v[l] = avx::Load(native_rows + (4 * q + l) * block_bytes);
          avx::TransposeLanes4x4(v);  // v[i]: row r + i, blocks 4q…4q+3
          for (int i = 0; i < 4; ++i) avx::Store<kStream>(norm_rows + i * row_bytes + q * 64, v[i]);
        }
      }
    }
  }
  avx::Finish<kStream>();
  *rows_done = rows4;
  *blocks_done = quads * 4;
}
#endif

#if NPUCONF_HAVE_AVX2_KERNELS
// The AVX2 form of RowBlocked16Avx512: two NORM rows × 32 bytes are two
// blocks × two rows, a 2 × 2 transpose of 128-bit lanes (vperm2i128), in the
// same bands of 16 rows. Covers rows [0, rows − rows % 2) × the blocks of the
// first cols / 32 bytes.
namespace avx2 {

using simd::avx2::Load;
using simd::avx2::Store;

}  // namespace avx2

template <bool kStream>
NPUCONF_AVX2 void RowBlocked16Avx2(uint8_t* norm, uint8_t* native, const RowBlockedGeometry& g,
                                   int elem_bytes, bool to_native, int64_t* rows_done,
                                   int64_t* blocks_done) {
  const int64_t row_bytes = g.cols * elem_bytes;
  const int64_t block_bytes = g.rows * 16;
  const int64_t pieces = row_bytes / 32;
  const int64_t rows2 = g.rows - g.rows % 2;
  // To NORM, two pieces at a time: each NORM row gets 64 bytes (a whole line
  // where NORM is 64-byte aligned) from two stores back to back; one piece at
  // a time left 16 rows' lines half written between visits. Streamed, a band
  // reads 256 bytes from every block, each a fresh page to the hardware
  // prefetchers: the first visit of a block prefetches its next band. A / C
  // 64 MiB × memcpy (AVX2 path, interleaved A/B): 2.05-2.08 before, pairs
  // alone 1.92-2.03, prefetch alone 1.69-1.70, both 1.36-1.48.
  for (int64_t r0 = 0; r0 < rows2 && to_native; r0 += kRowBand) {
    const int64_t r1 = std::min(rows2, r0 + kRowBand);
    for (int64_t q = 0; q < pieces; ++q) {
      for (int64_t r = r0; r < r1; r += 2) {
        const uint8_t* norm_row = norm + r * row_bytes + q * 32;
        uint8_t* block0 = native + 2 * q * block_bytes + r * 16;
        const __m256i a = avx2::Load(norm_row), c = avx2::Load(norm_row + row_bytes);
        avx2::Store<kStream>(block0, _mm256_permute2x128_si256(a, c, 0x20));
        avx2::Store<kStream>(block0 + block_bytes, _mm256_permute2x128_si256(a, c, 0x31));
      }
    }
  }
  for (int64_t r0 = 0; r0 < rows2 && !to_native; r0 += kRowBand) {
    const int64_t r1 = std::min(rows2, r0 + kRowBand);
    for (int64_t q = 0; q < pieces; q += 2) {
      const int64_t count = std::min<int64_t>(2, pieces - q);
      for (int64_t r = r0; r < r1; r += 2) {
        uint8_t* norm_row = norm + r * row_bytes + q * 32;
        const uint8_t* block0 = native + 2 * q * block_bytes + r * 16;
        if (kStream && r == r0 && r1 < rows2) {
          const int64_t next_band_bytes = (std::min(rows2, r1 + kRowBand) - r1) * 16;
          for (int64_t b = 0; b < 2 * count; ++b) {
            for (int64_t line = 0; line < next_band_bytes; line += 64) {
              __builtin_prefetch(block0 + b * block_bytes + kRowBand * 16 + line);
            }
          }
        }
        __m256i x[2], y[2];
        for (int64_t h = 0; h < count; ++h) {
          x[h] = avx2::Load(block0 + 2 * h * block_bytes);
          y[h] = avx2::Load(block0 + (2 * h + 1) * block_bytes);
        }
        for (int64_t h = 0; h < count; ++h) {  // NORM row r
          avx2::Store<kStream>(norm_row + 32 * h, _mm256_permute2x128_si256(x[h], y[h], 0x20));
        }
        for (int64_t h = 0; h < count; ++h) {  // NORM row r + 1
          avx2::Store<kStream>(norm_row + row_bytes + 32 * h,
                               _mm256_permute2x128_si256(x[h], y[h], 0x31));
        }
      }
    }
  }
  if constexpr (kStream) _mm_sfence();
  *rows_done = rows2;
  *blocks_done = pieces * 2;
}

bool Aligned32(const void* p) { return reinterpret_cast<uintptr_t>(p) % 32 == 0; }
#endif

void RowBlockedBytes(uint8_t* norm, uint8_t* native, const RowBlockedGeometry& g, int elem_bytes,
                     bool to_native) {
  int64_t rows_done = 0, blocks_done = 0;
#if NPUCONF_HAVE_AVX512_KERNELS
  if (g.sub * elem_bytes == 16 && simd::ActiveIsa() == simd::Isa::kAvx512) {
    const int64_t row_bytes = g.cols * elem_bytes;
    const bool stream =
        to_native ? g.native_bytes >= kStreamMinBytes && g.rows % 4 == 0 && Aligned64(native)
                  : g.norm_bytes >= kStreamMinBytes && row_bytes % 64 == 0 && Aligned64(norm);
    if (stream) {
      RowBlocked16Avx512<true>(norm, native, g, elem_bytes, to_native, &rows_done, &blocks_done);
    } else {
      RowBlocked16Avx512<false>(norm, native, g, elem_bytes, to_native, &rows_done, &blocks_done);
    }
  }
#endif
#if NPUCONF_HAVE_AVX2_KERNELS
  if (g.sub * elem_bytes == 16 && simd::ActiveIsa() == simd::Isa::kAvx2) {
    const int64_t row_bytes = g.cols * elem_bytes;
    const bool stream =
        to_native ? g.native_bytes >= kStreamMinBytes && g.rows % 2 == 0 && Aligned32(native)
                  : g.norm_bytes >= kStreamMinBytes && row_bytes % 32 == 0 && Aligned32(norm);
    if (stream) {
      RowBlocked16Avx2<true>(norm, native, g, elem_bytes, to_native, &rows_done, &blocks_done);
    } else {
      RowBlocked16Avx2<false>(norm, native, g, elem_bytes, to_native, &rows_done, &blocks_done);
    }
  }
#endif
  RowBlockedRange(norm, native, g, elem_bytes, to_native, 0, rows_done, blocks_done, g.blocks);
  RowBlockedRange(norm, native, g, elem_bytes, to_native, rows_done, g.rows, 0, g.blocks);
}

// ---- B -----------------------------------------------------------------------

// A full subK × subN tile of NORM (row stride n) transposed into subN rows of
// subK: loaded row by row (contiguous), stored row by row (contiguous).
template <typename T, int kSubN, int kSubK>
inline void FullTile(const T* src, int64_t n, T* dst) {
  T tile[kSubK][kSubN];
  for (int y = 0; y < kSubK; ++y) std::memcpy(tile[y], src + y * n, sizeof(tile[y]));
  for (int x = 0; x < kSubN; ++x) {
    for (int y = 0; y < kSubK; ++y) dst[x * kSubK + y] = tile[y][x];
  }
}

// Portable path: tiles n1 ∈ [n1_begin, N1) of K band k1 of one segment, NORM
// [K, N] rows [k_begin, k_begin + k_rows) → its NATIVE block: each subK × subN
// tile of NORM is transposed into subN rows of subK, padding zeroed.
template <typename T, int kSubN = 0, int kSubK = 0>
void NormBandToNative(const T* b, T* out, const BNativeGeometry& g, const BSegment& s, int64_t k1,
                      int64_t n1_begin) {
  const int64_t tile = g.sub_n * g.sub_k;
  const int64_t k0 = k1 * g.sub_k;
  const int64_t k_rows = std::min(g.sub_k, s.k_rows - k0);
  const T* band = b + (s.k_begin + k0) * g.n;
  for (int64_t n1 = n1_begin; n1 < g.n1; ++n1) {
    const int64_t n0 = n1 * g.sub_n;
    const int64_t n_rows = std::min(g.sub_n, g.n - n0);
    T* dst = out + (n1 * s.k1 + k1) * tile;
    if constexpr (kSubN > 0) {
      if (n_rows == kSubN && k_rows == kSubK) {
        FullTile<T, kSubN, kSubK>(band + n0, g.n, dst);
        continue;
      }
    }
    if (n_rows < g.sub_n || k_rows < g.sub_k) {
      std::memset(dst, 0, static_cast<size_t>(tile) * sizeof(T));
    }
    for (int64_t nn = 0; nn < n_rows; ++nn) {
      for (int64_t kk = 0; kk < k_rows; ++kk) dst[nn * g.sub_k + kk] = band[kk * g.n + n0 + nn];
    }
  }
}

// The §2.2 tile sizes get compile-time kernels; anything else the generic loop.
template <typename T>
void NormBandToNativeDispatch(const T* b, T* out, const BNativeGeometry& g, const BSegment& s,
                              int64_t k1, int64_t n1_begin) {
  if (g.sub_k == 32 && g.sub_n == 32)
    return NormBandToNative<T, 32, 32>(b, out, g, s, k1, n1_begin);
  if (g.sub_k == 32 && g.sub_n == 16)
    return NormBandToNative<T, 16, 32>(b, out, g, s, k1, n1_begin);
  if (g.sub_k == 32 && g.sub_n == 64)
    return NormBandToNative<T, 64, 32>(b, out, g, s, k1, n1_begin);
  if (g.sub_k == 32 && g.sub_n == 8) return NormBandToNative<T, 8, 32>(b, out, g, s, k1, n1_begin);
  if (g.sub_k == 16 && g.sub_n == 8) return NormBandToNative<T, 8, 16>(b, out, g, s, k1, n1_begin);
  return NormBandToNative<T>(b, out, g, s, k1, n1_begin);
}

// Portable inverse of NormBandToNative (padding ignored).
template <typename T>
void NativeBandToNorm(const T* in, T* b, const BNativeGeometry& g, const BSegment& s, int64_t k1,
                      int64_t n1_begin) {
  const int64_t tile = g.sub_n * g.sub_k;
  const int64_t k0 = k1 * g.sub_k;
  const int64_t k_rows = std::min(g.sub_k, s.k_rows - k0);
  for (int64_t n1 = n1_begin; n1 < g.n1; ++n1) {
    const int64_t n0 = n1 * g.sub_n;
    const int64_t n_rows = std::min(g.sub_n, g.n - n0);
    const T* src = in + (n1 * s.k1 + k1) * tile;
    T* dst = b + (s.k_begin + k0) * g.n + n0;
    for (int64_t kk = 0; kk < k_rows; ++kk) {
      T* row = dst + kk * g.n;
      for (int64_t nn = 0; nn < n_rows; ++nn) row[nn] = src[nn * g.sub_k + kk];
    }
  }
}

#if NPUCONF_HAVE_AVX512_KERNELS
// The AVX-512 B kernels move one block: subK = 32 NORM rows × 64 bytes (int8:
// 64 n, 16-bit: 32 n) ↔ the same elements as NATIVE rows of 32 k, in four
// groups of consecutive NATIVE rows (int8: 16 rows of 32 bytes, 16-bit: 8 rows
// of 64 bytes; 512 bytes each) that each lie inside one tile. Every load and
// store is a whole line. bench/rknn_layout_bench, B NORM → NATIVE int8 64 MiB:
// 7.5× memcpy with the scalar tile loop (the portable path).
constexpr int64_t kBlockBytes = 64;
constexpr int64_t kBlockKRows = 32;

// Four 16-byte pieces as the lanes of one register, by loads alone (a
// broadcast from memory, merged under a lane mask, uses no shuffle unit).
// The kernels below are bound by shuffle throughput: gathering lanes this
// way instead of 4 × 4 lane transposes took the int8 NORM → NATIVE kernel from
// 43 to 25 ns/KiB in cache.
NPUCONF_AVX512 inline __m512i LoadLanes(const uint8_t* p0, const uint8_t* p1, const uint8_t* p2,
                                        const uint8_t* p3) {
  __m512i v = _mm512_zextsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p0)));
  v = _mm512_mask_broadcast_i32x4(v, 0x00F0, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p1)));
  v = _mm512_mask_broadcast_i32x4(v, 0x0F00, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p2)));
  return _mm512_mask_broadcast_i32x4(v, 0xF000,
                                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(p3)));
}

// NORM → NATIVE in two passes (see BSegmentAvx512): rows 0…15 of a block
// transposed into `first` (1 KiB), later rows 16…31 transposed and the two
// halves of every NATIVE line put together by LoadLanes. int8: NATIVE rows
// 16l + c at group[l] + 32c; 16-bit: rows 8l + c at group[l] + 64c.
NPUCONF_AVX512 void NormBlockToNativeFirst8(const uint8_t* norm, int64_t row_bytes,
                                            uint8_t* first) {
  __m512i y[16];
  for (int i = 0; i < 16; ++i) y[i] = avx::Load(norm + i * row_bytes);
  avx::TransposeBytes16x16InLanes(y);  // y[c].lane(l): NATIVE row 16l + c, k 0…15
  for (int c = 0; c < 16; ++c) avx::Store<false>(first + c * 64, y[c]);
}
template <bool kStream>
NPUCONF_AVX512 void NormBlockToNativeSecond8(const uint8_t* norm, int64_t row_bytes,
                                             const uint8_t* first, uint8_t* const group[4]) {
  alignas(64) uint8_t second[1024];
  __m512i y[16];
  for (int i = 0; i < 16; ++i) y[i] = avx::Load(norm + (16 + i) * row_bytes);
  avx::TransposeBytes16x16InLanes(y);  // y[c].lane(l): NATIVE row 16l + c, k 16…31
  for (int c = 0; c < 16; ++c) avx::Store<false>(second + c * 64, y[c]);
  for (int l = 0; l < 4; ++l) {
    for (int c = 0; c < 16; c += 2) {
      const int64_t a = c * 64 + 16 * l, b = a + 64;
      avx::Store<kStream>(group[l] + c * 32,
                          LoadLanes(first + a, second + a, first + b, second + b));
    }
  }
}
NPUCONF_AVX512 void NormBlockToNativeFirst16(const uint8_t* norm, int64_t row_bytes,
                                             uint8_t* first) {
  for (int h = 0; h < 2; ++h) {
    __m512i x[8];
    for (int i = 0; i < 8; ++i) x[i] = avx::Load(norm + (8 * h + i) * row_bytes);
    avx::TransposeWords8x8InLanes(x);  // x[c].lane(l): NATIVE row 8l + c, k 8h…8h+7
    for (int c = 0; c < 8; ++c) avx::Store<false>(first + (8 * h + c) * 64, x[c]);
  }
}
template <bool kStream>
NPUCONF_AVX512 void NormBlockToNativeSecond16(const uint8_t* norm, int64_t row_bytes,
                                              const uint8_t* first, uint8_t* const group[4]) {
  alignas(64) uint8_t second[1024];
  for (int h = 0; h < 2; ++h) {
    __m512i x[8];
    for (int i = 0; i < 8; ++i) x[i] = avx::Load(norm + (16 + 8 * h + i) * row_bytes);
    avx::TransposeWords8x8InLanes(x);  // x[c].lane(l): NATIVE row 8l + c, k 16+8h…
    for (int c = 0; c < 8; ++c) avx::Store<false>(second + (8 * h + c) * 64, x[c]);
  }
  for (int l = 0; l < 4; ++l) {
    for (int c = 0; c < 8; ++c) {
      const int64_t a = c * 64 + 16 * l, b = a + 8 * 64;
      avx::Store<kStream>(group[l] + c * 64,
                          LoadLanes(first + a, first + b, second + a, second + b));
    }
  }
}

// NATIVE → NORM, NORM rows 16h…16h+15 only: the NATIVE row pieces are
// gathered into lanes by loads, one in-lane transpose gives whole NORM lines.
template <bool kStream>
NPUCONF_AVX512 void NativeBlockToNorm8Half(const uint8_t* const group[4], int h, uint8_t* norm,
                                           int64_t row_bytes) {
  __m512i x[16];
  for (int j = 0; j < 16; ++j) {  // x[j].lane(l): NATIVE row 16l + j, k 16h…16h+15
    const int64_t at = j * 32 + 16 * h;
    x[j] = LoadLanes(group[0] + at, group[1] + at, group[2] + at, group[3] + at);
  }
  avx::TransposeBytes16x16InLanes(x);  // x[i]: NORM row 16h + i, n0…n0+63
  for (int i = 0; i < 16; ++i) avx::Store<kStream>(norm + (16 * h + i) * row_bytes, x[i]);
}

// The inverse, NORM rows 16h…16h+15 only (as NativeBlockToNorm8Half).
template <bool kStream>
NPUCONF_AVX512 void NativeBlockToNorm16Half(const uint8_t* const group[4], int h, uint8_t* norm,
                                            int64_t row_bytes) {
  for (int q = 2 * h; q < 2 * h + 2; ++q) {  // NORM rows 8q…8q+7
    __m512i x[8];
    for (int j = 0; j < 8; ++j) {  // x[j].lane(l): NATIVE row 8l + j, k 8q…8q+7
      const int64_t at = j * 64 + 16 * q;
      x[j] = LoadLanes(group[0] + at, group[1] + at, group[2] + at, group[3] + at);
    }
    avx::TransposeWords8x8InLanes(x);  // x[i]: NORM row 8q + i, n0…n0+31
    for (int i = 0; i < 8; ++i) avx::Store<kStream>(norm + (8 * q + i) * row_bytes, x[i]);
  }
}

// A streamed NORM → NATIVE reads each block's 16 lines from 16 NORM rows,
// every one a page of its own (a row is n elements apart): more fresh streams
// than the hardware prefetchers follow, as in the FRACTAL_NZ streamed pack.
// So it prefetches the 16 lines of the block kPrefetchBlocks ahead in visiting
// order, non-temporal (they are read once). bench/rknn_layout_bench B 64 MiB
// × memcpy, without and with, four runs of each interleaved (load 4.3-4.8):
// int8 1.43-1.50 → 1.12-1.19, fp16 1.36-1.46 → 1.10-1.23. In a study of this
// kernel alone (same B, 60 rounds, load ~3; without: int8 1.41-1.49, fp16
// 1.34-1.37): distance 2 int8 1.18-1.21, fp16 1.11-1.15; 1, 3 or 4 blocks
// 1.13-1.21; 8 or 16 blocks 1.25-1.29; the T0 hint 1.20-1.24; T1 (to L2
// only) 1.33-1.46, near none; chunks of 16, 32 or 128 blocks as 64.
constexpr int64_t kPrefetchBlocks = 2;

// A streamed NATIVE → NORM reads each block's 32 NATIVE lines from two tiles
// (int8 32 × 32), each tile 256 KiB from the last block's at K 8192: a fresh
// page per tile, likely met too late by the hardware prefetchers. The first
// pass over a chunk prefetches the NATIVE lines of the block kPrefetchBlocks
// ahead, into all levels (the second pass reads them again). Study of the
// kernel alone (B K 8192, 64 MiB, × memcpy, 60 rounds, load ~4.5): int8
// 2.52-2.64 → 1.20-1.27, fp16 2.34-2.37 → 1.13-1.17; distance 3 or 4
// 1.15-1.37; NTA 1.18-1.24; T1 1.12-1.61, unsteady; chunks of 32 or 128
// 1.12-1.18.
NPUCONF_AVX512 inline void PrefetchGroup(const uint8_t* group) {
  for (int line = 0; line < 8; ++line) {
    _mm_prefetch(reinterpret_cast<const char*>(group + 64 * line), _MM_HINT_T0);
  }
}

NPUCONF_AVX512 inline void PrefetchRows16(const uint8_t* line, int64_t row_bytes) {
  for (int i = 0; i < 16; ++i) {
    _mm_prefetch(reinterpret_cast<const char*>(line + i * row_bytes), _MM_HINT_NTA);
  }
}

// Whether a segment's full tiles can take the block kernels.
bool BBlocksApply(const BNativeGeometry& g, int elem_bytes) {
  if (g.sub_k != kBlockKRows || (elem_bytes != 1 && elem_bytes != 2)) return false;
  const int64_t group_rows = elem_bytes == 1 ? 16 : 8;
  return g.sub_n % group_rows == 0;
}

// Covers, in every full K band of the segment, the NORM columns [0, n_done)
// (whole tiles); the portable path does the rest. kToNative picks the direction.
template <int kElemBytes, bool kToNative, bool kStream>
NPUCONF_AVX512 void BSegmentAvx512(uint8_t* norm, uint8_t* native, const BNativeGeometry& g,
                                   const BSegment& s, int64_t* n_done) {
  constexpr int64_t kBlockN = kBlockBytes / kElemBytes;
  constexpr int64_t kGroupRows = kElemBytes == 1 ? 16 : 8;
  const int64_t unit = std::lcm(kBlockN, g.sub_n);  // whole blocks and whole tiles
  const int64_t n_end = g.n / unit * unit;
  const int64_t row_bytes = g.n * kElemBytes;
  const int64_t tile_bytes = g.sub_n * g.sub_k * kElemBytes;
  const int64_t full_k1 = s.k_rows / g.sub_k;
  // Both directions go over a band's 32 NORM rows in two passes of 16, over
  // a chunk of blocks whose other side stays in L2 meanwhile (to NATIVE: the
  // first half transposed in `firsts`; to NORM: the NATIVE lines, read again):
  // 16 streams of NORM lines, not 32. B 64 MiB interleaved with memcpy, load
  // 8 from other jobs: to NATIVE int8 1.52-1.62 → 1.46-1.54×, fp16 1.70-1.77
  // → 1.32-1.35×; to NORM (load 4) 2.6-2.8 → 2.2×. (A pattern study, quiet:
  // 16 rows at once 0.9-1.0×, 32 at once 1.6-1.7×.)
  constexpr int64_t kChunkBlocks = 64;
  constexpr int64_t kPasses = 2;
  std::vector<uint8_t> firsts(kToNative ? kChunkBlocks * 1024 : 0);
  // The four groups of NATIVE rows (512 bytes each) of the block at NORM
  // columns n0… of K band k1.
  auto groups = [&](int64_t n0, int64_t k1, uint8_t* group[4]) {
    for (int l = 0; l < 4; ++l) {
      const int64_t n = n0 + l * kGroupRows;
      group[l] =
          native + ((n / g.sub_n) * s.k1 + k1) * tile_bytes + (n % g.sub_n) * g.sub_k * kElemBytes;
    }
  };
  for (int64_t k1 = 0; k1 < full_k1; ++k1) {
    uint8_t* band = norm + (s.k_begin + k1 * g.sub_k) * row_bytes;
    for (int64_t chunk = 0; chunk < n_end; chunk += kChunkBlocks * kBlockN) {
      const int64_t chunk_end = std::min(n_end, chunk + kChunkBlocks * kBlockN);
      for (int64_t pass = 0; pass < kPasses; ++pass) {
        // Prefetches (see kPrefetchBlocks) go along this pass's 16 NORM rows,
        // then on to the start of the next run of visits: rows 16…31 of this
        // chunk, the next chunk, or the next full band (n columns each).
        const uint8_t* rows = band + pass * 16 * row_bytes;
        const uint8_t* then = nullptr;
        int64_t then_n = 0;
        if (pass == 0) {
          then = band + 16 * row_bytes + chunk * kElemBytes;
          then_n = chunk_end - chunk;
        } else if (chunk_end < n_end) {
          then = band + chunk_end * kElemBytes;
          then_n = std::min(n_end, chunk_end + kChunkBlocks * kBlockN) - chunk_end;
        } else if (k1 + 1 < full_k1) {
          then = band + kBlockKRows * row_bytes;
          then_n = std::min(n_end, kChunkBlocks * kBlockN);
        }
        for (int64_t n0 = chunk; n0 < chunk_end; n0 += kBlockN) {
          if constexpr (kToNative && kStream) {
            const int64_t ahead = n0 + kPrefetchBlocks * kBlockN;
            if (ahead < chunk_end) {
              PrefetchRows16(rows + ahead * kElemBytes, row_bytes);
            } else if (ahead - chunk_end < then_n) {
              PrefetchRows16(then + (ahead - chunk_end) * kElemBytes, row_bytes);
            }
          }
          if constexpr (!kToNative && kStream) {
            if (pass == 0) {
              int64_t ahead = n0 + kPrefetchBlocks * kBlockN, ahead_k1 = k1;
              if (ahead >= n_end) {  // into the next band
                ahead -= n_end;
                ++ahead_k1;
              }
              if (ahead_k1 < full_k1 && ahead < n_end) {
                uint8_t* lines[4];
                groups(ahead, ahead_k1, lines);
                for (uint8_t* group_lines : lines) PrefetchGroup(group_lines);
              }
            }
          }
          uint8_t* group[4];
          groups(n0, k1, group);
          uint8_t* block = band + n0 * kElemBytes;
          if constexpr (kToNative) {
            uint8_t* first = firsts.data() + (n0 - chunk) / kBlockN * 1024;
            if (pass == 0) {
              if constexpr (kElemBytes == 1) NormBlockToNativeFirst8(block, row_bytes, first);
              if constexpr (kElemBytes == 2) NormBlockToNativeFirst16(block, row_bytes, first);
            } else {
              if constexpr (kElemBytes == 1) {
                NormBlockToNativeSecond8<kStream>(block, row_bytes, first, group);
              }
              if constexpr (kElemBytes == 2) {
                NormBlockToNativeSecond16<kStream>(block, row_bytes, first, group);
              }
            }
          } else {
            const int h = static_cast<int>(pass);
            if constexpr (kElemBytes == 1)
              NativeBlockToNorm8Half<kStream>(group, h, block, row_bytes);
            if constexpr (kElemBytes == 2) {
              NativeBlockToNorm16Half<kStream>(group, h, block, row_bytes);
            }
          }
        }
      }
    }
  }
  avx::Finish<kStream>();
  *n_done = n_end;
}

template <bool kToNative, bool kStream>
NPUCONF_AVX512 void BSegmentAvx512ByElem(uint8_t* norm, uint8_t* native, const BNativeGeometry& g,
                                         const BSegment& s, int elem_bytes, int64_t* n_done) {
  if (elem_bytes == 1) return BSegmentAvx512<1, kToNative, kStream>(norm, native, g, s, n_done);
  return BSegmentAvx512<2, kToNative, kStream>(norm, native, g, s, n_done);
}
#endif

#if NPUCONF_HAVE_AVX2_KERNELS
// ---- AVX2 kernels for B NORM ↔ NATIVE (subK 32) ----------------------------------
//
// The AVX-512 kernels' scheme on 32-byte registers: a block is 32 NORM bytes
// (int8: 32 n, 16-bit: 16 n) × the 32 rows of one K band, in two groups of
// NATIVE rows (int8: 16 rows of 32 bytes, 16-bit: 8 rows of 64 bytes; 512
// bytes each, inside one tile). In-lane transposes (the same unpack sequence
// as TransposeBytes16x16InLanes) give NATIVE row halves per 128-bit lane;
// vperm2i128 joins the halves of a row. NATIVE → NORM gathers its lanes by
// two 16-byte loads (vinserti128 from memory) and runs the same transposes.
namespace avx2 {

inline constexpr int kLanes00 = 0x20;  // [a.lane0, b.lane0]
inline constexpr int kLanes11 = 0x31;  // [a.lane1, b.lane1]

// The shared lane loads and in-lane transposes (reference/simd/avx2_blocks.h).
using simd::avx2::LoadLanes;
using simd::avx2::TransposeBytes16x16InLanes;
using simd::avx2::TransposeWords8x8InLanes;

// int4 B as bytes (BInt4AsBytes): a 32-byte row of a byte tile holds k 0…31
// of two int4 columns, a nibble each; the int4 NATIVE tile holds the same two
// columns' rows (16 bytes each) at the same 32 bytes. SplitNibbles turns the
// first into the second: each column's nibbles, k pairs joined by a
// multiply-add (weights 1 and 16 in NATIVE order), packed, the 64-bit halves
// put in order. MergeNibbles is its inverse.
NPUCONF_AVX2 inline __m256i SplitNibbles(__m256i v, Nibbles n) {
  const __m256i mask = _mm256_set1_epi8(0x0F);
  const __m256i low = _mm256_and_si256(v, mask);
  const __m256i high = _mm256_and_si256(_mm256_srli_epi16(v, 4), mask);
  const __m256i weights =
      n.native_first == 0 ? _mm256_set1_epi16(0x1001) : _mm256_set1_epi16(0x0110);
  const __m256i first = _mm256_maddubs_epi16(n.plain_first == 0 ? low : high, weights);
  const __m256i second = _mm256_maddubs_epi16(n.plain_first == 0 ? high : low, weights);
  // Per lane: 8 bytes of the first column, 8 of the second.
  return _mm256_permute4x64_epi64(_mm256_packus_epi16(first, second), 0xD8);
}

NPUCONF_AVX2 inline __m256i MergeNibbles(__m256i v, Nibbles n) {
  const __m256i mask = _mm256_set1_epi8(0x0F);
  const __m256i low = _mm256_and_si256(v, mask);
  const __m256i high = _mm256_and_si256(_mm256_srli_epi16(v, 4), mask);
  const __m256i even_k = n.native_first == 0 ? low : high;
  const __m256i odd_k = n.native_first == 0 ? high : low;
  // Per lane (first column | second column): k 0-15, then k 16-31.
  const __m256i k_low = _mm256_unpacklo_epi8(even_k, odd_k);
  const __m256i k_high = _mm256_unpackhi_epi8(even_k, odd_k);
  const __m256i first = _mm256_permute2x128_si256(k_low, k_high, kLanes00);
  const __m256i second = _mm256_permute2x128_si256(k_low, k_high, kLanes11);
  return n.plain_first == 0 ? _mm256_or_si256(first, _mm256_slli_epi16(second, 4))
                            : _mm256_or_si256(second, _mm256_slli_epi16(first, 4));
}

// NORM `block` (32 rows, stride row_bytes, 32 bytes each) → the NATIVE
// groups: int8 rows 16l + c at group[l] + 32c, 16-bit rows 8l + c at
// group[l] + 64c. kNibbles: int4 B as bytes, each row split (SplitNibbles).
template <int kElemBytes, bool kStream, bool kNibbles = false>
NPUCONF_AVX2 void NormBlockToNative(const uint8_t* block, int64_t row_bytes,
                                    uint8_t* const group[2], Nibbles nibbles = {}) {
  if constexpr (kElemBytes == 1) {
    // Both halves transposed in place (the compiler spills `lo` as it needs):
    // copied out to a byte scratch between them, GCC made the copy one
    // `rep movsq`, half the kernel's time (int4 B 64 MiB, perf).
    __m256i lo[16], hi[16];
    for (int i = 0; i < 16; ++i) lo[i] = Load(block + i * row_bytes);
    TransposeBytes16x16InLanes(lo);  // lo[c].lane(l): NATIVE row 16l + c, k 0…15
    for (int i = 0; i < 16; ++i) hi[i] = Load(block + (16 + i) * row_bytes);
    TransposeBytes16x16InLanes(hi);  // k 16…31
    for (int c = 0; c < 16; ++c) {
      __m256i rows[2] = {_mm256_permute2x128_si256(lo[c], hi[c], kLanes00),
                         _mm256_permute2x128_si256(lo[c], hi[c], kLanes11)};
      for (int l = 0; l < 2; ++l) {
        if constexpr (kNibbles) rows[l] = SplitNibbles(rows[l], nibbles);
        Store<kStream>(group[l] + 32 * c, rows[l]);
      }
    }
  } else {
    alignas(32) uint8_t quarters[4][8 * 32];  // [k quarter q][c]: rows 8l + c, k 8q…8q+7
    for (int q = 0; q < 4; ++q) {
      __m256i x[8];
      for (int i = 0; i < 8; ++i) x[i] = Load(block + (8 * q + i) * row_bytes);
      TransposeWords8x8InLanes(x);
      for (int c = 0; c < 8; ++c) Store<false>(quarters[q] + 32 * c, x[c]);
    }
    for (int c = 0; c < 8; ++c) {
      const __m256i q0 = Load(quarters[0] + 32 * c), q1 = Load(quarters[1] + 32 * c);
      const __m256i q2 = Load(quarters[2] + 32 * c), q3 = Load(quarters[3] + 32 * c);
      Store<kStream>(group[0] + 64 * c, _mm256_permute2x128_si256(q0, q1, kLanes00));
      Store<kStream>(group[0] + 64 * c + 32, _mm256_permute2x128_si256(q2, q3, kLanes00));
      Store<kStream>(group[1] + 64 * c, _mm256_permute2x128_si256(q0, q1, kLanes11));
      Store<kStream>(group[1] + 64 * c + 32, _mm256_permute2x128_si256(q2, q3, kLanes11));
    }
  }
}

// The inverse: the NATIVE groups → NORM `block`. kNibbles: each NATIVE row
// merged first (MergeNibbles), into L1.
template <int kElemBytes, bool kStream, bool kNibbles = false>
NPUCONF_AVX2 void NativeBlockToNorm(const uint8_t* const native_group[2], uint8_t* block,
                                    int64_t row_bytes, Nibbles nibbles = {}) {
  const uint8_t* const* group = native_group;
  [[maybe_unused]] alignas(32) uint8_t merged[kNibbles ? 2 : 1][kNibbles ? 16 * 32 : 1];
  [[maybe_unused]] const uint8_t* merged_group[2] = {merged[0], merged[kNibbles ? 1 : 0]};
  if constexpr (kNibbles) {
    for (int l = 0; l < 2; ++l) {
      for (int j = 0; j < 16; ++j) {
        Store<false>(merged[l] + 32 * j, MergeNibbles(Load(native_group[l] + 32 * j), nibbles));
      }
    }
    group = merged_group;
  }
  if constexpr (kElemBytes == 1) {
    for (int h = 0; h < 2; ++h) {  // NORM rows 16h…16h+15
      __m256i x[16];
      for (int j = 0; j < 16; ++j) {
        const int64_t at = 32 * j + 16 * h;
        x[j] = LoadLanes(group[0] + at, group[1] + at);
      }
      TransposeBytes16x16InLanes(x);
      for (int i = 0; i < 16; ++i) Store<kStream>(block + (16 * h + i) * row_bytes, x[i]);
    }
  } else {
    for (int q = 0; q < 4; ++q) {  // NORM rows 8q…8q+7
      __m256i x[8];
      for (int j = 0; j < 8; ++j) {
        const int64_t at = 64 * j + 16 * q;
        x[j] = LoadLanes(group[0] + at, group[1] + at);
      }
      TransposeWords8x8InLanes(x);
      for (int i = 0; i < 8; ++i) Store<kStream>(block + (8 * q + i) * row_bytes, x[i]);
    }
  }
}

}  // namespace avx2

// Covers, in every full K band of the segment, the NORM columns [0, n_done)
// (whole tiles); the portable path does the rest (as BSegmentAvx512).
template <int kElemBytes, bool kToNative, bool kStream, bool kNibbles = false>
NPUCONF_AVX2 void BSegmentAvx2(uint8_t* norm, uint8_t* native, const BNativeGeometry& g,
                               const BSegment& s, int64_t* n_done, Nibbles nibbles = {}) {
  constexpr int64_t kBlockN = 32 / kElemBytes;
  constexpr int64_t kGroupRows = kBlockN / 2;
  const int64_t unit = std::lcm(kBlockN, g.sub_n);
  const int64_t n_end = g.n / unit * unit;
  const int64_t row_bytes = g.n * kElemBytes;
  const int64_t tile_bytes = g.sub_n * g.sub_k * kElemBytes;
  const int64_t full_k1 = s.k_rows / g.sub_k;
  // Streamed 8-bit (int8, and int4 merged to bytes) to NORM goes two blocks at
  // a time through `pair`, an L1 scratch of their 32 rows × 64 bytes, so each
  // NORM row's line is streamed whole by two stores back to back; one block at
  // a time left 32 rows' lines half written between visits. B 64 MiB × memcpy
  // (AVX2 path, interleaved A/B): int8 1.71-1.86 → 1.28-1.34, int4 1.66-1.82
  // → 1.11-1.25. 16-bit is not paired: the same scratch, or both blocks'
  // transposes in registers, measured 1.63-1.83 → 2.33-2.45.
  const bool pairs = kElemBytes == 1 && n_end % (2 * kBlockN) == 0;
  alignas(64) uint8_t pair[32 * 64];
  for (int64_t k1 = 0; k1 < full_k1; ++k1) {
    uint8_t* band = norm + (s.k_begin + k1 * g.sub_k) * row_bytes;
    for (int64_t n0 = 0; n0 < n_end; n0 += kBlockN) {
      uint8_t* group[2];
      for (int l = 0; l < 2; ++l) {
        const int64_t n = n0 + l * kGroupRows;
        group[l] = native + ((n / g.sub_n) * s.k1 + k1) * tile_bytes +
                   (n % g.sub_n) * g.sub_k * kElemBytes;
      }
      if constexpr (kToNative) {
        avx2::NormBlockToNative<kElemBytes, kStream, kNibbles>(band + n0 * kElemBytes, row_bytes,
                                                               group, nibbles);
      } else if (kStream && pairs) {
        uint8_t* half = pair + (n0 / kBlockN % 2) * 32;
        avx2::NativeBlockToNorm<kElemBytes, false, kNibbles>(group, half, 64, nibbles);
        if (n0 / kBlockN % 2 == 1) {
          uint8_t* rows = band + (n0 - kBlockN) * kElemBytes;
          for (int i = 0; i < 32; ++i) {
            avx2::Store<true>(rows + i * row_bytes, avx2::Load(pair + 64 * i));
            avx2::Store<true>(rows + i * row_bytes + 32, avx2::Load(pair + 64 * i + 32));
          }
        }
      } else {
        avx2::NativeBlockToNorm<kElemBytes, kStream, kNibbles>(group, band + n0 * kElemBytes,
                                                               row_bytes, nibbles);
      }
    }
  }
  if constexpr (kStream) _mm_sfence();
  *n_done = n_end;
}

template <bool kToNative, bool kStream>
NPUCONF_AVX2 void BSegmentAvx2ByElem(uint8_t* norm, uint8_t* native, const BNativeGeometry& g,
                                     const BSegment& s, int elem_bytes, int64_t* n_done) {
  if (elem_bytes == 1) return BSegmentAvx2<1, kToNative, kStream>(norm, native, g, s, n_done);
  return BSegmentAvx2<2, kToNative, kStream>(norm, native, g, s, n_done);
}
#endif  // NPUCONF_HAVE_AVX2_KERNELS

#if NPUCONF_HAVE_NEON_KERNELS
// ---- NEON kernels for B NORM ↔ NATIVE (subK 32) ----------------------------------
//
// The portable path moves B element by element (FullTile): 7.5× memcpy on
// x86-64, and no compiler turns it into vector transposes. Here a block is
// 16 (int8) or 8 (16-bit) NORM columns × the 32 rows of one K band: 16 × 16
// byte (8 × 8 halfword) transposes in registers (TRN1 / TRN2 at each element
// width), whose rows are NATIVE rows of one tile, stored whole (32 or 64
// bytes). The same transposes undo it. Exact bytes are tested under qemu
// (reference_fast_paths_test); speed on a real aarch64 was not measured.

// 16 × 16 bytes: on return byte j of x[i] is the old byte i of x[j].
inline void TransposeBytes16x16(uint8x16_t x[16]) {
  uint8x16_t t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = vtrn1q_u8(x[i], x[i + 1]);
    t[i + 1] = vtrn2q_u8(x[i], x[i + 1]);
  }
  uint16x8_t u[16];
  for (int g = 0; g < 16; g += 4) {
    for (int j = 0; j < 2; ++j) {
      u[g + j] = vtrn1q_u16(vreinterpretq_u16_u8(t[g + j]), vreinterpretq_u16_u8(t[g + j + 2]));
      u[g + j + 2] = vtrn2q_u16(vreinterpretq_u16_u8(t[g + j]), vreinterpretq_u16_u8(t[g + j + 2]));
    }
  }
  uint32x4_t v[16];
  for (int g = 0; g < 16; g += 8) {
    for (int j = 0; j < 4; ++j) {
      v[g + j] = vtrn1q_u32(vreinterpretq_u32_u16(u[g + j]), vreinterpretq_u32_u16(u[g + j + 4]));
      v[g + j + 4] =
          vtrn2q_u32(vreinterpretq_u32_u16(u[g + j]), vreinterpretq_u32_u16(u[g + j + 4]));
    }
  }
  for (int j = 0; j < 8; ++j) {
    const uint64x2_t a = vreinterpretq_u64_u32(v[j]), b = vreinterpretq_u64_u32(v[j + 8]);
    x[j] = vreinterpretq_u8_u64(vtrn1q_u64(a, b));
    x[j + 8] = vreinterpretq_u8_u64(vtrn2q_u64(a, b));
  }
}

// 8 × 8 halfwords: on return element j of x[i] is the old element i of x[j].
inline void TransposeHalves8x8(uint16x8_t x[8]) {
  uint16x8_t t[8];
  for (int i = 0; i < 8; i += 2) {
    t[i] = vtrn1q_u16(x[i], x[i + 1]);
    t[i + 1] = vtrn2q_u16(x[i], x[i + 1]);
  }
  uint32x4_t u[8];
  for (int g = 0; g < 8; g += 4) {
    for (int j = 0; j < 2; ++j) {
      u[g + j] = vtrn1q_u32(vreinterpretq_u32_u16(t[g + j]), vreinterpretq_u32_u16(t[g + j + 2]));
      u[g + j + 2] =
          vtrn2q_u32(vreinterpretq_u32_u16(t[g + j]), vreinterpretq_u32_u16(t[g + j + 2]));
    }
  }
  for (int j = 0; j < 4; ++j) {
    const uint64x2_t a = vreinterpretq_u64_u32(u[j]), b = vreinterpretq_u64_u32(u[j + 4]);
    x[j] = vreinterpretq_u16_u64(vtrn1q_u64(a, b));
    x[j + 4] = vreinterpretq_u16_u64(vtrn2q_u64(a, b));
  }
}

// One block: NORM `band` (32 rows, row stride row_bytes) at columns n0… ↔ the
// NATIVE rows at `rows` (each subK = 32 elements; kBlockN of them, contiguous
// inside one tile).
template <int kElemBytes, bool kToNative>
inline void BBlockNeon(uint8_t* band, int64_t row_bytes, uint8_t* rows) {
  constexpr int64_t kNativeRowBytes = 32 * kElemBytes;
  if constexpr (kElemBytes == 1) {
    for (int h = 0; h < 2; ++h) {  // K rows 16h…16h+15
      uint8x16_t x[16];
      for (int i = 0; i < 16; ++i) {
        x[i] = kToNative ? vld1q_u8(band + (16 * h + i) * row_bytes)
                         : vld1q_u8(rows + i * kNativeRowBytes + 16 * h);
      }
      TransposeBytes16x16(x);
      for (int i = 0; i < 16; ++i) {
        if constexpr (kToNative) {
          vst1q_u8(rows + i * kNativeRowBytes + 16 * h, x[i]);
        } else {
          vst1q_u8(band + (16 * h + i) * row_bytes, x[i]);
        }
      }
    }
  } else {
    for (int q = 0; q < 4; ++q) {  // K rows 8q…8q+7
      uint16x8_t x[8];
      for (int i = 0; i < 8; ++i) {
        x[i] =
            kToNative
                ? vld1q_u16(reinterpret_cast<const uint16_t*>(band + (8 * q + i) * row_bytes))
                : vld1q_u16(reinterpret_cast<const uint16_t*>(rows + i * kNativeRowBytes + 16 * q));
      }
      TransposeHalves8x8(x);
      for (int i = 0; i < 8; ++i) {
        if constexpr (kToNative) {
          vst1q_u16(reinterpret_cast<uint16_t*>(rows + i * kNativeRowBytes + 16 * q), x[i]);
        } else {
          vst1q_u16(reinterpret_cast<uint16_t*>(band + (8 * q + i) * row_bytes), x[i]);
        }
      }
    }
  }
}

// Covers, in every full K band of the segment, the NORM columns [0, n_done)
// (whole tiles); the portable path does the rest (as BSegmentAvx512).
template <int kElemBytes, bool kToNative>
void BSegmentNeon(uint8_t* norm, uint8_t* native, const BNativeGeometry& g, const BSegment& s,
                  int64_t* n_done) {
  constexpr int64_t kBlockN = 16 / kElemBytes;
  const int64_t n_end = g.n / g.sub_n * g.sub_n;  // sub_n is a multiple of kBlockN
  const int64_t row_bytes = g.n * kElemBytes;
  const int64_t tile_bytes = g.sub_n * g.sub_k * kElemBytes;
  const int64_t full_k1 = s.k_rows / g.sub_k;
  for (int64_t k1 = 0; k1 < full_k1; ++k1) {
    uint8_t* band = norm + (s.k_begin + k1 * g.sub_k) * row_bytes;
    for (int64_t n0 = 0; n0 < n_end; n0 += kBlockN) {
      uint8_t* rows = native + ((n0 / g.sub_n) * s.k1 + k1) * tile_bytes +
                      (n0 % g.sub_n) * g.sub_k * kElemBytes;
      BBlockNeon<kElemBytes, kToNative>(band + n0 * kElemBytes, row_bytes, rows);
    }
  }
  *n_done = n_end;
}

bool BNeonApplies(const BNativeGeometry& g, int elem_bytes) {
  return g.sub_k == 32 && (elem_bytes == 1 || elem_bytes == 2) && g.sub_n % (16 / elem_bytes) == 0;
}
#endif  // NPUCONF_HAVE_NEON_KERNELS

// One NORM segment ↔ its NATIVE block, `block` = the segment's NATIVE bytes.
template <typename T>
void NormSegment(T* norm, T* block, const BNativeGeometry& g, const BSegment& s, bool to_native,
                 int64_t n_done) {
  const int64_t full_k1 = n_done > 0 ? s.k_rows / g.sub_k : 0;
  for (int64_t k1 = 0; k1 < s.k1; ++k1) {
    const int64_t n1_begin = k1 < full_k1 ? n_done / g.sub_n : 0;
    if (to_native) {
      NormBandToNativeDispatch(norm, block, g, s, k1, n1_begin);
    } else {
      NativeBandToNorm(block, norm, g, s, k1, n1_begin);
    }
  }
}

// TP_NORM [N, K]: every NATIVE tile row is one run of a TP_NORM row. Portable
// path for tiles n1 ∈ [n1_begin, N1) × k1 ∈ [0, K1) plus, below n1_begin,
// k1 ∈ [k1_begin, K1).
void TpSegmentBytes(uint8_t* tp, uint8_t* native, const BNativeGeometry& g, const BSegment& s,
                    int elem_bytes, bool to_native, int64_t n1_begin, int64_t k1_begin) {
  const int64_t row_bytes = g.k * elem_bytes;
  const int64_t sub_k_bytes = g.sub_k * elem_bytes;
  const int64_t tile_bytes = g.sub_n * sub_k_bytes;
  for (int64_t n1 = 0; n1 < g.n1; ++n1) {
    const int64_t n0 = n1 * g.sub_n;
    const int64_t n_rows = std::min(g.sub_n, g.n - n0);
    for (int64_t k1 = n1 < n1_begin ? k1_begin : 0; k1 < s.k1; ++k1) {
      uint8_t* tile = native + (n1 * s.k1 + k1) * tile_bytes;
      const int64_t k0 = s.k_begin + k1 * g.sub_k;
      const int64_t copy = std::min(g.sub_k, s.k_begin + s.k_rows - k0) * elem_bytes;
      uint8_t* src = tp + n0 * row_bytes + k0 * elem_bytes;
      if (to_native) {
        for (int64_t nn = 0; nn < n_rows; ++nn) {
          std::memcpy(tile + nn * sub_k_bytes, src + nn * row_bytes, static_cast<size_t>(copy));
          if (copy < sub_k_bytes) {
            std::memset(tile + nn * sub_k_bytes + copy, 0, static_cast<size_t>(sub_k_bytes - copy));
          }
        }
        if (n_rows < g.sub_n) {
          std::memset(tile + n_rows * sub_k_bytes, 0,
                      static_cast<size_t>((g.sub_n - n_rows) * sub_k_bytes));
        }
      } else {
        for (int64_t nn = 0; nn < n_rows; ++nn) {
          std::memcpy(src + nn * row_bytes, tile + nn * sub_k_bytes, static_cast<size_t>(copy));
        }
      }
    }
  }
}

#if NPUCONF_HAVE_AVX512_KERNELS
// TP_NORM tiles with 32- or 64-byte rows and an even subN: a 64-byte piece of
// a TP_NORM row is one row of one tile (64) or of two neighbouring tiles k1,
// k1 + 1 (32), which are consecutive in NATIVE; two TP_NORM rows then give one
// line of each (vshufi64x2), as in the FRACTAL_NZ pack. Covers the full tiles
// of full N blocks, k1 ∈ [0, k1_done), for n1 ∈ [0, n1_done).
// No software prefetch here: prefetching the subN rows' lines two or three
// pieces ahead (NTA, as kPrefetchBlocks does for NORM) gained nothing sure.
// Streamed TP_NORM → NATIVE 64 MiB × memcpy, five interleaved runs each, load
// ~3.6: int8 1.23-1.34 without, 1.26-1.52 two ahead, 0.91-1.44 three ahead;
// fp16 1.15-1.28, 0.82-1.17, 1.10-1.16.
template <int kSubKBytes, bool kToNative, bool kStream>
NPUCONF_AVX512 void TpSegmentAvx512(uint8_t* tp, uint8_t* native, const BNativeGeometry& g,
                                    const BSegment& s, int elem_bytes, int64_t* n1_done,
                                    int64_t* k1_done) {
  constexpr int64_t kTilesPerPiece = 64 / kSubKBytes;
  const int64_t row_bytes = g.k * elem_bytes;
  const int64_t tile_bytes = g.sub_n * kSubKBytes;
  const int64_t full_n1 = g.n / g.sub_n;
  const int64_t k1_end = s.k_rows / g.sub_k / kTilesPerPiece * kTilesPerPiece;
  for (int64_t n1 = 0; n1 < full_n1; ++n1) {
    uint8_t* rows = tp + n1 * g.sub_n * row_bytes + s.k_begin * elem_bytes;
    uint8_t* tiles = native + n1 * s.k1 * tile_bytes;
    for (int64_t k1 = 0; k1 < k1_end; k1 += kTilesPerPiece) {
      uint8_t* piece = rows + k1 * kSubKBytes;
      uint8_t* tile = tiles + k1 * tile_bytes;
      if constexpr (kSubKBytes == 64) {
        for (int64_t nn = 0; nn < g.sub_n; ++nn) {
          if constexpr (kToNative) {
            avx::Store<kStream>(tile + nn * 64, avx::Load(piece + nn * row_bytes));
          } else {
            avx::Store<kStream>(piece + nn * row_bytes, avx::Load(tile + nn * 64));
          }
        }
      } else {
        for (int64_t nn = 0; nn < g.sub_n; nn += 2) {
          if constexpr (kToNative) {
            const __m512i a = avx::Load(piece + nn * row_bytes);
            const __m512i c = avx::Load(piece + (nn + 1) * row_bytes);
            avx::Store<kStream>(tile + nn * 32, _mm512_shuffle_i64x2(a, c, avx::kLanes0101));
            avx::Store<kStream>(tile + tile_bytes + nn * 32,
                                _mm512_shuffle_i64x2(a, c, avx::kLanes2323));
          } else {
            const __m512i a = avx::Load(tile + nn * 32);
            const __m512i c = avx::Load(tile + tile_bytes + nn * 32);
            avx::Store<kStream>(piece + nn * row_bytes,
                                _mm512_shuffle_i64x2(a, c, avx::kLanes0101));
            avx::Store<kStream>(piece + (nn + 1) * row_bytes,
                                _mm512_shuffle_i64x2(a, c, avx::kLanes2323));
          }
        }
      }
    }
  }
  avx::Finish<kStream>();
  *n1_done = full_n1;
  *k1_done = k1_end;
}

template <bool kStream>
NPUCONF_AVX512 void TpSegmentAvx512ByWidth(uint8_t* tp, uint8_t* native, const BNativeGeometry& g,
                                           const BSegment& s, int elem_bytes, bool to_native,
                                           int64_t* n1_done, int64_t* k1_done) {
  const int64_t sub_k_bytes = g.sub_k * elem_bytes;
  if (sub_k_bytes == 64) {
    if (to_native)
      return TpSegmentAvx512<64, true, kStream>(tp, native, g, s, elem_bytes, n1_done, k1_done);
    return TpSegmentAvx512<64, false, kStream>(tp, native, g, s, elem_bytes, n1_done, k1_done);
  }
  if (to_native)
    return TpSegmentAvx512<32, true, kStream>(tp, native, g, s, elem_bytes, n1_done, k1_done);
  return TpSegmentAvx512<32, false, kStream>(tp, native, g, s, elem_bytes, n1_done, k1_done);
}
#endif

// `part_of_large` streams the written side as if it were kStreamMinBytes or
// more: g is one band of a larger B (int4 through the byte kernels).
void BBytes(const uint8_t* plain, uint8_t* native, const BNativeGeometry& g, bool tp,
            int elem_bytes, bool to_native, bool part_of_large = false) {
  uint8_t* norm = const_cast<uint8_t*>(plain);
#if NPUCONF_HAVE_AVX512_KERNELS
  const bool avx512 = simd::ActiveIsa() == simd::Isa::kAvx512;
  // Streaming needs every store 64-byte aligned: the written side's base, and
  // for plain-side rows their stride.
  const int64_t plain_row_bytes = (tp ? g.k : g.n) * elem_bytes;
  const bool stream =
      to_native ? (part_of_large || g.native_bytes >= kStreamMinBytes) && Aligned64(native)
                : (part_of_large || g.norm_bytes >= kStreamMinBytes) && Aligned64(norm) &&
                      plain_row_bytes % 64 == 0;
#else
  (void)part_of_large;
#endif
  for (const BSegment& s : g.segments) {
    uint8_t* block = native + s.offset_elems * elem_bytes;
    // NATIVE segment blocks start where the previous one ends: aligned only
    // if every segment's size is a multiple of 64 bytes.
    if (tp) {
      int64_t n1_done = 0, k1_done = 0;
#if NPUCONF_HAVE_AVX512_KERNELS
      const int64_t sub_k_bytes = g.sub_k * elem_bytes;
      if (avx512 && (sub_k_bytes == 32 || sub_k_bytes == 64) && g.sub_n % 2 == 0) {
        if (stream && Aligned64(block)) {
          TpSegmentAvx512ByWidth<true>(norm, block, g, s, elem_bytes, to_native, &n1_done,
                                       &k1_done);
        } else {
          TpSegmentAvx512ByWidth<false>(norm, block, g, s, elem_bytes, to_native, &n1_done,
                                        &k1_done);
        }
      }
#endif
      TpSegmentBytes(norm, block, g, s, elem_bytes, to_native, n1_done, k1_done);
      continue;
    }
    int64_t n_done = 0;
#if NPUCONF_HAVE_AVX512_KERNELS
    if (avx512 && BBlocksApply(g, elem_bytes)) {
      if (stream && Aligned64(block)) {
        to_native ? BSegmentAvx512ByElem<true, true>(norm, block, g, s, elem_bytes, &n_done)
                  : BSegmentAvx512ByElem<false, true>(norm, block, g, s, elem_bytes, &n_done);
      } else {
        to_native ? BSegmentAvx512ByElem<true, false>(norm, block, g, s, elem_bytes, &n_done)
                  : BSegmentAvx512ByElem<false, false>(norm, block, g, s, elem_bytes, &n_done);
      }
    }
#endif
#if NPUCONF_HAVE_AVX2_KERNELS
    if (simd::ActiveIsa() == simd::Isa::kAvx2 && BBlocksApply(g, elem_bytes)) {
      if (stream && Aligned64(block)) {
        to_native ? BSegmentAvx2ByElem<true, true>(norm, block, g, s, elem_bytes, &n_done)
                  : BSegmentAvx2ByElem<false, true>(norm, block, g, s, elem_bytes, &n_done);
      } else {
        to_native ? BSegmentAvx2ByElem<true, false>(norm, block, g, s, elem_bytes, &n_done)
                  : BSegmentAvx2ByElem<false, false>(norm, block, g, s, elem_bytes, &n_done);
      }
    }
#endif
#if NPUCONF_HAVE_NEON_KERNELS
    if (simd::ActiveIsa() == simd::Isa::kNeon && BNeonApplies(g, elem_bytes)) {
      if (elem_bytes == 1) {
        to_native ? BSegmentNeon<1, true>(norm, block, g, s, &n_done)
                  : BSegmentNeon<1, false>(norm, block, g, s, &n_done);
      } else {
        to_native ? BSegmentNeon<2, true>(norm, block, g, s, &n_done)
                  : BSegmentNeon<2, false>(norm, block, g, s, &n_done);
      }
    }
#endif
    switch (elem_bytes) {
      case 1:
        NormSegment(norm, block, g, s, to_native, n_done);
        break;
      case 2:
        NormSegment(reinterpret_cast<uint16_t*>(norm), reinterpret_cast<uint16_t*>(block), g, s,
                    to_native, n_done);
        break;
      default:
        NormSegment(reinterpret_cast<uint32_t*>(norm), reinterpret_cast<uint32_t*>(block), g, s,
                    to_native, n_done);
        break;
    }
  }
}

// int4: unpack both sides to one value per byte, run the byte path, repack.
std::vector<int8_t> Unpacked(const uint8_t* packed, int64_t count, NibbleOrder order) {
  std::vector<int8_t> values(static_cast<size_t>(count));
  UnpackInt4(packed, values.data(), count, order);
  return values;
}

// `count` int4 elements from element e0 on (a row of an odd-length matrix
// starts mid-byte): whole bytes through Unpack/PackInt4, edge nibbles one by
// one. PackInt4At writes only its own nibbles.
void UnpackInt4At(const uint8_t* packed, int64_t e0, int64_t count, NibbleOrder order,
                  int8_t* values) {
  auto value = [&](int64_t e) {
    return static_cast<int8_t>(static_cast<int8_t>(Int4Nibble(packed, e, order) << 4) >> 4);
  };
  const int64_t head = (e0 % 2 != 0 && count > 0) ? 1 : 0;
  if (head) values[0] = value(e0);
  const int64_t whole = (count - head) / 2 * 2;
  UnpackInt4(packed + (e0 + head) / 2, values + head, whole, order);
  for (int64_t i = head + whole; i < count; ++i) values[i] = value(e0 + i);
}

void SetInt4(uint8_t* packed, int64_t e, int8_t value, NibbleOrder order) {
  const bool high = ((e & 1) == 0) == (order == NibbleOrder::kHighFirst);
  const auto nibble = static_cast<uint8_t>(value & 0xF);
  uint8_t& byte = packed[e >> 1];
  byte = high ? static_cast<uint8_t>((byte & 0x0F) | (nibble << 4))
              : static_cast<uint8_t>((byte & 0xF0) | nibble);
}

void PackInt4At(const int8_t* values, int64_t e0, int64_t count, NibbleOrder order,
                uint8_t* packed) {
  const int64_t head = (e0 % 2 != 0 && count > 0) ? 1 : 0;
  if (head) SetInt4(packed, e0, values[0], order);
  const int64_t whole = (count - head) / 2 * 2;
  PackInt4(values + head, packed + (e0 + head) / 2, whole, order);
  for (int64_t i = head + whole; i < count; ++i) SetInt4(packed, e0 + i, values[i], order);
}

// ---- int4 B through the byte kernels ------------------------------------------
// A NORM int4 B with N even is, byte for byte, a K × N/2 int8 matrix whose
// byte j of a row holds columns 2j and 2j + 1. Its byte tiles (subN/2 × subK,
// the int8 kernels' transpose) hold in byte row j the subK k-values of both
// columns; splitting each such row by nibble gives the two NATIVE int4 rows
// (subK/2 bytes each), and merging two NATIVE rows gives it back. So one band
// is one byte-kernel call on B itself plus one nibble pass over an L2-resident
// scratch, instead of unpacking to a byte per element, transposing and
// repacking (6.5-11.8× memcpy, issue 19).

// One byte row of a tile (sub_k bytes) → the NATIVE rows of its two columns.
void SplitNibbleRow(const uint8_t* bytes, int64_t sub_k, int plain_first, int native_first,
                    uint8_t* first_column, uint8_t* second_column) {
  const int plain_second = 4 - plain_first, native_second = 4 - native_first;
  for (int64_t i = 0; i < sub_k / 2; ++i) {
    const uint8_t a = bytes[2 * i], b = bytes[2 * i + 1];
    first_column[i] = static_cast<uint8_t>((((a >> plain_first) & 0xF) << native_first) |
                                           (((b >> plain_first) & 0xF) << native_second));
    second_column[i] = static_cast<uint8_t>((((a >> plain_second) & 0xF) << native_first) |
                                            (((b >> plain_second) & 0xF) << native_second));
  }
}

// The inverse: the NATIVE rows of columns 2j and 2j + 1 → byte row j.
void MergeNibbleRow(const uint8_t* first_column, const uint8_t* second_column, int64_t sub_k,
                    int plain_first, int native_first, uint8_t* bytes) {
  const int plain_second = 4 - plain_first;
  for (int64_t k = 0; k < sub_k; ++k) {
    const int shift = (k % 2 == 0) ? native_first : 4 - native_first;
    const int first = (first_column[k / 2] >> shift) & 0xF;
    const int second = (second_column[k / 2] >> shift) & 0xF;
    bytes[k] = static_cast<uint8_t>((first << plain_first) | (second << plain_second));
  }
}

#if NPUCONF_HAVE_AVX2_KERNELS
namespace avx2 {

template <bool kStream>
NPUCONF_AVX2 void SplitNibbleRow32(const uint8_t* bytes, Nibbles nibbles, uint8_t* columns) {
  Store<kStream>(columns, SplitNibbles(Load(bytes), nibbles));
}

NPUCONF_AVX2 void MergeNibbleRow32(const uint8_t* columns, Nibbles nibbles, uint8_t* bytes) {
  Store<false>(bytes, MergeNibbles(Load(columns), nibbles));
}

}  // namespace avx2
#endif

// Whether the running path has the sub_k 32 nibble kernels.
bool NibbleKernels32(int64_t sub_k) {
#if NPUCONF_HAVE_AVX2_KERNELS
  const simd::Isa isa = simd::ActiveIsa();
  return sub_k == 32 && (isa == simd::Isa::kAvx2 || isa == simd::Isa::kAvx512);
#else
  (void)sub_k;
  return false;
#endif
}

// One tile of the byte band (sub_n/2 rows × sub_k bytes) ↔ its NATIVE int4
// tile (sub_n rows × sub_k/2 bytes). `stream`: non-temporal stores (the
// tile 16-byte aligned, the caller fences).
void SplitTile(const uint8_t* byte_tile, const BNativeGeometry& g, int plain_first,
               int native_first, bool stream, uint8_t* native_tile) {
  const int64_t row = g.sub_k / 2;
  const bool kernel = NibbleKernels32(g.sub_k);
  for (int64_t j = 0; j < g.sub_n / 2; ++j) {
    uint8_t* first = native_tile + 2 * j * row;
#if NPUCONF_HAVE_AVX2_KERNELS
    if (kernel) {
      const uint8_t* bytes = byte_tile + j * g.sub_k;
      const Nibbles nibbles{plain_first, native_first};
      stream ? avx2::SplitNibbleRow32<true>(bytes, nibbles, first)
             : avx2::SplitNibbleRow32<false>(bytes, nibbles, first);
      continue;
    }
#endif
    SplitNibbleRow(byte_tile + j * g.sub_k, g.sub_k, plain_first, native_first, first, first + row);
  }
  (void)kernel;
  (void)stream;
}

void MergeTile(const uint8_t* native_tile, const BNativeGeometry& g, int plain_first,
               int native_first, uint8_t* byte_tile) {
  const int64_t row = g.sub_k / 2;
  const bool kernel = NibbleKernels32(g.sub_k);
  for (int64_t j = 0; j < g.sub_n / 2; ++j) {
    const uint8_t* first = native_tile + 2 * j * row;
#if NPUCONF_HAVE_AVX2_KERNELS
    if (kernel) {
      avx2::MergeNibbleRow32(first, {plain_first, native_first}, byte_tile + j * g.sub_k);
      continue;
    }
#endif
    MergeNibbleRow(first, first + row, g.sub_k, plain_first, native_first, byte_tile + j * g.sub_k);
  }
  (void)kernel;
}

// NORM (not TP_NORM) int4 B with N, subN and subK even: bytes never straddle
// a column pair, a row or a tile.
bool Int4AsBytesApplies(const BNativeGeometry& g, bool tp) {
  return !tp && g.n % 2 == 0 && g.sub_n % 2 == 0 && g.sub_k % 2 == 0;
}

void BInt4AsBytes(uint8_t* plain, uint8_t* native, const BNativeGeometry& g,
                  NibbleOrder plain_order, NibbleOrder native_order, bool to_native) {
  const int plain_first = FirstShift(plain_order), native_first = FirstShift(native_order);
  const int64_t row_bytes = g.n / 2, byte_tile = g.sub_n / 2 * g.sub_k;
  // Streamed as the byte kernels stream a B this large. Each split row pair
  // is one 32-byte non-temporal store at a multiple of 32 bytes from the
  // NATIVE base (subK 32: rows of 16 bytes, tiles of subN · 16 bytes, subN
  // even), so the base must be 32-byte aligned (a 16-byte aligned base
  // crashed: RK3576 type 8, B tiles 16 × 32).
  const bool large = (to_native ? g.native_bytes : g.norm_bytes) >= kStreamMinBytes;
  const bool stream_tiles = to_native && large && NibbleKernels32(g.sub_k) &&
                            reinterpret_cast<uintptr_t>(native) % 32 == 0;
  // All of B as bytes (K × N/2, tiles subN/2 × subK, the same segments): a
  // segment's whole K bands go through the AVX2 byte kernel with the split or
  // merge fused into its stores or loads, when it covers every column; the
  // bands below do the rest through a scratch band.
  std::optional<BNativeGeometry> bytes_g;
#if NPUCONF_HAVE_AVX2_KERNELS
  if (NibbleKernels32(g.sub_k)) {
    bytes_g = BNativeGeometryFor(g.k, row_bytes, g.sub_n / 2, g.sub_k, g.seg_len, DType::kInt8);
    if (bytes_g &&
        !(BBlocksApply(*bytes_g, 1) && row_bytes % std::lcm(int64_t{32}, g.sub_n / 2) == 0)) {
      bytes_g.reset();
    }
  }
#endif
  std::vector<uint8_t> band_tiles(static_cast<size_t>(g.n1 * byte_tile));
  for (size_t i = 0; i < g.segments.size(); ++i) {
    const BSegment& s = g.segments[i];
    int64_t k1_from = 0;
#if NPUCONF_HAVE_AVX2_KERNELS
    if (bytes_g) {
      const BSegment& bs = bytes_g->segments[i];
      uint8_t* block = native + bs.offset_elems;
      const bool stream =
          large && (to_native ? Aligned32(block) : Aligned32(plain) && row_bytes % 32 == 0);
      const Nibbles nibbles{plain_first, native_first};
      int64_t n_done = 0;
      if (to_native) {
        stream ? BSegmentAvx2<1, true, true, true>(plain, block, *bytes_g, bs, &n_done, nibbles)
               : BSegmentAvx2<1, true, false, true>(plain, block, *bytes_g, bs, &n_done, nibbles);
      } else {
        stream ? BSegmentAvx2<1, false, true, true>(plain, block, *bytes_g, bs, &n_done, nibbles)
               : BSegmentAvx2<1, false, false, true>(plain, block, *bytes_g, bs, &n_done, nibbles);
      }
      k1_from = bs.k_rows / g.sub_k;
    }
#endif
    for (int64_t k1 = k1_from; k1 < s.k1; ++k1) {
      const int64_t k0 = s.k_begin + k1 * g.sub_k;
      const int64_t rows = std::min(g.sub_k, s.k_begin + s.k_rows - k0);
      // The band as int8: rows × N/2 bytes, tiles subN/2 × subK; no larger
      // than B, which BNativeGeometryFor accepted.
      const BNativeGeometry band =
          *BNativeGeometryFor(rows, row_bytes, g.sub_n / 2, g.sub_k, 0, DType::kInt8);
      uint8_t* band_plain = plain + k0 * row_bytes;
      auto tile_at = [&](int64_t n1) {
        return native + (s.offset_elems + (n1 * s.k1 + k1) * g.sub_n * g.sub_k) / 2;
      };
      if (to_native) {
        BBytes(band_plain, band_tiles.data(), band, false, 1, true);
        for (int64_t n1 = 0; n1 < g.n1; ++n1) {
          SplitTile(band_tiles.data() + n1 * byte_tile, g, plain_first, native_first, stream_tiles,
                    tile_at(n1));
        }
      } else {
        for (int64_t n1 = 0; n1 < g.n1; ++n1) {
          MergeTile(tile_at(n1), g, plain_first, native_first, band_tiles.data() + n1 * byte_tile);
        }
        BBytes(band_plain, band_tiles.data(), band, false, 1, false, large);
      }
    }
  }
#if NPUCONF_HAVE_AVX2_KERNELS
  if (stream_tiles) _mm_sfence();
#endif
}

// int4 B one K band (subK rows) of one segment at a time: the band's plain
// elements unpacked to bytes, the byte kernels run on a one-band geometry,
// its tiles packed into place (tiles start on whole bytes: subN · subK is
// even). Unpacking all of B instead needs two scratch buffers the size of B
// in bytes, and first-touching them took 1.1-1.4 s a call on the benchmark
// machine (about 40 µs a page fault): 260-340× memcpy for 64 MiB of int4.
void BInt4(uint8_t* plain, uint8_t* native, const BNativeGeometry& g, bool tp,
           NibbleOrder plain_order, NibbleOrder native_order, bool to_native) {
  if (Int4AsBytesApplies(g, tp)) {
    return BInt4AsBytes(plain, native, g, plain_order, native_order, to_native);
  }
  const int64_t tile = g.sub_n * g.sub_k;
  std::vector<int8_t> band_plain(static_cast<size_t>(g.n * g.sub_k));
  std::vector<int8_t> band_native(static_cast<size_t>(g.n1 * tile));
  auto* plain_bytes = reinterpret_cast<uint8_t*>(band_plain.data());
  auto* native_bytes = reinterpret_cast<uint8_t*>(band_native.data());
  for (const BSegment& s : g.segments) {
    for (int64_t k1 = 0; k1 < s.k1; ++k1) {
      const int64_t k0 = s.k_begin + k1 * g.sub_k;
      const int64_t rows = std::min(g.sub_k, s.k_begin + s.k_rows - k0);
      // Sizes no larger than B's own, which BNativeGeometryFor accepted.
      const BNativeGeometry band =
          *BNativeGeometryFor(rows, g.n, g.sub_n, g.sub_k, 0, DType::kInt8);
      auto tile_at = [&](int64_t n1) { return (s.offset_elems + (n1 * s.k1 + k1) * tile) / 2; };
      if (to_native) {
        if (tp) {
          for (int64_t n = 0; n < g.n; ++n) {
            UnpackInt4At(plain, n * g.k + k0, rows, plain_order, band_plain.data() + n * rows);
          }
        } else {
          UnpackInt4At(plain, k0 * g.n, rows * g.n, plain_order, band_plain.data());
        }
        BBytes(plain_bytes, native_bytes, band, tp, 1, true);
        for (int64_t n1 = 0; n1 < g.n1; ++n1) {
          PackInt4(band_native.data() + n1 * tile, native + tile_at(n1), tile, native_order);
        }
      } else {
        for (int64_t n1 = 0; n1 < g.n1; ++n1) {
          UnpackInt4(native + tile_at(n1), band_native.data() + n1 * tile, tile, native_order);
        }
        BBytes(plain_bytes, native_bytes, band, tp, 1, false);
        if (tp) {
          for (int64_t n = 0; n < g.n; ++n) {
            PackInt4At(band_plain.data() + n * rows, n * g.k + k0, rows, plain_order, plain);
          }
        } else {
          PackInt4At(band_plain.data(), k0 * g.n, rows * g.n, plain_order, plain);
        }
      }
    }
  }
  // An odd element count leaves the last byte's other nibble 0, as PackInt4 does.
  if (!to_native && g.norm_elems % 2 != 0) SetInt4(plain, g.norm_elems, 0, plain_order);
}

}  // namespace

std::optional<RowBlockedGeometry> RowBlockedGeometryFor(int64_t rows, int64_t cols, int64_t sub,
                                                        DType dtype) {
  RowBlockedGeometry g;
  g.bits = Bits(dtype);
  if (rows <= 0 || cols <= 0 || sub <= 0 || !SupportedBits(g.bits)) return std::nullopt;
  g.rows = rows;
  g.cols = cols;
  g.sub = sub;
  g.blocks = CeilDiv(cols, sub);
  g.native_dims = {g.blocks, rows, sub};
  auto norm = CheckedMul(rows, cols);
  auto native = NumElements(g.native_dims);
  if (!norm || !native) return std::nullopt;
  auto norm_bytes = BytesOf(*norm, g.bits);
  auto native_bytes = BytesOf(*native, g.bits);
  if (!norm_bytes || !native_bytes) return std::nullopt;
  g.norm_elems = *norm;
  g.native_elems = *native;
  g.norm_bytes = *norm_bytes;
  g.native_bytes = *native_bytes;
  return g;
}

void RowBlockedToNative(const uint8_t* norm, uint8_t* native, const RowBlockedGeometry& g,
                        NibbleOrder norm_order, NibbleOrder native_order) {
  if (g.bits != 4) {
    return RowBlockedBytes(const_cast<uint8_t*>(norm), native, g, g.bits / 8, true);
  }
  std::vector<int8_t> plain = Unpacked(norm, g.norm_elems, norm_order);
  std::vector<int8_t> blocked(static_cast<size_t>(g.native_elems));
  RowBlockedBytes(reinterpret_cast<uint8_t*>(plain.data()),
                  reinterpret_cast<uint8_t*>(blocked.data()), g, 1, true);
  PackInt4(blocked.data(), native, g.native_elems, native_order);
}

void RowBlockedToNorm(const uint8_t* native, uint8_t* norm, const RowBlockedGeometry& g,
                      NibbleOrder native_order, NibbleOrder norm_order) {
  if (g.bits != 4) {
    return RowBlockedBytes(norm, const_cast<uint8_t*>(native), g, g.bits / 8, false);
  }
  std::vector<int8_t> blocked = Unpacked(native, g.native_elems, native_order);
  std::vector<int8_t> plain(static_cast<size_t>(g.norm_elems));
  RowBlockedBytes(reinterpret_cast<uint8_t*>(plain.data()),
                  reinterpret_cast<uint8_t*>(blocked.data()), g, 1, false);
  PackInt4(plain.data(), norm, g.norm_elems, norm_order);
}

std::optional<BNativeGeometry> BNativeGeometryFor(int64_t k, int64_t n, int64_t sub_n,
                                                  int64_t sub_k, int64_t seg_len, DType dtype) {
  BNativeGeometry g;
  g.bits = Bits(dtype);
  if (k <= 0 || n <= 0 || sub_n <= 0 || sub_k <= 0 || seg_len < 0 || g.bits == 32 ||
      !SupportedBits(g.bits)) {
    return std::nullopt;
  }
  g.k = k;
  g.n = n;
  g.sub_n = sub_n;
  g.sub_k = sub_k;
  g.seg_len = seg_len;
  g.n1 = CeilDiv(n, sub_n);
  auto tile = CheckedMul(sub_n, sub_k);
  auto norm = CheckedMul(k, n);
  if (!tile || !norm) return std::nullopt;
  // §3.3: T = ceil(K / L) segments when K > L; segments 0…T−2 hold L rows.
  const int64_t length = (seg_len > 0 && k > seg_len) ? seg_len : k;
  // Each segment pads to sub_k rows: 2^20 of them is past any allocatable B.
  // Refuse before building the list (a K near INT64_MAX, or seg_len 1).
  if (k / length + (k % length != 0) > (int64_t{1} << 20)) return std::nullopt;
  int64_t offset = 0, k1_total = 0;
  for (int64_t k_begin = 0; k_begin < k; k_begin += length) {
    BSegment s;
    s.k_begin = k_begin;
    s.k_rows = std::min(length, k - k_begin);
    s.k1 = CeilDiv(s.k_rows, sub_k);
    auto elems = CheckedMul(g.n1, s.k1);
    if (elems) elems = CheckedMul(*elems, *tile);
    if (!elems) return std::nullopt;
    s.elems = *elems;
    s.offset_elems = offset;
    auto next = CheckedAdd(offset, s.elems);
    if (!next) return std::nullopt;
    offset = *next;
    k1_total += s.k1;
    g.segments.push_back(s);
  }
  g.native_dims = {g.n1, k1_total, sub_n, sub_k};
  g.norm_elems = *norm;
  g.native_elems = offset;
  auto norm_bytes = BytesOf(g.norm_elems, g.bits);
  auto native_bytes = BytesOf(g.native_elems, g.bits);
  if (!norm_bytes || !native_bytes) return std::nullopt;
  g.norm_bytes = *norm_bytes;
  g.native_bytes = *native_bytes;
  return g;
}

void BPlainToNative(const uint8_t* plain, uint8_t* native, const BNativeGeometry& g, bool tp,
                    NibbleOrder plain_order, NibbleOrder native_order) {
  if (g.bits != 4) return BBytes(plain, native, g, tp, g.bits / 8, true);
  BInt4(const_cast<uint8_t*>(plain), native, g, tp, plain_order, native_order, true);
}

void BNativeToPlain(const uint8_t* native, uint8_t* plain, const BNativeGeometry& g, bool tp,
                    NibbleOrder native_order, NibbleOrder plain_order) {
  if (g.bits != 4) return BBytes(plain, const_cast<uint8_t*>(native), g, tp, g.bits / 8, false);
  BInt4(plain, const_cast<uint8_t*>(native), g, tp, plain_order, native_order, false);
}

}  // namespace npuconf::rknn
