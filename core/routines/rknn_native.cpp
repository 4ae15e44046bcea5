#include "core/routines/rknn_native.h"

#include "core/routines/common.h"

namespace npuconf::routines::rknn_native {
namespace {

constexpr char kSource[] = "spec layouts.md §B.2, §B.5, §B.6";

ParamSpec ShapeParam(const char* logical) {
  return {.key = "shape",
          .type = ParamType::kIntList,
          .doc = std::string("the logical ") + logical + " shape (rank 4)",
          .unit = "elements",
          .required = true};
}

ParamSpec DTypeParam() {
  return {
      .key = "dtype",
      .type = ParamType::kDType,
      .doc = "element type: INT8, FLOAT16 or INT16, the dtypes of the C2 table (§B.2 Table 4-6)",
      .required = true};
}

TensorSpec Native(const std::string& doc) {
  return {.name = "nc1hwc2",
          .dtype = "the dtype param",
          .shape = "[N, C1, H, W, C2]  (C1 = ceil(C/C2); C2 per platform and dtype, §B.2)",
          .doc = doc};
}

// One direction of NCHW / NHWC <-> NC1HWC2.
RoutineSpec Layout(const char* id, bool nhwc, bool to_native) {
  const char* plain_name = nhwc ? "nhwc" : "nchw";
  const char* logical = nhwc ? "NHWC" : "NCHW";
  TensorSpec plain{.name = plain_name,
                   .dtype = "the dtype param",
                   .shape = nhwc ? "[N, H, W, C]" : "[N, C, H, W]",
                   .doc = to_native ? "random data" : "reported dims"};
  TensorSpec native = Native(to_native ? "pad lanes (c >= C) unspecified, never compared; "
                                         "reported dims"
                                       : "random data, pad lanes included (ignored)");
  return {.id = id,
          .vendor = "rknn",
          .source = kSource,
          .summary = std::string(to_native ? logical : "NC1HWC2") + " -> " +
                     (to_native ? "NC1HWC2" : logical),
          .params = {ShapeParam(logical), DTypeParam(), SeedParam()},
          .inputs = {to_native ? plain : native},
          .outputs = {to_native ? native : plain},
          .facts = {"native_io.c2"}};
}

}  // namespace

const std::vector<RoutineSpec>& Specs() {
  static const std::vector<RoutineSpec> specs = {
      Layout(kNchwToNc1hwc2, false, true),
      Layout(kNc1hwc2ToNchw, false, false),
      Layout(kNhwcToNc1hwc2, true, true),
      Layout(kNc1hwc2ToNhwc, true, false),
      {.id = kNc1hwc2Int8ToNchwFloat,
       .vendor = "rknn",
       .source = "spec layouts.md §B.1 (real = (q - zp) * scale), §B.5",
       .summary = "NC1HWC2 int8 -> NCHW float32, (float)(q - zp) * scale",
       .params = {ShapeParam("NCHW"),
                  {.key = "scale",
                   .type = ParamType::kFloat,
                   .doc = "rknn_tensor_attr.scale (a float32)",
                   .default_value = ParamValue::Float(0.125)},
                  {.key = "zp",
                   .type = ParamType::kInt,
                   .doc = "rknn_tensor_attr.zp (-128..127 for int8)",
                   .default_value = ParamValue::Int(0)},
                  SeedParam()},
       .inputs = {{.name = "nc1hwc2",
                   .dtype = "INT8",
                   .shape = "[N, C1, H, W, C2]",
                   .doc = "random data, pad lanes included (ignored)"}},
       .outputs = {{.name = "nchw",
                    .dtype = "FLOAT",
                    .shape = "[N, C, H, W]",
                    .doc = "(float)(q - zp) * scale in float32, one rounding: exact"}},
       .facts = {"native_io.c2"}},
      {.id = kNc1hwc2Size,
       .vendor = "rknn",
       .source = "spec layouts.md §B.1, §B.3",
       .summary = "rknn_tensor_attr size and size_with_stride of an NC1HWC2 output",
       .params = {ShapeParam("NCHW"), DTypeParam()},
       .outputs = {{.name = "attr",
                    .dtype = "UINT64",
                    .shape = "[2] = {size, size_with_stride}; reported dims = native dims",
                    .doc = "size: the dense tensor's bytes; size_with_stride: the native buffer's "
                           "(choice rknn.native_io.size_with_stride)",
                    .value_unit = "BYTES",
                    .fields = {"size", "size_with_stride"}}},
       .facts = {"native_io.c2", "native_io.output_w_align"}},
  };
  return specs;
}

}  // namespace npuconf::routines::rknn_native
