#include "reference/blocks/channel_blocks.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "reference/simd/avx2_blocks.h"
#include "reference/simd/avx512_blocks.h"
#include "reference/simd/isa.h"

namespace npuconf::blocks {
namespace {

// Portable path, blocked rows [j_from, cols): row by row, every plane's
// element then the zero lanes. The planes are read as `planes` sequential
// streams, the blocked rows written in order.
template <int kBytes>
void PlanesToC0Rows(const uint8_t* plain, int64_t plain_stride, int64_t planes, int64_t j_from,
                    int64_t cols, int64_t c0, uint8_t* blocked, int64_t blocked_stride) {
  for (int64_t j = j_from; j < cols; ++j) {
    uint8_t* row = blocked + j * blocked_stride;
    const uint8_t* column = plain + j * kBytes;
    for (int64_t r = 0; r < planes; ++r) {
      std::memcpy(row + r * kBytes, column + r * plain_stride, kBytes);
    }
    std::memset(row + planes * kBytes, 0, static_cast<size_t>((c0 - planes) * kBytes));
  }
}

template <int kBytes>
void C0ToPlanesRows(const uint8_t* blocked, int64_t blocked_stride, int64_t planes, int64_t j_from,
                    int64_t cols, uint8_t* plain, int64_t plain_stride) {
  for (int64_t j = j_from; j < cols; ++j) {
    const uint8_t* row = blocked + j * blocked_stride;
    uint8_t* column = plain + j * kBytes;
    for (int64_t r = 0; r < planes; ++r) {
      std::memcpy(column + r * plain_stride, row + r * kBytes, kBytes);
    }
  }
}

#if NPUCONF_HAVE_AVX2_KERNELS
// Register tiles, full C0 only. Each covers the columns [0, cols − cols % 16)
// (16-bit) or [0, cols − cols % 8) (32-bit) and returns where it stopped.
using simd::avx2::Load;
using simd::avx2::Store;
using simd::avx2::Store128;

// 16-bit, C0 16, back: blocked rows `rows` … + 15 (`stride` apart) as [row c |
// row 8 + c] lane pairs, then the in-lane 8 × 8 transposes of Words16 (below)
// leave plane 8h + r of these 16 columns in y[h][r]. Words16BackRows: the
// same from the rows already loaded, x[h][r] = row 8h + r.
NPUCONF_AVX2 inline void Words16BackRows(const __m256i x[2][8], __m256i y[2][8]) {
  for (int c = 0; c < 8; ++c) {
    y[0][c] = _mm256_permute2x128_si256(x[0][c], x[1][c], 0x20);  // planes 0-7
    y[1][c] = _mm256_permute2x128_si256(x[0][c], x[1][c], 0x31);  // planes 8-15
  }
  simd::avx2::TransposeWords8x8InLanes(y[0]);
  simd::avx2::TransposeWords8x8InLanes(y[1]);
}

NPUCONF_AVX2 inline void Words16Back(const uint8_t* rows, int64_t stride, __m256i y[2][8]) {
  __m256i x[2][8];
  for (int h = 0; h < 2; ++h) {
    for (int r = 0; r < 8; ++r) x[h][r] = Load(rows + (8 * h + r) * stride);
  }
  Words16BackRows(x, y);
}

// One tile of Words16Back into its 16 planes: 32 bytes each.
template <bool kStream>
NPUCONF_AVX2 inline void StorePlanes16(uint8_t* plain, int64_t plain_stride,
                                       const __m256i y[2][8]) {
  for (int h = 0; h < 2; ++h) {
    for (int r = 0; r < 8; ++r) Store<kStream>(plain + (8 * h + r) * plain_stride, y[h][r]);
  }
}

// C0RunPairs' cached unpack, two images at a time: each blocked row's 64-byte
// line (the runs of images i and i + 1) is loaded whole, the second half
// parked in an L1 scratch, so a line is read once even when the 16 rows
// (run_stride apart) crowd one L1 set and evict each other. The last image
// of an odd count goes alone.
NPUCONF_AVX2 void CachedImagePairs16(int64_t images, int64_t plain_image, uint8_t* plain,
                                     int64_t plain_stride, int64_t cols, int64_t block_cols,
                                     const uint8_t* runs, int64_t run_stride,
                                     int64_t block_stride) {
  for (int64_t i = 0; i < images; i += 2) {
    const bool pair = i + 1 < images;
    for (int64_t j0 = 0; j0 < cols; j0 += 16) {
      const uint8_t* rows =
          runs + j0 / block_cols * block_stride + j0 % block_cols * run_stride + i * 32;
      uint8_t* at = plain + i * plain_image + 2 * j0;
      __m256i x[2][8], y[2][8];
      alignas(32) uint8_t second[16 * 32];
      for (int h = 0; h < 2; ++h) {
        for (int r = 0; r < 8; ++r) {
          const uint8_t* row = rows + (8 * h + r) * run_stride;
          x[h][r] = Load(row);
          if (pair) Store<false>(second + 32 * (8 * h + r), Load(row + 32));
        }
      }
      Words16BackRows(x, y);
      StorePlanes16<false>(at, plain_stride, y);
      if (pair) {
        Words16Back(second, 32, y);
        StorePlanes16<false>(at + plain_image, plain_stride, y);
      }
    }
  }
}

// Two tiles of Words16Back as the 64-byte lines of 16 planes, streamed: each
// line's halves (a, then b) back to back.
NPUCONF_AVX2 inline void StreamLines16(uint8_t* plain, int64_t plain_stride, const __m256i a[2][8],
                                       const __m256i b[2][8]) {
  for (int h = 0; h < 2; ++h) {
    for (int r = 0; r < 8; ++r) {
      uint8_t* line = plain + (8 * h + r) * plain_stride;
      Store<true>(line, a[h][r]);
      Store<true>(line + 32, b[h][r]);
    }
  }
}

// C0RunPairs' streamed unpack of blocks of 16 columns (FRACTAL_Z_3D's d of
// H·W 16, `blocks` of them, an even count): image i's blocks b and b + 1 as
// whole 64-byte plane lines; the 32 runs of a line's two images are
// prefetched 8 images ahead (figures: C0RunPairs).
NPUCONF_AVX2 void StreamBlockPairs16(int64_t images, int64_t plain_image, uint8_t* plain,
                                     int64_t plain_stride, int64_t blocks, const uint8_t* runs,
                                     int64_t run_stride, int64_t block_stride) {
  for (int64_t i = 0; i < images; ++i) {
    for (int64_t b = 0; b < blocks; b += 2) {
      const uint8_t* rows = runs + b * block_stride + i * 32;
      if (i % 2 == 0 && i + 8 < images) {
        for (int64_t r = 0; r < 16; ++r) {
          __builtin_prefetch(rows + r * run_stride + 8 * 32);
          __builtin_prefetch(rows + block_stride + r * run_stride + 8 * 32);
        }
      }
      __m256i first[2][8], second[2][8];
      Words16Back(rows, run_stride, first);
      Words16Back(rows + block_stride, run_stride, second);
      StreamLines16(plain + i * plain_image + 32 * b, plain_stride, first, second);
    }
  }
}

// 16-bit, C0 16: 16 planes × 16 columns. Two in-lane 8 × 8 transposes (planes
// 0-7 and 8-15) leave column 8l + c in lane l of x[c]; vperm2i128 joins the
// halves of each blocked row. Back, streamed, two tiles go together so that
// each plane's 64-byte line is stored whole, its two halves back to back: one
// tile at a time left 16 planes' lines half written in the write-combining
// buffers (× memcpy, NC1HWC0 → NCHW fp16 16 MiB 2.44 → 0.90, 64 MiB 1.59 →
// 0.75, 256 MiB 1.43 → 0.71; AVX2 path alike). FRACTAL_Z's calls of H·W 16
// columns are one tile: unchanged.
template <bool kToC0, bool kStream>
NPUCONF_AVX2 int64_t Words16(uint8_t* plain, int64_t plain_stride, int64_t cols, uint8_t* blocked,
                             int64_t blocked_stride) {
  const int64_t end = cols / 16 * 16;
  if constexpr (kToC0) {
    for (int64_t j0 = 0; j0 < end; j0 += 16) {
      __m256i x[2][8];
      for (int h = 0; h < 2; ++h) {
        for (int r = 0; r < 8; ++r) x[h][r] = Load(plain + (8 * h + r) * plain_stride + 2 * j0);
      }
      simd::avx2::TransposeWords8x8InLanes(x[0]);
      simd::avx2::TransposeWords8x8InLanes(x[1]);
      for (int c = 0; c < 8; ++c) {
        Store<kStream>(blocked + (j0 + c) * blocked_stride,
                       _mm256_permute2x128_si256(x[0][c], x[1][c], 0x20));
        Store<kStream>(blocked + (j0 + 8 + c) * blocked_stride,
                       _mm256_permute2x128_si256(x[0][c], x[1][c], 0x31));
      }
    }
  } else {
    int64_t j0 = 0;
    if constexpr (kStream) {
      for (; j0 + 32 <= end; j0 += 32) {
        __m256i a[2][8], b[2][8];
        Words16Back(blocked + j0 * blocked_stride, blocked_stride, a);
        Words16Back(blocked + (j0 + 16) * blocked_stride, blocked_stride, b);
        StreamLines16(plain + 2 * j0, plain_stride, a, b);
      }
    }
    for (; j0 < end; j0 += 16) {
      __m256i y[2][8];
      Words16Back(blocked + j0 * blocked_stride, blocked_stride, y);
      StorePlanes16<kStream>(plain + 2 * j0, plain_stride, y);
    }
  }
  return end;
}

// 16-bit, C0 8 (RKNN fp16 C2, UG Table 4-6): 8 planes × 16 columns, one
// in-lane 8 × 8 transpose; lane l of x[c] is blocked row 8l + c (16 bytes).
template <bool kToC0, bool kStream>
NPUCONF_AVX2 int64_t Words8(uint8_t* plain, int64_t plain_stride, int64_t cols, uint8_t* blocked,
                            int64_t blocked_stride) {
  const int64_t end = cols / 16 * 16;
  for (int64_t j0 = 0; j0 < end; j0 += 16) {
    __m256i x[8];
    for (int i = 0; i < 8; ++i) {
      x[i] = kToC0 ? Load(plain + i * plain_stride + 2 * j0)
                   : simd::avx2::LoadLanes(blocked + (j0 + i) * blocked_stride,
                                           blocked + (j0 + 8 + i) * blocked_stride);
    }
    simd::avx2::TransposeWords8x8InLanes(x);
    for (int i = 0; i < 8; ++i) {
      if constexpr (kToC0) {
        Store128<kStream>(blocked + (j0 + i) * blocked_stride, _mm256_castsi256_si128(x[i]));
        Store128<kStream>(blocked + (j0 + 8 + i) * blocked_stride,
                          _mm256_extracti128_si256(x[i], 1));
      } else {
        Store<kStream>(plain + i * plain_stride + 2 * j0, x[i]);
      }
    }
  }
  return end;
}

// 16-bit C0 4 (NC1HWC0_C04 and FRACTAL_Z_C04's flattened pixels, §A.2, §A.5),
// 4 planes × 16 pixels. To pixels: word then dword interleaves give pixels (0, 1
// | 8, 9), (2, 3 | 10, 11), (4, 5 | 12, 13), (6, 7 | 14, 15), which vperm2i128
// puts in order: out[q] is pixels 4q … 4q + 3, each its 4 lanes. Back: the same
// vperm2i128 undo it, a byte shuffle gathers each lane's pixel pair plane by
// plane (a0 a1 b0 b1 c0 c1 d0 d1), and dword then qword unpacks join the pairs
// into planes.
NPUCONF_AVX2 inline void PixelsOf4Planes(__m256i a, __m256i b, __m256i c, __m256i d,
                                         __m256i out[4]) {
  const __m256i ab_lo = _mm256_unpacklo_epi16(a, b), ab_hi = _mm256_unpackhi_epi16(a, b);
  const __m256i cd_lo = _mm256_unpacklo_epi16(c, d), cd_hi = _mm256_unpackhi_epi16(c, d);
  const __m256i p01 = _mm256_unpacklo_epi32(ab_lo, cd_lo);  // pixels 0, 1 | 8, 9
  const __m256i p23 = _mm256_unpackhi_epi32(ab_lo, cd_lo);  // 2, 3 | 10, 11
  const __m256i p45 = _mm256_unpacklo_epi32(ab_hi, cd_hi);  // 4, 5 | 12, 13
  const __m256i p67 = _mm256_unpackhi_epi32(ab_hi, cd_hi);  // 6, 7 | 14, 15
  out[0] = _mm256_permute2x128_si256(p01, p23, 0x20);
  out[1] = _mm256_permute2x128_si256(p45, p67, 0x20);
  out[2] = _mm256_permute2x128_si256(p01, p23, 0x31);
  out[3] = _mm256_permute2x128_si256(p45, p67, 0x31);
}

NPUCONF_AVX2 inline void PlanesOf16Pixels(__m256i q0, __m256i q1, __m256i q2, __m256i q3,
                                          __m256i out[4]) {
  const __m256i pairs = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15, 0, 1,
                                         8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
  const __m256i g0 = _mm256_shuffle_epi8(_mm256_permute2x128_si256(q0, q2, 0x20), pairs);
  const __m256i g1 = _mm256_shuffle_epi8(_mm256_permute2x128_si256(q0, q2, 0x31), pairs);
  const __m256i g2 = _mm256_shuffle_epi8(_mm256_permute2x128_si256(q1, q3, 0x20), pairs);
  const __m256i g3 = _mm256_shuffle_epi8(_mm256_permute2x128_si256(q1, q3, 0x31), pairs);
  const __m256i ab01 = _mm256_unpacklo_epi32(g0, g1), cd01 = _mm256_unpackhi_epi32(g0, g1);
  const __m256i ab23 = _mm256_unpacklo_epi32(g2, g3), cd23 = _mm256_unpackhi_epi32(g2, g3);
  out[0] = _mm256_unpacklo_epi64(ab01, ab23);
  out[1] = _mm256_unpackhi_epi64(ab01, ab23);
  out[2] = _mm256_unpacklo_epi64(cd01, cd23);
  out[3] = _mm256_unpackhi_epi64(cd01, cd23);
}

// 16-bit, C0 4, blocked rows back to back: the tile above, 16 columns a step.
template <bool kToC0, bool kStream>
NPUCONF_AVX2 int64_t Words4(uint8_t* plain, int64_t plain_stride, int64_t cols, uint8_t* blocked,
                            int64_t blocked_stride) {
  if (blocked_stride != 8) return 0;  // rows back to back only (every C0 4 layout's)
  const int64_t end = cols / 16 * 16;
  for (int64_t j0 = 0; j0 < end; j0 += 16) {
    uint8_t* row = blocked + j0 * blocked_stride;  // 16 rows of 8 bytes, 128 bytes
    __m256i out[4];
    if constexpr (kToC0) {
      PixelsOf4Planes(Load(plain + 2 * j0), Load(plain + plain_stride + 2 * j0),
                      Load(plain + 2 * plain_stride + 2 * j0),
                      Load(plain + 3 * plain_stride + 2 * j0), out);
      for (int q = 0; q < 4; ++q) Store<kStream>(row + 32 * q, out[q]);
    } else {
      PlanesOf16Pixels(Load(row), Load(row + 32), Load(row + 64), Load(row + 96), out);
      for (int r = 0; r < 4; ++r) Store<kStream>(plain + r * plain_stride + 2 * j0, out[r]);
    }
  }
  return end;
}

// FRACTAL_Z_C04 16-bit straight to its rows (C04Runs below): each 16-pixel
// tile's 4 pieces of 32 bytes are C0-16 runs k … k + 3 of the flattened row.
// Planes past `planes` read as 0 (C = 3: RGB input convolutions).
template <bool kToRuns, bool kStream>
NPUCONF_AVX2 void C04RunTiles(int64_t images, int64_t plain_image, uint8_t* plain,
                              int64_t plain_stride, int64_t planes, int64_t cols, uint8_t* runs,
                              int64_t run_stride) {
  const __m256i zero = _mm256_setzero_si256();
  for (int64_t i = 0; i < images; ++i) {
    uint8_t* image = plain + i * plain_image;
    uint8_t* at = runs + i * 32;
    for (int64_t j0 = 0; j0 < cols; j0 += 16, at += 4 * run_stride) {
      __m256i out[4];
      if constexpr (kToRuns) {
        const uint8_t* col = image + 2 * j0;
        PixelsOf4Planes(Load(col), planes > 1 ? Load(col + plain_stride) : zero,
                        planes > 2 ? Load(col + 2 * plain_stride) : zero,
                        planes > 3 ? Load(col + 3 * plain_stride) : zero, out);
        for (int q = 0; q < 4; ++q) Store<kStream>(at + q * run_stride, out[q]);
      } else {
        PlanesOf16Pixels(Load(at), Load(at + run_stride), Load(at + 2 * run_stride),
                         Load(at + 3 * run_stride), out);
        for (int64_t r = 0; r < planes; ++r) {
          Store<kStream>(image + r * plain_stride + 2 * j0, out[r]);
        }
      }
    }
  }
}

// 32-bit, C0 8 or 16: 8 planes × 8 columns per 8 × 8 transpose; C0 16 is two
// of them side by side in each blocked row. Streamed, both are transposed
// before a row is stored, so the row is written in one pass; cached, each is
// stored as it is done (fewer registers live: 1 MiB fp32 C0 16, 1.3× memcpy
// against 2.2× holding both).
// kHalves = C0 / 8, fixed at compile time (why: Bytes below).
template <bool kToC0, bool kStream, int kHalves>
NPUCONF_AVX2 int64_t Dwords(uint8_t* plain, int64_t plain_stride, int64_t cols, uint8_t* blocked,
                            int64_t blocked_stride) {
  const int64_t end = cols / 8 * 8;
  constexpr int64_t halves = kHalves;
  auto store = [&](int64_t j0, int64_t half, const __m256i* x) NPUCONF_AVX2 {
    for (int i = 0; i < 8; ++i) {
      if constexpr (kToC0) {
        Store<kStream>(blocked + (j0 + i) * blocked_stride + 32 * half, x[i]);
      } else {
        Store<kStream>(plain + (8 * half + i) * plain_stride + 4 * j0, x[i]);
      }
    }
  };
  for (int64_t j0 = 0; j0 < end; j0 += 8) {
    __m256i x[kHalves][8];
    for (int64_t half = 0; half < halves; ++half) {
      for (int i = 0; i < 8; ++i) {
        x[half][i] = kToC0 ? Load(plain + (8 * half + i) * plain_stride + 4 * j0)
                           : Load(blocked + (j0 + i) * blocked_stride + 32 * half);
      }
      simd::avx2::TransposeDwords8x8(x[half]);
      if constexpr (!kStream) store(j0, half, x[half]);
    }
    if constexpr (kStream) {
      for (int64_t half = 0; half < halves; ++half) store(j0, half, x[half]);
    }
  }
  return end;
}

// 8-bit, C0 16 (RKNN int8 C2, torch_npu's int8 C0) or 32 (GE's int8 C0): 16
// planes × 32 columns per in-lane 16 × 16 byte transpose, which leaves column
// 16l + c of those planes in lane l of x[c]. C0 32 joins two such sets (planes
// 0-15, 16-31) per blocked row with vperm2i128.
// kSets = C0 / 16, fixed at compile time: with a run-time count the compiler
// kept x in memory (RKNN int8 NC1HWC2 → NCHW 4 MiB, perf).
template <bool kToC0, bool kStream, int kSets>
NPUCONF_AVX2 int64_t Bytes(uint8_t* plain, int64_t plain_stride, int64_t cols, uint8_t* blocked,
                           int64_t blocked_stride) {
  const int64_t end = cols / 32 * 32;
  constexpr int sets = kSets;
  if constexpr (kToC0 && kSets == 1) {
    // C0 16: a plane's whole line (64 columns) is loaded at once, both
    // tiles' halves, so a plane whose line left the L1 between tiles (16
    // planes H·W apart, one set) is not read twice; rows back to back are
    // stored in pairs (rows c and c + 1 of a tile are one 32-byte store).
    // NPUCONF_ISA=avx2, × memcpy: NCHW → NC1HWC2 int8 1 MiB 2.03 → 1.49,
    // 4 MiB 1.92 → 1.43. Back, row pairs are loaded likewise (1 MiB 1.91 →
    // 1.73); its stores go through C0ToPlanesTiles' scratch (straight into the
    // crowded planes, even a whole line at a time, was slower: 1.9 → 2.2).
    int64_t j0 = 0;
    const bool pairs = blocked_stride == 16;
    auto store = [&](int64_t at, __m256i x[16]) NPUCONF_AVX2 {
      if (pairs) {
        for (int c = 0; c < 16; c += 2) {
          Store<kStream>(blocked + (at + c) * 16, _mm256_permute2x128_si256(x[c], x[c + 1], 0x20));
          Store<kStream>(blocked + (at + 16 + c) * 16,
                         _mm256_permute2x128_si256(x[c], x[c + 1], 0x31));
        }
        return;
      }
      for (int c = 0; c < 16; ++c) {
        Store128<kStream>(blocked + (at + c) * blocked_stride, _mm256_castsi256_si128(x[c]));
        Store128<kStream>(blocked + (at + 16 + c) * blocked_stride,
                          _mm256_extracti128_si256(x[c], 1));
      }
    };
    for (; j0 + 64 <= end; j0 += 64) {
      __m256i a[16], b[16];
      for (int r = 0; r < 16; ++r) {
        a[r] = Load(plain + r * plain_stride + j0);
        b[r] = Load(plain + r * plain_stride + j0 + 32);
      }
      simd::avx2::TransposeBytes16x16InLanes(a);
      store(j0, a);
      simd::avx2::TransposeBytes16x16InLanes(b);
      store(j0 + 32, b);
    }
    for (; j0 < end; j0 += 32) {
      __m256i a[16];
      for (int r = 0; r < 16; ++r) a[r] = Load(plain + r * plain_stride + j0);
      simd::avx2::TransposeBytes16x16InLanes(a);
      store(j0, a);
    }
  } else if constexpr (kToC0) {
    for (int64_t j0 = 0; j0 < end; j0 += 32) {
      __m256i x[kSets][16];
      for (int set = 0; set < sets; ++set) {
        for (int r = 0; r < 16; ++r) x[set][r] = Load(plain + (16 * set + r) * plain_stride + j0);
        simd::avx2::TransposeBytes16x16InLanes(x[set]);
      }
      for (int c = 0; c < 16; ++c) {
        uint8_t* row0 = blocked + (j0 + c) * blocked_stride;
        uint8_t* row1 = blocked + (j0 + 16 + c) * blocked_stride;
        if constexpr (kSets == 1) {
          Store128<kStream>(row0, _mm256_castsi256_si128(x[0][c]));
          Store128<kStream>(row1, _mm256_extracti128_si256(x[0][c], 1));
        } else {
          Store<kStream>(row0, _mm256_permute2x128_si256(x[0][c], x[1][c], 0x20));
          Store<kStream>(row1, _mm256_permute2x128_si256(x[0][c], x[1][c], 0x31));
        }
      }
    }
  } else {
    // x[set][c] = [lanes of planes 16·set… of blocked row c | of row 16 + c];
    // transposed, x[set][r] is plane 16·set + r.
    auto tile = [&](int64_t j0, __m256i x[kSets][16]) NPUCONF_AVX2 {
      if (kSets == 1 && blocked_stride == 16) {  // rows back to back: load row pairs
        for (int c = 0; c < 16; c += 2) {
          const __m256i low = Load(blocked + (j0 + c) * 16);        // rows c, c + 1
          const __m256i high = Load(blocked + (j0 + 16 + c) * 16);  // rows 16 + c, 17 + c
          x[0][c] = _mm256_permute2x128_si256(low, high, 0x20);
          x[0][c + 1] = _mm256_permute2x128_si256(low, high, 0x31);
        }
        simd::avx2::TransposeBytes16x16InLanes(x[0]);
        return;
      }
      for (int c = 0; c < 16; ++c) {
        const uint8_t* row0 = blocked + (j0 + c) * blocked_stride;
        const uint8_t* row1 = blocked + (j0 + 16 + c) * blocked_stride;
        for (int set = 0; set < sets; ++set) {
          x[set][c] = simd::avx2::LoadLanes(row0 + 16 * set, row1 + 16 * set);
        }
      }
      for (int set = 0; set < sets; ++set) simd::avx2::TransposeBytes16x16InLanes(x[set]);
    };
    int64_t j0 = 0;
    if constexpr (kStream) {
      // Two tiles, each plane's line stored whole (as Words16: RKNN int8
      // NC1HWC2 → NCHW 16 MiB 2.70 → 0.88, 64 MiB 1.50 → 0.81 × memcpy).
      for (; j0 + 64 <= end; j0 += 64) {
        __m256i a[kSets][16], b[kSets][16];
        tile(j0, a);
        tile(j0 + 32, b);
        for (int set = 0; set < sets; ++set) {
          for (int r = 0; r < 16; ++r) {
            uint8_t* line = plain + (16 * set + r) * plain_stride + j0;
            Store<true>(line, a[set][r]);
            Store<true>(line + 32, b[set][r]);
          }
        }
      }
    }
    for (; j0 < end; j0 += 32) {
      __m256i x[kSets][16];
      tile(j0, x);
      for (int set = 0; set < sets; ++set) {
        for (int r = 0; r < 16; ++r) {
          Store<kStream>(plain + (16 * set + r) * plain_stride + j0, x[set][r]);
        }
      }
    }
  }
  return end;
}

#if NPUCONF_HAVE_AVX512_KERNELS
// Words16 to C0, cached, on the AVX-512 path: one zmm holds planes 2i and
// 2i + 1 (16 columns each; one load where planes are back to back, as
// FRACTAL_Z's H·W 16), the permute network of TransposeWords16x16 turns them
// into blocked rows 2m and 2m + 1. With the in-lane 8 × 8 transpose, a lane
// shuffle per row pair and the inserts and extracts around it (48 shuffles a
// 16 × 16 tile), NCHW → FRACTAL_Z fp16 1 MiB spent 60 % of its time here.
// `images` consecutive images (plain_image, blocked_image bytes apart) in one
// call: FRACTAL_Z's H·W of 16 is one tile an image, and a call per tile spent
// as long in its entry and set-up as in the tile. Both: × memcpy 1.76 → 1.51
// (avx512, bench/trans_data_bench). One loop over the tiles: the same work
// as two nested loops (image, columns) measured slower in two builds (2.2).
NPUCONF_AVX512 int64_t Words16Avx512(int64_t images, int64_t plain_image, int64_t blocked_image,
                                     const uint8_t* plain, int64_t plain_stride, int64_t cols,
                                     uint8_t* blocked, int64_t blocked_stride) {
  const int64_t end = cols / 16 * 16;
  for (int64_t k = 0; k < images * end; k += 16) {  // tile k: image k / end, columns k % end
    const int64_t n = k / end, j0 = k % end;
    __m512i z[8];
    for (int i = 0; i < 8; ++i) {
      const uint8_t* planes = plain + n * plain_image + 2 * i * plain_stride + 2 * j0;
      z[i] = plain_stride == 32 ? simd::avx512::Load(planes)
                                : _mm512_inserti64x4(_mm512_castsi256_si512(Load(planes)),
                                                     Load(planes + plain_stride), 1);
    }
    simd::avx512::TransposeWords16x16(z);
    for (int m = 0; m < 8; ++m) {
      uint8_t* rows = blocked + n * blocked_image + (j0 + 2 * m) * blocked_stride;
      if (blocked_stride == 32) {
        simd::avx512::Store<false>(rows, z[m]);
      } else {
        Store<false>(rows, _mm512_castsi512_si256(z[m]));
        Store<false>(rows + blocked_stride, _mm512_extracti64x4_epi64(z[m], 1));
      }
    }
  }
  return end;
}

// 16-bit, C0 16, blocked rows back to back (NC1HWC0 / NDC1HWC0 fp16), on the
// AVX-512 path: 16 planes × 32 columns, whole lines of every plane and pairs
// of blocked rows. After the in-lane 8 × 8 transposes of planes 0-7 (z[0…7])
// and 8-15 (z[8…15]), lane l of z[c] and z[8 + c] are the two halves of row
// 8l + c; a 4 × 4 lane transpose of z[c], z[8 + c], z[c + 1], z[9 + c] (c
// even) gives rows 8l + c and 8l + c + 1, 64 bytes, in register l. Back is
// the same steps in reverse (each its own inverse). kStream: the streamed
// side 64-byte aligned.
template <bool kToC0, bool kStream>
NPUCONF_AVX512 int64_t Words16x32Avx512(uint8_t* plain, int64_t plain_stride, int64_t cols,
                                        uint8_t* blocked) {
  const int64_t end = cols / 32 * 32;
  for (int64_t j0 = 0; j0 < end; j0 += 32) {
    __m512i z[16];
    uint8_t* rows = blocked + j0 * 32;
    if constexpr (kToC0) {
      for (int r = 0; r < 16; ++r) z[r] = simd::avx512::Load(plain + r * plain_stride + 2 * j0);
      simd::avx512::TransposeWords8x8InLanes(z);
      simd::avx512::TransposeWords8x8InLanes(z + 8);
    }
    for (int c = 0; c < 8; c += 2) {
      __m512i q[4];
      if constexpr (kToC0) {
        q[0] = z[c], q[1] = z[8 + c], q[2] = z[c + 1], q[3] = z[9 + c];
        simd::avx512::TransposeLanes4x4(q);
        for (int l = 0; l < 4; ++l) simd::avx512::Store<kStream>(rows + (8 * l + c) * 32, q[l]);
      } else {
        for (int l = 0; l < 4; ++l) q[l] = simd::avx512::Load(rows + (8 * l + c) * 32);
        simd::avx512::TransposeLanes4x4(q);
        z[c] = q[0], z[8 + c] = q[1], z[c + 1] = q[2], z[9 + c] = q[3];
      }
    }
    if constexpr (!kToC0) {
      simd::avx512::TransposeWords8x8InLanes(z);
      simd::avx512::TransposeWords8x8InLanes(z + 8);
      for (int r = 0; r < 16; ++r) {
        simd::avx512::Store<kStream>(plain + r * plain_stride + 2 * j0, z[r]);
      }
    }
  }
  return end;
}

// 32-bit, C0 16 (fp32 with GE's C0 16, §A.0.1; oneDNN's nChw16c), blocked
// rows back to back, on the AVX-512 path: 16 planes × 16 columns, each a
// whole line, one 16 × 16 dword transpose, whose rows are whole blocked rows.
// In-lane 4 × 4 transposes of each 4 planes leave columns 4l + k of planes
// 4g … 4g + 3 in lane l of y[4g + k]; a 4 × 4 lane transpose of y[k], y[4 +
// k], y[8 + k], y[12 + k] gives columns 4l + k, all 16 planes, in register
// 4l + k. A transpose is its own inverse: back is the same steps. The AVX2
// tile (Dwords) read and wrote half lines of 16 planes, H·W apart and often
// on one L1 set. kStream: the streamed side 64-byte aligned.
template <bool kToC0, bool kStream>
NPUCONF_AVX512 int64_t Dwords16Avx512(uint8_t* plain, int64_t plain_stride, int64_t cols,
                                      uint8_t* blocked) {
  const int64_t end = cols / 16 * 16;
  for (int64_t j0 = 0; j0 < end; j0 += 16) {
    uint8_t* rows = blocked + j0 * 64;
    __m512i x[16], y[16];
    for (int i = 0; i < 16; ++i) {
      x[i] = simd::avx512::Load(kToC0 ? plain + i * plain_stride + 4 * j0 : rows + 64 * i);
    }
    for (int g = 0; g < 16; g += 4) {
      const __m512i t0 = _mm512_unpacklo_epi32(x[g], x[g + 1]);
      const __m512i t1 = _mm512_unpackhi_epi32(x[g], x[g + 1]);
      const __m512i t2 = _mm512_unpacklo_epi32(x[g + 2], x[g + 3]);
      const __m512i t3 = _mm512_unpackhi_epi32(x[g + 2], x[g + 3]);
      y[g] = _mm512_unpacklo_epi64(t0, t2);      // column 4l of planes g … g + 3
      y[g + 1] = _mm512_unpackhi_epi64(t0, t2);  // 4l + 1
      y[g + 2] = _mm512_unpacklo_epi64(t1, t3);  // 4l + 2
      y[g + 3] = _mm512_unpackhi_epi64(t1, t3);  // 4l + 3
    }
    for (int k = 0; k < 4; ++k) {
      __m512i q[4] = {y[k], y[4 + k], y[8 + k], y[12 + k]};
      simd::avx512::TransposeLanes4x4(q);
      for (int l = 0; l < 4; ++l) {
        uint8_t* to = kToC0 ? rows + 64 * (4 * l + k) : plain + (4 * l + k) * plain_stride + 4 * j0;
        simd::avx512::Store<kStream>(to, q[l]);
      }
    }
  }
  return end;
}

// 8-bit, C0 16 (RKNN int8 C2, UG Table 4-6; torch_npu's int8 C0), blocked
// rows back to back, on the AVX-512 path: 16 planes × 64 columns, whole lines
// of every plane. The in-lane 16 × 16 byte transpose leaves row 16l + c in lane
// l of z[c], and a 4 × 4 lane transpose of z[4m … 4m + 3] gathers rows 16l + 4m
// … + 3, 64 bytes, into z[4m + l]. The AVX2 tile read and wrote half lines
// of each plane, 16 planes H·W apart, often one L1 set (× memcpy, NCHW →
// NC1HWC2 int8 1 MiB 1.93 → 1.28, 4 MiB 1.83 → 1.44, 256 KiB 3.8 → 2.2× the
// vector copy; back alike). kStream: the streamed side 64-byte aligned.
template <bool kToC0, bool kStream>
NPUCONF_AVX512 int64_t Bytes16Avx512(uint8_t* plain, int64_t plain_stride, int64_t cols,
                                     uint8_t* blocked) {
  const int64_t end = cols / 64 * 64;
  for (int64_t j0 = 0; j0 < end; j0 += 64) {
    __m512i z[16];
    uint8_t* rows = blocked + j0 * 16;
    if constexpr (kToC0) {
      for (int r = 0; r < 16; ++r) z[r] = simd::avx512::Load(plain + r * plain_stride + j0);
      simd::avx512::TransposeBytes16x16InLanes(z);
      for (int m = 0; m < 4; ++m) {
        simd::avx512::TransposeLanes4x4(z + 4 * m);
        for (int l = 0; l < 4; ++l) {
          simd::avx512::Store<kStream>(rows + (16 * l + 4 * m) * 16, z[4 * m + l]);
        }
      }
    } else {
      for (int m = 0; m < 4; ++m) {
        for (int l = 0; l < 4; ++l) {
          z[4 * m + l] = simd::avx512::Load(rows + (16 * l + 4 * m) * 16);
        }
        simd::avx512::TransposeLanes4x4(z + 4 * m);
      }
      simd::avx512::TransposeBytes16x16InLanes(z);
      for (int r = 0; r < 16; ++r)
        simd::avx512::Store<kStream>(plain + r * plain_stride + j0, z[r]);
    }
  }
  return end;
}

// 16-bit, C0 16, a pair of images (n, n + 1) at a time, straight to or from
// FRACTAL_Z's blocked rows (C0RunPairs below): 16 planes × 16 columns of each
// image go through the in-lane 8 × 8 transposes of Words16Avx512, after which
// lanes 0, 2 of a[c] are row c of image n and lanes 1, 3 row 8 + c, so one
// vshufi64x2 of a[c], b[c] is row c of the pair, 64 bytes. kStream: rows
// 64-byte aligned (pack), planes likewise (unpack).
template <bool kToC0, bool kStream>
NPUCONF_AVX512 void C0RunPairsAvx512(int64_t images, int64_t plain_image, uint8_t* plain,
                                     int64_t plain_stride, int64_t cols, int64_t block_cols,
                                     uint8_t* runs, int64_t run_stride, int64_t block_stride) {
  const auto planes_at = [&](int64_t i, int64_t j0) { return plain + i * plain_image + 2 * j0; };
  // Back: image m of the pair whose runs of columns j0 … j0 + 15 are at
  // `rows`, into z[r] = planes r | r + 8 of those columns (as the pack loads
  // them). Row c's pair run holds image 0 in lanes 0, 1 and image 1 in lanes
  // 2, 3; lanes 0, 2 of the pack's a[c] are row c and lanes 1, 3 row 8 + c.
  const auto untile = [&](const uint8_t* rows, int m, bool pair, __m512i z[8]) NPUCONF_AVX512 {
    for (int c = 0; c < 8; ++c) {
      const uint8_t* lo_at = rows + c * run_stride;
      const uint8_t* hi_at = rows + (8 + c) * run_stride;
      const __m512i lo = pair ? simd::avx512::Load(lo_at) : _mm512_castsi256_si512(Load(lo_at));
      const __m512i hi = pair ? simd::avx512::Load(hi_at) : _mm512_castsi256_si512(Load(hi_at));
      const __m512i image = m == 0 ? _mm512_shuffle_i64x2(lo, hi, simd::avx512::kLanes0101)
                                   : _mm512_shuffle_i64x2(lo, hi, simd::avx512::kLanes2323);
      z[c] = _mm512_shuffle_i64x2(image, image, 0xD8);  // lanes 0, 2, 1, 3
    }
    simd::avx512::TransposeWords8x8InLanes(z);  // its own inverse
  };
  // A streamed unpack with whole 64-byte plane lines (cols a multiple of 32)
  // takes two tiles at a time and stores each line whole: one tile's half
  // lines, streamed, were 2.2× slower (FRACTAL_Z_3D 16 MiB).
  const int64_t step = !kToC0 && kStream && cols % 32 == 0 ? 32 : 16;
  for (int64_t i = 0; i < images; i += 2) {
    const bool pair = i + 1 < images;
    for (int64_t j0 = 0, k0 = 0, block = 0; j0 < cols; j0 += step) {
      uint8_t* rows[2];  // the runs of the pair for columns j0 … (and j0 + 16 …)
      for (int t = 0; t < step / 16; ++t, k0 += 16) {
        if (k0 == block_cols) k0 = 0, block += block_stride;  // the next block of columns
        rows[t] = runs + block + k0 * run_stride + i * 32;
      }
      __m512i a[8], b[8];
      if constexpr (kToC0) {
        // Streamed (a large weight), the planes of the pair four ahead are
        // prefetched: × memcpy at 16-256 MiB, FRACTAL_Z_3D 1.45-1.97 → 0.93-1.03,
        // FRACTAL_Z 0.91-1.39 → 0.92-1.01. Prefetching the unpack's rows
        // likewise changed nothing measurable.
        if (kStream && j0 == 0 && i + 9 < images) {
          for (int m = 0; m < 2; ++m) {
            for (int r = 0; r < 16; ++r) {
              for (int64_t o = 0; o < 2 * cols; o += 64) {
                __builtin_prefetch(planes_at(i + 8 + m, 0) + r * plain_stride + o);
              }
            }
          }
        }
        for (int m = 0; m < (pair ? 2 : 1); ++m) {
          const uint8_t* at = planes_at(i + m, j0);
          __m512i* z = m == 0 ? a : b;
          for (int r = 0; r < 8; ++r) {
            z[r] = _mm512_inserti64x4(_mm512_castsi256_si512(Load(at + r * plain_stride)),
                                      Load(at + (r + 8) * plain_stride), 1);
          }
          simd::avx512::TransposeWords8x8InLanes(z);
        }
        for (int c = 0; c < 8; ++c) {
          if (pair) {
            simd::avx512::Store<kStream>(
                rows[0] + c * run_stride,
                _mm512_shuffle_i64x2(a[c], b[c], simd::avx512::kLanes0202));
            simd::avx512::Store<kStream>(
                rows[0] + (8 + c) * run_stride,
                _mm512_shuffle_i64x2(a[c], b[c], simd::avx512::kLanes1313));
          } else {
            const __m512i both = _mm512_shuffle_i64x2(a[c], a[c], 0xD8);  // lanes 0, 2, 1, 3
            Store<false>(rows[0] + c * run_stride, _mm512_castsi512_si256(both));
            Store<false>(rows[0] + (8 + c) * run_stride, _mm512_extracti64x4_epi64(both, 1));
          }
        }
      } else {
        for (int m = 0; m < (pair ? 2 : 1); ++m) {
          uint8_t* at = planes_at(i + m, j0);
          untile(rows[0], m, pair, a);
          if (step == 32) {
            untile(rows[1], m, pair, b);
            for (int r = 0; r < 8; ++r) {
              simd::avx512::Store<true>(at + r * plain_stride,
                                        _mm512_shuffle_i64x2(a[r], b[r], simd::avx512::kLanes0101));
              simd::avx512::Store<true>(at + (r + 8) * plain_stride,
                                        _mm512_shuffle_i64x2(a[r], b[r], simd::avx512::kLanes2323));
            }
            continue;
          }
          for (int r = 0; r < 8; ++r) {
            Store<kStream>(at + r * plain_stride, _mm512_castsi512_si256(a[r]));
            Store<kStream>(at + (r + 8) * plain_stride, _mm512_extracti64x4_epi64(a[r], 1));
          }
        }
      }
    }
  }
}
#endif

// Which register tile applies: full C0 planes of 8-bit with C0 16 or 32, of
// 16-bit with C0 4, 8 or 16, of 32-bit with C0 8 or 16, on a path that runs AVX2.
bool RegisterTiles(int64_t planes, int64_t c0, int64_t elem_bytes) {
  const simd::Isa isa = simd::ActiveIsa();
  if (isa != simd::Isa::kAvx2 && isa != simd::Isa::kAvx512) return false;
  if (planes != c0) return false;
  return (elem_bytes == 1 && (c0 == 16 || c0 == 32)) ||
         (elem_bytes == 2 && (c0 == 4 || c0 == 8 || c0 == 16)) ||
         (elem_bytes == 4 && (c0 == 8 || c0 == 16));
}

// The register tiles of one C0 and element size over the columns [0, cols − cols
// % tile); returns where they stopped.
// avx512: the running path is AVX-512 (the caller asks once, not per call).
template <bool kToC0, bool kStream>
inline int64_t Tiles(bool avx512, uint8_t* plain, int64_t plain_stride, int64_t cols, int64_t c0,
                     int64_t e, uint8_t* blocked, int64_t blocked_stride) {
#if NPUCONF_HAVE_AVX512_KERNELS
  // The whole-line AVX-512 tiles (Bytes16Avx512, Words16x32Avx512,
  // Dwords16Avx512) take a pack, cached or streamed (then its rows 64-byte
  // aligned for the zmm stores), and a cached unpack. A streamed unpack keeps
  // the AVX2 tiles, which were faster (× memcpy at 16-64 MiB: NC1HWC0 → NCHW
  // fp16 0.78-0.80 against 1.08, RKNN int8 0.80-0.95 against 0.96-1.07).
  const bool line_tiles =
      avx512 && (kToC0 ? !kStream || reinterpret_cast<uintptr_t>(blocked) % 64 == 0 : !kStream);
#endif
  if (e == 1 && c0 == 16) {
    int64_t done = 0;
#if NPUCONF_HAVE_AVX512_KERNELS
    if (blocked_stride == 16 && line_tiles) {
      done = Bytes16Avx512<kToC0, kStream>(plain, plain_stride, cols, blocked);
    }
#endif
    return done + Bytes<kToC0, kStream, 1>(plain + done, plain_stride, cols - done,
                                           blocked + done * blocked_stride, blocked_stride);
  }
  if (e == 1) return Bytes<kToC0, kStream, 2>(plain, plain_stride, cols, blocked, blocked_stride);
  if (e == 2 && c0 == 4) {
    return Words4<kToC0, kStream>(plain, plain_stride, cols, blocked, blocked_stride);
  }
  if (e == 2 && c0 == 8) {
    return Words8<kToC0, kStream>(plain, plain_stride, cols, blocked, blocked_stride);
  }
#if NPUCONF_HAVE_AVX512_KERNELS
  if (e == 2 && avx512) {
    int64_t done = 0;
    if (blocked_stride == 32 && line_tiles) {
      done = Words16x32Avx512<kToC0, kStream>(plain, plain_stride, cols, blocked);
    }
    if constexpr (kToC0 && !kStream) {
      return done + Words16Avx512(1, 0, 0, plain + 2 * done, plain_stride, cols - done,
                                  blocked + done * blocked_stride, blocked_stride);
    }
    if (done != 0) {
      return done + Words16<kToC0, kStream>(plain + 2 * done, plain_stride, cols - done,
                                            blocked + done * blocked_stride, blocked_stride);
    }
  }
#endif
  if (e == 2) return Words16<kToC0, kStream>(plain, plain_stride, cols, blocked, blocked_stride);
  if (c0 == 8) return Dwords<kToC0, kStream, 1>(plain, plain_stride, cols, blocked, blocked_stride);
  int64_t done = 0;
#if NPUCONF_HAVE_AVX512_KERNELS
  if (blocked_stride == 64 && line_tiles) {
    done = Dwords16Avx512<kToC0, kStream>(plain, plain_stride, cols, blocked);
  }
#endif
  return done + Dwords<kToC0, kStream, 2>(plain + 4 * done, plain_stride, cols - done,
                                          blocked + done * blocked_stride, blocked_stride);
}

// C0ToPlanes of long planes, cached, goes through an L1 scratch one chunk of
// columns at a time: the tiles write every plane's chunk (kScratchBytes / c0
// bytes) into the scratch, and each chunk then moves to its plane whole (a run
// of full cache lines). Straight into the planes, every tile step wrote half a
// line of each of C0 planes, and NCHW planes H·W elements apart are a multiple
// of 4 KiB apart whenever H·W · element size is: C0 lines in one L1 set of 12
// ways, evicted before the next step filled their other half (NC1HWC0 → NCHW
// fp16: 4-5× memcpy at 1-4 MiB, 8× the vector copy at 256 KiB). The scratch
// rows lie kScratchPad bytes further apart than their length, so its C0 rows
// fall in different sets. A streamed output skips the scratch: its
// non-temporal stores bypass the L1 (at 64 MiB 5.9-6.6 ms straight vs 7.4-9.1
// ms through the scratch), as does PlanesToC0, whose half-line reads cost less
// than the scratch copy (16 MiB, cached: 1.5-1.7 ms straight, 3.3 ms through a
// scratch).
constexpr int64_t kScratchBytes = int64_t{16} << 10;
constexpr int64_t kScratchPad = 64;

// Whether the first line of each of c0 planes `stride` bytes apart lands in a
// crowded L1 set: more than kSetLines of them in one of its 64 sets (lines
// 4 KiB apart share a set; the L1 of the machines measured has 12 ways, and
// the blocked rows and the stack need some too).
constexpr int64_t kSetLines = 8;
bool Crowded(int64_t stride, int64_t c0) {
  uint8_t lines[64] = {};
  for (int64_t r = 0; r < c0; ++r) {
    if (++lines[(r * stride / 64) % 64] > kSetLines) return true;
  }
  return false;
}

// `bytes` (a multiple of 32) from `from` to the 32-byte aligned `to`, streamed.
NPUCONF_AVX2 void StreamCopy(uint8_t* to, const uint8_t* from, int64_t bytes) {
  for (int64_t i = 0; i < bytes; i += 32) {
    Store<true>(to + i, _mm256_loadu_si256(reinterpret_cast<const __m256i*>(from + i)));
  }
}

// Register tiles for C0ToPlanes, cached, 64 columns or more (fewer are no
// chunk of two tiles, and the check's cost would show in FRACTAL_Z's calls of
// H·W columns); returns the columns done.
int64_t C0ToPlanesTiles(bool avx512, const uint8_t* blocked, int64_t blocked_stride, int64_t cols,
                        int64_t c0, int64_t e, uint8_t* plain, int64_t plain_stride) {
  auto* rows = const_cast<uint8_t*>(blocked);
  int64_t j0 = 0;
  if (Crowded(plain_stride, c0)) {
    const int64_t row = kScratchBytes / c0, stride = row + kScratchPad;
    alignas(64) uint8_t scratch[kScratchBytes + 32 * kScratchPad];
    // Chunks of at most `row` bytes a plane, whole 32-column tiles (every
    // kernel's tile divides 32 columns).
    for (int64_t n; (n = std::min(row / e, cols - j0) / 32 * 32) > 0; j0 += n) {
      // A tile that declines these rows (C0 4 rows not back to back) leaves
      // the scratch unwritten: stop, the element loop does the rest.
      if (Tiles<false, false>(avx512, scratch, stride, n, c0, e, rows + j0 * blocked_stride,
                              blocked_stride) != n) {
        break;
      }
      for (int64_t r = 0; r < c0; ++r) {
        std::memcpy(plain + r * plain_stride + j0 * e, scratch + r * stride,
                    static_cast<size_t>(n * e));
      }
    }
  }
  return j0 + Tiles<false, false>(avx512, plain + j0 * e, plain_stride, cols - j0, c0, e,
                                  rows + j0 * blocked_stride, blocked_stride);
}
#endif

}  // namespace

void PlanesToC0Images(int64_t images, int64_t plain_image, int64_t blocked_image,
                      const uint8_t* plain, int64_t plain_stride, int64_t planes, int64_t cols,
                      int64_t c0, int64_t elem_bytes, uint8_t* blocked, int64_t blocked_stride,
                      bool stream) {
  int64_t done = 0;  // the columns the tiles did, the same in every image
#if NPUCONF_HAVE_AVX2_KERNELS
  if (RegisterTiles(planes, c0, elem_bytes)) {
    auto* from = const_cast<uint8_t*>(plain);
    // Streamed: whole rows back to back, each store aligned to its width.
    const bool streamed = stream && blocked_stride == c0 * elem_bytes &&
                          reinterpret_cast<uintptr_t>(blocked) % 32 == 0 && blocked_image % 32 == 0;
    const bool avx512 = simd::ActiveIsa() == simd::Isa::kAvx512;
    bool tiled = false;
#if NPUCONF_HAVE_AVX512_KERNELS
    // What Tiles would give Words16Avx512 whole, every image in one call.
    if (avx512 && !streamed && elem_bytes == 2 && c0 == 16 && blocked_stride != 32) {
      done = Words16Avx512(images, plain_image, blocked_image, from, plain_stride, cols, blocked,
                           blocked_stride);
      tiled = true;
    }
#endif
    for (int64_t i = 0; i < images && !tiled; ++i) {
      uint8_t* at = from + i * plain_image;
      uint8_t* to = blocked + i * blocked_image;
      done = streamed ? Tiles<true, true>(avx512, at, plain_stride, cols, c0, elem_bytes, to,
                                          blocked_stride)
                      : Tiles<true, false>(avx512, at, plain_stride, cols, c0, elem_bytes, to,
                                           blocked_stride);
    }
  }
#else
  (void)stream;
#endif
  if (done == cols) return;
  for (int64_t i = 0; i < images; ++i) {
    const uint8_t* at = plain + i * plain_image;
    uint8_t* to = blocked + i * blocked_image;
    switch (elem_bytes) {
      case 1:
        PlanesToC0Rows<1>(at, plain_stride, planes, done, cols, c0, to, blocked_stride);
        break;
      case 2:
        PlanesToC0Rows<2>(at, plain_stride, planes, done, cols, c0, to, blocked_stride);
        break;
      default:
        PlanesToC0Rows<4>(at, plain_stride, planes, done, cols, c0, to, blocked_stride);
    }
  }
}

void PlanesToC0(const uint8_t* plain, int64_t plain_stride, int64_t planes, int64_t cols,
                int64_t c0, int64_t elem_bytes, uint8_t* blocked, int64_t blocked_stride,
                bool stream) {
  PlanesToC0Images(1, 0, 0, plain, plain_stride, planes, cols, c0, elem_bytes, blocked,
                   blocked_stride, stream);
}

void C0ToPlanesImages(int64_t images, int64_t blocked_image, int64_t plain_image,
                      const uint8_t* blocked, int64_t blocked_stride, int64_t planes, int64_t cols,
                      int64_t c0, int64_t elem_bytes, uint8_t* plain, int64_t plain_stride,
                      bool stream) {
  int64_t done = 0;  // the columns the tiles did, the same in every image
#if NPUCONF_HAVE_AVX2_KERNELS
  if (RegisterTiles(planes, c0, elem_bytes)) {
    // Streamed: every plane's stores 32-byte aligned.
    const bool streamed = stream && reinterpret_cast<uintptr_t>(plain) % 32 == 0 &&
                          plain_stride % 32 == 0 && plain_image % 32 == 0;
    const bool avx512 = simd::ActiveIsa() == simd::Isa::kAvx512;
    for (int64_t i = 0; i < images; ++i) {
      auto* rows = const_cast<uint8_t*>(blocked + i * blocked_image);
      uint8_t* to = plain + i * plain_image;
      done = streamed     ? Tiles<false, true>(avx512, to, plain_stride, cols, c0, elem_bytes, rows,
                                           blocked_stride)
             : cols >= 64 ? C0ToPlanesTiles(avx512, rows, blocked_stride, cols, c0, elem_bytes, to,
                                            plain_stride)
                          : Tiles<false, false>(avx512, to, plain_stride, cols, c0, elem_bytes,
                                                rows, blocked_stride);
    }
  }
#else
  (void)c0;
  (void)stream;
#endif
  if (done == cols) return;
  for (int64_t i = 0; i < images; ++i) {
    const uint8_t* rows = blocked + i * blocked_image;
    uint8_t* to = plain + i * plain_image;
    switch (elem_bytes) {
      case 1:
        C0ToPlanesRows<1>(rows, blocked_stride, planes, done, cols, to, plain_stride);
        break;
      case 2:
        C0ToPlanesRows<2>(rows, blocked_stride, planes, done, cols, to, plain_stride);
        break;
      default:
        C0ToPlanesRows<4>(rows, blocked_stride, planes, done, cols, to, plain_stride);
    }
  }
}

void C0ToPlanes(const uint8_t* blocked, int64_t blocked_stride, int64_t planes, int64_t cols,
                int64_t c0, int64_t elem_bytes, uint8_t* plain, int64_t plain_stride, bool stream) {
  C0ToPlanesImages(1, 0, 0, blocked, blocked_stride, planes, cols, c0, elem_bytes, plain,
                   plain_stride, stream);
}

bool PlanesToC04Runs(int64_t images, int64_t plain_image, const uint8_t* plain,
                     int64_t plain_stride, int64_t planes, int64_t cols, uint8_t* runs,
                     int64_t run_stride, bool stream) {
#if NPUCONF_HAVE_AVX2_KERNELS
  const simd::Isa isa = simd::ActiveIsa();
  if ((isa != simd::Isa::kAvx2 && isa != simd::Isa::kAvx512) || cols % 16 != 0) return false;
  auto* from = const_cast<uint8_t*>(plain);
  if (stream && reinterpret_cast<uintptr_t>(runs) % 32 == 0 && run_stride % 32 == 0) {
    C04RunTiles<true, true>(images, plain_image, from, plain_stride, planes, cols, runs,
                            run_stride);
  } else {
    C04RunTiles<true, false>(images, plain_image, from, plain_stride, planes, cols, runs,
                             run_stride);
  }
  return true;
#else
  (void)images, (void)plain_image, (void)plain, (void)plain_stride, (void)planes, (void)cols;
  (void)runs, (void)run_stride, (void)stream;
  return false;
#endif
}

bool C04RunsToPlanes(int64_t images, int64_t plain_image, const uint8_t* runs, int64_t run_stride,
                     int64_t planes, int64_t cols, uint8_t* plain, int64_t plain_stride) {
#if NPUCONF_HAVE_AVX2_KERNELS
  const simd::Isa isa = simd::ActiveIsa();
  if ((isa != simd::Isa::kAvx2 && isa != simd::Isa::kAvx512) || cols % 16 != 0) return false;
  C04RunTiles<false, false>(images, plain_image, plain, plain_stride, planes, cols,
                            const_cast<uint8_t*>(runs), run_stride);
  return true;
#else
  (void)images, (void)plain_image, (void)runs, (void)run_stride, (void)planes, (void)cols;
  (void)plain, (void)plain_stride;
  return false;
#endif
}

bool C0RunPairs(bool to_c0, int64_t images, int64_t plain_image, uint8_t* plain,
                int64_t plain_stride, int64_t planes, int64_t cols, int64_t block_cols,
                int64_t elem_bytes, int64_t c0, uint8_t* runs, int64_t run_stride,
                int64_t block_stride, bool stream) {
#if NPUCONF_HAVE_AVX2_KERNELS
  const simd::Isa isa = simd::ActiveIsa();
  if ((isa != simd::Isa::kAvx2 && isa != simd::Isa::kAvx512) || elem_bytes != 2 || c0 != 16 ||
      planes != 16 || block_cols % 16 != 0 || cols % block_cols != 0) {
    return false;
  }
  // `at` and both strides multiples of m bytes.
  const auto aligned = [](const uint8_t* at, int64_t a, int64_t b, int64_t m) {
    return reinterpret_cast<uintptr_t>(at) % m == 0 && a % m == 0 && b % m == 0;
  };
  // Where the direct stores or loads lose to the caller's scratch (measured in
  // bench/trans_data_bench, FRACTAL_Z (_3D) fp16; × memcpy, × the vector copy
  // in cache):
  // - The rows an image's runs touch, cols of them run_stride apart (blocks a
  //   multiple of it), fall on 4096 / gcd(run_stride, 4096) offsets of a
  //   4 KiB L1 way at most; more than 8 rows on one set, and a cached pack's
  //   lines were evicted before their stores landed (AVX-512 FRACTAL_Z 1 MiB
  //   1.9 → 2.5, AVX2 FRACTAL_Z_3D 256 KiB 5.2 → 6.6). (The AVX2 cached
  //   unpack lost too with more than 16, when it took one image at a time;
  //   CachedImagePairs16 reads each line once and takes them all.)
  // - A streamed unpack that would store half of each 64-byte plane line (a
  //   block narrower than a line, planes apart): 2.0 → 4.4 at 16 MiB.
  // - A streamed AVX2 pack: its 32-byte stores leave each line half written
  //   until the next image (FRACTAL_Z_3D 16 MiB 1.8 → 2.4).
  const int64_t offsets = 4096 / std::gcd(run_stride, int64_t{4096});
  const int64_t rows_per_set = (cols + offsets - 1) / offsets;
  // 16 columns of planes back to back fill whole lines two planes at a time.
  const bool lines_whole = cols % 32 == 0 || (cols == 16 && plain_stride == 32);
  if ((to_c0 && !stream && rows_per_set > 8) || (!to_c0 && stream && !lines_whole)) return false;
  if (isa == simd::Isa::kAvx2) {
    // The pack: one image at a time through the AVX2 tile of NC1HWC0
    // (Words16), its blocked rows the image's runs; the next image fills the
    // other half of each line. The cached unpack: two images at a time, each
    // row's line loaded whole (CachedImagePairs16). One image at a time, the
    // other half of 16 rows on one L1 set was evicted before the next image
    // read it; AVX2, × memcpy (× the vector copy at 256 KiB), interleaved
    // runs: FRACTAL_Z 4 MiB 2.09 → 1.46, 1 MiB 1.93 → 1.66, 256 KiB 3.71 →
    // 2.81; FRACTAL_Z_3D (its 32 rows were on the scratch path) 1 MiB 2.11 →
    // 1.90, 256 KiB 3.47 → 2.73, 4 MiB even. The streamed unpack pairs tiles
    // within a block, or, with blocks of 16 columns (FRACTAL_Z_3D's d of H·W
    // 16), across blocks b and b + 1 (StreamBlockPairs16), whose 32 runs it
    // prefetches 8 images ahead (a 64-byte line holds two images' runs).
    // Before, such blocks went through the caller's scratch. FRACTAL_Z_3D
    // fp16, × memcpy, interleaved runs: 64 MiB 1.47 → 1.16, 256 MiB 2.5 →
    // 1.1; 16 MiB 1.75 → 1.81, within the noise. Without the prefetch: 64 MiB
    // even, 16 MiB 2.0 → 2.9.
    if (to_c0 && stream) return false;
    const bool block_pairs = block_cols == 16 && cols % 32 == 0;
    if (!to_c0 && stream && block_cols % 32 != 0 && cols != 16 && !block_pairs) return false;
    const bool streamed = stream && aligned(plain, plain_image, plain_stride, 32);
    const int64_t blocks = cols / block_cols;
    if (!to_c0 && streamed && block_pairs) {
      StreamBlockPairs16(images, plain_image, plain, plain_stride, blocks, runs, run_stride,
                         block_stride);
      return true;
    }
    if (!to_c0 && !streamed) {  // cached stores, or a stream declined for alignment
      CachedImagePairs16(images, plain_image, plain, plain_stride, cols, block_cols, runs,
                         run_stride, block_stride);
      return true;
    }
    for (int64_t i = 0; i < images; ++i) {
      for (int64_t b = 0; b < blocks; ++b) {
        uint8_t* at = plain + i * plain_image + 2 * b * block_cols;
        uint8_t* rows = runs + b * block_stride + i * 32;
        if (to_c0) {
          Words16<true, false>(at, plain_stride, block_cols, rows, run_stride);
        } else {
          Words16<false, true>(at, plain_stride, block_cols, rows, run_stride);
        }
      }
    }
    return true;
  }
#if NPUCONF_HAVE_AVX512_KERNELS
  if (to_c0 && stream && aligned(runs, run_stride, block_stride, 64)) {
    C0RunPairsAvx512<true, true>(images, plain_image, plain, plain_stride, cols, block_cols, runs,
                                 run_stride, block_stride);
  } else if (to_c0) {
    C0RunPairsAvx512<true, false>(images, plain_image, plain, plain_stride, cols, block_cols, runs,
                                  run_stride, block_stride);
  } else if (stream && aligned(plain, plain_image, plain_stride, 64)) {
    C0RunPairsAvx512<false, true>(images, plain_image, plain, plain_stride, cols, block_cols, runs,
                                  run_stride, block_stride);
  } else {
    C0RunPairsAvx512<false, false>(images, plain_image, plain, plain_stride, cols, block_cols, runs,
                                   run_stride, block_stride);
  }
  return true;
#else
  return false;
#endif
#else
  (void)to_c0, (void)images, (void)plain_image, (void)plain, (void)plain_stride, (void)planes;
  (void)cols, (void)block_cols, (void)elem_bytes, (void)c0, (void)runs, (void)run_stride;
  (void)block_stride, (void)stream;
  return false;
#endif
}

void CopyRun(uint8_t* to, const uint8_t* from, int64_t bytes, bool stream) {
#if NPUCONF_HAVE_AVX2_KERNELS
  const simd::Isa isa = stream ? simd::ActiveIsa() : simd::Isa::kPortable;
  if (stream && (isa == simd::Isa::kAvx2 || isa == simd::Isa::kAvx512) &&
      reinterpret_cast<uintptr_t>(to) % 32 == 0 && bytes % 32 == 0) {
    return StreamCopy(to, from, bytes);
  }
#else
  (void)stream;
#endif
  std::memcpy(to, from, static_cast<size_t>(bytes));
}

namespace {

// GatherRuns / ScatterRuns with the run size known at compile time (0: any).
template <int64_t kRun, bool kGather>
void MoveRuns(uint8_t* packed, uint8_t* strided, int64_t stride, int64_t count, int64_t run_bytes) {
  const int64_t run = kRun ? kRun : run_bytes;
  for (int64_t i = 0; i < count; ++i, packed += run, strided += stride) {
    if constexpr (kGather) {
      std::memcpy(packed, strided, static_cast<size_t>(run));
    } else {
      std::memcpy(strided, packed, static_cast<size_t>(run));
    }
  }
}

template <bool kGather>
void MoveRunsBySize(uint8_t* packed, uint8_t* strided, int64_t stride, int64_t count,
                    int64_t run_bytes) {
  switch (run_bytes) {
    case 16:
      return MoveRuns<16, kGather>(packed, strided, stride, count, 16);
    case 32:
      return MoveRuns<32, kGather>(packed, strided, stride, count, 32);
    case 64:
      return MoveRuns<64, kGather>(packed, strided, stride, count, 64);
    default:
      return MoveRuns<0, kGather>(packed, strided, stride, count, run_bytes);
  }
}

#if NPUCONF_HAVE_AVX2_KERNELS
// Streamed GatherRuns of whole 32-byte units to a 32-byte aligned `to`.
NPUCONF_AVX2 void StreamGather(const uint8_t* from, int64_t from_stride, int64_t count,
                               int64_t run_bytes, uint8_t* to) {
  for (int64_t i = 0; i < count; ++i, from += from_stride) {
    for (int64_t b = 0; b < run_bytes; b += 32, to += 32) Store<true>(to, Load(from + b));
  }
}
#endif

}  // namespace

void GatherRuns(const uint8_t* from, int64_t from_stride, int64_t count, int64_t run_bytes,
                uint8_t* to, bool stream) {
#if NPUCONF_HAVE_AVX2_KERNELS
  const simd::Isa isa = simd::ActiveIsa();
  if (stream && (isa == simd::Isa::kAvx2 || isa == simd::Isa::kAvx512) &&
      reinterpret_cast<uintptr_t>(to) % 32 == 0 && run_bytes % 32 == 0) {
    return StreamGather(from, from_stride, count, run_bytes, to);
  }
#else
  (void)stream;
#endif
  MoveRunsBySize<true>(to, const_cast<uint8_t*>(from), from_stride, count, run_bytes);
}

void ScatterRuns(const uint8_t* from, int64_t count, int64_t run_bytes, uint8_t* to,
                 int64_t to_stride) {
  MoveRunsBySize<false>(const_cast<uint8_t*>(from), to, to_stride, count, run_bytes);
}

void FinishStreaming() {
#if NPUCONF_HAVE_AVX2_KERNELS
  if (simd::ActiveIsa() == simd::Isa::kAvx2 || simd::ActiveIsa() == simd::Isa::kAvx512) {
    _mm_sfence();
  }
#endif
}

namespace {

// Pixels per run: a run's planes are rows of kRunPixels · block_bytes (for C0
// runs of 32 bytes, 2 KiB each), its pixels kRunPixels · c_bytes in order.
constexpr int64_t kRunPixels = 64;

// kBlock: block_bytes known at compile time (16, 32, 64: every C0 · element
// size of the vendors, §A.0.1, Table 4-6), so each whole block is a fixed-size
// copy the compiler turns into vector moves; 0: any size.
template <int64_t kBlock, bool kToBlocks>
void PixelRuns(uint8_t* pixels, int64_t count, int64_t c_bytes, int64_t block_bytes,
               uint8_t* blocked, int64_t plane_stride) {
  const int64_t block = kBlock ? kBlock : block_bytes;
  const int64_t whole = c_bytes / block, tail = c_bytes % block;
  for (int64_t p0 = 0; p0 < count; p0 += kRunPixels) {
    const int64_t p1 = std::min(count, p0 + kRunPixels);
    for (int64_t b = 0; b < whole; ++b) {
      uint8_t* row = blocked + b * plane_stride + p0 * block;
      const uint8_t* at = pixels + p0 * c_bytes + b * block;
      for (int64_t p = p0; p < p1; ++p, row += block, at += c_bytes) {
        if constexpr (kToBlocks) {
          std::memcpy(row, at, static_cast<size_t>(block));
        } else {
          std::memcpy(const_cast<uint8_t*>(at), row, static_cast<size_t>(block));
        }
      }
    }
    if (tail != 0) {
      uint8_t* row = blocked + whole * plane_stride + p0 * block;
      const uint8_t* at = pixels + p0 * c_bytes + whole * block;
      for (int64_t p = p0; p < p1; ++p, row += block, at += c_bytes) {
        if constexpr (kToBlocks) {
          std::memcpy(row, at, static_cast<size_t>(tail));
          std::memset(row + tail, 0, static_cast<size_t>(block - tail));
        } else {
          std::memcpy(const_cast<uint8_t*>(at), row, static_cast<size_t>(tail));
        }
      }
    }
  }
}

template <bool kToBlocks>
void PixelRunsBySize(uint8_t* pixels, int64_t count, int64_t c_bytes, int64_t block_bytes,
                     uint8_t* blocked, int64_t plane_stride) {
  switch (block_bytes) {
    case 16:
      return PixelRuns<16, kToBlocks>(pixels, count, c_bytes, 16, blocked, plane_stride);
    case 32:
      return PixelRuns<32, kToBlocks>(pixels, count, c_bytes, 32, blocked, plane_stride);
    case 64:
      return PixelRuns<64, kToBlocks>(pixels, count, c_bytes, 64, blocked, plane_stride);
    default:
      return PixelRuns<0, kToBlocks>(pixels, count, c_bytes, block_bytes, blocked, plane_stride);
  }
}

#if NPUCONF_HAVE_AVX2_KERNELS
// Streamed to pixels, one pixel's 32-byte chunks in groups of up to 4, every
// load of a group before its non-temporal stores. Chunk k of a pixel is
// vector k % kVectors of its block in plane k / kVectors. One load then its
// store, chunk by chunk, ran at a third of this with the planes L3-resident
// (NC1HWC0 → NHWC fp16, C 64, 16 MiB, NPUCONF_ISA=avx2: 1.6-1.8 ms against
// 0.42-0.47; C 128 and 256: 1.8 against 0.47 and 1.7 against 1.0; 64 MiB, C
// 256: 8.0 against 3.0). In a study of the loop alone, loads between the
// streamed halves of a line were what cost (13 against 35 GB/s); a plain
// store between them cost nothing.
template <int64_t kVectors>
NPUCONF_AVX2 void StreamedToPixels(uint8_t* pixels, int64_t count, int64_t c_bytes,
                                   const uint8_t* blocked, int64_t plane_stride) {
  const int64_t chunks = c_bytes / 32;
  for (int64_t p = 0; p < count; ++p) {
    uint8_t* at = pixels + p * c_bytes;
    const uint8_t* row = blocked + p * 32 * kVectors;
    const auto chunk = [&](int64_t k) NPUCONF_AVX2 {
      return Load(row + k / kVectors * plane_stride + k % kVectors * 32);
    };
    int64_t k = 0;
    for (; k + 4 <= chunks; k += 4) {
      const __m256i a = chunk(k), b = chunk(k + 1), c = chunk(k + 2), d = chunk(k + 3);
      Store<true>(at + 32 * k, a);
      Store<true>(at + 32 * k + 32, b);
      Store<true>(at + 32 * k + 64, c);
      Store<true>(at + 32 * k + 96, d);
    }
    if (chunks - k == 3) {
      const __m256i a = chunk(k), b = chunk(k + 1), c = chunk(k + 2);
      Store<true>(at + 32 * k, a);
      Store<true>(at + 32 * k + 32, b);
      Store<true>(at + 32 * k + 64, c);
    } else if (chunks - k == 2) {
      const __m256i a = chunk(k), b = chunk(k + 1);
      Store<true>(at + 32 * k, a);
      Store<true>(at + 32 * k + 32, b);
    } else if (chunks - k == 1) {
      Store<true>(at + 32 * k, chunk(k));
    }
  }
}

// Streamed (non-temporal), for whole 32- or 64-byte blocks (C0 · element size
// of every fp16 / fp32 / int8-C0-32 case, §A.0.1), 32-byte aligned and no
// tail. To blocks: the runs above, each plane's rows stored as they fill it.
// To pixels: pixel by pixel, each written whole from its planes, so every
// streamed line is filled in one go.
template <bool kToBlocks>
NPUCONF_AVX2 void StreamedPixels(uint8_t* pixels, int64_t count, int64_t c_bytes, int64_t block,
                                 uint8_t* blocked, int64_t plane_stride) {
  if constexpr (kToBlocks) {
    const int64_t planes = c_bytes / block, vectors = block / 32;
    for (int64_t p0 = 0; p0 < count; p0 += kRunPixels) {
      const int64_t p1 = std::min(count, p0 + kRunPixels);
      for (int64_t b = 0; b < planes; ++b) {
        uint8_t* row = blocked + b * plane_stride + p0 * block;
        const uint8_t* at = pixels + p0 * c_bytes + b * block;
        for (int64_t p = p0; p < p1; ++p, row += block, at += c_bytes) {
          for (int64_t v = 0; v < vectors; ++v) {
            Store<true>(row + 32 * v,
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(at + 32 * v)));
          }
        }
      }
    }
  } else if (block == 32) {
    StreamedToPixels<1>(pixels, count, c_bytes, blocked, plane_stride);
  } else {
    StreamedToPixels<2>(pixels, count, c_bytes, blocked, plane_stride);
  }
}

bool StreamsPixels(bool stream, const uint8_t* pixels, int64_t c_bytes, int64_t block_bytes,
                   const uint8_t* blocked, int64_t plane_stride) {
  const simd::Isa isa = simd::ActiveIsa();
  return stream && (isa == simd::Isa::kAvx2 || isa == simd::Isa::kAvx512) &&
         (block_bytes == 32 || block_bytes == 64) && c_bytes % block_bytes == 0 &&
         reinterpret_cast<uintptr_t>(pixels) % 32 == 0 &&
         reinterpret_cast<uintptr_t>(blocked) % 32 == 0 && plane_stride % 32 == 0;
}
#endif

#if NPUCONF_HAVE_AVX2_KERNELS
// AVX2, 16-byte blocks (RKNN int8 C2 16) and whole 32-byte chunks of every
// pixel: two pixels at a time, each chunk's 128-bit halves swapped between
// them, so each plane gets 32 bytes, one store, where the copies moved 16
// (NPUCONF_ISA=avx2, × the vector copy at 256 KiB: NHWC → NC1HWC2 int8 2.61 →
// 1.66, back 2.68 → 1.95; × memcpy at 4 MiB 1.44 → 1.23, back 1.47 → 1.14).
// Returns the pixels done (whole pairs).
template <bool kToBlocks>
NPUCONF_AVX2 int64_t PixelPairsAvx2(uint8_t* pixels, int64_t count, int64_t c_bytes,
                                    uint8_t* blocked, int64_t plane_stride) {
  const int64_t end = count / 2 * 2, chunks = c_bytes / 32;
  for (int64_t p = 0; p < end; p += 2) {
    uint8_t* pixel = pixels + p * c_bytes;
    uint8_t* rows = blocked + p * 16;  // the pair's row in plane 0
    for (int64_t k = 0; k < chunks; ++k) {
      uint8_t* plane = rows + 2 * k * plane_stride;  // plane 2k
      const __m256i a = kToBlocks ? Load(pixel + 32 * k) : Load(plane);
      const __m256i b = kToBlocks ? Load(pixel + c_bytes + 32 * k) : Load(plane + plane_stride);
      const __m256i lo = _mm256_permute2x128_si256(a, b, 0x20);
      const __m256i hi = _mm256_permute2x128_si256(a, b, 0x31);
      Store<false>(kToBlocks ? plane : pixel + 32 * k, lo);
      Store<false>(kToBlocks ? plane + plane_stride : pixel + c_bytes + 32 * k, hi);
    }
  }
  return end;
}
#endif

#if NPUCONF_HAVE_AVX2_KERNELS
// PixelPairsAvx2's unpack, streamed (pixels 32-byte aligned): two chunks of
// the pair at a time, the four loads before the four non-temporal stores, so
// each pixel's 64 bytes go out back to back (StreamedToPixels has why). The
// cached copies it replaces took 0.97 ms for NC1HWC2 → NHWC int8, C 64, 16
// MiB, NPUCONF_ISA=avx2, against memcpy's 0.55.
NPUCONF_AVX2 int64_t StreamedPixelPairsAvx2(uint8_t* pixels, int64_t count, int64_t c_bytes,
                                            const uint8_t* blocked, int64_t plane_stride) {
  const int64_t end = count / 2 * 2, chunks = c_bytes / 32;
  const auto halves = [](__m256i a, __m256i b, __m256i* lo, __m256i* hi) NPUCONF_AVX2 {
    *lo = _mm256_permute2x128_si256(a, b, 0x20);
    *hi = _mm256_permute2x128_si256(a, b, 0x31);
  };
  for (int64_t p = 0; p < end; p += 2) {
    uint8_t* pixel = pixels + p * c_bytes;
    const uint8_t* rows = blocked + p * 16;  // the pair's row in plane 0
    int64_t k = 0;
    for (; k + 2 <= chunks; k += 2) {
      const uint8_t* plane = rows + 2 * k * plane_stride;  // plane 2k
      const __m256i a0 = Load(plane), b0 = Load(plane + plane_stride);
      const __m256i a1 = Load(plane + 2 * plane_stride), b1 = Load(plane + 3 * plane_stride);
      __m256i lo0, hi0, lo1, hi1;
      halves(a0, b0, &lo0, &hi0);
      halves(a1, b1, &lo1, &hi1);
      Store<true>(pixel + 32 * k, lo0);
      Store<true>(pixel + 32 * k + 32, lo1);
      Store<true>(pixel + c_bytes + 32 * k, hi0);
      Store<true>(pixel + c_bytes + 32 * k + 32, hi1);
    }
    if (k < chunks) {
      const uint8_t* plane = rows + 2 * k * plane_stride;
      __m256i lo, hi;
      halves(Load(plane), Load(plane + plane_stride), &lo, &hi);
      Store<true>(pixel + 32 * k, lo);
      Store<true>(pixel + c_bytes + 32 * k, hi);
    }
  }
  return end;
}
#endif

#if NPUCONF_HAVE_AVX512_KERNELS
// AVX-512, whole 64-byte chunks of every pixel (C · element size a multiple of
// 64): a group of 64 / kBlock pixels (2 for 32-byte blocks, 4 for 16-byte
// ones) is one 4 × 4 transpose of 128-bit lanes (16) or a pair of 256-bit
// halves swapped (32) per chunk, so each plane gets 64 bytes, one store, where
// the fixed-size copies moved 16 or 32 (× the vector copy at 256 KiB: NHWC ↔
// NC1HWC2 int8 2.6-2.7 → 1.2-1.4, NC1HWC0 → NHWC fp16 2.1 → 1.6; × memcpy
// at 1 MiB 1.3-1.6 → 1.0-1.1, streamed 16 MiB NC1HWC0 → NHWC 2.3 → 0.84).
// Back is the same shuffle.
// Returns the pixels done (whole groups); kStream: 64-byte aligned stores.
template <bool kToBlocks, bool kStream, int64_t kBlock>
NPUCONF_AVX512 int64_t PixelGroupsAvx512(uint8_t* pixels, int64_t count, int64_t c_bytes,
                                         uint8_t* blocked, int64_t plane_stride) {
  constexpr int64_t kGroup = 64 / kBlock;  // pixels per group, planes per chunk
  const int64_t end = count / kGroup * kGroup, chunks = c_bytes / 64;
  using simd::avx512::Load;
  using simd::avx512::Store;
  for (int64_t p = 0; p < end; p += kGroup) {
    uint8_t* pixel = pixels + p * c_bytes;
    uint8_t* rows = blocked + p * kBlock;  // the group's row in plane 0
    for (int64_t k = 0; k < chunks; ++k) {
      __m512i z[kGroup];
      uint8_t* plane = rows + k * kGroup * plane_stride;  // plane kGroup · k
      for (int64_t i = 0; i < kGroup; ++i) {
        z[i] = kToBlocks ? Load(pixel + i * c_bytes + 64 * k) : Load(plane + i * plane_stride);
      }
      if constexpr (kGroup == 4) {
        simd::avx512::TransposeLanes4x4(z);
      } else {
        const __m512i lo = _mm512_shuffle_i64x2(z[0], z[1], simd::avx512::kLanes0101);
        z[1] = _mm512_shuffle_i64x2(z[0], z[1], simd::avx512::kLanes2323);
        z[0] = lo;
      }
      for (int64_t i = 0; i < kGroup; ++i) {
        Store<kStream>(kToBlocks ? plane + i * plane_stride : pixel + i * c_bytes + 64 * k, z[i]);
      }
    }
  }
  return end;
}

#endif

#if NPUCONF_HAVE_AVX2_KERNELS
// The pixels PixelPairsAvx2 or PixelGroupsAvx512 did, 0 where neither applies.
template <bool kToBlocks>
int64_t PixelGroups(uint8_t* pixels, int64_t count, int64_t c_bytes, int64_t block_bytes,
                    uint8_t* blocked, int64_t plane_stride, bool stream) {
  if (simd::ActiveIsa() == simd::Isa::kAvx2 && block_bytes == 16 && c_bytes % 32 == 0) {
    if (!stream) return PixelPairsAvx2<kToBlocks>(pixels, count, c_bytes, blocked, plane_stride);
    if (!kToBlocks && reinterpret_cast<uintptr_t>(pixels) % 32 == 0) {
      return StreamedPixelPairsAvx2(pixels, count, c_bytes, blocked, plane_stride);
    }
  }
#if NPUCONF_HAVE_AVX512_KERNELS
  if (simd::ActiveIsa() != simd::Isa::kAvx512 || c_bytes % 64 != 0) return 0;
  if (block_bytes != 16 && block_bytes != 32) return 0;
  const auto at = [](const uint8_t* ptr) { return reinterpret_cast<uintptr_t>(ptr); };
  const bool aligned =
      kToBlocks ? at(blocked) % 64 == 0 && plane_stride % 64 == 0 : at(pixels) % 64 == 0;
  if (stream && !aligned) return 0;  // the AVX2 streamed copies take it
  if (block_bytes == 16) {
    return stream ? PixelGroupsAvx512<kToBlocks, true, 16>(pixels, count, c_bytes, blocked,
                                                           plane_stride)
                  : PixelGroupsAvx512<kToBlocks, false, 16>(pixels, count, c_bytes, blocked,
                                                            plane_stride);
  }
  return stream
             ? PixelGroupsAvx512<kToBlocks, true, 32>(pixels, count, c_bytes, blocked, plane_stride)
             : PixelGroupsAvx512<kToBlocks, false, 32>(pixels, count, c_bytes, blocked,
                                                       plane_stride);
#else
  return 0;
#endif
}
#endif

}  // namespace

void PixelsToBlocks(const uint8_t* pixels, int64_t count, int64_t c_bytes, int64_t block_bytes,
                    uint8_t* blocked, int64_t plane_stride, bool stream) {
#if NPUCONF_HAVE_AVX2_KERNELS
  if (const int64_t done = PixelGroups<true>(const_cast<uint8_t*>(pixels), count, c_bytes,
                                             block_bytes, blocked, plane_stride, stream)) {
    pixels += done * c_bytes, blocked += done * block_bytes, count -= done;
  }
#endif
#if NPUCONF_HAVE_AVX2_KERNELS
  if (StreamsPixels(stream, pixels, c_bytes, block_bytes, blocked, plane_stride)) {
    return StreamedPixels<true>(const_cast<uint8_t*>(pixels), count, c_bytes, block_bytes, blocked,
                                plane_stride);
  }
#else
  (void)stream;
#endif
  PixelRunsBySize<true>(const_cast<uint8_t*>(pixels), count, c_bytes, block_bytes, blocked,
                        plane_stride);
}

void BlocksToPixels(const uint8_t* blocked, int64_t plane_stride, int64_t count, int64_t c_bytes,
                    int64_t block_bytes, uint8_t* pixels, bool stream) {
#if NPUCONF_HAVE_AVX2_KERNELS
  if (const int64_t done =
          PixelGroups<false>(pixels, count, c_bytes, block_bytes, const_cast<uint8_t*>(blocked),
                             plane_stride, stream)) {
    pixels += done * c_bytes, blocked += done * block_bytes, count -= done;
  }
#endif
#if NPUCONF_HAVE_AVX2_KERNELS
  if (StreamsPixels(stream, pixels, c_bytes, block_bytes, blocked, plane_stride)) {
    return StreamedPixels<false>(pixels, count, c_bytes, block_bytes, const_cast<uint8_t*>(blocked),
                                 plane_stride);
  }
#else
  (void)stream;
#endif
  PixelRunsBySize<false>(pixels, count, c_bytes, block_bytes, const_cast<uint8_t*>(blocked),
                         plane_stride);
}

}  // namespace npuconf::blocks
