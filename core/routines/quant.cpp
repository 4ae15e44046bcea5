#include "core/routines/quant.h"

#include "core/routines/common.h"

namespace npuconf::routines::quant {
namespace {

ParamSpec Int(std::string key, std::string doc, std::string unit = "") {
  return {.key = std::move(key),
          .type = ParamType::kInt,
          .doc = std::move(doc),
          .unit = std::move(unit)};
}
ParamSpec Required(ParamSpec p) {
  p.required = true;
  return p;
}
ParamSpec List(std::string key, std::string doc) {
  return {.key = std::move(key), .type = ParamType::kIntList, .doc = std::move(doc)};
}
ParamSpec Enum(std::string key, std::string doc, std::vector<std::string> values,
               std::string fallback) {
  return {.key = std::move(key),
          .type = ParamType::kEnum,
          .doc = std::move(doc),
          .values = std::move(values),
          .default_value = ParamValue::String(std::move(fallback))};
}
// A param of the case's input data (verbatim values, a distribution): see ParamSpec::data.
ParamSpec Data(ParamSpec p) {
  p.data = true;
  return p;
}
ParamSpec Reading(std::string key, std::string choice, std::vector<std::string> values) {
  return {.key = std::move(key),
          .type = ParamType::kEnum,
          .doc = "the reading of choice " + choice + " to apply",
          .values = std::move(values),
          .default_doc = "the profile's reading of " + choice,
          .default_choice = choice,
          .profile_default = true};
}
ParamSpec Missing(std::vector<std::string> inputs) {
  return {.key = "missing",
          .type = ParamType::kEnum,
          .doc = "leave this input out (a null pointer from the caller)",
          .values = std::move(inputs)};
}

TensorSpec Y(std::string dtype, std::string shape, std::string doc) {
  return {.name = "y",
          .dtype = std::move(dtype),
          .shape = std::move(shape),
          .doc = std::move(doc),
          .nullable = true,
          .compare = CompareMode::ExactNanAnyPayload()};
}

}  // namespace

const std::vector<RoutineSpec>& Specs() {
  static const std::vector<RoutineSpec> specs = {
      {.id = kGatherDequantInt8,
       .vendor = "cann",
       .vendor_api = "GatherDequantInt8 (cann-recipes-harmony-infer, Kirin 9020)",
       .source = "spec cann.md §3.1-3.4, §3.7",
       .summary =
           "gathers uint8 table rows by index and dequantizes them, rounding to fp16 after each op",
       .params = {Required(Int("vocab", "V, rows of the table", "elements")),
                  Required(Int("embed", "E, columns of the table", "elements")),
                  List("indices_shape",
                       "shape of indices, any rank ([] = rank 0); default [1,30] (gen_data.py)"),
                  Data(
                      Enum("scales", "distribution of the generated scales", kScaleKinds, "mixed")),
                  Data(Enum("zps", "distribution of the generated zero points", kZeroPointKinds,
                            "mixed")),
                  Int("bad_index",
                      "put this index at one position (out of range: undefined upstream, §3.4)"),
                  Int("scale_len", "elements of scale (default V)", "elements"),
                  Int("zero_point_len", "elements of zero_point (default V)", "elements"),
                  Missing({"table", "indices", "scale", "zero_point"}),
                  Data(List("table", "verbatim uint8 table, V*E values")),
                  Data(List("indices", "verbatim int32 indices")),
                  Data(List("scale_bits", "verbatim fp16 bit patterns of scale")),
                  Data(List("zero_point_bits", "verbatim fp16 bit patterns of zero_point")),
                  SeedParam()},
       .inputs = {{.name = "table", .dtype = "UINT8", .shape = "[V, E]"},
                  {.name = "indices", .dtype = "INT32", .shape = "[indices_shape]"},
                  {.name = "scale", .dtype = "FLOAT16", .shape = "[V]"},
                  {.name = "zero_point", .dtype = "FLOAT16", .shape = "[V]"}},
       .outputs = {Y("FLOAT16", "indices_shape ++ [E] (reported dims)",
                     "RN16(RN16(q - zp) * scale) of each gathered row (§3.3)")}},
      {.id = kGatherDequantInt8Quantize,
       .vendor = "cann",
       .vendor_api = "gen_data.py quantizer of GatherDequantInt8's test data",
       .source = "spec cann.md §3.5, §3.7 D",
       .summary = "per-row asymmetric uint8 quantization, as upstream's test data is made",
       .params = {Required(Int("vocab", "V, rows", "elements")),
                  Required(Int("embed", "E, columns", "elements")),
                  Data(Enum("weights", "distribution of the float weights", {"normal", "uniform"},
                            "normal")),
                  Data(
                      List("weight_bits", "verbatim fp32 bit patterns of the weights, V*E values")),
                  SeedParam()},
       .inputs = {{.name = "weight", .dtype = "FLOAT", .shape = "[V, E]"}},
       .outputs = {{.name = "table", .dtype = "UINT8", .shape = "[V, E]"},
                   {.name = "scale",
                    .dtype = "FLOAT16",
                    .shape = "[V]",
                    .compare = CompareMode::ExactNanAnyPayload()},
                   {.name = "zero_point",
                    .dtype = "FLOAT16",
                    .shape = "[V]",
                    .compare = CompareMode::ExactNanAnyPayload()}}},
      {.id = kAntiquant,
       .vendor = "cann",
       .vendor_api = "aclnnWeightQuantBatchMatmulV2 (antiquant of the weight)",
       .source = "spec cann.md §4.1-4.5",
       .summary = "W' = RN_I(RN_I(w + offset) * scale) per tensor, channel or group",
       .params =
           {Required(Int("k", "rows of the weight (reduction axis)", "elements")),
            Required(Int("n", "columns of the weight (logical, unpacked)", "elements")),
            {.key = "weight_dtype",
             .type = ParamType::kDType,
             .doc = "INT8, INT4 or the INT32 carrier (§4.4)",
             .required = true},
            {.key = "x_dtype",
             .type = ParamType::kDType,
             .doc = "I: FLOAT16 or BF16 (§4.5)",
             .required = true},
            Int("group_size", "antiquantGroupSize (§4.3); 0 outside per-group", "elements"),
            Enum("mode",
                 "per_tensor, per_channel or per_group (§4.2); default per_group when "
                 "group_size > 0",
                 {"per_tensor", "per_channel", "per_group"}, "per_channel"),
            List("scale_shape", "antiquantScale's shape (default: the mode's, §4.2)"),
            Int("offset", "1: pass antiquantOffset, 0: null"),
            List("offset_shape", "antiquantOffset's shape (default: scale_shape)"),
            Data(Enum("scales", "distribution of the generated scales", kScaleKinds, "mixed")),
            Data(Enum("zps", "distribution of the generated offsets", kZeroPointKinds, "mixed")),
            Missing({"weight", "scale"}),
            Data(List("weight", "verbatim q values, k*n of them")),
            Data(List("scale_bits", "verbatim bit patterns of antiquantScale (x_dtype)")),
            Data(List("offset_bits", "verbatim bit patterns of antiquantOffset (x_dtype)")),
            SeedParam()},
       .inputs = {{.name = "weight",
                   .dtype = "weight_dtype",
                   .shape = "[k, n] (INT4: packed; INT32: n/8 words)"},
                  {.name = "scale", .dtype = "x_dtype", .shape = "[scale_shape]"},
                  {.name = "offset", .dtype = "x_dtype", .shape = "[offset_shape]"}},
       .outputs = {Y("x_dtype", "[k, n] (reported dims)",
                     "the dequantized weight (§4.5 steps 1-3)")},
       .facts = {"npu_arch", "weight_quant_batch_matmul_v2.*"}},
      {.id = kRknnDequantB,
       .vendor = "rknn",
       .vendor_api = "rknn_matmul_set_quant_params (B dequant as in the DEMO golden)",
       .source = "spec rknn.md §5.1-5.5, §7.3",
       .summary = "y = fp32(q - zp) * scale per layer, channel or group",
       .params =
           {Required(Int("k", "K, rows of B", "elements")),
            Required(Int("n", "N, columns of B", "elements")),
            {.key = "dtype",
             .type = ParamType::kDType,
             .doc = "B's dtype: INT8 or INT4 (NORM B, §2.4)",
             .required = true},
            Required(Int("quant_type", "rknn_matmul_quant_type 0..5 (§1.2)")),
            Int("group_size", "elements per group along K (§5.1)", "elements"),
            Int("scale_len", "elements of scale (default: the quant type's, §5.1)", "elements"),
            Int("zp_len", "elements of zp (default: as scale_len)", "elements"),
            Data(Enum("scales", "distribution of the generated scales", kScaleKinds, "mixed")),
            Data(Enum("zps", "distribution of the generated zero points",
                      {"zero", "integer", "mixed"}, "zero")),
            Int("nonzero_zp",
                "put this zero point at one position (rejected under symmetric_only, §5.4)"),
            Reading("group_order", "rknn.quant.group_order", {"g_major", "n_major"}),
            Reading("zero_point", "rknn.quant.zero_point", {"symmetric_only", "asymmetric"}),
            Data(List("b", "verbatim q values, k*n of them, packed in the profile's nibble order")),
            Int("b_fill", "every q = this value"),
            Data(List("scale_bits", "verbatim fp32 bit patterns of scale")),
            SeedParam()},
       .inputs = {{.name = "b", .dtype = "dtype", .shape = "[k, n] (INT4 packed)"},
                  {.name = "scale", .dtype = "FLOAT", .shape = "[scale_len]"},
                  {.name = "zp", .dtype = "INT32", .shape = "[zp_len]"}},
       .outputs = {Y("FLOAT", "[k, n] (reported dims)",
                     "fp32(q - zp) * scale; per-group params g*N+n (§5.2)")},
       .facts = {"matmul_types", "supported_types", "quant_types", "per_channel_types",
                 "per_group_types", "int4_nibble"}},
  };
  return specs;
}

}  // namespace npuconf::routines::quant
