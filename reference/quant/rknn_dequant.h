// The dequant of RKNN Matmul B (spec rknn.md §5): y[k][n] = (qB[k][n] − zB) · sB
// in fp32 (the DEMO golden, §5.5), with per-layer, per-channel or per-group
// params as rknn_matmul_set_quant_params takes them (§1.7, §5.1).
#pragma once

#include <cstdint>
#include <string>

#include "core/dtype.h"
#include "core/rknn_facts.h"

namespace npuconf::quant {

// rknn_api.h: RKNN_ERR_PARAM_INVALID (spec rknn.md §1.10).
inline constexpr int64_t kRknnSuccess = 0;
inline constexpr int64_t kRknnErrParamInvalid = -5;

enum class RknnQuantType { kPerLayer, kPerChannel, kPerGroup };

struct RknnDequantArgs {
  DType b_dtype = DType::kInt8;                  // INT8 or INT4
  NibbleOrder nibbles = NibbleOrder::kLowFirst;  // NORM B int4 (§2.4; profile fact)
  int64_t k = 0;
  int64_t n = 0;
  const uint8_t* b = nullptr;  // NORM B [K, N] row-major; int4 two per byte
  uint64_t b_bytes = 0;
  RknnQuantType quant_type = RknnQuantType::kPerLayer;
  int64_t group_size = 0;
  bool group_size_32_only = false;    // choice rknn.quant.group_size = 32_only
  bool channel_major_groups = false;  // choice rknn.quant.group_order = n_major
  bool asymmetric = false;            // choice rknn.quant.zero_point = asymmetric
  const float* scale = nullptr;
  int64_t scale_len = 0;
  const int32_t* zp = nullptr;
  int64_t zp_len = 0;
  float* y = nullptr;  // FLOAT [K, N]
  uint64_t y_capacity_elems = 0;
};

// Returns 0 or −5 (RKNN_ERR_PARAM_INVALID); on error nothing is written.
// Checks, in npuconf's order (the runtime's order is not documented):
//  B dtype INT8/INT4; K, N ≥ 1; scale_len ≥ 1 (RT "scale_len must > 0");
//  scale_len and zp_len = 1 / N / N·K/group_size per type (§5.1); per-group:
//  group_size ≥ 1 and K % group_size == 0 (RT "K: %d must align group size",
//  §5.3), and group_size == 32 under 32_only; every zp == 0 unless the reading
//  is asymmetric (RT "only support zp set 0", §5.4); B bytes / y capacity short.
// Per-group params are stored g·N + n (DEMO dynshape, §5.2), or n·(K/gs) + g
// under the alternative reading. q − zp is exact (int64); its fp32 value times
// the fp32 scale is rounded once to fp32.
int64_t RknnDequantB(const RknnDequantArgs& args, std::string* error);

}  // namespace npuconf::quant
