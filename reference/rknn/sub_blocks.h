// Which NATIVE sub-blocks a matmul type uses on a platform (spec rknn.md §2.2):
// A and same-type B take the row of their own dtype, a mixed type's B (RK3576)
// the row the profile's reading of rknn.native.mixed_b_layout names, C the
// documented row of its dtype or the reading of rknn.native.c_sub_n_other_outputs.
// The reference's own derivation: oracles/rknn/ derives the same another way.
#pragma once

#include <cstdint>
#include <optional>

#include "core/rknn_facts.h"

namespace npuconf::rknn {

// Elements, per dim of the NATIVE layouts of §2.1.
struct NativeSubBlocks {
  int64_t a_sub_k = 0;  // NATIVE A [K1, M, subK]
  int64_t b_sub_n = 0;  // NATIVE B [N1, K1, subN, subK]
  int64_t b_sub_k = 0;
  int64_t c_sub_n = 0;  // NATIVE C [N1, M, subN]
};

// nullopt for a type the platform does not support, or one whose rows the
// profile's tables do not give.
std::optional<NativeSubBlocks> SubBlocksFor(const RknnFacts& facts, int32_t type);

}  // namespace npuconf::rknn
