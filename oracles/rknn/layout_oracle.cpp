#include "oracles/rknn/layout_oracle.h"

#include <cstring>
#include <unsupported/Eigen/CXX11/Tensor>

namespace npuconf::oracle::rknn {
namespace {

using Index = Eigen::Index;
template <typename T, int R>
using Tensor = Eigen::Tensor<T, R, Eigen::RowMajor, Index>;
template <typename T, int R>
using ConstMap = Eigen::TensorMap<const Tensor<const T, R>>;

Index Up(Index x, Index a) { return x / a + (x % a != 0 ? 1 : 0); }  // ceil, x ≥ 0, no overflow

template <typename T>
std::vector<T> Words(const Bytes& bytes, Index count) {
  std::vector<T> words(static_cast<size_t>(count));
  std::memcpy(words.data(), bytes.data(), static_cast<size_t>(count) * sizeof(T));
  return words;
}
template <typename T>
Bytes ToBytes(const T* data, Index count) {
  Bytes out(static_cast<size_t>(count) * sizeof(T));
  std::memcpy(out.data(), data, out.size());
  return out;
}

// [rows, cols] → pad cols to X1·sub → reshape [rows, X1, sub] → shuffle [X1, rows, sub].
template <typename T>
Bytes RowToNative(const Bytes& in, Index rows, Index cols, Index sub) {
  const auto words = Words<T>(in, rows * cols);
  ConstMap<T, 2> x(words.data(), rows, cols);
  const Index x1 = Up(cols, sub);
  Eigen::array<std::pair<Index, Index>, 2> pad{std::make_pair(Index{0}, Index{0}),
                                               std::make_pair(Index{0}, x1 * sub - cols)};
  Eigen::array<Index, 3> blocked{rows, x1, sub};
  Eigen::array<Index, 3> order{1, 0, 2};
  Tensor<T, 3> native = x.pad(pad, T{0}).reshape(blocked).shuffle(order);
  return ToBytes(native.data(), native.size());
}

// The inverse: [X1, rows, sub] → shuffle [rows, X1, sub] → reshape [rows, X1·sub] → slice.
template <typename T>
Bytes RowToNorm(const Bytes& in, Index rows, Index cols, Index sub) {
  const Index x1 = Up(cols, sub);
  const auto words = Words<T>(in, x1 * rows * sub);
  ConstMap<T, 3> x(words.data(), x1, rows, sub);
  Eigen::array<Index, 3> order{1, 0, 2};
  Eigen::array<Index, 2> flat{rows, x1 * sub}, start{0, 0}, extent{rows, cols};
  Tensor<T, 2> norm = x.shuffle(order).reshape(flat).slice(start, extent);
  return ToBytes(norm.data(), norm.size());
}

// One segment of B, as its own [Kseg, N] (or TP [N, Kseg]) matrix:
// NORM: pad → reshape [K1, subK, N1, subN] → shuffle [N1, K1, subN, subK].
// TP:   pad → reshape [N1, subN, K1, subK] → shuffle [N1, K1, subN, subK].
template <typename T>
Tensor<T, 1> SegmentToNative(const Tensor<T, 2>& seg, const BLayout& l, Index k_rows, bool tp) {
  const Index n1 = Up(l.n, l.sub_n), k1 = Up(k_rows, l.sub_k);
  // The pad as its own step (the segment at the origin of a zero matrix), so
  // that the shuffle reads a plain tensor: Eigen evaluates pad().shuffle()
  // coefficient by coefficient, the shuffle of a tensor in blocks.
  const Index rows = tp ? n1 * l.sub_n : k1 * l.sub_k, cols = tp ? k1 * l.sub_k : n1 * l.sub_n;
  Tensor<T, 2> padded(rows, cols);
  padded.setZero();
  Eigen::array<Index, 2> origin{0, 0}, extent{seg.dimension(0), seg.dimension(1)};
  padded.slice(origin, extent) = seg;
  Tensor<T, 4> native;
  if (tp) {
    // TP: [N1·subN, K1·subK] → reshape [N1, subN, K1, subK] → shuffle [N1, K1, subN, subK].
    Eigen::array<Index, 4> blocked{n1, l.sub_n, k1, l.sub_k};
    Eigen::array<Index, 4> order{0, 2, 1, 3};
    native = padded.reshape(blocked).shuffle(order);
  } else {
    // NORM: [K1·subK, N1·subN] → reshape [K1, subK, N1, subN] → shuffle [N1, K1, subN, subK].
    Eigen::array<Index, 4> blocked{k1, l.sub_k, n1, l.sub_n};
    Eigen::array<Index, 4> order{2, 0, 3, 1};
    native = padded.reshape(blocked).shuffle(order);
  }
  Eigen::array<Index, 1> flat{native.size()};
  return native.reshape(flat);
}

template <typename T>
Tensor<T, 2> SegmentToPlain(const T* native, const BLayout& l, Index k_rows, bool tp) {
  const Index n1 = Up(l.n, l.sub_n), k1 = Up(k_rows, l.sub_k);
  ConstMap<T, 4> x(native, n1, k1, l.sub_n, l.sub_k);
  if (tp) {
    Eigen::array<Index, 4> order{0, 2, 1, 3};
    Eigen::array<Index, 2> flat{n1 * l.sub_n, k1 * l.sub_k}, start{0, 0}, extent{l.n, k_rows};
    return x.shuffle(order).reshape(flat).slice(start, extent);
  }
  Eigen::array<Index, 4> order{1, 3, 0, 2};
  Eigen::array<Index, 2> flat{k1 * l.sub_k, n1 * l.sub_n}, start{0, 0}, extent{k_rows, l.n};
  return x.shuffle(order).reshape(flat).slice(start, extent);
}

// Segmentation: slice each segment's K rows (columns for TP), convert it on
// its own, and concatenate the native blocks in segment order.
template <typename T>
Bytes BWordsToNative(const Bytes& in, const BLayout& l, bool tp) {
  const auto words = Words<T>(in, l.k * l.n);
  Tensor<T, 1> out(0);
  for (const Segment& s : l.segments) {
    Tensor<T, 2> seg;
    if (tp) {
      ConstMap<T, 2> x(words.data(), l.n, l.k);
      Eigen::array<Index, 2> start{0, s.k_begin}, extent{l.n, s.k_rows};
      seg = x.slice(start, extent);
    } else {
      ConstMap<T, 2> x(words.data(), l.k, l.n);
      Eigen::array<Index, 2> start{s.k_begin, 0}, extent{s.k_rows, l.n};
      seg = x.slice(start, extent);
    }
    Tensor<T, 1> block = SegmentToNative(seg, l, s.k_rows, tp);
    Tensor<T, 1> joined = out.concatenate(block, 0);
    out = joined;
  }
  return ToBytes(out.data(), out.size());
}

template <typename T>
Bytes BWordsToPlain(const Bytes& in, const BLayout& l, bool tp) {
  const auto words = Words<T>(in, l.native_elems);
  Tensor<T, 2> out(tp ? l.n : 0, tp ? 0 : l.n);
  for (const Segment& s : l.segments) {
    Tensor<T, 2> seg = SegmentToPlain(words.data() + s.offset_elems, l, s.k_rows, tp);
    Tensor<T, 2> joined = out.concatenate(seg, tp ? 1 : 0);
    out = joined;
  }
  return ToBytes(out.data(), out.size());
}

template <typename F>
Bytes ByBits(DType dtype, const Bytes& in, int64_t in_count, NibbleOrder in_order,
             NibbleOrder out_order, F&& convert) {
  switch (Bits(dtype)) {
    case 4:
      return PackNibbles(convert(uint8_t{}, UnpackNibbles(in, in_count, in_order)), out_order);
    case 8:
      return convert(uint8_t{}, in);
    case 16:
      return convert(uint16_t{}, in);
    default:
      return convert(uint32_t{}, in);
  }
}

// Tile t of NATIVE B (see BToNativeTile): its segment and column block.
struct BTileAt {
  const Segment* segment;
  Index n1;
};
BTileAt TileAt(const BLayout& l, int64_t t) {
  const Index n1 = Up(l.n, l.sub_n);
  return {&l.segments[static_cast<size_t>(t / n1)], t % n1};
}

// The plain slice of a tile's columns as a [k_rows, cols] (TP: [cols, k_rows])
// matrix, and the layout of those columns alone (one column block).
template <typename T>
Bytes BTileWords(const Tensor<T, 2>& slice, const BLayout& l, const Segment& s, Index cols,
                 bool tp) {
  BLayout block = l;
  block.n = cols;
  const Tensor<T, 1> native = SegmentToNative(slice, block, s.k_rows, tp);
  return ToBytes(native.data(), native.size());
}

}  // namespace

int64_t BTileCount(const BLayout& l) {
  return static_cast<int64_t>(l.segments.size()) * Up(l.n, l.sub_n);
}

int64_t BTileElems(const BLayout& l, int64_t t) {
  return Up(TileAt(l, t).segment->k_rows, l.sub_k) * l.sub_k * l.sub_n;
}

int64_t BTileOffsetElems(const BLayout& l, int64_t t) {
  const BTileAt at = TileAt(l, t);
  return at.segment->offset_elems + at.n1 * BTileElems(l, t);
}

Bytes BToNativeTile(std::span<const uint8_t> plain, const BLayout& l, DType dtype, bool tp,
                    NibbleOrder plain_order, NibbleOrder native_order, int64_t t) {
  const BTileAt at = TileAt(l, t);
  const Segment& s = *at.segment;
  const Index col0 = at.n1 * l.sub_n, cols = std::min<Index>(l.sub_n, l.n - col0);
  // Element (k, n) of the plain matrix sits at k·N + n (TP: n·K + k), §1.3.
  Eigen::array<Index, 2> start =
      tp ? Eigen::array<Index, 2>{col0, s.k_begin} : Eigen::array<Index, 2>{s.k_begin, col0};
  Eigen::array<Index, 2> extent =
      tp ? Eigen::array<Index, 2>{cols, s.k_rows} : Eigen::array<Index, 2>{s.k_rows, cols};
  const Index rows_all = tp ? l.n : l.k, cols_all = tp ? l.k : l.n;
  auto words = [&](auto word) {
    using T = decltype(word);
    ConstMap<T, 2> x(reinterpret_cast<const T*>(plain.data()), rows_all, cols_all);
    Tensor<T, 2> slice = x.slice(start, extent);
    return BTileWords<T>(slice, l, s, cols, tp);
  };
  switch (Bits(dtype)) {
    case 4: {
      Tensor<uint8_t, 2> slice(extent[0], extent[1]);
      for (Index r = 0; r < extent[0]; ++r) {
        for (Index c = 0; c < extent[1]; ++c) {
          const Index e = (start[0] + r) * cols_all + start[1] + c;
          const bool first = e % 2 == 0;  // the even element: low nibble when kLowFirst (§2.4)
          const bool low = first == (plain_order == NibbleOrder::kLowFirst);
          slice(r, c) = static_cast<uint8_t>(low ? plain[e / 2] & 0x0F : plain[e / 2] >> 4);
        }
      }
      return PackNibbles(BTileWords<uint8_t>(slice, l, s, cols, tp), native_order);
    }
    case 8:
      return words(uint8_t{});
    case 16:
      return words(uint16_t{});
    default:
      return words(uint32_t{});
  }
}

Bytes UnpackNibbles(const Bytes& packed, int64_t count, NibbleOrder order) {
  // byte b → [first, second] on a new inner axis, flattened; first = the even element.
  const Index n_bytes = static_cast<Index>(packed.size());
  ConstMap<uint8_t, 2> bytes(packed.data(), n_bytes, 1);
  auto low = bytes.unaryExpr([](uint8_t b) { return static_cast<uint8_t>(b & 0x0F); });
  auto high = bytes.unaryExpr([](uint8_t b) { return static_cast<uint8_t>(b >> 4); });
  Tensor<uint8_t, 2> pairs = order == NibbleOrder::kLowFirst
                                 ? Tensor<uint8_t, 2>(low.concatenate(high, 1))
                                 : Tensor<uint8_t, 2>(high.concatenate(low, 1));
  Bytes values(pairs.data(), pairs.data() + 2 * n_bytes);
  values.resize(static_cast<size_t>(count));
  return values;
}

Bytes PackNibbles(const Bytes& nibbles, NibbleOrder order) {
  Bytes padded = nibbles;
  if (padded.size() % 2) padded.push_back(0);
  const Index n_bytes = static_cast<Index>(padded.size() / 2);
  ConstMap<uint8_t, 2> pairs(padded.data(), n_bytes, 2);
  const int even_shift = order == NibbleOrder::kLowFirst ? 0 : 4;
  Eigen::array<Index, 2> even_start{0, 0}, odd_start{0, 1}, extent{n_bytes, 1};
  auto even = pairs.slice(even_start, extent).unaryExpr([even_shift](uint8_t v) {
    return static_cast<uint8_t>((v & 0x0F) << even_shift);
  });
  auto odd = pairs.slice(odd_start, extent).unaryExpr([even_shift](uint8_t v) {
    return static_cast<uint8_t>((v & 0x0F) << (4 - even_shift));
  });
  Tensor<uint8_t, 2> bytes =
      even.binaryExpr(odd, [](uint8_t a, uint8_t b) { return static_cast<uint8_t>(a | b); });
  return Bytes(bytes.data(), bytes.data() + n_bytes);
}

Bytes PackInt4(const Bytes& values, NibbleOrder order) { return PackNibbles(values, order); }

Bytes UnpackInt4(const Bytes& packed, int64_t count, NibbleOrder order) {
  Bytes nibbles = UnpackNibbles(packed, count, order);
  for (auto& v : nibbles) v = static_cast<uint8_t>(v >= 8 ? v - 16 : v);  // two's complement
  return nibbles;
}

Shape RowBlockedDims(int64_t rows, int64_t cols, int64_t sub) { return {Up(cols, sub), rows, sub}; }

Bytes RowBlockedToNative(const Bytes& norm, int64_t rows, int64_t cols, int64_t sub, DType dtype,
                         NibbleOrder norm_order, NibbleOrder native_order) {
  return ByBits(
      dtype, norm, rows * cols, norm_order, native_order,
      [&](auto word, const Bytes& in) { return RowToNative<decltype(word)>(in, rows, cols, sub); });
}

Bytes RowBlockedToNorm(const Bytes& native, int64_t rows, int64_t cols, int64_t sub, DType dtype,
                       NibbleOrder native_order, NibbleOrder norm_order) {
  return ByBits(
      dtype, native, Up(cols, sub) * rows * sub, native_order, norm_order,
      [&](auto word, const Bytes& in) { return RowToNorm<decltype(word)>(in, rows, cols, sub); });
}

std::vector<bool> RowBlockedPadding(int64_t rows, int64_t cols, int64_t sub) {
  // Convert an all-ones matrix: every NATIVE slot left 0 is padding.
  const Bytes ones(static_cast<size_t>(rows * cols), 1);
  const Bytes native = RowToNative<uint8_t>(ones, rows, cols, sub);
  std::vector<bool> mask(native.size());
  for (size_t i = 0; i < native.size(); ++i) mask[i] = native[i] == 0;
  return mask;
}

std::optional<BLayout> BLayoutOf(int64_t k, int64_t n, int64_t sub_n, int64_t sub_k,
                                 int64_t seg_len) {
  if (k <= 0 || n <= 0 || sub_n <= 0 || sub_k <= 0 || seg_len < 0) return std::nullopt;
  BLayout l{k, n, sub_n, sub_k, seg_len, {}, 0, {}};
  const __int128 n1 = Up(n, sub_n);
  const int64_t length = seg_len > 0 && k > seg_len ? seg_len : k;  // §3.3: split only when K > L
  // Each segment pads to sub_k rows: 2^20 of them is past any allocatable B.
  // Refuse before building the list, so a K near INT64_MAX costs nothing.
  if (Up(k, length) > (Index{1} << 20)) return std::nullopt;
  __int128 offset = 0, k1_total = 0;
  for (int64_t t = 0; t * length < k; ++t) {
    const int64_t begin = t * length, rows = std::min(length, k - begin);
    const __int128 elems = n1 * Up(rows, sub_k) * sub_n * sub_k;
    if (offset + elems > INT64_MAX) return std::nullopt;
    l.segments.push_back({begin, rows, static_cast<int64_t>(offset), static_cast<int64_t>(elems)});
    offset += elems;
    k1_total += Up(rows, sub_k);
  }
  l.native_elems = static_cast<int64_t>(offset);
  l.dims = {static_cast<int64_t>(n1), static_cast<int64_t>(k1_total), sub_n, sub_k};
  return l;
}

Bytes BToNative(const Bytes& plain, const BLayout& l, DType dtype, bool tp, NibbleOrder plain_order,
                NibbleOrder native_order) {
  return ByBits(
      dtype, plain, l.k * l.n, plain_order, native_order,
      [&](auto word, const Bytes& in) { return BWordsToNative<decltype(word)>(in, l, tp); });
}

Bytes BToPlain(const Bytes& native, const BLayout& l, DType dtype, bool tp,
               NibbleOrder native_order, NibbleOrder plain_order) {
  return ByBits(
      dtype, native, l.native_elems, native_order, plain_order,
      [&](auto word, const Bytes& in) { return BWordsToPlain<decltype(word)>(in, l, tp); });
}

std::vector<bool> BPadding(const BLayout& l) {
  const Bytes ones(static_cast<size_t>(l.k * l.n), 1);
  const Bytes native = BWordsToNative<uint8_t>(ones, l, false);
  std::vector<bool> mask(native.size());
  for (size_t i = 0; i < native.size(); ++i) mask[i] = native[i] == 0;
  return mask;
}

int64_t ANativeIndex(int64_t m, int64_t k, int64_t M, int64_t sub_k) {
  return (k / sub_k) * M * sub_k + m * sub_k + k % sub_k;  // §2.1
}

int64_t BNativeIndex(int64_t k, int64_t n, const BLayout& l) {
  // §3.3: find the segment, then the §2.1 map with K → Kseg and k → k − k_begin.
  const int64_t length = l.segments.size() > 1 ? l.seg_len : l.k;
  const Segment& s = l.segments[static_cast<size_t>(k / length)];
  const int64_t kk = k - s.k_begin, k1 = Up(s.k_rows, l.sub_k);
  return s.offset_elems + ((n / l.sub_n) * k1 + kk / l.sub_k) * l.sub_n * l.sub_k +
         (n % l.sub_n) * l.sub_k + kk % l.sub_k;
}

std::vector<int64_t> IntValues(const Bytes& bytes, int64_t count, DType dtype, NibbleOrder order) {
  std::vector<int64_t> out(static_cast<size_t>(count));
  if (Bits(dtype) == 4) {
    const Bytes values = UnpackInt4(bytes, count, order);
    for (int64_t i = 0; i < count; ++i) out[i] = static_cast<int8_t>(values[i]);
    return out;
  }
  for (int64_t i = 0; i < count; ++i) {
    switch (Bits(dtype)) {
      case 8:
        out[i] = static_cast<int8_t>(bytes[i]);
        break;
      case 16: {
        int16_t v;
        std::memcpy(&v, &bytes[2 * i], 2);
        out[i] = v;
        break;
      }
      default: {
        int32_t v;
        std::memcpy(&v, &bytes[4 * i], 4);
        out[i] = v;
        break;
      }
    }
  }
  return out;
}

std::vector<int64_t> MatmulNorm(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                int64_t M, int64_t K, int64_t N) {
  ConstMap<int64_t, 2> x(a.data(), M, K), y(b.data(), K, N);
  Eigen::array<Eigen::IndexPair<Index>, 1> dims{Eigen::IndexPair<Index>(1, 0)};
  Tensor<int64_t, 2> c = x.contract(y, dims);
  return std::vector<int64_t>(c.data(), c.data() + c.size());
}

std::vector<int64_t> MatmulNative(const std::vector<int64_t>& a_native,
                                  const std::vector<int64_t>& b_native, int64_t M, int64_t K,
                                  int64_t N, int64_t a_sub_k, const BLayout& b, int64_t c_sub_n) {
  std::vector<int64_t> c(static_cast<size_t>(Up(N, c_sub_n) * M * c_sub_n), 0);
  for (int64_t m = 0; m < M; ++m) {
    for (int64_t n = 0; n < N; ++n) {
      int64_t sum = 0;
      for (int64_t k = 0; k < K; ++k) {
        sum += a_native[ANativeIndex(m, k, M, a_sub_k)] * b_native[BNativeIndex(k, n, b)];
      }
      c[ANativeIndex(m, n, M, c_sub_n)] = sum;
    }
  }
  return c;
}

}  // namespace npuconf::oracle::rknn
