#include "oracles/rknn_native/nc1hwc2_oracle.h"

#include <cstring>
#include <unsupported/Eigen/CXX11/Tensor>

namespace npuconf::oracle::rknn_native {
namespace {

using Index = Eigen::Index;
template <typename T, int R>
using Tensor = Eigen::Tensor<T, R, Eigen::RowMajor, Index>;
template <typename T, int R>
using ConstMap = Eigen::TensorMap<const Tensor<const T, R>>;

Index Up(Index x, Index a) { return x / a + (x % a != 0 ? 1 : 0); }

struct Nchw {
  Index n, c, h, w;
};
Nchw Dims(const Shape& s, bool nhwc) {
  return nhwc ? Nchw{s[0], s[3], s[1], s[2]} : Nchw{s[0], s[1], s[2], s[3]};
}

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

template <typename T>
Bytes Pack(const Bytes& in, const Shape& s, bool nhwc, Index c2) {
  const Nchw d = Dims(s, nhwc);
  const Index c1 = Up(d.c, c2), pad_c = c1 * c2 - d.c;
  const auto words = Words<T>(in, d.n * d.c * d.h * d.w);
  Tensor<T, 5> native;
  if (nhwc) {
    // [N, H, W, C] -> pad C -> [N, H, W, C1, C2] -> [N, C1, H, W, C2]
    ConstMap<T, 4> x(words.data(), d.n, d.h, d.w, d.c);
    Eigen::array<std::pair<Index, Index>, 4> pad{{{0, 0}, {0, 0}, {0, 0}, {0, pad_c}}};
    Eigen::array<Index, 5> blocked{d.n, d.h, d.w, c1, c2};
    Eigen::array<Index, 5> order{0, 3, 1, 2, 4};
    native = x.pad(pad, T{0}).reshape(blocked).shuffle(order);
  } else {
    // [N, C, H, W] -> pad C -> [N, C1, C2, H, W] -> [N, C1, H, W, C2]
    ConstMap<T, 4> x(words.data(), d.n, d.c, d.h, d.w);
    Eigen::array<std::pair<Index, Index>, 4> pad{{{0, 0}, {0, pad_c}, {0, 0}, {0, 0}}};
    Eigen::array<Index, 5> blocked{d.n, c1, c2, d.h, d.w};
    Eigen::array<Index, 5> order{0, 1, 3, 4, 2};
    native = x.pad(pad, T{0}).reshape(blocked).shuffle(order);
  }
  return ToBytes(native.data(), native.size());
}

// The inverse: shuffle back, merge C1·C2, slice the first C channels.
template <typename T>
Tensor<T, 4> UnpackWords(const T* native, const Shape& s, bool nhwc, Index c2) {
  const Nchw d = Dims(s, nhwc);
  const Index c1 = Up(d.c, c2);
  ConstMap<T, 5> x(native, d.n, c1, d.h, d.w, c2);
  if (nhwc) {
    Eigen::array<Index, 5> order{0, 2, 3, 1, 4};  // [N, H, W, C1, C2]
    Eigen::array<Index, 4> flat{d.n, d.h, d.w, c1 * c2}, start{0, 0, 0, 0},
        extent{d.n, d.h, d.w, d.c};
    return x.shuffle(order).reshape(flat).slice(start, extent);
  }
  Eigen::array<Index, 5> order{0, 1, 4, 2, 3};  // [N, C1, C2, H, W]
  Eigen::array<Index, 4> flat{d.n, c1 * c2, d.h, d.w}, start{0, 0, 0, 0},
      extent{d.n, d.c, d.h, d.w};
  return x.shuffle(order).reshape(flat).slice(start, extent);
}

template <typename T>
Bytes Unpack(const Bytes& in, const Shape& s, bool nhwc, Index c2) {
  const auto words = Words<T>(in, NativeElems(s, nhwc, c2));
  const Tensor<T, 4> plain = UnpackWords<T>(words.data(), s, nhwc, c2);
  return ToBytes(plain.data(), plain.size());
}

}  // namespace

Shape NativeDims(const Shape& logical, bool nhwc, int64_t c2) {
  const Nchw d = Dims(logical, nhwc);
  return {d.n, Up(d.c, c2), d.h, d.w, c2};
}

int64_t NativeElems(const Shape& logical, bool nhwc, int64_t c2) {
  int64_t e = 1;
  for (int64_t d : NativeDims(logical, nhwc, c2)) e *= d;
  return e;
}

Bytes ToNative(const Bytes& plain, const Shape& logical, bool nhwc, int64_t c2, int elem_bytes) {
  switch (elem_bytes) {
    case 1:
      return Pack<uint8_t>(plain, logical, nhwc, c2);
    case 2:
      return Pack<uint16_t>(plain, logical, nhwc, c2);
    default:
      return Pack<uint32_t>(plain, logical, nhwc, c2);
  }
}

Bytes ToPlain(const Bytes& native, const Shape& logical, bool nhwc, int64_t c2, int elem_bytes) {
  switch (elem_bytes) {
    case 1:
      return Unpack<uint8_t>(native, logical, nhwc, c2);
    case 2:
      return Unpack<uint16_t>(native, logical, nhwc, c2);
    default:
      return Unpack<uint32_t>(native, logical, nhwc, c2);
  }
}

Bytes DequantToNchw(const Bytes& native, const Shape& nchw, int64_t c2, float scale, int32_t zp) {
  const auto words = Words<int8_t>(native, NativeElems(nchw, false, c2));
  const Tensor<int8_t, 4> q = UnpackWords<int8_t>(words.data(), nchw, false, c2);
  // real = (q - zp) * scale: the subtraction in integers (int64: exact for any
  // int32 zp), converted to float32, then one float32 product.
  const Tensor<int64_t, 4> shifted = q.cast<int64_t>() - static_cast<int64_t>(zp);
  // Each int64 converted on its own (one rounding): Eigen's packet cast from
  // int64 to float is not that on aarch64 (the qemu run differed at zp 2^24 + 1).
  const Tensor<float, 4> real =
      shifted.unaryExpr([](int64_t v) { return static_cast<float>(v); }) * scale;
  return ToBytes(real.data(), real.size());
}

bool IsPadLane(const Shape& logical, bool nhwc, int64_t c2, int64_t e) {
  const Nchw d = Dims(logical, nhwc);
  const int64_t lane = e % c2, c1 = (e / (c2 * d.w * d.h)) % Up(d.c, c2);
  return c1 * c2 + lane >= d.c;
}

}  // namespace npuconf::oracle::rknn_native
