// The CANN conv-weight routines (spec layouts.md §A.9) and the format-cast size
// API (§A.10): their ids, once, and their specs. Ports, materializers and
// properties name a routine through these constants only.
#pragma once

#include <cstdint>
#include <vector>

#include "core/routine.h"

namespace npuconf::routines::cann_convweight {

inline constexpr char kCalculateConvolutionWeightSize[] = "cann.calculate_convolution_weight_size";
inline constexpr char kTransConvolutionWeight[] = "cann.trans_convolution_weight";
inline constexpr char kNpuFormatCastCalculateSizeAndFormat[] =
    "cann.npu_format_cast_calculate_size_and_format";

// The formats of §A.10's branches, by their ge::Format numbers (hicann/ge
// inc/external/graph/types.h enum Format) [uncertain: only FRACTAL_NZ = 29 is in
// the spec, layouts.md §A.8 `npu_format_cast(…, 29)`; the others are the
// enum's order as published]. `actual_format` reports these numbers.
struct FormatNumber {
  const char* name;
  int32_t number;
};
inline constexpr FormatNumber kFormats[] = {
    {"NCHW", 0},      {"NHWC", 1},   {"ND", 2},        {"NC1HWC0", 3},
    {"FRACTAL_Z", 4}, {"HWCN", 16},  {"NDHWC", 27},    {"FRACTAL_NZ", 29},
    {"NCDHW", 30},    {"DHWCN", 31}, {"NDC1HWC0", 32}, {"FRACTAL_Z_3D", 33}};

const std::vector<RoutineSpec>& Specs();

}  // namespace npuconf::routines::cann_convweight
