// The CANN routines of the catalogue (spec cann.md §1–2): their ids, once, and
// their specs. Ports, materializers and properties name a routine through these
// constants only.
#pragma once

#include <vector>

#include "core/routine.h"

namespace npuconf::routines::cann {

inline constexpr char kCalculateMatmulWeightSize[] = "cann.calculate_matmul_weight_size";
inline constexpr char kCalculateMatmulWeightSizeV2[] = "cann.calculate_matmul_weight_size_v2";
inline constexpr char kTransMatmulWeight[] = "cann.trans_matmul_weight";
inline constexpr char kNdToNz[] = "cann.nd_to_nz";
inline constexpr char kNzToNd[] = "cann.nz_to_nd";

const std::vector<RoutineSpec>& Specs();

}  // namespace npuconf::routines::cann
