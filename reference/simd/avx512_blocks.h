// AVX-512 building blocks of the layout kernels: whole-line loads and stores
// (plain or non-temporal), 128-bit-lane transposes and in-lane element
// transposes. Include only from .cpp files; call only when
// simd::ActiveIsa() == simd::Isa::kAvx512.
#pragma once

#include "reference/simd/isa.h"

#if NPUCONF_HAVE_AVX512_KERNELS
#include <cstdint>

#include "reference/simd/avx512.h"

namespace npuconf::simd::avx512 {

NPUCONF_AVX512 inline __m512i Load(const uint8_t* src) { return _mm512_loadu_si512(src); }

// kStream: non-temporal, for a 64-byte aligned `dst` only. Outputs larger than
// the caches gain from it (no read-for-ownership of a line that is written
// whole); callers stream from kStreamMinBytes (isa.h) on.
template <bool kStream>
NPUCONF_AVX512 inline void Store(uint8_t* dst, __m512i v) {
  if constexpr (kStream) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst), v);
  } else {
    _mm512_storeu_si512(dst, v);
  }
}

// Streamed stores are weakly ordered: fence so they are visible before
// whatever the caller stores next.
template <bool kStream>
NPUCONF_AVX512 inline void Finish() {
  if constexpr (kStream) _mm_sfence();
}

// vshufi64x2 selectors: result lanes [a.x, a.y, b.z, b.w].
inline constexpr int kLanes0101 = 0x44;  // [a0, a1, b0, b1]
inline constexpr int kLanes2323 = 0xEE;  // [a2, a3, b2, b3]
inline constexpr int kLanes0202 = 0x88;  // [a0, a2, b0, b2]
inline constexpr int kLanes1313 = 0xDD;  // [a1, a3, b1, b3]

// 4 × 4 transpose of 128-bit lanes: r[i].lane(j) → r[j].lane(i).
NPUCONF_AVX512 inline void TransposeLanes4x4(__m512i r[4]) {
  const __m512i t0 = _mm512_shuffle_i64x2(r[0], r[1], kLanes0202);
  const __m512i t1 = _mm512_shuffle_i64x2(r[0], r[1], kLanes1313);
  const __m512i t2 = _mm512_shuffle_i64x2(r[2], r[3], kLanes0202);
  const __m512i t3 = _mm512_shuffle_i64x2(r[2], r[3], kLanes1313);
  r[0] = _mm512_shuffle_i64x2(t0, t2, kLanes0202);
  r[2] = _mm512_shuffle_i64x2(t0, t2, kLanes1313);
  r[1] = _mm512_shuffle_i64x2(t1, t3, kLanes0202);
  r[3] = _mm512_shuffle_i64x2(t1, t3, kLanes1313);
}

// In every 128-bit lane independently, a 16 × 16 byte transpose: on return
// byte i of x[j] (in each lane) is the old byte j of x[i].
NPUCONF_AVX512 inline void TransposeBytes16x16InLanes(__m512i x[16]) {
  __m512i t[16], u[16];
  for (int i = 0; i < 8; ++i) {  // 16-bit units: rows (2i, 2i+1) of one column
    t[2 * i] = _mm512_unpacklo_epi8(x[2 * i], x[2 * i + 1]);      // columns 0…7
    t[2 * i + 1] = _mm512_unpackhi_epi8(x[2 * i], x[2 * i + 1]);  // columns 8…15
  }
  for (int g = 0; g < 4; ++g) {  // 32-bit units: rows 4g…4g+3 of one column
    u[4 * g + 0] = _mm512_unpacklo_epi16(t[4 * g], t[4 * g + 2]);      // columns 0…3
    u[4 * g + 1] = _mm512_unpackhi_epi16(t[4 * g], t[4 * g + 2]);      // 4…7
    u[4 * g + 2] = _mm512_unpacklo_epi16(t[4 * g + 1], t[4 * g + 3]);  // 8…11
    u[4 * g + 3] = _mm512_unpackhi_epi16(t[4 * g + 1], t[4 * g + 3]);  // 12…15
  }
  for (int h = 0; h < 2; ++h) {  // 64-bit units: rows 8h…8h+7; t[8h + q] holds columns 2q, 2q+1
    for (int m = 0; m < 4; ++m) {
      t[8 * h + 2 * m] = _mm512_unpacklo_epi32(u[8 * h + m], u[8 * h + 4 + m]);
      t[8 * h + 2 * m + 1] = _mm512_unpackhi_epi32(u[8 * h + m], u[8 * h + 4 + m]);
    }
  }
  for (int q = 0; q < 8; ++q) {
    x[2 * q] = _mm512_unpacklo_epi64(t[q], t[8 + q]);
    x[2 * q + 1] = _mm512_unpackhi_epi64(t[q], t[8 + q]);
  }
}

// In every 128-bit lane independently, an 8 × 8 transpose of 16-bit elements.
NPUCONF_AVX512 inline void TransposeWords8x8InLanes(__m512i x[8]) {
  __m512i t[8], u[8];
  for (int i = 0; i < 4; ++i) {  // 32-bit units: rows (2i, 2i+1) of one column
    t[2 * i] = _mm512_unpacklo_epi16(x[2 * i], x[2 * i + 1]);      // columns 0…3
    t[2 * i + 1] = _mm512_unpackhi_epi16(x[2 * i], x[2 * i + 1]);  // columns 4…7
  }
  for (int g = 0; g < 2; ++g) {  // 64-bit units: rows 4g…4g+3; u[4g + m] holds columns 2m, 2m+1
    u[4 * g + 0] = _mm512_unpacklo_epi32(t[4 * g], t[4 * g + 2]);
    u[4 * g + 1] = _mm512_unpackhi_epi32(t[4 * g], t[4 * g + 2]);
    u[4 * g + 2] = _mm512_unpacklo_epi32(t[4 * g + 1], t[4 * g + 3]);
    u[4 * g + 3] = _mm512_unpackhi_epi32(t[4 * g + 1], t[4 * g + 3]);
  }
  for (int m = 0; m < 4; ++m) {
    x[2 * m] = _mm512_unpacklo_epi64(u[m], u[4 + m]);
    x[2 * m + 1] = _mm512_unpackhi_epi64(u[m], u[4 + m]);
  }
}

// A 16 × 16 transpose of 16-bit elements held two rows a register: on entry
// x[i] is [row 2i | row 2i + 1] (16 elements each), on return [column 2i |
// column 2i + 1]. Element (r, c) sits in register r >> 1 at word (r & 1) · 16
// + c; three stages of two-source word permutes (vpermt2w) each swap a
// register bit with a word bit (r3 ↔ c3, r2 ↔ c2, r1 ↔ c1), and the last one
// also swaps word bits 4 and 0 (r0 ↔ c0). 24 permutes, against 48 shuffles
// for the in-lane 8 × 8 transposes plus the lane moves that split and join
// the rows' halves (TransposeWords8x8InLanes with inserts and extracts).
struct Words16x16Permutes {
  alignas(64) uint16_t low[3][32];
  alignas(64) uint16_t high[3][32];
};
inline constexpr Words16x16Permutes kWords16x16 = [] {
  Words16x16Permutes p{};
  for (int s = 0; s < 3; ++s) {
    const int bit = 8 >> s;  // the word bit this stage swaps: 3, 2, 1
    for (int q = 0; q < 32; ++q) {
      // The last stage writes word q to where the column-major order wants
      // it: word bits 4 and 0 swapped.
      const int w = s < 2 ? q : (q & 0xE) | (q >> 4 & 1) | (q & 1) << 4;
      const int from_b = (w & bit) != 0 ? 32 : 0;  // the word bit names the source register
      p.low[s][q] = static_cast<uint16_t>(from_b + (w & ~bit));
      p.high[s][q] = static_cast<uint16_t>(from_b + (w | bit));
    }
  }
  return p;
}();
NPUCONF_AVX512 inline void TransposeWords16x16(__m512i x[8]) {
  for (int s = 0; s < 3; ++s) {
    const int step = 4 >> s;  // the register bit this stage swaps
    const __m512i low = _mm512_load_si512(kWords16x16.low[s]);
    const __m512i high = _mm512_load_si512(kWords16x16.high[s]);
    for (int i = 0; i < 8; ++i) {
      if ((i & step) != 0) continue;
      const __m512i a = x[i], b = x[i + step];
      x[i] = _mm512_permutex2var_epi16(a, low, b);
      x[i + step] = _mm512_permutex2var_epi16(a, high, b);
    }
  }
}

}  // namespace npuconf::simd::avx512
#endif  // NPUCONF_HAVE_AVX512_KERNELS
