#include "reference/reference_port.h"

#include <cstring>
#include <string>

#include "core/abi_view.h"
#include "core/profile.h"
#include "core/status.h"
#include "reference/cann/fractal_nz.h"
#include "reference/cann/trans_matmul_weight.h"
#include "reference/cann/weight_size.h"

namespace npuconf {
namespace {

struct Answer {
  int32_t result;
  std::string message;
};

Answer Answered() { return {NPUCONF_CALL_ANSWERED, {}}; }
Answer BadCase(std::string why) { return {NPUCONF_CALL_BAD_CASE, std::move(why)}; }

// `shape` param: an int list, or null for tensorShape == nullptr.
Answer SizeCall(const CaseView& view, const CannFacts& facts, bool v2, int64_t* status) {
  std::optional<Shape> shape = view.IntList("shape");
  if (!shape && !view.IsNull("shape")) return BadCase("param 'shape' must be an int list or null");
  std::optional<DType> dtype = DType::kFloat16;
  if (v2) {
    dtype = view.DTypeParam("dtype");
    if (!dtype) return BadCase("param 'dtype' missing or not a dtype name");
  }
  npuconf_tensor* out = view.Output("weight_tensor_size");
  if (!out) return BadCase("output 'weight_tensor_size' missing");
  uint64_t size_elems = 0;
  uint64_t* size_out = out->data != nullptr ? &size_elems : nullptr;
  if (out->data != nullptr && out->bytes < sizeof(uint64_t)) {
    return BadCase("output 'weight_tensor_size' needs 8 bytes");
  }
  const Shape* shape_in = shape ? &*shape : nullptr;
  *status = v2 ? cann::CalculateMatmulWeightSizeV2(facts, shape_in, *dtype, size_out)
               : cann::CalculateMatmulWeightSize(facts, shape_in, size_out);
  if (*status == cann::kAclnnSuccess) {
    std::memcpy(out->data, &size_elems, sizeof(size_elems));
    SetOutputShape(out, {});
  }
  return Answered();
}

Answer TransCall(const CaseView& view, const CannFacts& facts, int64_t* status) {
  npuconf_tensor* out = view.Output("mm_weight_ref");
  if (!out) return BadCase("output 'mm_weight_ref' missing");
  cann::TransMatmulWeightArgs args;
  args.null_tensor = out->data == nullptr;  // mmWeightRef == nullptr
  if (!args.null_tensor) {
    auto shape = view.IntList("shape");
    auto dtype = view.DTypeParam("dtype");
    if (!shape || !dtype) return BadCase("params 'shape' (int list) and 'dtype' are required");
    args.view_shape = *shape;
    args.dtype = *dtype;
    args.format = view.String("format").value_or("ND");
    args.data = static_cast<uint8_t*>(out->data);
    args.capacity_bytes = out->bytes;
  }
  Shape storage;
  *status = cann::TransMatmulWeight(facts, args, &storage);
  if (*status == cann::kAclnnSuccess && !SetOutputShape(out, storage)) {
    return BadCase("storage shape rank exceeds NPUCONF_MAX_RANK");
  }
  return Answered();
}

// cann.nd_to_nz / cann.nz_to_nd: the layout alone. `c0` defaults to the
// profile's C0 for the dtype.
Answer LayoutCall(const CaseView& view, const CannFacts& facts, bool to_nz, int64_t* status) {
  auto shape = view.IntList("shape");
  auto dtype = view.DTypeParam("dtype");
  if (!shape || !dtype) return BadCase("params 'shape' (int list) and 'dtype' are required");
  int64_t c0 = 0;
  if (auto explicit_c0 = view.Int("c0")) {
    c0 = *explicit_c0;
  } else if (auto it = facts.nz_c0.find(*dtype); it != facts.nz_c0.end()) {
    c0 = it->second;
  }
  auto g = cann::NzGeometryFor(*shape, *dtype, c0);
  if (!g) {
    *status = cann::kAclnnErrParamInvalid;
    return Answered();
  }
  const npuconf_tensor* in = view.Input(to_nz ? "nd" : "nz");
  npuconf_tensor* out = view.Output(to_nz ? "nz" : "nd");
  if (!in || !out) return BadCase(to_nz ? "needs input 'nd', output 'nz'" : "needs input 'nz', output 'nd'");
  const uint64_t in_bytes = to_nz ? g->nd_bytes : g->storage_bytes;
  const uint64_t out_bytes = to_nz ? g->storage_bytes : g->nd_bytes;
  if (in->bytes < in_bytes || out->bytes < out_bytes || (!in->data && in_bytes) ||
      (!out->data && out_bytes)) {
    *status = cann::kAclnnErrParamInvalid;
    return Answered();
  }
  const auto* src = static_cast<const uint8_t*>(in->data);
  auto* dst = static_cast<uint8_t*>(out->data);
  if (to_nz) {
    cann::PackNdToNz(src, dst, *g);
    SetOutputShape(out, g->storage_shape);
  } else {
    cann::UnpackNzToNd(src, dst, *g);
    SetOutputShape(out, *shape);
  }
  *status = cann::kAclnnSuccess;
  return Answered();
}

Answer Dispatch(const CaseView& view, int64_t* status) {
  const Profile* profile = FindProfile(view.profile());
  if (!profile) return {NPUCONF_CALL_UNCLAIMED, "unknown profile '" + view.profile() + "'"};
  const std::string routine = view.routine();
  if (routine.rfind("cann.", 0) == 0) {
    if (!profile->cann) return {NPUCONF_CALL_UNCLAIMED, "profile is not a CANN profile"};
    const CannFacts& facts = *profile->cann;
    if (routine == "cann.calculate_matmul_weight_size") return SizeCall(view, facts, false, status);
    if (routine == "cann.calculate_matmul_weight_size_v2") return SizeCall(view, facts, true, status);
    if (routine == "cann.trans_matmul_weight") return TransCall(view, facts, status);
    if (routine == "cann.nd_to_nz") return LayoutCall(view, facts, true, status);
    if (routine == "cann.nz_to_nd") return LayoutCall(view, facts, false, status);
  }
  return {NPUCONF_CALL_UNCLAIMED, "routine '" + routine + "' not implemented"};
}

const char* const kClaims[] = {
    "cann.calculate_matmul_weight_size:*",
    "cann.calculate_matmul_weight_size_v2:*",
    "cann.trans_matmul_weight:*",
    "cann.nd_to_nz:*",
    "cann.nz_to_nd:*",
    // Undefined upstream (spec cann.md §1.5); the reference defines them.
    "choice:cann.size.negative_dims=param_invalid",
    "choice:cann.size.overflow=param_invalid",
    nullptr,
};

}  // namespace

int32_t ReferenceCall(const npuconf_case* c, int64_t* vendor_status, char* message,
                      uint64_t message_bytes) {
  if (!c || !vendor_status) return NPUCONF_CALL_BAD_CASE;
  Answer answer = Dispatch(CaseView(c), vendor_status);
  if (answer.result != NPUCONF_CALL_ANSWERED) WriteMessage(message, message_bytes, answer.message);
  return answer.result;
}

const npuconf_port* ReferencePort() {
  static const npuconf_port port = {NPUCONF_PORT_ABI_VERSION, "reference", "0.1.0", kClaims,
                                    &ReferenceCall};
  return &port;
}

}  // namespace npuconf
