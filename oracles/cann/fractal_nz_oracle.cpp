#include "oracles/cann/fractal_nz_oracle.h"

#include <algorithm>
#include <cstring>
#include <unsupported/Eigen/CXX11/Tensor>

namespace npuconf::oracle::cann {
namespace {

constexpr int64_t kH0 = 16;

using Index = Eigen::Index;
template <typename T>
using Tensor5 = Eigen::Tensor<T, 5, Eigen::RowMajor, Index>;
template <typename T>
using Tensor3 = Eigen::Tensor<T, 3, Eigen::RowMajor, Index>;

struct Dims {
  Index batch, n, k, n1, c1, c0;
};

Dims DimsOf(const Shape& nd_shape, int64_t c0) {
  const size_t rank = nd_shape.size();
  // Saturating: callers that convert data have checked the sizes; the storage
  // shape of any shape must still be computable without overflow.
  __int128 batch = 1;
  for (size_t i = 0; i + 2 < rank; ++i) batch = std::min<__int128>(batch * nd_shape[i], INT64_MAX);
  const Index k = nd_shape[rank - 1];
  const Index n = rank >= 2 ? nd_shape[rank - 2] : 1;
  auto ceil_div = [](Index x, Index a) { return x / a + (x % a != 0 ? 1 : 0); };
  return {static_cast<Index>(batch), n, k, ceil_div(n, kH0), ceil_div(k, c0), c0};
}

// Packed nibbles → one value per byte: byte b gives elements 2b (low) and
// 2b+1 (high), i.e. stack [low, high] on a new inner axis and flatten.
std::vector<uint8_t> UnpackNibbles(const std::vector<uint8_t>& packed, Index count) {
  const Index n_bytes = static_cast<Index>(packed.size());
  Eigen::TensorMap<const Eigen::Tensor<const uint8_t, 2, Eigen::RowMajor, Index>> bytes(
      packed.data(), n_bytes, 1);
  auto low = bytes.unaryExpr([](uint8_t b) { return static_cast<uint8_t>(b & 0x0F); });
  auto high = bytes.unaryExpr([](uint8_t b) { return static_cast<uint8_t>(b >> 4); });
  Eigen::Tensor<uint8_t, 2, Eigen::RowMajor, Index> pairs = low.concatenate(high, 1);
  std::vector<uint8_t> values(pairs.data(), pairs.data() + 2 * n_bytes);
  values.resize(count);
  return values;
}

std::vector<uint8_t> PackNibbles(const std::vector<uint8_t>& values) {
  std::vector<uint8_t> padded = values;
  if (padded.size() % 2) padded.push_back(0);
  const Index n_bytes = static_cast<Index>(padded.size() / 2);
  Eigen::TensorMap<const Eigen::Tensor<const uint8_t, 2, Eigen::RowMajor, Index>> pairs(
      padded.data(), n_bytes, 2);
  Eigen::array<Index, 2> low_start{0, 0}, high_start{0, 1}, extent{n_bytes, 1};
  auto low = pairs.slice(low_start, extent).unaryExpr([](uint8_t v) {
    return static_cast<uint8_t>(v & 0x0F);
  });
  auto high = pairs.slice(high_start, extent).unaryExpr([](uint8_t v) {
    return static_cast<uint8_t>((v & 0x0F) << 4);
  });
  Eigen::Tensor<uint8_t, 2, Eigen::RowMajor, Index> bytes =
      low.binaryExpr(high, [](uint8_t a, uint8_t b) { return static_cast<uint8_t>(a | b); });
  return std::vector<uint8_t>(bytes.data(), bytes.data() + n_bytes);
}

// [B, n, k] → pad to [B, N1·16, C1·C0] → reshape [B, N1, 16, C1, C0] →
// shuffle to [B, C1, N1, 16, C0]. Reads `nd`, writes `nz` (both row-major).
template <typename T>
void NdToNzWords(const T* nd, const Dims& d, T* nz) {
  Eigen::TensorMap<const Tensor3<const T>> x(nd, d.batch, d.n, d.k);
  Eigen::array<std::pair<Index, Index>, 3> padding{std::make_pair(Index{0}, Index{0}),
                                                   std::make_pair(Index{0}, d.n1 * kH0 - d.n),
                                                   std::make_pair(Index{0}, d.c1 * d.c0 - d.k)};
  Eigen::array<Index, 5> blocked{d.batch, d.n1, kH0, d.c1, d.c0};
  Eigen::array<Index, 5> order{0, 3, 1, 2, 4};
  const Tensor5<T> padded = x.pad(padding, T{}).reshape(blocked);
  Eigen::TensorMap<Tensor5<T>> out(nz, d.batch, d.c1, d.n1, kH0, d.c0);
  out = padded.shuffle(order);
}

// The inverse: [B, C1, N1, 16, C0] → shuffle to [B, N1, 16, C1, C0] → reshape
// [B, N1·16, C1·C0] → slice [B, n, k].
template <typename T>
void NzToNdWords(const T* nz, const Dims& d, T* nd) {
  Eigen::TensorMap<const Tensor5<const T>> x(nz, d.batch, d.c1, d.n1, kH0, d.c0);
  Eigen::array<Index, 5> order{0, 2, 3, 1, 4};
  Eigen::array<Index, 3> padded{d.batch, d.n1 * kH0, d.c1 * d.c0};
  Eigen::array<Index, 3> start{0, 0, 0}, extent{d.batch, d.n, d.k};
  const Tensor5<T> shuffled = x.shuffle(order);
  Eigen::TensorMap<const Tensor3<const T>> blocks(shuffled.data(), padded);
  Eigen::TensorMap<Tensor3<T>> out(nd, d.batch, d.n, d.k);
  out = blocks.slice(start, extent);
}

Index NdCount(const Dims& d) { return d.batch * d.n * d.k; }
Index NzCount(const Dims& d) { return d.batch * d.c1 * d.n1 * kH0 * d.c0; }

// Elements as integer words of the dtype's width (the layout moves bits).
template <typename T>
std::vector<uint8_t> Convert(const std::vector<uint8_t>& in, const Dims& d, bool to_nz) {
  std::vector<uint8_t> out((to_nz ? NzCount(d) : NdCount(d)) * sizeof(T));
  const T* src = reinterpret_cast<const T*>(in.data());
  T* dst = reinterpret_cast<T*>(out.data());
  if (to_nz) {
    NdToNzWords(src, d, dst);
  } else {
    NzToNdWords(src, d, dst);
  }
  return out;
}

// When k is a whole number of C0 columns, one NZ row of C0 elements is one
// contiguous run in both layouts: the same algebra moves it as one unit
// (the C0 axis folded into the element type), 16–64× fewer coefficients.
template <int kBytes>
struct CubeRow {
  uint8_t bytes[kBytes];
};

template <int kBytes>
std::vector<uint8_t> ConvertRows(const std::vector<uint8_t>& in, const Dims& d, bool to_nz) {
  Dims rows = d;
  rows.c0 = 1;
  rows.k = d.c1;
  return Convert<CubeRow<kBytes>>(in, rows, to_nz);
}

std::vector<uint8_t> Dispatch(const std::vector<uint8_t>& in, const Shape& nd_shape, DType dtype,
                              int64_t c0, bool to_nz) {
  const Dims d = DimsOf(nd_shape, c0);
  const int64_t row_bytes = c0 * Bits(dtype) / 8;
  if (d.k % c0 == 0 && c0 * Bits(dtype) % 8 == 0) {
    if (row_bytes == 32) return ConvertRows<32>(in, d, to_nz);
    if (row_bytes == 64) return ConvertRows<64>(in, d, to_nz);
  }
  switch (Bits(dtype)) {
    case 8:
      return Convert<uint8_t>(in, d, to_nz);
    case 16:
      return Convert<uint16_t>(in, d, to_nz);
    case 32:
      return Convert<uint32_t>(in, d, to_nz);
    case 4: {
      // One nibble per byte, the same algebra on uint8, then packed again.
      const std::vector<uint8_t> values = UnpackNibbles(in, to_nz ? NdCount(d) : NzCount(d));
      return PackNibbles(Convert<uint8_t>(values, d, to_nz));
    }
    default:
      return {};
  }
}

// One panel (see NzPanel) of T words: slice → pad → reshape, over a map of
// the whole ND tensor [B, n, k] (no copy of it).
template <typename T>
std::vector<uint8_t> PanelWords(const T* nd, const Dims& d, const NzPanel& p) {
  Eigen::TensorMap<const Tensor3<const T>> x(nd, d.batch, d.n, d.k);
  const Index row0 = p.n1_begin * kH0, col0 = p.c1 * d.c0;
  const Index rows = std::max<Index>(0, std::min<Index>(p.n1_end * kH0, d.n) - row0);
  const Index cols = std::min<Index>(d.c0, d.k - col0);
  // Padding to [(n1_end - n1_begin)·16, C0] with 0: the slice goes to the
  // origin of a zero tile (the same as .pad(), which Eigen evaluates slowly).
  std::vector<uint8_t> out(static_cast<size_t>((p.n1_end - p.n1_begin) * kH0 * d.c0) * sizeof(T));
  Eigen::TensorMap<Tensor3<T>> padded(reinterpret_cast<T*>(out.data()), 1,
                                      (p.n1_end - p.n1_begin) * kH0, d.c0);
  Eigen::array<Index, 3> start{p.batch, row0, col0}, extent{1, rows, cols}, origin{0, 0, 0};
  padded.slice(origin, extent) = x.slice(start, extent);
  // reshape [1, R·16, C0] → [R, 16, C0] is the identity on the row-major bytes.
  return out;
}

// INT4: the slice's nibbles one per byte (element e of the ND tensor is the
// low nibble of byte e/2 when e is even, §4.4), then the same algebra, packed.
std::vector<uint8_t> PanelNibbles(std::span<const uint8_t> nd, const Dims& d, const NzPanel& p) {
  const Index row0 = p.n1_begin * kH0, col0 = p.c1 * d.c0;
  const Index rows = std::max<Index>(0, std::min<Index>(p.n1_end * kH0, d.n) - row0);
  const Index cols = std::min<Index>(d.c0, d.k - col0);
  Eigen::Tensor<uint8_t, 3, Eigen::RowMajor, Index> slice(1, rows, cols);
  for (Index r = 0; r < rows; ++r) {
    for (Index c = 0; c < cols; ++c) {
      const Index e = (p.batch * d.n + row0 + r) * d.k + col0 + c;
      slice(0, r, c) = static_cast<uint8_t>(e % 2 == 0 ? nd[e / 2] & 0x0F : nd[e / 2] >> 4);
    }
  }
  const Dims one{1, rows, cols, 0, 0, d.c0};
  std::vector<uint8_t> values = PanelWords(
      slice.data(), one, {.batch = 0, .c1 = 0, .n1_begin = 0, .n1_end = p.n1_end - p.n1_begin});
  return PackNibbles(values);
}

}  // namespace

std::vector<NzPanel> NzPanels(const Shape& nd_shape, int64_t c0, int64_t max_fractals) {
  const Dims d = DimsOf(nd_shape, c0);
  std::vector<NzPanel> out;
  const int64_t step = std::max<int64_t>(1, max_fractals);
  // Row chunk outer, column block inner: a chunk's ND rows are read once, each
  // column block in turn while they are in cache (storage order, c1 outer,
  // would walk the whole tensor once per column block).
  for (int64_t b = 0; b < d.batch; ++b) {
    for (int64_t n1 = 0; n1 < d.n1; n1 += step) {
      for (int64_t c1 = 0; c1 < d.c1; ++c1) {
        out.push_back({.batch = b, .c1 = c1, .n1_begin = n1, .n1_end = std::min(n1 + step, d.n1)});
      }
    }
  }
  return out;
}

uint64_t NzPanelOffsetBytes(const Shape& nd_shape, DType dtype, int64_t c0, const NzPanel& panel) {
  const Dims d = DimsOf(nd_shape, c0);
  const uint64_t fractal = static_cast<uint64_t>(kH0 * d.c0);
  const uint64_t elems =
      ((static_cast<uint64_t>(panel.batch) * d.c1 + panel.c1) * d.n1 + panel.n1_begin) * fractal;
  return elems * Bits(dtype) / 8;
}

std::vector<uint8_t> NdToNzPanel(std::span<const uint8_t> nd, const Shape& nd_shape, DType dtype,
                                 int64_t c0, const NzPanel& panel) {
  const Dims d = DimsOf(nd_shape, c0);
  const int64_t row_bytes = c0 * Bits(dtype) / 8;
  // A whole number of C0 columns: one NZ row of C0 elements is one contiguous
  // run of the ND row, moved as one word (as Dispatch does).
  if (d.k % c0 == 0 && c0 * Bits(dtype) % 8 == 0 && (row_bytes == 32 || row_bytes == 64)) {
    Dims rows = d;
    rows.c0 = 1;
    rows.k = d.c1;
    const NzPanel one_column{panel.batch, panel.c1, panel.n1_begin, panel.n1_end};
    return row_bytes == 32
               ? PanelWords(reinterpret_cast<const CubeRow<32>*>(nd.data()), rows, one_column)
               : PanelWords(reinterpret_cast<const CubeRow<64>*>(nd.data()), rows, one_column);
  }
  switch (Bits(dtype)) {
    case 8:
      return PanelWords(nd.data(), d, panel);
    case 16:
      return PanelWords(reinterpret_cast<const uint16_t*>(nd.data()), d, panel);
    case 32:
      return PanelWords(reinterpret_cast<const uint32_t*>(nd.data()), d, panel);
    case 4:
      return PanelNibbles(nd, d, panel);
    default:
      return {};
  }
}

std::optional<Shape> NzStorageShape(const Shape& nd_shape, int64_t c0) {
  if (nd_shape.empty() || c0 <= 0) return std::nullopt;
  for (int64_t dim : nd_shape) {
    if (dim < 0) return std::nullopt;
  }
  const Dims d = DimsOf(nd_shape, c0);
  Shape storage(nd_shape.begin(), nd_shape.end() - std::min<size_t>(nd_shape.size(), 2));
  storage.insert(storage.end(), {d.c1, d.n1, kH0, d.c0});
  return storage;
}

std::vector<uint8_t> NdToNz(const std::vector<uint8_t>& nd, const Shape& nd_shape, DType dtype,
                            int64_t c0) {
  return Dispatch(nd, nd_shape, dtype, c0, true);
}

std::vector<uint8_t> NzToNd(const std::vector<uint8_t>& nz, const Shape& nd_shape, DType dtype,
                            int64_t c0) {
  return Dispatch(nz, nd_shape, dtype, c0, false);
}

std::vector<bool> NzPaddingMask(const Shape& nd_shape, int64_t c0) {
  // Pack an all-ones ND tensor: every NZ slot still 0 afterwards is padding.
  const Dims d = DimsOf(nd_shape, c0);
  const std::vector<uint8_t> ones(NdCount(d), 1);
  const std::vector<uint8_t> packed = Convert<uint8_t>(ones, d, true);
  std::vector<bool> mask(packed.size());
  for (size_t i = 0; i < packed.size(); ++i) mask[i] = packed[i] == 0;
  return mask;
}

std::optional<int64_t> PaddedWeightElems(const Shape& shape, int64_t k_align) {
  if (shape.size() < 2 || k_align <= 0) return std::nullopt;
  const size_t rank = shape.size();
  __int128 product = 1;
  for (size_t i = 0; i < rank; ++i) {
    if (shape[i] < 0) return std::nullopt;
    const __int128 align = i == rank - 2 ? kH0 : (i == rank - 1 ? k_align : 1);
    __int128 padded = (static_cast<__int128>(shape[i]) + align - 1) / align * align;
    if (padded > INT64_MAX) padded = INT64_MAX;  // CeilAlign saturates (spec cann.md §0.3)
    product *= padded;
    // Undefined upstream once any partial product leaves int64 (§1.5).
    if (product > INT64_MAX) return std::nullopt;
  }
  return static_cast<int64_t>(product);
}

}  // namespace npuconf::oracle::cann
