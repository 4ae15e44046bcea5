// The dequant routines of the catalogue: GatherDequantInt8 and its test-data
// quantizer (spec cann.md §3), the weight antiquant of
// aclnnWeightQuantBatchMatmulV2 (§4), and RKNN Matmul B dequant (spec rknn.md
// §5). Their ids, once, and their specs.
#pragma once

#include <vector>

#include "core/routine.h"

namespace npuconf::routines::quant {

inline constexpr char kGatherDequantInt8[] = "cann.gather_dequant_int8";
inline constexpr char kGatherDequantInt8Quantize[] = "cann.gather_dequant_int8_quantize";
inline constexpr char kAntiquant[] = "cann.antiquant";
inline constexpr char kRknnDequantB[] = "rknn.dequant_b";

// Named distributions of generated scales and zero points (the materializer's).
inline const std::vector<std::string> kScaleKinds = {
    "mixed", "positive", "ordinary", "tiny", "subnormal", "huge", "exact", "index", "ones"};
inline const std::vector<std::string> kZeroPointKinds = {"mixed", "zero", "integer", "fractional"};

const std::vector<RoutineSpec>& Specs();

}  // namespace npuconf::routines::quant
