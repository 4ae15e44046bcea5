// Reads the conv-weight and format-cast cases through the ABI view and calls
// reference/cann_convweight/conv_weight.h.
#include "reference/cann_convweight/conv_weight_port.h"

#include <cstring>

#include "core/routines/cann_convweight.h"
#include "core/status.h"
#include "reference/cann_convweight/conv_weight.h"

namespace npuconf::cann_convweight {

TransConvolutionWeightArgs TransConvolutionWeightArgsOf(const CaseView& view) {
  TransConvolutionWeightArgs a;
  const std::optional<Shape> shape = view.IntList("shape");
  npuconf_tensor* out = view.Output("weight_out");
  const npuconf_tensor* in = view.Input("weight_in");
  a.null_in = !shape;
  a.null_out = !out || out->data == nullptr;
  if (shape) a.shape = *shape;
  a.dtype = view.DTypeParam("dtype").value_or(DType::kFloat16);
  a.out_dtype = view.DTypeParam("out_dtype").value_or(DType::kFloat16);
  a.transposed = view.Int("transposed").value_or(0) != 0;
  a.groups = view.Int("groups").value_or(1);
  a.in_format = view.String("in_format").value_or("NCHW");
  a.out_format = view.String("out_format").value_or("NCHW");
  a.out_contiguous = view.Int("out_contiguous").value_or(1) != 0;
  a.out_shape = view.IntList("out_shape").value_or(a.shape);
  if (in) {
    a.in = static_cast<const uint8_t*>(in->data);
    a.in_bytes = in->bytes;
  }
  if (out) {
    a.out = static_cast<uint8_t*>(out->data);
    a.out_bytes = out->bytes;
  }
  return a;
}

namespace {

namespace ids = routines::cann_convweight;
using cann::kAclnnSuccess;

PortAnswer SizeCall(const CaseView& view, const ConvWeightFacts& facts, int64_t* status) {
  std::optional<Shape> shape = view.IntList("shape");
  if (!shape && !view.IsNull("shape")) return BadCase("param 'shape' must be an int list or null");
  auto groups = view.Int("groups");
  auto dtype = view.DTypeParam("dtype");
  if (!groups || !dtype) return BadCase("params 'groups' (int) and 'dtype' are required");
  npuconf_tensor* out = view.Output("weight_tensor_size");
  if (!out) return BadCase("output 'weight_tensor_size' missing");
  if (out->data != nullptr && out->bytes < sizeof(uint64_t))
    return BadCase("output 'weight_tensor_size' needs 8 bytes");
  uint64_t size_elems = 0;
  *status = CalculateConvolutionWeightSize(facts, shape ? &*shape : nullptr,
                                           view.Int("transposed").value_or(0) != 0, *groups, *dtype,
                                           out->data ? &size_elems : nullptr);
  if (*status == kAclnnSuccess) {
    std::memcpy(out->data, &size_elems, sizeof(size_elems));
    SetOutputShape(out, {});
  }
  return Answered();
}

PortAnswer TransCall(const CaseView& view, const ConvWeightFacts& facts, int64_t* status) {
  std::optional<Shape> shape = view.IntList("shape");
  if (!shape && !view.IsNull("shape")) return BadCase("param 'shape' must be an int list or null");
  if (!view.Int("groups") || !view.DTypeParam("dtype"))
    return BadCase("params 'groups' (int) and 'dtype' are required");
  npuconf_tensor* out = view.Output("weight_out");
  if (!out) return BadCase("output 'weight_out' missing");
  const TransConvolutionWeightArgs a = TransConvolutionWeightArgsOf(view);
  Shape storage;
  *status = TransConvolutionWeight(facts, a, &storage);
  if (*status == kAclnnSuccess && !storage.empty()) SetOutputShape(out, storage);
  return Answered();
}

PortAnswer CastCall(const CaseView& view, const ConvWeightFacts& facts, int64_t* status) {
  FormatCastArgs a;
  std::optional<Shape> shape = view.IntList("shape");
  if (!shape && !view.IsNull("shape")) return BadCase("param 'shape' must be an int list or null");
  auto src = view.String("src_format"), dst = view.String("dst_format");
  auto dtype = view.DTypeParam("dtype");
  if (!src || !dst || !dtype) return BadCase("params src_format, dst_format and dtype required");
  npuconf_tensor* dims = view.Output("dst_shape");
  npuconf_tensor* rank = view.Output("dst_shape_size");
  npuconf_tensor* format = view.Output("actual_format");
  if (!dims || !rank || !format)
    return BadCase("outputs 'dst_shape', 'dst_shape_size' and 'actual_format' are required");
  a.null_src = !shape;
  if (shape) a.shape = *shape;
  a.src_format = *src;
  a.dst_format = *dst;
  a.dtype = *dtype;
  a.additional_dtype = view.DTypeParam("additional_dtype");
  FormatCastResult r;
  *status = NpuFormatCastCalculateSizeAndFormat(facts, a, &r);
  if (*status != kAclnnSuccess) return Answered();
  const uint64_t dim_bytes = r.dst_shape.size() * sizeof(int64_t);
  if (!dims->data || dims->bytes < dim_bytes || !rank->data || rank->bytes < 8 || !format->data ||
      format->bytes < 4) {
    return BadCase("dst_shape needs 8 bytes a dim, dst_shape_size 8, actual_format 4");
  }
  std::memcpy(dims->data, r.dst_shape.data(), dim_bytes);
  SetOutputShape(dims, {static_cast<int64_t>(r.dst_shape.size())});
  const uint64_t count = r.dst_shape.size();
  std::memcpy(rank->data, &count, 8);
  SetOutputShape(rank, {});
  std::memcpy(format->data, &r.actual_format, 4);
  SetOutputShape(format, {});
  return Answered();
}

template <PortAnswer (*kCall)(const CaseView&, const ConvWeightFacts&, int64_t*)>
int32_t Answering(const CaseView& view, const Profile& profile, int64_t* status,
                  std::string* message) {
  if (!profile.cann || !profile.raw.contains("conv_weight")) {
    *message = "profile '" + profile.name + "' is not a CANN profile with conv_weight facts";
    return NPUCONF_CALL_UNCLAIMED;
  }
  const PortAnswer answer = kCall(view, ReadConvWeightFacts(profile.raw), status);
  *message = answer.message;
  return answer.result;
}

}  // namespace

const ReferenceFamily& CannConvWeightReference() {
  static const ReferenceFamily family = {
      .routines = {{ids::kCalculateConvolutionWeightSize, Answering<SizeCall>},
                   {ids::kTransConvolutionWeight, Answering<TransCall>},
                   {ids::kNpuFormatCastCalculateSizeAndFormat, Answering<CastCall>}}};
  return family;
}

int32_t CannConvWeightReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                                    uint64_t message_bytes) {
  return AnswerWith(CannConvWeightReference(), c, status, message, message_bytes);
}

}  // namespace npuconf::cann_convweight
