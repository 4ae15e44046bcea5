// RKNN Matmul facts of one platform (spec rknn.md §1–4), parsed from
// profiles/rknn/*.json. Every value's source is in the profile; uncertain
// points are the profile's named choices, resolved here into plain values.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.h"

namespace npuconf {

// One rknn_matmul_type (spec rknn.md §1.1): its value, name and A/B/C dtypes.
struct RknnMatmulType {
  int32_t type = 0;  // 1..12, 15
  std::string name;  // "RKNN_INT8_MM_INT8_TO_INT32"
  DType a = DType::kInt8;
  DType b = DType::kInt8;
  DType c = DType::kInt32;
};

// int4 nibble order: which nibble of byte e/2 holds the even element e (§2.4).
enum class NibbleOrder { kLowFirst, kHighFirst };
std::optional<NibbleOrder> ParseNibbleOrder(const std::string& text);  // "low_first", "high_first"
const char* NibbleOrderName(NibbleOrder order);

struct RknnFacts {
  std::string platform;                  // "RK3588"
  std::string sdk;                       // "2.3.2"
  bool has_tables = false;               // false on an unverified profile (rv1126b): only the below
  std::vector<RknnMatmulType> types;     // §1.1, every defined type
  std::vector<int32_t> supported_types;  // §3.1
  std::vector<int32_t> known_unsupported;             // rv1126b §6 I5
  std::map<DType, int64_t> a_sub_k;                   // §2.2, by A dtype
  std::map<DType, std::array<int64_t, 2>> b_sub_n_k;  // §2.2, by same-type B dtype
  std::map<DType, int64_t> c_sub_n;                   // §2.2, documented C dtypes
  // §2.2, §8.6: subN of NATIVE C for the C dtypes no table documents, per reading
  // of choice rknn.native.c_sub_n_other_outputs (reading → dtype → subN).
  std::map<std::string, std::map<DType, int64_t>> c_sub_n_other_readings;
  std::map<DType, int32_t> tensor_types;                    // §1.5 rknn_tensor_type (API-h)
  std::optional<int64_t> k_max;                             // §3.2 UG (nullopt: none)
  int64_t header_k_max = 10240;                             // §3.2 H
  std::map<DType, int64_t> k_align, n_align, n_max;         // §3.2 UG, by A dtype, elements
  std::map<DType, int64_t> header_k_align, header_n_align;  // §3.2 H numbers (unit: choice)
  int64_t k_segment = 0;  // §3.3 segment length L in K rows; 0: B is never segmented
  NibbleOrder norm_nibble = NibbleOrder::kLowFirst;       // §2.4 NORM A/B, NATIVE A, TP_NORM B
  bool tp_norm = false;                                   // §1.3, §8.11
  std::optional<std::vector<int32_t>> per_channel_types;  // §5.4 (nullopt: not known)
  bool quant_types = true;  // §1.2: B_quant_type exists (rknn_matmul_quant_type, v2.1.0+)
  std::optional<std::vector<int32_t>> per_group_types;  // §5.4 (nullopt: not known)

  // Readings of the profile's choices (the profile's `choices` values).
  NibbleOrder native_b_nibble = NibbleOrder::kLowFirst;   // rknn.int4.native_b_nibble
  std::string mixed_b_layout = "c_dtype_row";             // rknn.native.mixed_b_layout
  std::string c_sub_n_other = "16_bytes";                 // rknn.native.c_sub_n_other_outputs
  std::string align_unit = "ug_elements";                 // rknn.limits.align_unit
  std::string k_max_rule = "ug";                          // rknn.limits.k_max
  std::string group_size_rule = "divides_k";              // rknn.quant.group_size
  std::string varying_dims = "k_n_fixed_unless_tp_norm";  // rknn.dynamic.varying_dims

  // Native tensor layouts of model inputs and outputs (spec layouts.md §B.2–B.3),
  // the "native_io" section. Empty c2: C2 is not public for this platform, so
  // the NC1HWC2 routines are not covered on it.
  std::map<DType, int64_t> nc1hwc2_c2;
  std::optional<int64_t>
      output_w_align;  // §B.3 W alignment behind size_with_stride; nullopt: none known
  std::string size_with_stride = "unpadded_w";  // choice rknn.native_io.size_with_stride
  // Zero-copy NHWC inputs (§B.4): the channel counts and dtypes an NHWC native
  // input has, and the width alignment below which rows are stored w_stride
  // apart. Empty / nullopt: not public for this platform (not covered).
  std::vector<int64_t> zero_copy_channels;
  std::vector<DType> zero_copy_dtypes;
  std::optional<int64_t> zero_copy_w_align;
  std::string nhwc_input_batch = "every_batch";  // choice rknn.native_io.nhwc_input_batch

  const RknnMatmulType* FindType(int32_t type) const;  // any defined type
  bool Supports(int32_t type) const;                   // on this platform
  // Which NATIVE sub-blocks a type uses is a rule (a mixed type's B row, §2.2),
  // so it is not here: reference/rknn/ and oracles/rknn/ each derive it their
  // own way from these tables (DESIGN.md "Reference vs oracle").
};

// Parses the RKNN part of a profile document; throws std::runtime_error naming
// the bad key. `choices` are the profile's parsed choices (name → value).
RknnFacts ParseRknnFacts(const nlohmann::json& doc,
                         const std::map<std::string, std::string>& choices, bool verified,
                         const std::string& where);

}  // namespace npuconf
