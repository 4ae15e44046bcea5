#include "conformance/cann/support.h"

#include "conformance/harness/materialize.h"
#include "core/status.h"

namespace npuconf::cann_props {

std::string Reading(const PropertyContext& ctx, const std::string& choice) {
  return ctx.port.ClaimedChoice(choice).value_or("");
}

oracle::cann::Expectation ExpectSize(const PropertyContext& ctx, const Case& c) {
  oracle::cann::SizeCall call;
  call.shape = c.IntList("shape");
  const ParamValue* out = c.Find("weight_tensor_size");
  call.null_output = out && out->kind == ParamValue::Kind::kNull;
  call.dtype = c.DTypeParam("dtype").value_or(DType::kFloat16);
  const std::string negative = Reading(ctx, "cann.size.negative_dims");
  const std::string overflow = Reading(ctx, "cann.size.overflow");
  return c.routine == kV2
             ? oracle::cann::ExpectV2Size(*ctx.profile.cann, call, negative, overflow)
             : oracle::cann::ExpectLegacySize(*ctx.profile.cann, call, negative, overflow);
}

oracle::cann::TransExpectation ExpectTrans(const PropertyContext& ctx, const Case& c) {
  oracle::cann::TransCall call;
  const ParamValue* ref = c.Find("mm_weight_ref");
  call.null_tensor = ref && ref->kind == ParamValue::Kind::kNull;
  call.dtype = c.DTypeParam("dtype").value_or(DType::kFloat16);
  call.format = c.String("format").value_or("ND");
  call.view_shape = c.IntList("shape").value_or(Shape{});
  return oracle::cann::ExpectTrans(*ctx.profile.cann, call);
}

std::string StatusText(int64_t status) {
  return std::to_string(status) + " (" + std::string(cann::StatusName(status)) + ")";
}

}  // namespace npuconf::cann_props
