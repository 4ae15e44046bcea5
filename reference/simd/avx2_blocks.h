// AVX2 building blocks shared by the layout kernels: loads and (streamed)
// stores, in-lane element transposes. Include only from .cpp files; call only when
// simd::ActiveIsa() is kAvx2 or kAvx512 (both run AVX2).
#pragma once

#include "reference/simd/isa.h"

#if NPUCONF_HAVE_AVX2_KERNELS
#include "reference/simd/avx512.h"  // <immintrin.h>, GCC 12 warnings silenced

namespace npuconf::simd::avx2 {

NPUCONF_AVX2 inline __m256i Load(const uint8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

// kStream: non-temporal, for a 32-byte aligned `p` only (Store128: 16-byte);
// callers stream from kStreamMinBytes (isa.h) on and fence (_mm_sfence) after.
template <bool kStream>
NPUCONF_AVX2 inline void Store(uint8_t* p, __m256i v) {
  if constexpr (kStream) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(p), v);
  } else {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  }
}
template <bool kStream>
NPUCONF_AVX2 inline void Store128(uint8_t* p, __m128i v) {
  if constexpr (kStream) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(p), v);
  } else {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v);
  }
}

// 16 bytes at lane0 in the low 128-bit lane, 16 at lane1 in the high one.
NPUCONF_AVX2 inline __m256i LoadLanes(const uint8_t* lane0, const uint8_t* lane1) {
  return _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128(reinterpret_cast<const __m128i*>(lane0))),
      _mm_loadu_si128(reinterpret_cast<const __m128i*>(lane1)), 1);
}

// In both 128-bit lanes, a 16 × 16 transpose of bytes: lane l of x[c] becomes
// byte c of lane l of x[0…15].
NPUCONF_AVX2 inline void TransposeBytes16x16InLanes(__m256i x[16]) {
  __m256i t[16], u[16];
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm256_unpacklo_epi8(x[2 * i], x[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_epi8(x[2 * i], x[2 * i + 1]);
  }
  for (int g = 0; g < 4; ++g) {
    u[4 * g + 0] = _mm256_unpacklo_epi16(t[4 * g], t[4 * g + 2]);
    u[4 * g + 1] = _mm256_unpackhi_epi16(t[4 * g], t[4 * g + 2]);
    u[4 * g + 2] = _mm256_unpacklo_epi16(t[4 * g + 1], t[4 * g + 3]);
    u[4 * g + 3] = _mm256_unpackhi_epi16(t[4 * g + 1], t[4 * g + 3]);
  }
  for (int h = 0; h < 2; ++h) {
    for (int m = 0; m < 4; ++m) {
      t[8 * h + 2 * m] = _mm256_unpacklo_epi32(u[8 * h + m], u[8 * h + 4 + m]);
      t[8 * h + 2 * m + 1] = _mm256_unpackhi_epi32(u[8 * h + m], u[8 * h + 4 + m]);
    }
  }
  for (int q = 0; q < 8; ++q) {
    x[2 * q] = _mm256_unpacklo_epi64(t[q], t[8 + q]);
    x[2 * q + 1] = _mm256_unpackhi_epi64(t[q], t[8 + q]);
  }
}

// In both 128-bit lanes, an 8 × 8 transpose of 16-bit elements: lane l of
// x[c] becomes element c of lane l of x[0…7].
NPUCONF_AVX2 inline void TransposeWords8x8InLanes(__m256i x[8]) {
  __m256i t[8], u[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm256_unpacklo_epi16(x[2 * i], x[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_epi16(x[2 * i], x[2 * i + 1]);
  }
  for (int g = 0; g < 2; ++g) {
    u[4 * g + 0] = _mm256_unpacklo_epi32(t[4 * g], t[4 * g + 2]);
    u[4 * g + 1] = _mm256_unpackhi_epi32(t[4 * g], t[4 * g + 2]);
    u[4 * g + 2] = _mm256_unpacklo_epi32(t[4 * g + 1], t[4 * g + 3]);
    u[4 * g + 3] = _mm256_unpackhi_epi32(t[4 * g + 1], t[4 * g + 3]);
  }
  for (int m = 0; m < 4; ++m) {
    x[2 * m] = _mm256_unpacklo_epi64(u[m], u[4 + m]);
    x[2 * m + 1] = _mm256_unpackhi_epi64(u[m], u[4 + m]);
  }
}

// An 8 × 8 transpose of 32-bit elements (across the lanes): x[c] becomes
// element c of x[0…7].
NPUCONF_AVX2 inline void TransposeDwords8x8(__m256i x[8]) {
  __m256i t[8], u[8];
  for (int i = 0; i < 4; ++i) {
    t[2 * i] = _mm256_unpacklo_epi32(x[2 * i], x[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_epi32(x[2 * i], x[2 * i + 1]);
  }
  for (int g = 0; g < 2; ++g) {
    u[4 * g + 0] = _mm256_unpacklo_epi64(t[4 * g], t[4 * g + 2]);
    u[4 * g + 1] = _mm256_unpackhi_epi64(t[4 * g], t[4 * g + 2]);
    u[4 * g + 2] = _mm256_unpacklo_epi64(t[4 * g + 1], t[4 * g + 3]);
    u[4 * g + 3] = _mm256_unpackhi_epi64(t[4 * g + 1], t[4 * g + 3]);
  }
  // u[m] (m < 4): rows 0-3 of columns m | m + 4; u[4 + m]: rows 4-7.
  for (int m = 0; m < 4; ++m) {
    x[m] = _mm256_permute2x128_si256(u[m], u[4 + m], 0x20);
    x[m + 4] = _mm256_permute2x128_si256(u[m], u[4 + m], 0x31);
  }
}

}  // namespace npuconf::simd::avx2
#endif
