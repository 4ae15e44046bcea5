#include "conformance/rknn/native_map.h"

#include <utility>

namespace npuconf::rknn_props {

RowBlockedMap::RowBlockedMap(int64_t m, int64_t cols, int64_t sub, bool is_a)
    : m_(m), cols_(cols), sub_(sub), is_a_(is_a) {
  blocks_ = cols_ / sub_ + (cols_ % sub_ != 0);
  elements_ = blocks_ * m_ * sub_;
}

verify::Place RowBlockedMap::Locate(int64_t e) const {
  const int64_t block = e / (m_ * sub_), row = (e % (m_ * sub_)) / sub_, col = e % sub_;
  const int64_t x = block * sub_ + col;
  verify::Place place;
  place.block = {{is_a_ ? "K1 block" : "N1 block", block, blocks_}};
  place.within = {{"row", row, m_}, {"col", col, sub_}};
  place.padding = x >= cols_;
  if (!place.padding) place.logical = {{"m", row, m_}, {is_a_ ? "k" : "n", x, cols_}};
  return place;
}

BNativeMap::BNativeMap(oracle::rknn::BLayout layout) : layout_(std::move(layout)) {}

verify::Place BNativeMap::Locate(int64_t e) const {
  const oracle::rknn::BLayout& b = layout_;
  const int64_t tile = b.sub_n * b.sub_k, n1s = b.dims[0];
  verify::Place place;
  for (size_t t = 0; t < b.segments.size(); ++t) {
    const oracle::rknn::Segment& s = b.segments[t];
    if (e < s.offset_elems || e >= s.offset_elems + s.elems) continue;
    const int64_t local = e - s.offset_elems, k1s = s.elems / (n1s * tile);
    const int64_t n1 = local / (k1s * tile), k1 = (local / tile) % k1s;
    const int64_t row = (local % tile) / b.sub_k, col = local % b.sub_k;
    place.block = {{"segment", static_cast<int64_t>(t), static_cast<int64_t>(b.segments.size())},
                   {"N1 block", n1, n1s},
                   {"K1 block", k1, k1s}};
    place.within = {{"row", row, b.sub_n}, {"col", col, b.sub_k}};
    const int64_t n = n1 * b.sub_n + row, k_in_segment = k1 * b.sub_k + col;
    place.padding = n >= b.n || k_in_segment >= s.k_rows;
    if (!place.padding) place.logical = {{"k", s.k_begin + k_in_segment, b.k}, {"n", n, b.n}};
    return place;
  }
  place.padding = true;  // past the last segment: not part of the layout
  return place;
}

std::vector<verify::BlockRow> BNativeMap::BlockRows() const {
  const oracle::rknn::BLayout& b = layout_;
  std::vector<verify::BlockRow> rows;
  if (b.segments.size() < 2) return rows;
  const int64_t tile = b.sub_n * b.sub_k, n1s = b.dims[0];
  for (size_t t = 0; t < b.segments.size(); ++t) {
    const oracle::rknn::Segment& s = b.segments[t];
    const int64_t k1s = s.elems / (n1s * tile);
    for (int64_t n1 = 0; n1 < n1s; ++n1) {
      rows.push_back({.first = s.offset_elems / tile + n1 * k1s,
                      .count = k1s,
                      .label = "segment " + std::to_string(t) + ", N1 block " + std::to_string(n1),
                      .boundary = n1 == 0 && t > 0});
    }
  }
  return rows;
}

std::shared_ptr<verify::StorageMap> PlainMap(Matrix matrix, bool tp, int64_t rows, int64_t cols) {
  const Shape shape = {rows, cols};
  switch (matrix) {
    case Matrix::kA:
      return std::make_shared<verify::RowMajorMap>(shape, std::vector<std::string>{"m", "k"}, "A");
    case Matrix::kC:
      return std::make_shared<verify::RowMajorMap>(shape, std::vector<std::string>{"m", "n"}, "C");
    case Matrix::kB:
      break;
  }
  return std::make_shared<verify::RowMajorMap>(
      shape, tp ? std::vector<std::string>{"n", "k"} : std::vector<std::string>{"k", "n"}, "B");
}

}  // namespace npuconf::rknn_props
