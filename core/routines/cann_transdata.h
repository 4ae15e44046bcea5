// The CANN TransData host conversion (spec layouts.md Part A): its routine id,
// its GE status codes and its spec, once. Ports, materializers and properties
// name the routine through these constants only.
#pragma once

#include <cstdint>
#include <vector>

#include "core/routine.h"
#include "core/status.h"

namespace npuconf::routines::cann_transdata {

inline constexpr char kTransData[] = "cann.trans_data";

// The GE codes the routine returns (core/status.h: ge_error_codes.h, spec layouts.md §0).
inline constexpr int64_t kGeSuccess = 0;
using cann::kGeDatatypeInvalid;
using cann::kGeFormatInvalid;
using cann::kGeShapeInvalid;

// The formats the routine knows (spec layouts.md §A.1–A.8).
inline constexpr const char* kFormats[] = {"NCHW",
                                           "NHWC",
                                           "HWCN",
                                           "NC1HWC0",
                                           "FRACTAL_Z",
                                           "ND",
                                           "FRACTAL_NZ",
                                           "FRACTAL_NZ_C0_16",
                                           "FRACTAL_NZ_C0_32",
                                           "NC1HWC0_C04",
                                           "NCDHW",
                                           "NDHWC",
                                           "DHWCN",
                                           "NDC1HWC0",
                                           "FRACTAL_Z_3D",
                                           "FRACTAL_Z_C04"};

const std::vector<RoutineSpec>& Specs();

}  // namespace npuconf::routines::cann_transdata
