#include "reference/blocks/channel_blocks.h"

#include <algorithm>
#include <cstring>

#include "reference/simd/avx2_blocks.h"
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
NPUCONF_AVX2 inline __m256i Load(const uint8_t* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}
NPUCONF_AVX2 inline void Store(uint8_t* p, __m256i v) {
  _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
}

// 16-bit, C0 16: 16 planes × 16 columns. Two in-lane 8 × 8 transposes (planes
// 0-7 and 8-15) leave column 8l + c in lane l of x[c]; vperm2i128 joins the
// halves of each blocked row.
template <bool kToC0>
NPUCONF_AVX2 int64_t Words16(uint8_t* plain, int64_t plain_stride, int64_t cols, uint8_t* blocked,
                             int64_t blocked_stride) {
  const int64_t end = cols / 16 * 16;
  for (int64_t j0 = 0; j0 < end; j0 += 16) {
    __m256i x[2][8];
    for (int h = 0; h < 2; ++h) {
      for (int r = 0; r < 8; ++r) {
        x[h][r] = kToC0 ? Load(plain + (8 * h + r) * plain_stride + 2 * j0)
                        : Load(blocked + (j0 + 8 * h + r) * blocked_stride);
      }
    }
    if constexpr (kToC0) {
      simd::avx2::TransposeWords8x8InLanes(x[0]);
      simd::avx2::TransposeWords8x8InLanes(x[1]);
      for (int c = 0; c < 8; ++c) {
        Store(blocked + (j0 + c) * blocked_stride,
              _mm256_permute2x128_si256(x[0][c], x[1][c], 0x20));
        Store(blocked + (j0 + 8 + c) * blocked_stride,
              _mm256_permute2x128_si256(x[0][c], x[1][c], 0x31));
      }
    } else {
      // Blocked rows j0…j0+15 as [row c | row 8 + c] lane pairs: the same
      // transposes give plane 8l + c … in lane l.
      __m256i y[2][8];
      for (int c = 0; c < 8; ++c) {
        y[0][c] = _mm256_permute2x128_si256(x[0][c], x[1][c], 0x20);  // planes 0-7
        y[1][c] = _mm256_permute2x128_si256(x[0][c], x[1][c], 0x31);  // planes 8-15
      }
      simd::avx2::TransposeWords8x8InLanes(y[0]);
      simd::avx2::TransposeWords8x8InLanes(y[1]);
      for (int h = 0; h < 2; ++h) {
        for (int r = 0; r < 8; ++r) Store(plain + (8 * h + r) * plain_stride + 2 * j0, y[h][r]);
      }
    }
  }
  return end;
}

// 16-bit, C0 8 (RKNN fp16 C2, UG Table 4-6): 8 planes × 16 columns, one
// in-lane 8 × 8 transpose; lane l of x[c] is blocked row 8l + c (16 bytes).
template <bool kToC0>
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
        _mm_storeu_si128(reinterpret_cast<__m128i*>(blocked + (j0 + i) * blocked_stride),
                         _mm256_castsi256_si128(x[i]));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(blocked + (j0 + 8 + i) * blocked_stride),
                         _mm256_extracti128_si256(x[i], 1));
      } else {
        Store(plain + i * plain_stride + 2 * j0, x[i]);
      }
    }
  }
  return end;
}

// 32-bit, C0 8 or 16: 8 planes × 8 columns per 8 × 8 transpose; C0 16 is two
// of them side by side in each blocked row.
template <bool kToC0>
NPUCONF_AVX2 int64_t Dwords(uint8_t* plain, int64_t plain_stride, int64_t cols, int64_t c0,
                            uint8_t* blocked, int64_t blocked_stride) {
  const int64_t end = cols / 8 * 8;
  for (int64_t j0 = 0; j0 < end; j0 += 8) {
    for (int64_t half = 0; half < c0 / 8; ++half) {
      __m256i x[8];
      for (int i = 0; i < 8; ++i) {
        x[i] = kToC0 ? Load(plain + (8 * half + i) * plain_stride + 4 * j0)
                     : Load(blocked + (j0 + i) * blocked_stride + 32 * half);
      }
      simd::avx2::TransposeDwords8x8(x);
      for (int i = 0; i < 8; ++i) {
        if (kToC0) {
          Store(blocked + (j0 + i) * blocked_stride + 32 * half, x[i]);
        } else {
          Store(plain + (8 * half + i) * plain_stride + 4 * j0, x[i]);
        }
      }
    }
  }
  return end;
}

// 8-bit, C0 16 (RKNN int8 C2, torch_npu's int8 C0) or 32 (GE's int8 C0): 16
// planes × 32 columns per in-lane 16 × 16 byte transpose, which leaves column
// 16l + c of those planes in lane l of x[c]. C0 32 joins two such sets (planes
// 0-15, 16-31) per blocked row with vperm2i128.
template <bool kToC0>
NPUCONF_AVX2 int64_t Bytes(uint8_t* plain, int64_t plain_stride, int64_t cols, int64_t c0,
                           uint8_t* blocked, int64_t blocked_stride) {
  const int64_t end = cols / 32 * 32;
  const int sets = static_cast<int>(c0 / 16);
  for (int64_t j0 = 0; j0 < end; j0 += 32) {
    __m256i x[2][16];
    if constexpr (kToC0) {
      for (int set = 0; set < sets; ++set) {
        for (int r = 0; r < 16; ++r) x[set][r] = Load(plain + (16 * set + r) * plain_stride + j0);
        simd::avx2::TransposeBytes16x16InLanes(x[set]);
      }
      for (int c = 0; c < 16; ++c) {
        uint8_t* row0 = blocked + (j0 + c) * blocked_stride;
        uint8_t* row1 = blocked + (j0 + 16 + c) * blocked_stride;
        if (sets == 1) {
          _mm_storeu_si128(reinterpret_cast<__m128i*>(row0), _mm256_castsi256_si128(x[0][c]));
          _mm_storeu_si128(reinterpret_cast<__m128i*>(row1), _mm256_extracti128_si256(x[0][c], 1));
        } else {
          Store(row0, _mm256_permute2x128_si256(x[0][c], x[1][c], 0x20));
          Store(row1, _mm256_permute2x128_si256(x[0][c], x[1][c], 0x31));
        }
      }
    } else {
      // x[set][c] = [lanes of planes 16·set… of blocked row c | of row 16 + c].
      for (int c = 0; c < 16; ++c) {
        const uint8_t* row0 = blocked + (j0 + c) * blocked_stride;
        const uint8_t* row1 = blocked + (j0 + 16 + c) * blocked_stride;
        for (int set = 0; set < sets; ++set) {
          x[set][c] = simd::avx2::LoadLanes(row0 + 16 * set, row1 + 16 * set);
        }
      }
      for (int set = 0; set < sets; ++set) {
        simd::avx2::TransposeBytes16x16InLanes(x[set]);
        for (int r = 0; r < 16; ++r) Store(plain + (16 * set + r) * plain_stride + j0, x[set][r]);
      }
    }
  }
  return end;
}

// Which register tile applies: full C0 planes of 16-bit with C0 16, or of
// 32-bit with C0 8 or 16, on a path that runs AVX2.
bool RegisterTiles(int64_t planes, int64_t c0, int64_t elem_bytes) {
  const simd::Isa isa = simd::ActiveIsa();
  if (isa != simd::Isa::kAvx2 && isa != simd::Isa::kAvx512) return false;
  if (planes != c0) return false;
  return (elem_bytes == 1 && (c0 == 16 || c0 == 32)) ||
         (elem_bytes == 2 && (c0 == 8 || c0 == 16)) || (elem_bytes == 4 && (c0 == 8 || c0 == 16));
}
#endif

}  // namespace

void PlanesToC0(const uint8_t* plain, int64_t plain_stride, int64_t planes, int64_t cols,
                int64_t c0, int64_t elem_bytes, uint8_t* blocked, int64_t blocked_stride) {
  int64_t done = 0;
#if NPUCONF_HAVE_AVX2_KERNELS
  if (RegisterTiles(planes, c0, elem_bytes)) {
    auto* from = const_cast<uint8_t*>(plain);
    done = elem_bytes == 1 ? Bytes<true>(from, plain_stride, cols, c0, blocked, blocked_stride)
           : elem_bytes == 2 && c0 == 8
               ? Words8<true>(from, plain_stride, cols, blocked, blocked_stride)
           : elem_bytes == 2 ? Words16<true>(from, plain_stride, cols, blocked, blocked_stride)
                             : Dwords<true>(from, plain_stride, cols, c0, blocked, blocked_stride);
  }
#endif
  switch (elem_bytes) {
    case 1:
      return PlanesToC0Rows<1>(plain, plain_stride, planes, done, cols, c0, blocked,
                               blocked_stride);
    case 2:
      return PlanesToC0Rows<2>(plain, plain_stride, planes, done, cols, c0, blocked,
                               blocked_stride);
    default:
      return PlanesToC0Rows<4>(plain, plain_stride, planes, done, cols, c0, blocked,
                               blocked_stride);
  }
}

void C0ToPlanes(const uint8_t* blocked, int64_t blocked_stride, int64_t planes, int64_t cols,
                int64_t c0, int64_t elem_bytes, uint8_t* plain, int64_t plain_stride) {
  int64_t done = 0;
#if NPUCONF_HAVE_AVX2_KERNELS
  if (RegisterTiles(planes, c0, elem_bytes)) {
    auto* from = const_cast<uint8_t*>(blocked);
    done = elem_bytes == 1 ? Bytes<false>(plain, plain_stride, cols, c0, from, blocked_stride)
           : elem_bytes == 2 && c0 == 8
               ? Words8<false>(plain, plain_stride, cols, from, blocked_stride)
           : elem_bytes == 2 ? Words16<false>(plain, plain_stride, cols, from, blocked_stride)
                             : Dwords<false>(plain, plain_stride, cols, c0, from, blocked_stride);
  }
#else
  (void)c0;
#endif
  switch (elem_bytes) {
    case 1:
      return C0ToPlanesRows<1>(blocked, blocked_stride, planes, done, cols, plain, plain_stride);
    case 2:
      return C0ToPlanesRows<2>(blocked, blocked_stride, planes, done, cols, plain, plain_stride);
    default:
      return C0ToPlanesRows<4>(blocked, blocked_stride, planes, done, cols, plain, plain_stride);
  }
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

}  // namespace

void PixelsToBlocks(const uint8_t* pixels, int64_t count, int64_t c_bytes, int64_t block_bytes,
                    uint8_t* blocked, int64_t plane_stride) {
  PixelRunsBySize<true>(const_cast<uint8_t*>(pixels), count, c_bytes, block_bytes, blocked,
                        plane_stride);
}

void BlocksToPixels(const uint8_t* blocked, int64_t plane_stride, int64_t count, int64_t c_bytes,
                    int64_t block_bytes, uint8_t* pixels) {
  PixelRunsBySize<false>(pixels, count, c_bytes, block_bytes, const_cast<uint8_t*>(blocked),
                         plane_stride);
}

}  // namespace npuconf::blocks
