#include "core/routines/cann_convweight.h"

#include "core/routines/common.h"

namespace npuconf::routines::cann_convweight {
namespace {

ParamSpec GroupsParam() {
  return {.key = "groups",
          .type = ParamType::kInt,
          .doc =
              "groups of the convolution; 0 → 161002 (§A.9); outside [1,65535] per choice "
              "cann.conv_weight.groups_range (D13: as_shipped, > 65535 → 561103 from "
              "TransData's nullptr; as_documented, 161002 with the groups check)",
          .required = true,
          .min = -(int64_t{1} << 31),
          .max = int64_t{1} << 31};
}

ParamSpec TransposedParam() {
  return {.key = "transposed",
          .type = ParamType::kInt,
          .doc = "1: a transposed convolution (always 161002, §A.9); 0: not",
          .min = 0,
          .max = 1,
          .default_value = ParamValue::Int(0)};
}

std::vector<std::string> FormatNames() {
  std::vector<std::string> out;
  for (const auto& f : kFormats) out.push_back(f.name);
  return out;
}

}  // namespace

const std::vector<RoutineSpec>& Specs() {
  static const std::vector<RoutineSpec> specs = {
      {.id = kCalculateConvolutionWeightSize,
       .vendor = "cann",
       .vendor_api = "aclnnCalculateConvolutionWeightSize",
       .source = "spec layouts.md §A.9, §A.4 (grouped FRACTAL_Z, C0 16), §A.12 D13",
       .summary = "elements of the FRACTAL_Z (grouped) fp16 conv weight for an NCHW shape",
       .params = {{.key = "shape",
                   .type = ParamType::kIntList,
                   .doc = "tensorShape, NCHW (Cout, Cin per group, kH, kW); null passes "
                          "tensorShape == nullptr",
                   .unit = "elements",
                   .required = true,
                   .nullable = true},
                  TransposedParam(),
                  GroupsParam(),
                  {.key = "dtype",
                   .type = ParamType::kDType,
                   .doc = "dataType; only FLOAT16 is accepted (§A.9)",
                   .required = true}},
       .outputs = {{.name = "weight_tensor_size",
                    .dtype = "UINT64",
                    .shape = "[] (a scalar)",
                    .doc = "size; written on SUCCESS only: the product of the grouped FRACTAL_Z "
                           "storage dims (G'·C1'·H·W, Cout'/16, 16, 16) of §A.4 with C0 16; 0 "
                           "when a dim is 0",
                    .value_unit = "ELEMENTS of the FRACTAL_Z weight (times 2 = bytes of fp16)",
                    .nullable = true}},
       .facts = {"soc_version", "conv_weight.*"}},
      {.id = kTransConvolutionWeight,
       .vendor = "cann",
       .vendor_api = "aclnnTransConvolutionWeight",
       .source = "spec layouts.md §A.9, §A.4, §A.3, §A.12 D13",
       .summary = "NCHW fp16/fp32 conv weight to fp16 FRACTAL_Z (grouped), fp32 cast first "
                  "(round to nearest even)",
       .params = {{.key = "shape",
                   .type = ParamType::kIntList,
                   .doc = "the view shape of weightIn, NCHW (Cout, Cin per group, kH, kW); null "
                          "passes weightIn == nullptr",
                   .unit = "elements",
                   .required = true,
                   .nullable = true},
                  {.key = "dtype",
                   .type = ParamType::kDType,
                   .doc = "weightIn's dtype: FLOAT16 or FLOAT, else 161002",
                   .required = true},
                  {.key = "out_dtype",
                   .type = ParamType::kDType,
                   .doc = "weightOut's dtype: FLOAT16, else 161002",
                   .default_value = ParamValue::String("FLOAT16")},
                  TransposedParam(),
                  GroupsParam(),
                  {.key = "in_format",
                   .type = ParamType::kEnum,
                   .doc = "weightIn's view format; not NCHW → 161002",
                   .values = {"NCHW", "NHWC", "HWCN", "ND"},
                   .default_value = ParamValue::String("NCHW")},
                  {.key = "out_format",
                   .type = ParamType::kEnum,
                   .doc = "weightOut's view format; not NCHW → 161002",
                   .values = {"NCHW", "NHWC", "HWCN", "ND"},
                   .default_value = ParamValue::String("NCHW")},
                  {.key = "out_contiguous",
                   .type = ParamType::kInt,
                   .doc = "0: weightOut is not contiguous → 161002",
                   .min = 0,
                   .max = 1,
                   .default_value = ParamValue::Int(1)},
                  {.key = "out_shape",
                   .type = ParamType::kIntList,
                   .doc = "weightOut's view shape; only whether it is empty is checked "
                          "upstream (one side empty, the other not → 161002, §A.9)",
                   .unit = "elements",
                   .default_doc = "the shape param"},
                  SeedParam()},
       .inputs = {{.name = "weight_in",
                   .dtype = "the dtype param",
                   .shape = "[shape] NCHW",
                   .doc = "random data (FLOAT: finite values)"}},
       .outputs = {{.name = "weight_out",
                    .dtype = "FLOAT16",
                    .shape = "FRACTAL_Z (G'·C1'·H·W, Cout'/16, 16, 16) (reported dims)",
                    .doc = "the fp16 FRACTAL_Z storage, block-diagonal groups of §A.4; padding 0; "
                           "capacity = calculate_convolution_weight_size × 2 bytes",
                    .nullable = true}},
       .facts = {"soc_version", "conv_weight.*"}},
      {.id = kNpuFormatCastCalculateSizeAndFormat,
       .vendor = "cann",
       .vendor_api = "aclnnNpuFormatCastCalculateSizeAndFormat",
       .source = "spec layouts.md §A.10, §A.1, §A.3, §A.6, §A.7, §A.0.1, §A.12 D12",
       .summary = "storage shape, its rank and the actual format of a format cast "
                  "(5HD/FZ/6HD/FZ3D branches, C0 = 32/sizeof)",
       .params = {{.key = "shape",
                   .type = ParamType::kIntList,
                   .doc = "srcTensor's view shape; null passes srcTensor == nullptr (choice "
                          "cann.format_cast.null_src)",
                   .unit = "elements",
                   .required = true,
                   .nullable = true},
                  {.key = "src_format",
                   .type = ParamType::kEnum,
                   .doc = "srcTensor's format",
                   .required = true,
                   .values = FormatNames()},
                  {.key = "dst_format",
                   .type = ParamType::kEnum,
                   .doc = "dstFormat; a pair outside §A.10's branches → 361001",
                   .required = true,
                   .values = FormatNames()},
                  {.key = "dtype",
                   .type = ParamType::kDType,
                   .doc = "srcTensor's dtype: INT8, UINT8, FLOAT, FLOAT16, BF16, INT32, "
                          "FLOAT8_E4M3FN, HIFLOAT8 (§A.10; UINT32 and FP4 have no npuconf "
                          "dtype), else 161002",
                   .required = true},
                  {.key = "additional_dtype",
                   .type = ParamType::kDType,
                   .doc = "additionalDtype: C0 = 32 / sizeof(it) (NFC GetC0ByAdditionalDtype)",
                   .default_doc = "-1: the src dtype"}},
       .outputs = {{.name = "dst_shape",
                    .dtype = "INT64",
                    .shape = "[rank] (reported dims)",
                    .doc = "dstShape: the storage shape (§A.1/§A.3/§A.6/§A.7 with C0 = "
                           "32/sizeof); a reverse branch returns the view shape; capacity 8 dims"},
                   {.name = "dst_shape_size",
                    .dtype = "UINT64",
                    .shape = "[] (a scalar)",
                    .doc = "dstShapeSize: the number of dims in dstShape [derived: the length of "
                           "the int64_t[] array the caller frees]",
                    .value_unit = "dims"},
                   {.name = "actual_format",
                    .dtype = "INT32",
                    .shape = "[] (a scalar)",
                    .doc = "actualFormat: the dst format's ge::Format number (kFormats in "
                           "core/routines/cann_convweight.h)"}},
       .facts = {"soc_version", "conv_weight.*"}},
  };
  return specs;
}

}  // namespace npuconf::routines::cann_convweight
