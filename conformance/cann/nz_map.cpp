#include "conformance/cann/nz_map.h"

namespace npuconf::cann_props {

NzStorageMap::NzStorageMap(const Shape& nd_shape, int64_t c0) : c0_(c0) {
  const size_t rank = nd_shape.size();
  for (size_t i = 0; i + 2 < rank; ++i) batch_ *= nd_shape[i];
  k_ = rank >= 1 ? nd_shape[rank - 1] : 1;
  n_ = rank >= 2 ? nd_shape[rank - 2] : 1;
  n1_ = n_ / 16 + (n_ % 16 != 0);
  c1_ = k_ / c0_ + (k_ % c0_ != 0);
  elements_ = batch_ * c1_ * n1_ * 16 * c0_;
  show_batch_ = rank > 2;
}

verify::Place NzStorageMap::Locate(int64_t e) const {
  const int64_t per_c1 = n1_ * 16 * c0_;
  const int64_t per_batch = c1_ * per_c1;
  const int64_t b = e / per_batch, in_batch = e % per_batch;
  const int64_t c1 = in_batch / per_c1;
  const int64_t row = (in_batch % per_c1) / c0_;
  const int64_t col = in_batch % c0_;
  const int64_t k = c1 * c0_ + col;
  verify::Place place;
  if (show_batch_) place.block.push_back({"batch", b, batch_});
  place.block.push_back({"C1 block", c1, c1_});
  place.block.push_back({"N1 block", row / 16, n1_});
  place.within = {{"row", row % 16, 16}, {"col", col, c0_}};
  place.padding = row >= n_ || k >= k_;
  if (!place.padding) {
    if (show_batch_) place.logical.push_back({"batch", b, batch_});
    place.logical.push_back({"n", row, n_});
    place.logical.push_back({"k", k, k_});
  }
  return place;
}

std::shared_ptr<verify::StorageMap> NdMap(const Shape& nd_shape) {
  std::vector<std::string> axes;
  // append, not "b" + std::string: GCC 12 warns falsely on the latter (-Wrestrict, PR 105329).
  for (size_t i = 0; i + 2 < nd_shape.size(); ++i)
    axes.push_back(std::string("b").append(std::to_string(i)));
  if (nd_shape.size() >= 2) axes.push_back("n");
  axes.push_back("k");
  return std::make_shared<verify::RowMajorMap>(nd_shape, axes, "ND");
}

}  // namespace npuconf::cann_props
