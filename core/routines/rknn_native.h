// The RKNN native tensor layouts of model inputs and outputs (spec layouts.md
// Part B): NCHW / NHWC <-> NC1HWC2, the int8 dequant every zero-copy
// application runs, and the attr sizes. Their ids, once, and their specs.
#pragma once

#include <vector>

#include "core/routine.h"

namespace npuconf::routines::rknn_native {

inline constexpr char kNchwToNc1hwc2[] = "rknn.nchw_to_nc1hwc2";
inline constexpr char kNc1hwc2ToNchw[] = "rknn.nc1hwc2_to_nchw";
inline constexpr char kNhwcToNc1hwc2[] = "rknn.nhwc_to_nc1hwc2";
inline constexpr char kNc1hwc2ToNhwc[] = "rknn.nc1hwc2_to_nhwc";
// NC1HWC2 int8 -> NCHW float with (q - zp) * scale (§B.5
// NC1HWC2_int8_to_NCHW_float): a routine of its own, not a param of
// nc1hwc2_to_nchw, because its output dtype, its extra params and its
// properties (no inverse) differ from the layout's.
inline constexpr char kNc1hwc2Int8ToNchwFloat[] = "rknn.nc1hwc2_int8_to_nchw_float";
// rknn_tensor_attr.size and .size_with_stride of a native output (§B.1, §B.3),
// or with fmt NHWC of a zero-copy NHWC input stored w_stride pixels wide (§B.4).
inline constexpr char kNc1hwc2Size[] = "rknn.nc1hwc2_size";
// A dense NHWC image into the zero-copy input buffer whose rows are w_stride
// pixels apart (§B.4, the row loop of RK-ZOO deeplabv3.cc); the fill pixels
// w >= W are left as they were (unspecified, as rknn_create_mem returns them).
inline constexpr char kNhwcZeroCopyPack[] = "rknn.nhwc_zero_copy_pack";

const std::vector<RoutineSpec>& Specs();

}  // namespace npuconf::routines::rknn_native
