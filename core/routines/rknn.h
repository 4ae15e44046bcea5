// The RKNN Matmul routines of the catalogue (spec rknn.md §1–5): their ids,
// once, and their specs.
#pragma once

#include <vector>

#include "core/routine.h"

namespace npuconf::routines::rknn {

inline constexpr char kMatmulCreate[] = "rknn.matmul_create";
inline constexpr char kMatmulCreateDynamic[] = "rknn.matmul_create_dynamic";
inline constexpr char kANormToNative[] = "rknn.a_norm_to_native";
inline constexpr char kANativeToNorm[] = "rknn.a_native_to_norm";
inline constexpr char kCNormToNative[] = "rknn.c_norm_to_native";
inline constexpr char kCNativeToNorm[] = "rknn.c_native_to_norm";
inline constexpr char kBNormToNative[] = "rknn.b_norm_to_native";
inline constexpr char kBNativeToNorm[] = "rknn.b_native_to_norm";
inline constexpr char kBTpNormToNative[] = "rknn.b_tp_norm_to_native";
inline constexpr char kBNativeToTpNorm[] = "rknn.b_native_to_tp_norm";
inline constexpr char kInt4Pack[] = "rknn.int4_pack";
inline constexpr char kInt4Unpack[] = "rknn.int4_unpack";

const std::vector<RoutineSpec>& Specs();

}  // namespace npuconf::routines::rknn
