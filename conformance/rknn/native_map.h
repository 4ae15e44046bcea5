// Where each element of an RKNN NATIVE buffer sits (spec rknn.md §2.1, §3.3):
// its storage block, its place inside the block, and the logical element it
// holds or padding. What mismatch messages and block pictures are made of;
// tests/rknn_layout_test.cpp checks the padding each map reports against the
// oracle's own padding masks.
#pragma once

#include <memory>
#include <string>

#include "oracles/rknn/layout_oracle.h"
#include "verify/storage_map.h"

namespace npuconf::rknn_props {

enum class Matrix { kA, kB, kC };

// NATIVE A [K1, M, subK] or C [N1, M, subN]: block = the K1 (N1) block of M·sub
// elements; within = row (m, of M), col (of sub); logical A[m][k] / C[m][n]. M
// is never padded, so padding is the cols past K (N) in the last block.
class RowBlockedMap : public verify::StorageMap {
 public:
  // `is_a`: A (cols K, blocked by subK), else C (cols N, blocked by subN).
  RowBlockedMap(int64_t m, int64_t cols, int64_t sub, bool is_a);
  int64_t elements() const override { return elements_; }
  std::string logical_name() const override { return is_a_ ? "A" : "C"; }
  verify::Place Locate(int64_t storage_index) const override;
  int64_t block_elements() const override { return m_ * sub_; }

 private:
  int64_t m_ = 0, cols_ = 0, sub_ = 0, blocks_ = 0, elements_ = 0;
  bool is_a_ = true;
};

// NATIVE B: per K segment [N1, K1, subN, subK], segments concatenated (§3.3).
// block = segment, N1 block, K1 block (a tile of subN·subK); within = row (of
// subN), col (of subK); logical B[k][n] (k counted over the whole of K).
class BNativeMap : public verify::StorageMap {
 public:
  explicit BNativeMap(oracle::rknn::BLayout layout);
  int64_t elements() const override { return layout_.native_elems; }
  std::string logical_name() const override { return "B"; }
  verify::Place Locate(int64_t storage_index) const override;
  int64_t block_elements() const override { return layout_.sub_n * layout_.sub_k; }
  // Segmented: one row per segment and N1 block (segments differ in K1).
  std::vector<verify::BlockRow> BlockRows() const override;
  std::pair<std::string, std::string> BlockRowAxes() const override {
    return {"segment × N1 block", "K1 block"};
  }

 private:
  oracle::rknn::BLayout layout_;
};

// The plain side: NORM A [M, K] (axes m, k), C [M, N] (m, n), B [K, N] (k, n),
// TP_NORM B [N, K] (n, k); each row-major.
std::shared_ptr<verify::StorageMap> PlainMap(Matrix matrix, bool tp, int64_t rows, int64_t cols);

}  // namespace npuconf::rknn_props
