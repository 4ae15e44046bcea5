// Which NATIVE sub-blocks a matmul type uses (spec rknn.md §2.2), derived
// apart from reference/rknn/sub_blocks: a mixed type's B row is found from
// the profile's type table (the one supported same-type matmul whose C is the
// mixed type's C), not from the B rows. What conformance/ expects.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/rknn_facts.h"

namespace npuconf::oracle::rknn {

// Elements: NATIVE A [K1, M, subK], B [N1, K1, subN, subK], C [N1, M, subN] (§2.1).
struct SubBlocks {
  int64_t a_sub_k = 0;
  int64_t b_sub_n = 0, b_sub_k = 0;
  int64_t c_sub_n = 0;
};

// Readings of the two choices the sub-blocks depend on; "" takes the profile's.
struct SubBlockReadings {
  std::string mixed_b_layout;  // rknn.native.mixed_b_layout: c_dtype_row | b_dtype_row
  std::string c_sub_n_other;   // rknn.native.c_sub_n_other_outputs: 16_bytes | 4
};

// nullopt when the platform does not support the type or the reading names no row.
std::optional<SubBlocks> SubBlocksOf(const RknnFacts& facts, int32_t type,
                                     const SubBlockReadings& readings = {});

}  // namespace npuconf::oracle::rknn
