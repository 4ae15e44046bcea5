// Reads a cann.trans_data case through the ABI view and calls
// reference/cann_transdata/trans_data.h.
#include "reference/cann_transdata/trans_data_port.h"

#include "core/routines/cann_transdata.h"
#include "reference/cann_transdata/trans_data.h"

namespace npuconf::cann_transdata {
namespace {

int32_t Answer(const CaseView& view, const Profile& profile, int64_t* status,
               std::string* message) {
  if (!profile.cann) {
    *message = "profile '" + profile.name + "' is not a CANN profile";
    return NPUCONF_CALL_UNCLAIMED;
  }
  TransDataArgs args;
  auto src = view.String("src_format"), dst = view.String("dst_format");
  auto shape = view.IntList("shape");
  auto dtype = view.DTypeParam("dtype");
  if (!src || !dst || !shape || !dtype) {
    *message = "params src_format, dst_format, shape (int list) and dtype are required";
    return NPUCONF_CALL_BAD_CASE;
  }
  auto src_format = ParseFormat(*src), dst_format = ParseFormat(*dst);
  if (!src_format || !dst_format) {
    *status = routines::cann_transdata::kGeFormatInvalid;
    return NPUCONF_CALL_ANSWERED;
  }
  args.src = *src_format;
  args.dst = *dst_format;
  args.shape = *shape;
  args.dtype = *dtype;
  args.groups = view.Int("groups").value_or(1);
  args.c0 = view.Int("c0").value_or(0);
  TransDataPlan plan;
  *status = PlanTransData(ReadTransDataFacts(profile.raw), args, &plan);
  if (*status != routines::cann_transdata::kGeSuccess) return NPUCONF_CALL_ANSWERED;
  const npuconf_tensor* in = view.Input("src");
  npuconf_tensor* out = view.Output("dst");
  if (!in || !out) {
    *message = "needs input 'src' and output 'dst'";
    return NPUCONF_CALL_BAD_CASE;
  }
  // The caller's buffers must hold the computed shapes (GE: dst_shape must equal the
  // computed one, §A.1 step 3).
  if (in->bytes < plan.src_bytes || out->bytes < plan.dst_bytes || (plan.src_bytes && !in->data) ||
      (plan.dst_bytes && !out->data)) {
    *status = routines::cann_transdata::kGeShapeInvalid;
    return NPUCONF_CALL_ANSWERED;
  }
  RunTransData(plan, static_cast<const uint8_t*>(in->data), static_cast<uint8_t*>(out->data));
  SetOutputShape(out, plan.dst_dims);
  return NPUCONF_CALL_ANSWERED;
}

}  // namespace

const ReferenceFamily& CannTransDataReference() {
  static const ReferenceFamily family = {
      .routines = {{routines::cann_transdata::kTransData, Answer}}};
  return family;
}

}  // namespace npuconf::cann_transdata
