#include "core/routines/rknn.h"

#include "core/routines/common.h"

namespace npuconf::routines::rknn {
namespace {

ParamSpec Int(std::string key, std::string doc, bool required = false,
              std::optional<int64_t> fallback = {}) {
  ParamSpec p{
      .key = std::move(key), .type = ParamType::kInt, .doc = std::move(doc), .required = required};
  if (fallback) p.default_value = ParamValue::Int(*fallback);
  return p;
}

ParamSpec Dim(std::string key, std::string doc) {
  ParamSpec p = Int(std::move(key), std::move(doc), true);
  p.unit = "elements";
  return p;
}

ParamSpec Type() {
  return Int("type",
             "rknn_matmul_type (§1.1); the platform's list (§3.1) decides whether it is accepted",
             true);
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

// rknn_matmul_info fields besides M, K, N (§1.4) and the readings of the
// uncertain create-time limits (§8.3).
std::vector<ParamSpec> InfoParams() {
  return {
      Type(),
      Int("B_layout", "0 NORM, 1 NATIVE, 2 TP_NORM (§1.3)", false, 0),
      Int("AC_layout", "0 NORM, 1 NATIVE (§1.3)", false, 0),
      Int("B_quant_type", "rknn_matmul_quant_type 0..5 (§1.2, the enum per §8.10)", false, 0),
      Int("AC_quant_type", "0 per-layer sym, 1 per-layer asym (§1.4)", false, 0),
      Int("group_size", "elements per group along K; per-group B only (§1.4, §5.3)", false, 0),
      Int("zp", "the zero point the caller will set; the runtime accepts only 0 (§5.4)", false, 0),
      Reading("align_unit", "rknn.limits.align_unit",
              {"ug_elements", "header_bytes", "header_elements"}),
      Reading("k_max_rule", "rknn.limits.k_max", {"ug", "header_global"})};
}

TensorSpec AttrOutput(const char* matrix) {
  return {.name = matrix,
          .dtype = "UINT64",
          .shape = "[2] = {size, rknn_tensor_type}; reported dims = io_attr." +
                   std::string(matrix) + ".dims",
          .doc = std::string("io_attr.") + matrix + " (§1.5, §4.1)",
          .value_unit = "size in BYTES, padding included",
          .fields = {"size", "rknn_tensor_type"}};
}

// A or C: NORM [M, X] ↔ NATIVE [X1, M, sub] (§2.1).
RoutineSpec RowBlocked(const char* id, bool is_a, bool to_native) {
  const std::string norm = is_a ? "A" : "C";
  const std::string native = norm + "_native";
  const char* x = is_a ? "K" : "N";
  const char* sub = is_a ? "sub_k" : "sub_n";
  TensorSpec norm_tensor{
      .name = norm,
      .dtype = std::string("the type's ") + (is_a ? "A" : "C") + " dtype (int4 packed, §2.4)",
      .shape = "[M, " + std::string(x) + "]"};
  TensorSpec native_tensor{.name = native,
                           .dtype = norm_tensor.dtype,
                           .shape = "[" + std::string(x) + "1, M, " + sub + "]  (" + x +
                                    "1 = ceil(" + x + "/" + sub + "); M never padded)"};
  if (to_native) {
    norm_tensor.doc = "random data";
    native_tensor.doc = "padding 0; reported dims";
  } else {
    native_tensor.doc = "random data, padding included (ignored)";
    norm_tensor.doc = "reported dims";
  }
  return {.id = id,
          .vendor = "rknn",
          .source = "spec rknn.md §2.1, §2.2, §2.4",
          .summary =
              std::string(is_a ? "A" : "C") + (to_native ? " NORM -> NATIVE" : " NATIVE -> NORM"),
          .params = {Type(),
                     Dim("M", "rows"),
                     Dim(x, is_a ? "columns of A" : "columns of C"),
                     {.key = sub,
                      .type = ParamType::kInt,
                      .doc = is_a ? "subK of NATIVE A"
                                  : "subN of NATIVE C (4 checks the other reading of §8.6)",
                      .unit = "elements",
                      .min = 1,
                      .default_doc = "the platform's sub-block for the type (§2.2)",
                      .profile_default = true},
                     SeedParam()},
          .inputs = {to_native ? norm_tensor : native_tensor},
          .outputs = {to_native ? native_tensor : norm_tensor},
          .facts = {"matmul_types", "supported_types", is_a ? "native.a_sub_k" : "native.c_sub_n",
                    "native.c_sub_n_other_outputs", "int4_nibble"}};
}

// B: NORM [K, N] or TP_NORM [N, K] ↔ NATIVE [N1, K1, subN, subK], K segmented (§2.1, §3.3).
RoutineSpec BLayout(const char* id, bool tp, bool to_native) {
  TensorSpec plain{.name = tp ? "B_tp" : "B",
                   .dtype = "the type's B dtype (int4 packed, the profile's nibble order)",
                   .shape = tp ? "[N, K]" : "[K, N]"};
  TensorSpec native{.name = "B_native",
                    .dtype = plain.dtype,
                    .shape = "[N1, K1, subN, subK] per K segment, segments concatenated (§3.3)"};
  (to_native ? plain : native).doc =
      to_native ? "random data" : "random data, padding included (ignored)";
  (to_native ? native : plain).doc =
      to_native ? "padding 0; reported dims [N1, sum K1, subN, subK]" : "reported dims";
  return {
      .id = id,
      .vendor = "rknn",
      .vendor_api = tp || !to_native ? "" : "rknn_B_normal_layout_to_native_layout",
      .source = "spec rknn.md §2.1, §2.2, §2.4, §3.3",
      .summary =
          std::string("B ") + (tp ? "TP_NORM" : "NORM") + (to_native ? " -> NATIVE" : " <- NATIVE"),
      .params = {Type(),
                 Dim("K", "rows of B"),
                 Dim("N", "columns of B"),
                 {.key = "sub_n",
                  .type = ParamType::kInt,
                  .doc = "subN of NATIVE B",
                  .unit = "elements",
                  .min = 1,
                  .default_doc =
                      "the platform's (choice rknn.native.mixed_b_layout for mixed types)",
                  .profile_default = true},
                 {.key = "sub_k",
                  .type = ParamType::kInt,
                  .doc = "subK of NATIVE B",
                  .unit = "elements",
                  .min = 1,
                  .default_doc = "the platform's",
                  .profile_default = true},
                 {.key = "seg_len",
                  .type = ParamType::kInt,
                  .doc = "K rows per segment; 0: never segmented (§3.3)",
                  .unit = "elements",
                  .min = 0,
                  .default_doc = "the platform's segment length",
                  .profile_default = true},
                 Reading("native_nibble", "rknn.int4.native_b_nibble", {"low_first", "high_first"}),
                 SeedParam()},
      .inputs = {to_native ? plain : native},
      .outputs = {to_native ? native : plain},
      .facts = {"matmul_types", "supported_types", "native.b_sub_n_k", "k_segment", "int4_nibble",
                "tp_norm"}};
}

RoutineSpec Int4(const char* id, bool pack) {
  TensorSpec values{.name = "values",
                    .dtype = "INT8",
                    .shape = "[count]",
                    .doc = "one int4 value -8..7 per byte"};
  TensorSpec packed{.name = "packed",
                    .dtype = "INT4",
                    .shape = "[count], ceil(count/2) BYTES",
                    .doc = "even element in the nibble the order names"};
  std::vector<ParamSpec> params = {
      {.key = "count",
       .type = ParamType::kInt,
       .doc = "int4 elements",
       .unit = "elements",
       .required = true,
       .min = 0},
      Reading("nibble", "the profile's int4_nibble (§2.4)", {"low_first", "high_first"})};
  if (pack) {
    params.push_back(
        {.key = "values",
         .type = ParamType::kIntList,
         .doc = "verbatim int4 values (count of them, each -8..7) instead of random ones (§7.4)",
         .data = true});
  } else {
    params.push_back({.key = "packed",
                      .type = ParamType::kIntList,
                      .doc = "verbatim packed bytes (ceil(count/2) of them, each 0..255) instead "
                             "of random ones (§7.4)",
                      .data = true});
  }
  params.push_back(SeedParam());
  return {.id = id,
          .vendor = "rknn",
          .source = "spec rknn.md §2.4, §7.4",
          .summary = pack ? "int4 values to packed nibbles"
                          : "packed nibbles to int4 values, sign-extended",
          .params = params,
          .inputs = {pack ? values : packed},
          .outputs = {pack ? packed : values},
          .facts = {"int4_nibble"}};
}

}  // namespace

const std::vector<RoutineSpec>& Specs() {
  static const std::vector<RoutineSpec> specs = [] {
    std::vector<ParamSpec> create_params = {
        Dim("M", "rows of A"), Dim("K", "columns of A, rows of B"), Dim("N", "columns of B")};
    for (auto& p : InfoParams()) create_params.push_back(p);
    std::vector<ParamSpec> dynamic_params = {
        {.key = "shapes",
         .type = ParamType::kIntList,
         .doc =
             "[M0,K0,N0, M1,K1,N1, ...]: rknn_matmul_shape per shape (§1.8), at most 1024 shapes",
         .unit = "elements",
         .required = true},
        Reading("varying", "rknn.dynamic.varying_dims",
                {"k_n_fixed_unless_tp_norm", "m_only", "m_k_n"})};
    for (auto& p : InfoParams()) dynamic_params.push_back(p);
    const std::vector<std::string> kCreateFacts = {
        "matmul_types",      "tensor_types", "supported_types", "native.*",
        "limits.*",          "k_segment",    "int4_nibble",     "tp_norm",
        "per_channel_types", "quant_types",  "per_group_types", "known_unsupported_types",
        "platform",          "sdk"};
    return std::vector<RoutineSpec>{
        {.id = kMatmulCreate,
         .vendor = "rknn",
         .vendor_api = "rknn_matmul_create",
         .source = "spec rknn.md §1.4-1.6, §2.2, §3.1-3.3, §4.1, §5.4",
         .summary = "validates rknn_matmul_info and fills io_attr; status 0 or -5",
         .params = create_params,
         .outputs = {AttrOutput("A"), AttrOutput("B"), AttrOutput("C")},
         .facts = kCreateFacts},
        {.id = kMatmulCreateDynamic,
         .vendor = "rknn",
         .vendor_api = "rknn_matmul_create_dynamic_shape",
         .source = "spec rknn.md §1.10, §4.3, §8.8",
         .summary = "one io_attr per shape, and the capacity each matrix needs",
         .params = dynamic_params,
         .outputs =
             {{.name = "io_attrs",
               .dtype = "INT64",
               .shape = "[shape_num, 3, 7] = {n_dims, dims[4], size, rknn_tensor_type} of A, B, C",
               .doc = "io_attrs[i] of shape i",
               .value_unit = "size in BYTES",
               .fields = {"n_dims", "dims0", "dims1", "dims2", "dims3", "size",
                          "rknn_tensor_type"}},
              {.name = "capacity",
               .dtype = "UINT64",
               .shape = "[3]",
               .doc =
                   "what to allocate for A, B, C: the largest size over the shapes (§4.3 step 2)",
               .value_unit = "BYTES",
               .fields = {"A", "B", "C"}}},
         .facts = kCreateFacts},
        RowBlocked(kANormToNative, true, true),
        RowBlocked(kANativeToNorm, true, false),
        RowBlocked(kCNormToNative, false, true),
        RowBlocked(kCNativeToNorm, false, false),
        BLayout(kBNormToNative, false, true),
        BLayout(kBNativeToNorm, false, false),
        BLayout(kBTpNormToNative, true, true),
        BLayout(kBNativeToTpNorm, true, false),
        Int4(kInt4Pack, true),
        Int4(kInt4Unpack, false),
    };
  }();
  return specs;
}

}  // namespace npuconf::routines::rknn
