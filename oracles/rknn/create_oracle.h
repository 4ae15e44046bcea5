// What rknn_matmul_create and rknn_matmul_create_dynamic_shape must answer
// (spec rknn.md §1.4–1.6, §2.2, §3, §4, §5.4, §7): the rules as a list of
// (applies, source) checks, and the io_attr from the shape table of §4.1.
// Shares no code with reference/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/rknn_facts.h"
#include "core/shape.h"
#include "core/status.h"

namespace npuconf::oracle::rknn {

// RKNN_SUCC and RKNN_ERR_PARAM_INVALID (§1.10), the statuses create answers.
inline constexpr int64_t kSucc = ::npuconf::rknn::kRknnSucc;
inline constexpr int64_t kParamInvalid = ::npuconf::rknn::kRknnErrParamInvalid;

struct Info {
  int64_t M = 0, K = 0, N = 0, type = 0;
  int64_t B_layout = 0, AC_layout = 0, B_quant_type = 0, AC_quant_type = 0, group_size = 0, zp = 0;
};

struct Readings {
  std::string align_unit;  // "" = the profile's
  std::string k_max_rule;
  std::string varying;
};

// The §3.2 limits of A's dtype `a` under the profile's (or `readings`')
// readings of §8.3: alignments in elements, N max, and K max (nullopt: none).
struct Limits {
  int64_t k_align = 0, n_align = 0, n_max = 0;
  std::optional<int64_t> k_max;
};
Limits LimitsFor(const RknnFacts& facts, DType a, const Readings& readings);

struct Attr {
  Shape dims;
  uint64_t size_bytes = 0;
  int32_t type = -1;  // rknn_tensor_type
};

struct CreateExpectation {
  int64_t status = kSucc;
  std::string rule;  // the rule that decided a rejection, with its source
  Attr A, B, C;
  // The logical (unpadded) bytes of each tensor, for capacity_ge_logical.
  uint64_t a_logical_bytes = 0, b_logical_bytes = 0, c_logical_bytes = 0;
};

CreateExpectation ExpectCreate(const RknnFacts& facts, const Info& info, const Readings& readings);

struct DynamicExpectation {
  int64_t status = kSucc;
  std::string rule;
  std::vector<CreateExpectation> per_shape;
  uint64_t capacity[3] = {0, 0, 0};  // max size_bytes of A, B, C over the shapes
};

// shapes: [M0,K0,N0, M1,K1,N1, …].
DynamicExpectation ExpectDynamic(const RknnFacts& facts, const Info& info, const Shape& shapes,
                                 const Readings& readings);

}  // namespace npuconf::oracle::rknn
