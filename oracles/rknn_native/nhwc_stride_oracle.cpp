#include "oracles/rknn_native/nhwc_stride_oracle.h"

#include <cstring>
#include <unsupported/Eigen/CXX11/Tensor>

namespace npuconf::oracle::rknn_native {
namespace {

using Index = Eigen::Index;

template <typename T>
std::vector<uint8_t> Pad(const std::vector<uint8_t>& in, const Shape& s, Index stored_w) {
  const Index n = s[0], h = s[1], w = s[2], c = s[3];
  std::vector<T> words(static_cast<size_t>(n * h * w * c));
  std::memcpy(words.data(), in.data(), words.size() * sizeof(T));
  Eigen::TensorMap<const Eigen::Tensor<const T, 4, Eigen::RowMajor, Index>> x(words.data(), n, h, w,
                                                                              c);
  // [N, H, W, C] -> pad W at its end -> [N, H, w_stride, C]: row (n, h) starts
  // at (n·H + h)·w_stride·C, the batch continuing the rows.
  Eigen::array<std::pair<Index, Index>, 4> pad{{{0, 0}, {0, 0}, {0, stored_w - w}, {0, 0}}};
  const Eigen::Tensor<T, 4, Eigen::RowMajor, Index> padded = x.pad(pad, T{0});
  std::vector<uint8_t> out(static_cast<size_t>(padded.size()) * sizeof(T));
  std::memcpy(out.data(), padded.data(), out.size());
  return out;
}

}  // namespace

int64_t StoredWidth(const Shape& nhwc, int64_t w_stride) {
  return w_stride == 0 ? nhwc[2] : w_stride;
}

Shape StridedDims(const Shape& nhwc, int64_t w_stride) {
  return {nhwc[0], nhwc[1], StoredWidth(nhwc, w_stride), nhwc[3]};
}

int64_t StridedElems(const Shape& nhwc, int64_t w_stride) {
  int64_t e = 1;
  for (int64_t d : StridedDims(nhwc, w_stride)) e *= d;
  return e;
}

std::vector<uint8_t> PadRowsToStride(const std::vector<uint8_t>& nhwc, const Shape& shape,
                                     int64_t w_stride, int elem_bytes) {
  const Index stored = StoredWidth(shape, w_stride);
  return elem_bytes == 1 ? Pad<uint8_t>(nhwc, shape, stored) : Pad<uint16_t>(nhwc, shape, stored);
}

}  // namespace npuconf::oracle::rknn_native
