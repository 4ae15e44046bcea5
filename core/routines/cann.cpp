#include "core/routines/cann.h"

#include "core/routines/common.h"

namespace npuconf::routines::cann {
namespace {

ParamSpec ShapeParam(std::string doc, bool nullable) {
  return {.key = "shape",
          .type = ParamType::kIntList,
          .doc = std::move(doc),
          .unit = "elements",
          .required = true,
          .nullable = nullable};
}

ParamSpec DTypeParam(std::string doc) {
  return {.key = "dtype", .type = ParamType::kDType, .doc = std::move(doc), .required = true};
}

TensorSpec SizeOutput(std::string rule) {
  return {
      .name = "weight_tensor_size",
      .dtype = "UINT64",
      .shape = "[] (a scalar)",
      .doc = "weightTensorSize; written on SUCCESS only. " + rule +
             " Overflow (§1.5, choice cann.size.overflow): the size is the running product "
             "of the dims in order (batch dims, then CeilAlign(n, 16), then CeilAlign(k, C0), "
             "each CeilAlign saturating at INT64_MAX, §0.3); the first partial product past "
             "INT64_MAX is an overflow, even when a later dim is 0 ([3018119122007453, 192, 1, "
             "0] overflows at its second dim): 161002 under the reading param_invalid, "
             "undefined (not checked) under unspecified.",
      .value_unit =
          "ELEMENTS of the FRACTAL_NZ weight (times the element size = bytes to allocate, §1.1)",
      .nullable = true};
}

ParamSpec C0Param() {
  return {.key = "c0",
          .type = ParamType::kInt,
          .doc =
              "C0, elements per NZ row (§2.5); the other readings of choices cann.nz.fp32_c0 and "
              "cann.nz.int4_c0 (§5.6, §5.7) are asked for this way",
          .unit = "elements",
          .min = 1,
          .max = 4096,
          .default_doc = "the profile's C0 for the dtype",
          .profile_default = true};
}

}  // namespace

const std::vector<RoutineSpec>& Specs() {
  static const std::vector<RoutineSpec> specs = {
      {.id = kCalculateMatmulWeightSize,
       .vendor = "cann",
       .vendor_api = "aclnnCalculateMatmulWeightSize",
       .source = "spec cann.md §1.1-1.3, §1.5",
       .summary = "size of the FRACTAL_NZ weight, always the FLOAT16 16x16 rule",
       .params = {ShapeParam("tensorShape; null passes tensorShape == nullptr", true)},
       .outputs = {SizeOutput("Batch dims unaligned, n to 16, k to 16 (§1.2).")},
       .facts = {"soc_version", "calculate_matmul_weight_size.rank"}},
      {.id = kCalculateMatmulWeightSizeV2,
       .vendor = "cann",
       .vendor_api = "aclnnCalculateMatmulWeightSizeV2",
       .source = "spec cann.md §1.1, §1.2, §1.4, §1.5",
       .summary = "size of the FRACTAL_NZ weight for a dtype",
       .params =
           {ShapeParam("tensorShape; null passes tensorShape == nullptr", true),
            DTypeParam(
                "dataType; never validated upstream (§1.4; choice cann.v2.dtype_validation)")},
       .outputs = {SizeOutput("n to 16; k to 16 for FLOAT16/BF16, else to 32 (§1.2).")},
       .facts = {"soc_version", "calculate_matmul_weight_size_v2.*"}},
      {.id = kTransMatmulWeight,
       .vendor = "cann",
       .vendor_api = "aclnnTransMatmulWeight",
       .source = "spec cann.md §2.1-2.5",
       .summary = "ND weight to FRACTAL_NZ in place, after the documented validation",
       .params = {ShapeParam("the view shape of mmWeightRef", false),
                  DTypeParam(
                      "the tensor's dtype (the SoC's list, §2.3, decides whether it is accepted)"),
                  {.key = "format",
                   .type = ParamType::kEnum,
                   .doc = "the storage format of mmWeightRef (only ND is accepted, §2.2 step 3)",
                   .values = {"ND", "FRACTAL_NZ", "NCHW", "NHWC", "NC1HWC0"},
                   .default_value = ParamValue::String("ND")},
                  SeedParam()},
       .outputs =
           {{.name = "mm_weight_ref",
             .dtype = "the dtype param",
             .shape =
                 "holds ND [shape] on entry; [B..., C1, N1, 16, C0] on SUCCESS (reported dims)",
             .doc =
                 "mmWeightRef, in place; its capacity is the V2 size in elements times the element "
                 "size (what the docs tell a caller to allocate, §2.1)",
             .nullable = true}},
       .facts = {"soc_version", "is_regbase", "trans_matmul_weight.*", "fractal_nz.*"}},
      {.id = kNdToNz,
       .vendor = "cann",
       .source = "spec cann.md §2.5 (int4 nibbles §4.4)",
       .summary = "ND [..., n, k] to FRACTAL_NZ [..., C1, N1, 16, C0], padding 0",
       .params = {ShapeParam("the ND shape [..., n, k]; a rank-1 [k] is one row, n = 1 (spec "
                             "cann.md §2.5: NZ [C1, 1, 16, C0])",
                             false),
                  DTypeParam("the element type"), C0Param(), SeedParam()},
       .inputs =
           {{.name = "nd", .dtype = "the dtype param", .shape = "[shape]", .doc = "random data"}},
       .outputs = {{.name = "nz",
                    .dtype = "the dtype param",
                    .shape = "[B..., C1, N1, 16, C0] (reported dims)",
                    .doc = "NZ storage; every position with row >= n or col >= k holds 0"}},
       .facts = {"fractal_nz.*"}},
      {.id = kNzToNd,
       .vendor = "cann",
       .source = "spec cann.md §2.5 (int4 nibbles §4.4)",
       .summary = "FRACTAL_NZ back to ND, the padding of the input ignored",
       .params = {ShapeParam("the ND shape [..., n, k]; a rank-1 [k] is one row, n = 1 (spec "
                             "cann.md §2.5: NZ [C1, 1, 16, C0])",
                             false),
                  DTypeParam("the element type"), C0Param(), SeedParam()},
       .inputs = {{.name = "nz",
                   .dtype = "the dtype param",
                   .shape = "[B..., C1, N1, 16, C0]",
                   .doc = "random data, padding included"}},
       .outputs = {{.name = "nd",
                    .dtype = "the dtype param",
                    .shape = "[shape] (reported dims)",
                    .doc = "the ND data"}},
       .facts = {"fractal_nz.*"}},
  };
  return specs;
}

}  // namespace npuconf::routines::cann
