// rknn_matmul_create and rknn_matmul_create_dynamic_shape as far as they are
// data (spec rknn.md §1.4–1.6, §3, §4, §5.4): validation of rknn_matmul_info and
// the io_attr (n_dims, dims, size in BYTES, rknn_tensor_type) of A, B and C.
// Invalid info → RKNN_ERR_PARAM_INVALID (−5, §1.10) and nothing is filled.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/rknn_facts.h"
#include "core/shape.h"
#include "core/status.h"  // rknn::kRknnSucc, rknn::kRknnErrParamInvalid (§1.10)

namespace npuconf::rknn {

// rknn_matmul_layout (§1.3) and rknn_matmul_quant_type (§1.2; the enum, not the
// header comment, per §8.10).
inline constexpr int32_t kLayoutNorm = 0, kLayoutNative = 1, kLayoutTpNorm = 2;
inline constexpr int32_t kQuantPerLayerSym = 0, kQuantPerLayerAsym = 1, kQuantPerChannelSym = 2,
                         kQuantPerChannelAsym = 3, kQuantPerGroupSym = 4, kQuantPerGroupAsym = 5;

// rknn_matmul_info (§1.4), widened to int64 so a caller's value is never truncated.
struct MatmulInfo {
  int64_t M = 0, K = 0, N = 0;
  int64_t type = 0;
  int64_t B_layout = kLayoutNorm;
  int64_t B_quant_type = kQuantPerLayerSym;
  int64_t AC_layout = kLayoutNorm;
  int64_t AC_quant_type = kQuantPerLayerSym;
  int64_t group_size = 0;
  // The zero point the caller will pass to rknn_matmul_set_quant_params; the
  // runtime accepts only 0 (§5.4 "only support zp set 0"). Checked here so the
  // whole create-time rule set lives in one place.
  int64_t zp = 0;
};

// Readings of the uncertain limits (§8.3); empty strings take the profile's.
struct CreateReadings {
  std::string align_unit;  // rknn.limits.align_unit
  std::string k_max_rule;  // rknn.limits.k_max
  std::string varying;     // rknn.dynamic.varying_dims (dynamic shape only)
};

// rknn_matmul_tensor_attr without the name (§1.5).
struct TensorAttr {
  uint32_t n_dims = 0;
  std::array<int64_t, 4> dims{};
  uint64_t size_bytes = 0;
  int32_t type = -1;  // rknn_tensor_type
  Shape Dims() const { return Shape(dims.begin(), dims.begin() + n_dims); }
};

struct IoAttr {
  TensorAttr A, B, C;
};

// Returns kRknnSucc and fills *io, or kRknnErrParamInvalid with *why naming the
// rule and the value (e.g. "N 4100 > 4096 (spec rknn.md §3.2)").
int64_t MatmulCreate(const RknnFacts& facts, const MatmulInfo& info, const CreateReadings& readings,
                     IoAttr* io, std::string* why);

// {M, K, N} of one shape (rknn_matmul_shape, §1.8).
struct MatmulShape {
  int64_t M = 0, K = 0, N = 0;
};

// §4.3: one io_attr per shape, and the capacity each of A, B and C needs (the
// maximum size over the shapes). info.M/K/N are not read. shape_num 0 or
// shapes with different K or N under NORM/NATIVE B → kRknnErrParamInvalid.
int64_t MatmulCreateDynamicShape(const RknnFacts& facts, MatmulInfo info,
                                 const std::vector<MatmulShape>& shapes,
                                 const CreateReadings& readings, std::vector<IoAttr>* io_attrs,
                                 std::array<uint64_t, 3>* capacity_bytes, std::string* why);

}  // namespace npuconf::rknn
