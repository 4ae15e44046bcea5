#include "core/routines/cann_transfer_shape.h"

namespace npuconf::routines::cann_transfer_shape {

const std::vector<RoutineSpec>& Specs() {
  const std::vector<std::string> formats(std::begin(kFormats), std::end(kFormats));
  const std::vector<std::string> dtypes(std::begin(kDTypes), std::end(kDTypes));
  static const std::vector<RoutineSpec> specs = {
      {.id = kTransferShape,
       .vendor = "cann",
       .vendor_api = "transformer::TransferShapeUtils::TransferShape (GE graph_metadef)",
       .source = "spec layouts.md §A.0.1 (C0), §A.0.2 (order and shapes); TSU "
                 "transfer_shape_utils.cc @0826cce6; TSU-UT transformer_transfer_shape_ut.cc "
                 "@8d5a10a4",
       .summary = "the framework storage shape of a tensor: origin format + shape -> the "
                  "target format's dims (5HD, 6HD, FRACTAL_Z(_3D, _C04), NZ, ...), -1 kept "
                  "unknown, a bool result",
       .params = {{.key = "src_format",
                   .type = ParamType::kEnum,
                   .doc =
                       "origin_format: the format `shape` is in (§A.0.2 step 4 reads N, C, H, W, D "
                       "through its axis map)",
                   .required = true,
                   .values = formats},
                  {.key = "dst_format",
                   .type = ParamType::kEnum,
                   .doc = "format: the target (primary) format",
                   .required = true,
                   .values = formats},
                  {.key = "dtype",
                   .type = ParamType::kEnum,
                   .doc =
                       "data_type (ge::DataType without DT_); C0 = transfer_shape.k0 of it unless "
                       "the target fixes C0 (§A.0.1)",
                   .required = true,
                   .values = dtypes},
                  {.key = "shape",
                   .type = ParamType::kIntList,
                   .doc = "the origin shape; a dim of -1 is unknown and stays unknown in every dim "
                          "that depends on it; [-2] is unknown rank, left as it is; [] a scalar",
                   .unit = "elements",
                   .required = true},
                  {.key = "groups",
                   .type = ParamType::kInt,
                   .doc = "the target's sub-format (format word bits 8-23, §A.0.1): groups of "
                          "FRACTAL_Z / FRACTAL_Z_3D; 0 and 1 both mean ungrouped",
                   .min = 0,
                   .max = 65535,
                   .default_value = ParamValue::Int(1)},
                  {.key = "m0",
                   .type = ParamType::kInt,
                   .doc = "M0 of FRACTAL_NZ ([DtypeMKN] m0; TSU-UT overrides it with 1 through "
                          "m0_list_ / ext_axis[3])",
                   .unit = "elements",
                   .min = 1,
                   .max = 256,
                   .default_doc = "transfer_shape.m0 of the profile for the dtype",
                   .profile_default = true}},
       .outputs = {{.name = "storage_shape",
                    .dtype = "INT64",
                    .shape = "[rank of the storage shape] (reported dims)",
                    .doc = "the shape TransferShape leaves, one INT64 per dim (-1 unknown); "
                           "written on status 0 (true) only",
                    .value_unit = "ELEMENTS per storage dim"}},
       .facts = {"transfer_shape.*"}},
  };
  return specs;
}

}  // namespace npuconf::routines::cann_transfer_shape
