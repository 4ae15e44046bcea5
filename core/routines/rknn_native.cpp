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

// rknn_tensor_attr.w_stride (§B.1): pixels per stored row, valid + fill; 0
// means "equal to width", as the header says. Below W (and not 0) is rejected.
ParamSpec WStrideParam(bool required) {
  return {.key = "w_stride",
          .type = ParamType::kInt,
          .doc = std::string("rknn_tensor_attr.w_stride: pixels per stored row (>= W; 0 means W, "
                             "§B.1)") +
                 (required ? "" : "; fmt NHWC only (required there)"),
          .unit = "pixels",
          .required = required};
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
                   .doc = "rknn_tensor_attr.zp, an int32 (-128..127 for a model's int8 "
                          "tensors); q - zp is exact integer subtraction",
                   .default_value = ParamValue::Int(0)},
                  SeedParam()},
       .inputs = {{.name = "nc1hwc2",
                   .dtype = "INT8",
                   .shape = "[N, C1, H, W, C2]",
                   .doc = "random data, pad lanes included (ignored)"}},
       .outputs = {{.name = "nchw",
                    .dtype = "FLOAT",
                    .shape = "[N, C, H, W]",
                    .doc = "(float)(q - zp) * scale: q - zp an exact integer (never a float "
                           "subtraction), converted to float32, times scale in float32: exact"}},
       .facts = {"native_io.c2"}},
      {.id = kNc1hwc2Size,
       .vendor = "rknn",
       .source = "spec layouts.md §B.1, §B.3",
       .summary = "rknn_tensor_attr size and size_with_stride of an NC1HWC2 output",
       .params = {{.key = "shape",
                   .type = ParamType::kIntList,
                   .doc = "the logical shape (rank 4): NCHW for fmt NC1HWC2, NHWC for fmt NHWC",
                   .unit = "elements",
                   .required = true},
                  {.key = "dtype",
                   .type = ParamType::kDType,
                   .doc = "fmt NC1HWC2: INT8, FLOAT16 or INT16 (the C2 table, §B.2 Table 4-6); "
                          "fmt NHWC: the zero-copy input dtypes UINT8 or INT8 (§B.4)",
                   .required = true},
                  {.key = "fmt",
                   .type = ParamType::kEnum,
                   .doc = "NC1HWC2: a native output (§B.3); NHWC: a zero-copy NHWC input with "
                          "rows w_stride pixels apart (§B.4)",
                   .values = {"NC1HWC2", "NHWC"},
                   .default_value = ParamValue::String("NC1HWC2")},
                  WStrideParam(false)},
       .outputs = {{.name = "attr",
                    .dtype = "UINT64",
                    .shape = "[2] = {size, size_with_stride}; reported dims = native dims "
                             "(fmt NHWC: [N, H, W, C])",
                    .doc = "size: the dense tensor's bytes; size_with_stride: the native buffer's "
                           "(choice rknn.native_io.size_with_stride), or for fmt NHWC "
                           "N*H*w_stride*C*elem (§B.4 [derived])",
                    .value_unit = "BYTES",
                    .fields = {"size", "size_with_stride"}}},
       .facts = {"native_io.c2", "native_io.output_w_align", "native_io.zero_copy_input_channels",
                 "native_io.zero_copy_input_dtypes"}},
      {.id = kNhwcZeroCopyPack,
       .vendor = "rknn",
       .source = "spec layouts.md §B.1 (w_stride), §B.4 (RK-ZOO deeplabv3.cc, RK-DEMO "
                 "rknn_mobilenet_demo main.cc)",
       .summary = "dense NHWC -> the zero-copy input buffer, rows w_stride pixels apart",
       .params = {{.key = "shape",
                   .type = ParamType::kIntList,
                   .doc = "the logical NHWC shape [N, H, W, C] (rank 4; C in the profile's "
                          "zero-copy channels, 1, 3 or 4, §B.4)",
                   .unit = "elements",
                   .required = true},
                  {.key = "dtype",
                   .type = ParamType::kDType,
                   .doc = "UINT8 or INT8, the zero-copy NHWC input dtypes (§B.4, Table 4-3)",
                   .required = true},
                  WStrideParam(true),
                  SeedParam()},
       .inputs = {{.name = "src",
                   .dtype = "the dtype param",
                   .shape = "[N, H, W, C]",
                   .doc = "random data, dense NHWC"}},
       .outputs = {{.name = "dst",
                    .dtype = "the dtype param",
                    .shape = "[N, H, w_stride, C]: size_with_stride = N*H*w_stride*C*elem bytes",
                    .doc = "row (n, h) at (n*H + h)*w_stride*C elements (choice "
                           "rknn.native_io.nhwc_input_batch); the fill pixels w >= W unspecified, "
                           "never compared; reported dims [N, H, w_stride, C]"}},
       .facts = {"native_io.zero_copy_input_channels", "native_io.zero_copy_input_dtypes",
                 "native_io.zero_copy_input_w_align"}},
  };
  return specs;
}

}  // namespace npuconf::routines::rknn_native
