#include "reference/rknn/native_layout.h"

#include <algorithm>
#include <cstring>

#include "reference/rknn/int4.h"

namespace npuconf::rknn {
namespace {

bool SupportedBits(int bits) { return bits == 4 || bits == 8 || bits == 16 || bits == 32; }

std::optional<uint64_t> BytesOf(int64_t elems, int bits) {
  auto total_bits = CheckedMul(elems, bits);
  if (!total_bits) return std::nullopt;
  return static_cast<uint64_t>((*total_bits + 7) / 8);
}

// ---- A / C -------------------------------------------------------------------

// Byte path: every NATIVE row of `sub` elements is one run of a NORM row.
void RowBlockedBytes(uint8_t* norm, uint8_t* native, const RowBlockedGeometry& g, int elem_bytes,
                     bool to_native) {
  const int64_t row_bytes = g.cols * elem_bytes;
  const int64_t sub_bytes = g.sub * elem_bytes;
  const int64_t block_bytes = g.rows * sub_bytes;
  for (int64_t b = 0; b < g.blocks; ++b) {
    const int64_t copy = std::min(sub_bytes, row_bytes - b * sub_bytes);
    uint8_t* block = native + b * block_bytes;
    if (to_native) {
      const uint8_t* column = norm + b * sub_bytes;
      for (int64_t r = 0; r < g.rows; ++r) {
        std::memcpy(block + r * sub_bytes, column + r * row_bytes, static_cast<size_t>(copy));
        if (copy < sub_bytes) std::memset(block + r * sub_bytes + copy, 0, static_cast<size_t>(sub_bytes - copy));
      }
    } else {
      uint8_t* out = norm + b * sub_bytes;
      for (int64_t r = 0; r < g.rows; ++r) {
        std::memcpy(out + r * row_bytes, block + r * sub_bytes, static_cast<size_t>(copy));
      }
    }
  }
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

// One segment, NORM [K, N] rows [k_begin, k_begin + k_rows) → its NATIVE block:
// each subK × subN tile of NORM is transposed into subN rows of subK. The K
// band is the outer loop, so the subK source rows are read once, contiguously.
template <typename T, int kSubN = 0, int kSubK = 0>
void NormSegmentToNative(const T* b, T* out, const BNativeGeometry& g, const BSegment& s) {
  const int64_t tile = g.sub_n * g.sub_k;
  for (int64_t k1 = 0; k1 < s.k1; ++k1) {
    const int64_t k0 = k1 * g.sub_k;
    const int64_t k_rows = std::min(g.sub_k, s.k_rows - k0);
    const T* band = b + (s.k_begin + k0) * g.n;
    for (int64_t n1 = 0; n1 < g.n1; ++n1) {
      const int64_t n0 = n1 * g.sub_n;
      const int64_t n_rows = std::min(g.sub_n, g.n - n0);
      T* dst = out + (n1 * s.k1 + k1) * tile;
      if constexpr (kSubN > 0) {
        if (n_rows == kSubN && k_rows == kSubK) {
          FullTile<T, kSubN, kSubK>(band + n0, g.n, dst);
          continue;
        }
      }
      if (n_rows < g.sub_n || k_rows < g.sub_k) std::memset(dst, 0, static_cast<size_t>(tile) * sizeof(T));
      for (int64_t nn = 0; nn < n_rows; ++nn) {
        for (int64_t kk = 0; kk < k_rows; ++kk) dst[nn * g.sub_k + kk] = band[kk * g.n + n0 + nn];
      }
    }
  }
}

// The §2.2 tile sizes get compile-time kernels; anything else the generic loop.
template <typename T>
void NormSegmentToNativeDispatch(const T* b, T* out, const BNativeGeometry& g, const BSegment& s) {
  if (g.sub_k == 32 && g.sub_n == 32) return NormSegmentToNative<T, 32, 32>(b, out, g, s);
  if (g.sub_k == 32 && g.sub_n == 16) return NormSegmentToNative<T, 16, 32>(b, out, g, s);
  if (g.sub_k == 32 && g.sub_n == 64) return NormSegmentToNative<T, 64, 32>(b, out, g, s);
  if (g.sub_k == 32 && g.sub_n == 8) return NormSegmentToNative<T, 8, 32>(b, out, g, s);
  if (g.sub_k == 16 && g.sub_n == 8) return NormSegmentToNative<T, 8, 16>(b, out, g, s);
  return NormSegmentToNative<T>(b, out, g, s);
}

template <typename T>
void NativeSegmentToNorm(const T* in, T* b, const BNativeGeometry& g, const BSegment& s) {
  const int64_t tile = g.sub_n * g.sub_k;
  for (int64_t n1 = 0; n1 < g.n1; ++n1) {
    const int64_t n0 = n1 * g.sub_n;
    const int64_t n_rows = std::min(g.sub_n, g.n - n0);
    for (int64_t k1 = 0; k1 < s.k1; ++k1) {
      const T* src = in + (n1 * s.k1 + k1) * tile;
      const int64_t k0 = k1 * g.sub_k;
      const int64_t k_rows = std::min(g.sub_k, s.k_rows - k0);
      T* dst = b + (s.k_begin + k0) * g.n + n0;
      for (int64_t kk = 0; kk < k_rows; ++kk) {
        T* row = dst + kk * g.n;
        for (int64_t nn = 0; nn < n_rows; ++nn) row[nn] = src[nn * g.sub_k + kk];
      }
    }
  }
}

// TP_NORM [N, K]: every NATIVE tile row is one run of a TP_NORM row.
void TpSegmentBytes(uint8_t* tp, uint8_t* native, const BNativeGeometry& g, const BSegment& s,
                    int elem_bytes, bool to_native) {
  const int64_t row_bytes = g.k * elem_bytes;
  const int64_t sub_k_bytes = g.sub_k * elem_bytes;
  const int64_t tile_bytes = g.sub_n * sub_k_bytes;
  for (int64_t n1 = 0; n1 < g.n1; ++n1) {
    const int64_t n0 = n1 * g.sub_n;
    const int64_t n_rows = std::min(g.sub_n, g.n - n0);
    for (int64_t k1 = 0; k1 < s.k1; ++k1) {
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
          std::memset(tile + n_rows * sub_k_bytes, 0, static_cast<size_t>((g.sub_n - n_rows) * sub_k_bytes));
        }
      } else {
        for (int64_t nn = 0; nn < n_rows; ++nn) {
          std::memcpy(src + nn * row_bytes, tile + nn * sub_k_bytes, static_cast<size_t>(copy));
        }
      }
    }
  }
}

void BBytes(const uint8_t* plain, uint8_t* native, const BNativeGeometry& g, bool tp, int elem_bytes,
            bool to_native) {
  for (const BSegment& s : g.segments) {
    uint8_t* block = native + s.offset_elems * elem_bytes;
    if (tp) {
      TpSegmentBytes(const_cast<uint8_t*>(plain), block, g, s, elem_bytes, to_native);
      continue;
    }
    uint8_t* norm = const_cast<uint8_t*>(plain);
    switch (elem_bytes) {
      case 1:
        to_native ? NormSegmentToNativeDispatch(norm, block, g, s) : NativeSegmentToNorm(block, norm, g, s);
        break;
      case 2:
        to_native ? NormSegmentToNativeDispatch(reinterpret_cast<uint16_t*>(norm), reinterpret_cast<uint16_t*>(block), g, s)
                  : NativeSegmentToNorm(reinterpret_cast<uint16_t*>(block), reinterpret_cast<uint16_t*>(norm), g, s);
        break;
      default:
        to_native ? NormSegmentToNativeDispatch(reinterpret_cast<uint32_t*>(norm), reinterpret_cast<uint32_t*>(block), g, s)
                  : NativeSegmentToNorm(reinterpret_cast<uint32_t*>(block), reinterpret_cast<uint32_t*>(norm), g, s);
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
  RowBlockedBytes(reinterpret_cast<uint8_t*>(plain.data()), reinterpret_cast<uint8_t*>(blocked.data()), g, 1,
                  true);
  PackInt4(blocked.data(), native, g.native_elems, native_order);
}

void RowBlockedToNorm(const uint8_t* native, uint8_t* norm, const RowBlockedGeometry& g,
                      NibbleOrder native_order, NibbleOrder norm_order) {
  if (g.bits != 4) {
    return RowBlockedBytes(norm, const_cast<uint8_t*>(native), g, g.bits / 8, false);
  }
  std::vector<int8_t> blocked = Unpacked(native, g.native_elems, native_order);
  std::vector<int8_t> plain(static_cast<size_t>(g.norm_elems));
  RowBlockedBytes(reinterpret_cast<uint8_t*>(plain.data()), reinterpret_cast<uint8_t*>(blocked.data()), g, 1,
                  false);
  PackInt4(plain.data(), norm, g.norm_elems, norm_order);
}

std::optional<BNativeGeometry> BNativeGeometryFor(int64_t k, int64_t n, int64_t sub_n, int64_t sub_k,
                                                  int64_t seg_len, DType dtype) {
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
  std::vector<int8_t> values = Unpacked(plain, g.norm_elems, plain_order);
  std::vector<int8_t> blocked(static_cast<size_t>(g.native_elems));
  BBytes(reinterpret_cast<uint8_t*>(values.data()), reinterpret_cast<uint8_t*>(blocked.data()), g, tp, 1, true);
  PackInt4(blocked.data(), native, g.native_elems, native_order);
}

void BNativeToPlain(const uint8_t* native, uint8_t* plain, const BNativeGeometry& g, bool tp,
                    NibbleOrder native_order, NibbleOrder plain_order) {
  if (g.bits != 4) return BBytes(plain, const_cast<uint8_t*>(native), g, tp, g.bits / 8, false);
  std::vector<int8_t> blocked = Unpacked(native, g.native_elems, native_order);
  std::vector<int8_t> values(static_cast<size_t>(g.norm_elems));
  BBytes(reinterpret_cast<uint8_t*>(values.data()), reinterpret_cast<uint8_t*>(blocked.data()), g, tp, 1, false);
  PackInt4(values.data(), plain, g.norm_elems, plain_order);
}

}  // namespace npuconf::rknn
