// The CANN framework storage-shape function (spec layouts.md §A.0.2, TSU
// TransferShapeUtils::TransferShape): its routine id, its statuses and its spec, once.
#pragma once

#include <cstdint>
#include <vector>

#include "core/routine.h"

namespace npuconf::routines::cann_transfer_shape {

inline constexpr char kTransferShape[] = "cann.transfer_shape";

// TSU returns a bool; the case reports it as a status (suite-defined codes):
// kTrue: TransferShape returned true and `storage_shape` holds the shape it left;
// kFalse: it returned false (an invalid format or dtype, §A.0.2 step 2), nothing written;
// kNotModelled: the answer rests on code the TSU snapshot does not hold (a dim
// below -1, an int64 product past MUL_OVERFLOW, a grouped Cin of 0, a 4-D origin
// read as 5-D by a target the UT does not pin), nothing written. Not a vendor status.
inline constexpr int64_t kTrue = 0;
inline constexpr int64_t kFalse = 1;
inline constexpr int64_t kNotModelled = 2;

// Formats as ge::Format spells them without FORMAT_ (TSU kFormatIndexMap,
// kOriginFormatVec, TransferShapeByAxisValue). RESERVED and END are the bounds
// step 2 rejects.
inline constexpr const char* kFormats[] = {"NCHW",
                                           "NHWC",
                                           "HWCN",
                                           "CHWN",
                                           "NDHWC",
                                           "NCDHW",
                                           "DHWCN",
                                           "DHWNC",
                                           "ND",
                                           "NC1HWC0",
                                           "NC1HWC0_C04",
                                           "C1HWC0",
                                           "NDC1HWC0",
                                           "C1HWNCoC0",
                                           "FRACTAL_Z",
                                           "FRACTAL_Z_3D",
                                           "FRACTAL_Z_C04",
                                           "FRACTAL_Z_3D_TRANSPOSE",
                                           "FRACTAL_ZN_LSTM",
                                           "FRACTAL_NZ",
                                           "FRACTAL_NZ_C0_2",
                                           "FRACTAL_NZ_C0_4",
                                           "FRACTAL_NZ_C0_8",
                                           "FRACTAL_NZ_C0_16",
                                           "FRACTAL_NZ_C0_32",
                                           "RESERVED",
                                           "END"};

// ge::DataType names without DT_ (the ones TSU-UT uses); UNDEFINED and MAX are
// the bounds step 2 rejects.
inline constexpr const char* kDTypes[] = {
    "FLOAT", "FLOAT16", "BF16", "INT8", "UINT8", "INT16", "UINT16",    "INT32", "UINT32",
    "INT64", "UINT64",  "INT4", "INT2", "UINT2", "UINT1", "UNDEFINED", "MAX"};

// The largest rank the routine takes (FRACTAL_NZ adds two dims; NPUCONF_MAX_RANK 16).
inline constexpr int64_t kMaxRank = 8;

const std::vector<RoutineSpec>& Specs();

}  // namespace npuconf::routines::cann_transfer_shape
