#include "reference/cann/fractal_nz.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "reference/simd/isa.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include "reference/simd/avx2_blocks.h"
#include "reference/simd/avx512_blocks.h"

namespace npuconf::cann {
namespace {

// How PackBytes writes cube rows: plain stores, the default.
struct PlainRows {
  static void Row(uint8_t* dst, const uint8_t* src, int64_t row_bytes) {
    std::memcpy(dst, src, row_bytes);
  }
  // The last C1 block of a row with k % C0 != 0: `copy` bytes, then zeros.
  static void Tail(uint8_t* dst, const uint8_t* src, int64_t copy, int64_t row_bytes) {
    std::memcpy(dst, src, copy);
    std::memset(dst + copy, 0, row_bytes - copy);
  }
  static void Zero(uint8_t* dst, int64_t bytes) { std::memset(dst, 0, bytes); }
  static void Finish() {}
};

// Outputs at least this large are written with non-temporal stores: they
// leave the cache anyway, and streaming saves the read-for-ownership of every
// NZ line, which this scattered write order (one fractal per C1 column
// block, n1 × 512 bytes apart) otherwise pays for. bench/nz_pack_bench, fp16
// 8192 × 4096: 1.5-2.1x memcpy before, 0.7-0.8x after. Smaller outputs stay
// in cache for the caller, as memcpy's would (the threshold: isa.h).
constexpr uint64_t kStreamMinBytes = simd::kStreamMinBytes;

#if defined(__SSE2__)

// 32-byte cube rows (the default C0 of every dtype) to a 16-byte aligned
// destination with non-temporal stores.
struct StreamRows32 {
  static void Row(uint8_t* dst, const uint8_t* src, int64_t /*row_bytes*/) {
    const __m128i lo = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src));
    const __m128i hi = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + 16));
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst), lo);
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + 16), hi);
  }
  static void Tail(uint8_t* dst, const uint8_t* src, int64_t copy, int64_t row_bytes) {
    alignas(16) uint8_t row[32] = {};
    std::memcpy(row, src, copy);
    Row(dst, row, row_bytes);
  }
  static void Zero(uint8_t* dst, int64_t bytes) {
    for (int64_t i = 0; i < bytes; i += 16) {
      _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i), _mm_setzero_si128());
    }
  }
  // Streamed stores are weakly ordered: fence so they are visible before
  // whatever the caller stores next (e.g. a flag another thread reads).
  static void Finish() { _mm_sfence(); }
};
#endif

// Byte-granular layout (bits ≥ 8, or int4 with even k so rows start on a
// byte): every NZ cube row is one contiguous run of `row_bytes` bytes taken
// from one ND row. Blocked by 16 ND rows (one N1 block) so those rows stay in
// cache while every C1 column block is written. `Rows` does the stores.
template <int kRowBytes, class Rows>
void PackBytes(const uint8_t* nd, uint8_t* nz, const NzGeometry& g, int64_t row_bytes_dyn) {
  const int64_t row_bytes = kRowBytes > 0 ? kRowBytes : row_bytes_dyn;
  const int64_t k_bytes = g.k * g.bits / 8;
  const int64_t block_bytes = kNzH0 * row_bytes;  // one 16 × C0 fractal
  const int64_t c1_stride = g.n1 * block_bytes;   // one C1 column block
  const int64_t batch_stride = g.c1 * c1_stride;
  const int64_t full_c1 = k_bytes / row_bytes;  // column blocks without a tail
  const int64_t tail_bytes = k_bytes - full_c1 * row_bytes;
  for (int64_t b = 0; b < g.batch; ++b) {
    const uint8_t* src_batch = nd + b * g.n * k_bytes;
    uint8_t* dst_batch = nz + b * batch_stride;
    for (int64_t n1 = 0; n1 < g.n1; ++n1) {
      const int64_t r_begin = n1 * kNzH0;
      const int64_t rows = std::min<int64_t>(kNzH0, g.n - r_begin);
      for (int64_t c1 = 0; c1 < g.c1; ++c1) {
        uint8_t* dst = dst_batch + c1 * c1_stride + n1 * block_bytes;
        const uint8_t* src = src_batch + r_begin * k_bytes + c1 * row_bytes;
        if (c1 < full_c1) {
          for (int64_t r = 0; r < rows; ++r) {
            Rows::Row(dst + r * row_bytes, src + r * k_bytes, row_bytes);
          }
        } else {
          for (int64_t r = 0; r < rows; ++r) {
            Rows::Tail(dst + r * row_bytes, src + r * k_bytes, tail_bytes, row_bytes);
          }
        }
        if (rows < kNzH0) Rows::Zero(dst + rows * row_bytes, (kNzH0 - rows) * row_bytes);
      }
    }
  }
  Rows::Finish();
}

template <int kRowBytes>
void UnpackBytes(const uint8_t* nz, uint8_t* nd, const NzGeometry& g, int64_t row_bytes_dyn) {
  const int64_t row_bytes = kRowBytes > 0 ? kRowBytes : row_bytes_dyn;
  const int64_t k_bytes = g.k * g.bits / 8;
  const int64_t block_bytes = kNzH0 * row_bytes;
  const int64_t c1_stride = g.n1 * block_bytes;
  const int64_t batch_stride = g.c1 * c1_stride;
  const int64_t full_c1 = k_bytes / row_bytes;
  const int64_t tail_bytes = k_bytes - full_c1 * row_bytes;
  for (int64_t b = 0; b < g.batch; ++b) {
    uint8_t* dst_batch = nd + b * g.n * k_bytes;
    const uint8_t* src_batch = nz + b * batch_stride;
    for (int64_t n1 = 0; n1 < g.n1; ++n1) {
      const int64_t r_begin = n1 * kNzH0;
      const int64_t rows = std::min<int64_t>(kNzH0, g.n - r_begin);
      for (int64_t c1 = 0; c1 < g.c1; ++c1) {
        const uint8_t* src = src_batch + c1 * c1_stride + n1 * block_bytes;
        uint8_t* dst = dst_batch + r_begin * k_bytes + c1 * row_bytes;
        const int64_t copy = c1 < full_c1 ? row_bytes : tail_bytes;
        if (copy == row_bytes) {
          for (int64_t r = 0; r < rows; ++r) {
            std::memcpy(dst + r * k_bytes, src + r * row_bytes, row_bytes);
          }
        } else {
          for (int64_t r = 0; r < rows; ++r) {
            std::memcpy(dst + r * k_bytes, src + r * row_bytes, copy);
          }
        }
      }
    }
  }
}

#if NPUCONF_HAVE_AVX512_KERNELS
// ---- AVX-512 kernels for 32-byte cube rows (every dtype's default C0) ----------
//
// Two ND rows of one fractal are one 64-byte NZ line, and one 64-byte piece of
// an ND row is the same row of two neighbouring fractals (C1 blocks c1, c1+1):
// so every load and every store moves a whole cache line, and a lane shuffle
// (vshufi64x2) regroups them. Lines go in runs of kPairs pairs of C1 blocks
// per ND row (4 lines), the order that measured best in cache and in memory
// (the streamed pack goes further: kStreamPackPairs). In cache (64-256 KiB)
// both directions stay near 2x memcpy, whose `rep movsb` hides its stores
// wholly; README "Speed" lists the orders and prefetches measured there.
namespace avx = simd::avx512;

constexpr int64_t kFractalBytes = kNzH0 * 32;
constexpr int64_t kPairs = 4;

// A streamed pack reads its 16 ND rows from memory, each row (k 4096 int8)
// a page of its own: too many fresh streams for the hardware prefetchers. It
// goes 8 lines per row per run and prefetches the run after (16 rows × 8
// lines). bench/nz_pack_bench int8 × memcpy, same process, before → after:
// 16 MiB 1.04 → 0.84-0.85, 64 MiB 1.13 → 0.92-0.95, 256 MiB 1.09 → 0.94-0.96
// (fp16 0.83-0.84, 0.97-0.98, 0.93-0.95). In a study of the access pattern
// alone, 8-line runs without the prefetch stayed at 1.07-1.12 at 64 MiB, and
// cached 8-line runs took 2.8x memcpy at 1 MiB (so the cached pack keeps 4).
constexpr int64_t kStreamPackPairs = 8;

// The bytes [0, valid_bytes) of a 32-byte row piece, zero above (valid ≤ 32).
NPUCONF_AVX512 inline __m256i LoadPiece(const uint8_t* src, int64_t valid_bytes) {
  if (valid_bytes >= 32) return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src));
  const __mmask32 mask = _bzhi_u32(0xFFFFFFFFu, static_cast<unsigned>(valid_bytes));
  return _mm256_maskz_loadu_epi8(mask, src);
}

NPUCONF_AVX512 inline __m512i Join(__m256i lo, __m256i hi) {
  return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

// One fractal (all 16 rows) from `rows` ND rows of `valid_bytes` bytes at
// `src` (row stride k_bytes); rows ≥ `rows` and bytes ≥ valid_bytes are 0.
template <bool kStream>
NPUCONF_AVX512 void PackFractal(const uint8_t* src, int64_t k_bytes, int64_t rows,
                                int64_t valid_bytes, uint8_t* dst) {
  const __m256i zero = _mm256_setzero_si256();
  for (int64_t r = 0; r < kNzH0; r += 2) {
    const __m256i lo = r < rows ? LoadPiece(src + r * k_bytes, valid_bytes) : zero;
    const __m256i hi = r + 1 < rows ? LoadPiece(src + (r + 1) * k_bytes, valid_bytes) : zero;
    avx::Store<kStream>(dst + r * 32, Join(lo, hi));
  }
}

// `pairs` pairs of C1 blocks from the 64-byte pieces at `piece` of 16 ND
// rows into the fractals at dst + 2p·c1_stride (+ c1_stride). A streamed
// full run (kMaxPairs > 0) prefetches the same lines of the run at `next`.
template <bool kStream, int64_t kMaxPairs>
NPUCONF_AVX512 inline void PackPairs(const uint8_t* piece, int64_t k_bytes, int64_t c1_stride,
                                     int64_t pairs, uint8_t* dst, const uint8_t* next) {
  for (int64_t r = 0; r < kNzH0; r += 2) {
    if constexpr (kStream && kMaxPairs > 0) {
      for (int64_t p = 0; p < kMaxPairs; ++p) {
        _mm_prefetch(reinterpret_cast<const char*>(next + r * k_bytes + 64 * p), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(next + (r + 1) * k_bytes + 64 * p), _MM_HINT_T0);
      }
    }
    for (int64_t p = 0; p < (kMaxPairs > 0 ? kMaxPairs : pairs); ++p) {
      const __m512i a = avx::Load(piece + r * k_bytes + 64 * p);
      const __m512i c = avx::Load(piece + (r + 1) * k_bytes + 64 * p);
      uint8_t* pair = dst + 2 * p * c1_stride + r * 32;
      avx::Store<kStream>(pair, _mm512_shuffle_i64x2(a, c, avx::kLanes0101));
      avx::Store<kStream>(pair + c1_stride, _mm512_shuffle_i64x2(a, c, avx::kLanes2323));
    }
  }
}

template <bool kStream>
NPUCONF_AVX512 void PackRows32Avx512(const uint8_t* nd, uint8_t* nz, const NzGeometry& g) {
  constexpr int64_t kRun = kStream ? kStreamPackPairs : kPairs;
  const int64_t k_bytes = g.k * g.bits / 8;
  const int64_t c1_stride = g.n1 * kFractalBytes;
  const int64_t batch_stride = g.c1 * c1_stride;
  const int64_t full_c1 = k_bytes / 32;
  const int64_t tail_bytes = k_bytes - full_c1 * 32;
  const int64_t full_pairs = full_c1 / 2;
  for (int64_t b = 0; b < g.batch; ++b) {
    const uint8_t* src_batch = nd + b * g.n * k_bytes;
    uint8_t* dst_batch = nz + b * batch_stride;
    for (int64_t n1 = 0; n1 < g.n1; ++n1) {
      const int64_t r_begin = n1 * kNzH0;
      const int64_t rows = std::min<int64_t>(kNzH0, g.n - r_begin);
      const uint8_t* src = src_batch + r_begin * k_bytes;
      uint8_t* dst = dst_batch + n1 * kFractalBytes;
      int64_t c1 = 0;
      if (rows == kNzH0) {
        // After the last run of these rows: the next 16 rows, when all there.
        const uint8_t* next_rows = r_begin + 2 * kNzH0 <= g.n ? src + kNzH0 * k_bytes : src;
        int64_t pair = 0;
        for (; pair + kRun <= full_pairs; pair += kRun) {
          const uint8_t* next =
              pair + 2 * kRun <= full_pairs ? src + (pair + kRun) * 64 : next_rows;
          PackPairs<kStream, kRun>(src + pair * 64, k_bytes, c1_stride, kRun,
                                   dst + 2 * pair * c1_stride, next);
        }
        PackPairs<kStream, 0>(src + pair * 64, k_bytes, c1_stride, full_pairs - pair,
                              dst + 2 * pair * c1_stride, src);
        c1 = 2 * full_pairs;
      }
      for (; c1 < g.c1; ++c1) {
        const int64_t valid = c1 < full_c1 ? 32 : tail_bytes;
        PackFractal<kStream>(src + c1 * 32, k_bytes, rows, valid, dst + c1 * c1_stride);
      }
    }
  }
  avx::Finish<kStream>();
}

// The inverse of PackPairs: ND rows [r0, r1) (r1 − r0 even).
template <bool kStream, int64_t kMaxPairs>
NPUCONF_AVX512 inline void UnpackPairs(const uint8_t* src, int64_t k_bytes, int64_t c1_stride,
                                       int64_t r0, int64_t r1, int64_t pairs, uint8_t* piece) {
  for (int64_t r = r0; r < r1; r += 2) {
    for (int64_t p = 0; p < (kMaxPairs > 0 ? kMaxPairs : pairs); ++p) {
      const uint8_t* pair = src + 2 * p * c1_stride + r * 32;
      const __m512i a = avx::Load(pair);
      const __m512i c = avx::Load(pair + c1_stride);
      avx::Store<kStream>(piece + r * k_bytes + 64 * p,
                          _mm512_shuffle_i64x2(a, c, avx::kLanes0101));
      avx::Store<kStream>(piece + (r + 1) * k_bytes + 64 * p,
                          _mm512_shuffle_i64x2(a, c, avx::kLanes2323));
    }
  }
}

// kStream: non-temporal ND stores; only when every ND row starts 64-byte
// aligned. Cached stores go half a fractal (8 rows) at a time: ND rows a
// power-of-two apart share an L1 set, and 16 of them outrun its 12 ways
// (a study of the access pattern, 256 KiB, k 4096 int8: 2.9× → 2.1× memcpy).
template <bool kStream>
NPUCONF_AVX512 void UnpackRows32Avx512(const uint8_t* nz, uint8_t* nd, const NzGeometry& g) {
  constexpr int64_t kBand = kStream ? kNzH0 : kNzH0 / 2;
  const int64_t k_bytes = g.k * g.bits / 8;
  const int64_t c1_stride = g.n1 * kFractalBytes;
  const int64_t batch_stride = g.c1 * c1_stride;
  const int64_t full_c1 = k_bytes / 32;
  const int64_t tail_bytes = k_bytes - full_c1 * 32;
  const int64_t full_pairs = full_c1 / 2;
  for (int64_t b = 0; b < g.batch; ++b) {
    uint8_t* dst_batch = nd + b * g.n * k_bytes;
    const uint8_t* src_batch = nz + b * batch_stride;
    for (int64_t n1 = 0; n1 < g.n1; ++n1) {
      const int64_t r_begin = n1 * kNzH0;
      const int64_t rows = std::min<int64_t>(kNzH0, g.n - r_begin);
      const int64_t even_rows = rows - rows % 2;
      uint8_t* dst = dst_batch + r_begin * k_bytes;
      const uint8_t* src = src_batch + n1 * kFractalBytes;
      for (int64_t r0 = 0; r0 < even_rows; r0 += kBand) {
        const int64_t r1 = std::min(even_rows, r0 + kBand);
        int64_t pair = 0;
        for (; pair + kPairs <= full_pairs; pair += kPairs) {
          UnpackPairs<kStream, kPairs>(src + 2 * pair * c1_stride, k_bytes, c1_stride, r0, r1,
                                       kPairs, dst + pair * 64);
        }
        UnpackPairs<kStream, 0>(src + 2 * pair * c1_stride, k_bytes, c1_stride, r0, r1,
                                full_pairs - pair, dst + pair * 64);
      }
      if (even_rows < rows) {  // the last row of an odd n: cached 64-byte stores
        const int64_t r = even_rows;
        for (int64_t pair = 0; pair < full_pairs; ++pair) {
          const uint8_t* piece = src + 2 * pair * c1_stride + r * 32;
          const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(piece));
          const __m256i hi =
              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(piece + c1_stride));
          _mm512_storeu_si512(dst + r * k_bytes + pair * 64, Join(lo, hi));
        }
      }
    }
    for (int64_t c1 = 2 * full_pairs; c1 < g.c1; ++c1) {
      const int64_t valid = c1 < full_c1 ? 32 : tail_bytes;
      const __mmask32 mask = _bzhi_u32(0xFFFFFFFFu, static_cast<unsigned>(valid));
      const uint8_t* src = src_batch + c1 * c1_stride;
      for (int64_t r = 0; r < g.n; ++r) {
        const __m256i v = _mm256_loadu_si256(
            reinterpret_cast<const __m256i*>(src + (r / kNzH0) * kFractalBytes + (r % kNzH0) * 32));
        _mm256_mask_storeu_epi8(dst_batch + r * k_bytes + c1 * 32, mask, v);
      }
    }
  }
  avx::Finish<kStream>();
}
#endif  // NPUCONF_HAVE_AVX512_KERNELS

#if NPUCONF_HAVE_AVX2_KERNELS
// ---- AVX2 kernels for 32-byte cube rows ------------------------------------------
//
// The AVX-512 kernels' order with a 32-byte register: one register is one cube
// row, so two ND rows of one fractal (one 64-byte NZ line) are two stores and
// no shuffle at all. Same runs, bands and prefetches as above; streamed stores
// still fill whole lines (the two halves back to back).
using simd::avx2::Load;   // 32 bytes
using simd::avx2::Store;  // 32 bytes, kStream: non-temporal
template <bool kStream>
NPUCONF_AVX2 inline void Finish2() {
  if constexpr (kStream) _mm_sfence();
}

// The bytes [0, valid_bytes) of a 32-byte row piece, zero above (valid ≤ 32).
NPUCONF_AVX2 inline __m256i LoadPiece2(const uint8_t* src, int64_t valid_bytes) {
  if (valid_bytes >= 32) return Load(src);
  alignas(32) uint8_t row[32] = {};
  std::memcpy(row, src, static_cast<size_t>(valid_bytes));
  return _mm256_load_si256(reinterpret_cast<const __m256i*>(row));
}

template <bool kStream>
NPUCONF_AVX2 void PackFractal2(const uint8_t* src, int64_t k_bytes, int64_t rows,
                               int64_t valid_bytes, uint8_t* dst) {
  const __m256i zero = _mm256_setzero_si256();
  for (int64_t r = 0; r < kNzH0; ++r) {
    Store<kStream>(dst + r * 32, r < rows ? LoadPiece2(src + r * k_bytes, valid_bytes) : zero);
  }
}

template <bool kStream, int64_t kMaxPairs>
NPUCONF_AVX2 inline void PackPairs2(const uint8_t* piece, int64_t k_bytes, int64_t c1_stride,
                                    int64_t pairs, uint8_t* dst, const uint8_t* next) {
  for (int64_t r = 0; r < kNzH0; r += 2) {
    if constexpr (kStream && kMaxPairs > 0) {
      for (int64_t p = 0; p < kMaxPairs; ++p) {
        _mm_prefetch(reinterpret_cast<const char*>(next + r * k_bytes + 64 * p), _MM_HINT_T0);
        _mm_prefetch(reinterpret_cast<const char*>(next + (r + 1) * k_bytes + 64 * p), _MM_HINT_T0);
      }
    }
    for (int64_t p = 0; p < (kMaxPairs > 0 ? kMaxPairs : pairs); ++p) {
      const uint8_t* a = piece + r * k_bytes + 64 * p;
      const uint8_t* c = a + k_bytes;
      uint8_t* pair = dst + 2 * p * c1_stride + r * 32;
      Store<kStream>(pair, Load(a));
      Store<kStream>(pair + 32, Load(c));
      Store<kStream>(pair + c1_stride, Load(a + 32));
      Store<kStream>(pair + c1_stride + 32, Load(c + 32));
    }
  }
}

template <bool kStream>
NPUCONF_AVX2 void PackRows32Avx2(const uint8_t* nd, uint8_t* nz, const NzGeometry& g) {
  constexpr int64_t kRun = kStream ? kStreamPackPairs : kPairs;
  const int64_t k_bytes = g.k * g.bits / 8;
  const int64_t c1_stride = g.n1 * kFractalBytes;
  const int64_t batch_stride = g.c1 * c1_stride;
  const int64_t full_c1 = k_bytes / 32;
  const int64_t tail_bytes = k_bytes - full_c1 * 32;
  const int64_t full_pairs = full_c1 / 2;
  for (int64_t b = 0; b < g.batch; ++b) {
    const uint8_t* src_batch = nd + b * g.n * k_bytes;
    uint8_t* dst_batch = nz + b * batch_stride;
    for (int64_t n1 = 0; n1 < g.n1; ++n1) {
      const int64_t r_begin = n1 * kNzH0;
      const int64_t rows = std::min<int64_t>(kNzH0, g.n - r_begin);
      const uint8_t* src = src_batch + r_begin * k_bytes;
      uint8_t* dst = dst_batch + n1 * kFractalBytes;
      int64_t c1 = 0;
      if (rows == kNzH0) {
        const uint8_t* next_rows = r_begin + 2 * kNzH0 <= g.n ? src + kNzH0 * k_bytes : src;
        int64_t pair = 0;
        for (; pair + kRun <= full_pairs; pair += kRun) {
          const uint8_t* next =
              pair + 2 * kRun <= full_pairs ? src + (pair + kRun) * 64 : next_rows;
          PackPairs2<kStream, kRun>(src + pair * 64, k_bytes, c1_stride, kRun,
                                    dst + 2 * pair * c1_stride, next);
        }
        PackPairs2<kStream, 0>(src + pair * 64, k_bytes, c1_stride, full_pairs - pair,
                               dst + 2 * pair * c1_stride, src);
        c1 = 2 * full_pairs;
      }
      for (; c1 < g.c1; ++c1) {
        const int64_t valid = c1 < full_c1 ? 32 : tail_bytes;
        PackFractal2<kStream>(src + c1 * 32, k_bytes, rows, valid, dst + c1 * c1_stride);
      }
    }
  }
  Finish2<kStream>();
}

template <bool kStream, int64_t kMaxPairs>
NPUCONF_AVX2 inline void UnpackPairs2(const uint8_t* src, int64_t k_bytes, int64_t c1_stride,
                                      int64_t r0, int64_t r1, int64_t pairs, uint8_t* piece) {
  for (int64_t r = r0; r < r1; r += 2) {
    for (int64_t p = 0; p < (kMaxPairs > 0 ? kMaxPairs : pairs); ++p) {
      const uint8_t* pair = src + 2 * p * c1_stride + r * 32;
      uint8_t* a = piece + r * k_bytes + 64 * p;
      uint8_t* c = a + k_bytes;
      const __m256i a_lo = Load(pair), c_lo = Load(pair + 32);
      const __m256i a_hi = Load(pair + c1_stride), c_hi = Load(pair + c1_stride + 32);
      Store<kStream>(a, a_lo);
      Store<kStream>(a + 32, a_hi);
      Store<kStream>(c, c_lo);
      Store<kStream>(c + 32, c_hi);
    }
  }
}

template <bool kStream>
NPUCONF_AVX2 void UnpackRows32Avx2(const uint8_t* nz, uint8_t* nd, const NzGeometry& g) {
  constexpr int64_t kBand = kStream ? kNzH0 : kNzH0 / 2;
  const int64_t k_bytes = g.k * g.bits / 8;
  const int64_t c1_stride = g.n1 * kFractalBytes;
  const int64_t batch_stride = g.c1 * c1_stride;
  const int64_t full_c1 = k_bytes / 32;
  const int64_t tail_bytes = k_bytes - full_c1 * 32;
  const int64_t full_pairs = full_c1 / 2;
  for (int64_t b = 0; b < g.batch; ++b) {
    uint8_t* dst_batch = nd + b * g.n * k_bytes;
    const uint8_t* src_batch = nz + b * batch_stride;
    for (int64_t n1 = 0; n1 < g.n1; ++n1) {
      const int64_t r_begin = n1 * kNzH0;
      const int64_t rows = std::min<int64_t>(kNzH0, g.n - r_begin);
      const int64_t even_rows = rows - rows % 2;
      uint8_t* dst = dst_batch + r_begin * k_bytes;
      const uint8_t* src = src_batch + n1 * kFractalBytes;
      for (int64_t r0 = 0; r0 < even_rows; r0 += kBand) {
        const int64_t r1 = std::min(even_rows, r0 + kBand);
        int64_t pair = 0;
        for (; pair + kPairs <= full_pairs; pair += kPairs) {
          UnpackPairs2<kStream, kPairs>(src + 2 * pair * c1_stride, k_bytes, c1_stride, r0, r1,
                                        kPairs, dst + pair * 64);
        }
        UnpackPairs2<kStream, 0>(src + 2 * pair * c1_stride, k_bytes, c1_stride, r0, r1,
                                 full_pairs - pair, dst + pair * 64);
      }
      if (even_rows < rows) {  // the last row of an odd n: cached stores
        const int64_t r = even_rows;
        for (int64_t pair = 0; pair < full_pairs; ++pair) {
          const uint8_t* piece = src + 2 * pair * c1_stride + r * 32;
          Store<false>(dst + r * k_bytes + pair * 64, Load(piece));
          Store<false>(dst + r * k_bytes + pair * 64 + 32, Load(piece + c1_stride));
        }
      }
    }
    for (int64_t c1 = 2 * full_pairs; c1 < g.c1; ++c1) {
      const int64_t valid = c1 < full_c1 ? 32 : tail_bytes;
      const uint8_t* src = src_batch + c1 * c1_stride;
      for (int64_t r = 0; r < g.n; ++r) {
        std::memcpy(dst_batch + r * k_bytes + c1 * 32,
                    src + (r / kNzH0) * kFractalBytes + (r % kNzH0) * 32,
                    static_cast<size_t>(valid));
      }
    }
  }
  Finish2<kStream>();
}
#endif  // NPUCONF_HAVE_AVX2_KERNELS

// INT4 nibble helpers: element e of a packed stream lives in byte e / 2, the
// low nibble when e is even (spec cann.md §4.4).
inline uint8_t GetNibble(const uint8_t* data, int64_t e) {
  return (e & 1) ? static_cast<uint8_t>(data[e >> 1] >> 4)
                 : static_cast<uint8_t>(data[e >> 1] & 0xF);
}
inline void SetNibble(uint8_t* data, int64_t e, uint8_t v) {
  uint8_t& byte = data[e >> 1];
  byte = (e & 1) ? static_cast<uint8_t>((byte & 0x0F) | (v << 4))
                 : static_cast<uint8_t>((byte & 0xF0) | (v & 0xF));
}

// INT4 with odd k: ND rows start mid-byte, so go element by element.
void PackNibbles(const uint8_t* nd, uint8_t* nz, const NzGeometry& g) {
  std::memset(nz, 0, g.storage_bytes);
  const int64_t block = kNzH0 * g.c0;
  for (int64_t b = 0; b < g.batch; ++b) {
    for (int64_t r = 0; r < g.n; ++r) {
      for (int64_t c = 0; c < g.k; ++c) {
        const int64_t src = (b * g.n + r) * g.k + c;
        const int64_t dst =
            b * g.c1 * g.n1 * block + (c / g.c0) * g.n1 * block + r * g.c0 + c % g.c0;
        SetNibble(nz, dst, GetNibble(nd, src));
      }
    }
  }
}

void UnpackNibbles(const uint8_t* nz, uint8_t* nd, const NzGeometry& g) {
  std::memset(nd, 0, g.nd_bytes);
  const int64_t block = kNzH0 * g.c0;
  for (int64_t b = 0; b < g.batch; ++b) {
    for (int64_t r = 0; r < g.n; ++r) {
      for (int64_t c = 0; c < g.k; ++c) {
        const int64_t dst = (b * g.n + r) * g.k + c;
        const int64_t src =
            b * g.c1 * g.n1 * block + (c / g.c0) * g.n1 * block + r * g.c0 + c % g.c0;
        SetNibble(nd, dst, GetNibble(nz, src));
      }
    }
  }
}

bool ByteGranular(const NzGeometry& g) { return g.bits >= 8 || g.k % 2 == 0; }

}  // namespace

std::optional<NzGeometry> NzGeometryFor(const Shape& nd_shape, DType dtype, int64_t c0) {
  NzGeometry g;
  g.bits = Bits(dtype);
  if (nd_shape.empty() || c0 <= 0 || g.bits == 64) return std::nullopt;
  if (g.bits == 4 && c0 % 2 != 0) return std::nullopt;
  for (int64_t dim : nd_shape) {
    if (dim < 0) return std::nullopt;
  }
  const size_t rank = nd_shape.size();
  g.c0 = c0;
  g.k = nd_shape[rank - 1];
  g.n = rank >= 2 ? nd_shape[rank - 2] : 1;
  auto batch = ProductOf(nd_shape, 0, rank >= 2 ? rank - 2 : 0);
  if (!batch) return std::nullopt;
  g.batch = *batch;
  g.n1 = CeilDiv(g.n, kNzH0);
  g.c1 = CeilDiv(g.k, c0);
  g.storage_shape.assign(nd_shape.begin(), nd_shape.begin() + (rank >= 2 ? rank - 2 : 0));
  g.storage_shape.insert(g.storage_shape.end(), {g.c1, g.n1, kNzH0, c0});
  auto storage = NumElements(g.storage_shape);
  auto nd = NumElements(nd_shape);
  if (!storage || !nd) return std::nullopt;
  // Byte counts must fit int64 too: element offsets are computed in int64.
  auto storage_bits = CheckedMul(*storage, g.bits);
  auto nd_bits = CheckedMul(*nd, g.bits);
  if (!storage_bits || !nd_bits) return std::nullopt;
  g.storage_elems = *storage;
  g.nd_elems = *nd;
  g.storage_bytes = static_cast<uint64_t>((*storage_bits + 7) / 8);
  g.nd_bytes = static_cast<uint64_t>((*nd_bits + 7) / 8);
  return g;
}

void PackNdToNz(const uint8_t* nd, uint8_t* nz, const NzGeometry& g) {
  if (g.storage_bytes == 0) return;
  if (!ByteGranular(g)) return PackNibbles(nd, nz, g);
  const int64_t row_bytes = g.c0 * g.bits / 8;
#if NPUCONF_HAVE_AVX512_KERNELS
  if (row_bytes == 32 && simd::ActiveIsa() == simd::Isa::kAvx512) {
    if (g.storage_bytes >= kStreamMinBytes && reinterpret_cast<uintptr_t>(nz) % 64 == 0) {
      return PackRows32Avx512<true>(nd, nz, g);
    }
    return PackRows32Avx512<false>(nd, nz, g);
  }
#endif
#if NPUCONF_HAVE_AVX2_KERNELS
  if (row_bytes == 32 && simd::ActiveIsa() == simd::Isa::kAvx2) {
    if (g.storage_bytes >= kStreamMinBytes && reinterpret_cast<uintptr_t>(nz) % 64 == 0) {
      return PackRows32Avx2<true>(nd, nz, g);
    }
    return PackRows32Avx2<false>(nd, nz, g);
  }
#endif
  if (row_bytes == 32) {
#if defined(__SSE2__)
    if (g.storage_bytes >= kStreamMinBytes && reinterpret_cast<uintptr_t>(nz) % 16 == 0) {
      return PackBytes<32, StreamRows32>(nd, nz, g, row_bytes);
    }
#endif
    return PackBytes<32, PlainRows>(nd, nz, g, row_bytes);
  }
  return PackBytes<0, PlainRows>(nd, nz, g, row_bytes);
}

void UnpackNzToNd(const uint8_t* nz, uint8_t* nd, const NzGeometry& g) {
  if (g.nd_bytes == 0) return;
  if (!ByteGranular(g)) return UnpackNibbles(nz, nd, g);
  const int64_t row_bytes = g.c0 * g.bits / 8;
#if NPUCONF_HAVE_AVX512_KERNELS
  if (row_bytes == 32 && simd::ActiveIsa() == simd::Isa::kAvx512) {
    const int64_t k_bytes = g.k * g.bits / 8;
    if (g.nd_bytes >= kStreamMinBytes && k_bytes % 64 == 0 &&
        reinterpret_cast<uintptr_t>(nd) % 64 == 0) {
      return UnpackRows32Avx512<true>(nz, nd, g);
    }
    return UnpackRows32Avx512<false>(nz, nd, g);
  }
#endif
#if NPUCONF_HAVE_AVX2_KERNELS
  if (row_bytes == 32 && simd::ActiveIsa() == simd::Isa::kAvx2) {
    const int64_t k_bytes = g.k * g.bits / 8;
    if (g.nd_bytes >= kStreamMinBytes && k_bytes % 64 == 0 &&
        reinterpret_cast<uintptr_t>(nd) % 64 == 0) {
      return UnpackRows32Avx2<true>(nz, nd, g);
    }
    return UnpackRows32Avx2<false>(nz, nd, g);
  }
#endif
  if (row_bytes == 32) return UnpackBytes<32>(nz, nd, g, row_bytes);
  return UnpackBytes<0>(nz, nd, g, row_bytes);
}

}  // namespace npuconf::cann
