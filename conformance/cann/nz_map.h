// Where each element of a FRACTAL_NZ buffer sits (spec cann.md §2.5): batch,
// C1 block and N1 block (the storage block of 16 x C0 elements), row and column
// inside it, and the ND element it holds or padding. What mismatch messages and
// block pictures are made of; the padding it reports is checked against the
// oracle's own padding mask by tests/cann_oracle_test.cpp.
#pragma once

#include <memory>

#include "core/shape.h"
#include "verify/storage_map.h"

namespace npuconf::cann_props {

class NzStorageMap : public verify::StorageMap {
 public:
  // `nd_shape` [B..., n, k] (rank 1: [k] is one row); c0 > 0.
  NzStorageMap(const Shape& nd_shape, int64_t c0);
  int64_t elements() const override { return elements_; }
  std::string logical_name() const override { return "ND"; }
  verify::Place Locate(int64_t storage_index) const override;
  int64_t block_elements() const override { return 16 * c0_; }

 private:
  int64_t batch_ = 1, n_ = 1, k_ = 1, c0_ = 1, n1_ = 0, c1_ = 0, elements_ = 0;
  bool show_batch_ = false;
};

// The ND side: [B..., n, k] row-major, axes named b0.., n, k.
std::shared_ptr<verify::StorageMap> NdMap(const Shape& nd_shape);

}  // namespace npuconf::cann_props
