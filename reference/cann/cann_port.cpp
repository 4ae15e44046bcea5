// The reference port's answers to "cann.*" cases: reads the case through the
// ABI view and calls the routines of reference/cann/.
#include "reference/cann/cann_port.h"

#include <cstring>

#include "core/routines/cann.h"
#include "core/status.h"
#include "reference/cann/fractal_nz.h"
#include "reference/cann/trans_matmul_weight.h"
#include "reference/cann/weight_size.h"

namespace npuconf::cann {
namespace {

using Answer = PortAnswer;

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
  *status = v2 ? CalculateMatmulWeightSizeV2(facts, shape_in, *dtype, size_out)
               : CalculateMatmulWeightSize(facts, shape_in, size_out);
  if (*status == kAclnnSuccess) {
    std::memcpy(out->data, &size_elems, sizeof(size_elems));
    SetOutputShape(out, {});
  }
  return Answered();
}

Answer TransCall(const CaseView& view, const CannFacts& facts, int64_t* status) {
  npuconf_tensor* out = view.Output("mm_weight_ref");
  if (!out) return BadCase("output 'mm_weight_ref' missing");
  TransMatmulWeightArgs args;
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
  *status = TransMatmulWeight(facts, args, &storage);
  if (*status == kAclnnSuccess && !SetOutputShape(out, storage)) {
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
  auto g = NzGeometryFor(*shape, *dtype, c0);
  if (!g) {
    *status = kAclnnErrParamInvalid;
    return Answered();
  }
  const npuconf_tensor* in = view.Input(to_nz ? "nd" : "nz");
  npuconf_tensor* out = view.Output(to_nz ? "nz" : "nd");
  if (!in || !out)
    return BadCase(to_nz ? "needs input 'nd', output 'nz'" : "needs input 'nz', output 'nd'");
  const uint64_t in_bytes = to_nz ? g->nd_bytes : g->storage_bytes;
  const uint64_t out_bytes = to_nz ? g->storage_bytes : g->nd_bytes;
  if (in->bytes < in_bytes || out->bytes < out_bytes || (!in->data && in_bytes) ||
      (!out->data && out_bytes)) {
    *status = kAclnnErrParamInvalid;
    return Answered();
  }
  const auto* src = static_cast<const uint8_t*>(in->data);
  auto* dst = static_cast<uint8_t*>(out->data);
  if (to_nz) {
    PackNdToNz(src, dst, *g);
    SetOutputShape(out, g->storage_shape);
  } else {
    UnpackNzToNd(src, dst, *g);
    SetOutputShape(out, *shape);
  }
  *status = kAclnnSuccess;
  return Answered();
}

}  // namespace

namespace {

// Every routine answers ANSWERED or BAD_CASE; the profile must be a CANN one.
template <Answer (*kCall)(const CaseView&, const CannFacts&, int64_t*)>
int32_t Answering(const CaseView& view, const Profile& profile, int64_t* status,
                  std::string* message) {
  if (!profile.cann) {
    *message = "profile '" + profile.name + "' is not a CANN profile";
    return NPUCONF_CALL_UNCLAIMED;
  }
  const Answer answer = kCall(view, *profile.cann, status);
  *message = answer.message;
  return answer.result;
}

Answer LegacySize(const CaseView& view, const CannFacts& facts, int64_t* status) {
  return SizeCall(view, facts, false, status);
}
Answer V2Size(const CaseView& view, const CannFacts& facts, int64_t* status) {
  return SizeCall(view, facts, true, status);
}
Answer Pack(const CaseView& view, const CannFacts& facts, int64_t* status) {
  return LayoutCall(view, facts, true, status);
}
Answer Unpack(const CaseView& view, const CannFacts& facts, int64_t* status) {
  return LayoutCall(view, facts, false, status);
}

}  // namespace

const ReferenceFamily& CannReference() {
  namespace ids = routines::cann;
  static const ReferenceFamily family = {
      .routines = {{ids::kCalculateMatmulWeightSize, Answering<LegacySize>},
                   {ids::kCalculateMatmulWeightSizeV2, Answering<V2Size>},
                   {ids::kTransMatmulWeight, Answering<TransCall>},
                   {ids::kNdToNz, Answering<Pack>},
                   {ids::kNzToNd, Answering<Unpack>}},
      // Undefined upstream (spec cann.md §1.5); the reference defines them.
      .choice_claims = {"choice:cann.size.negative_dims=param_invalid",
                        "choice:cann.size.overflow=param_invalid"}};
  return family;
}

int32_t CannReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                          uint64_t message_bytes) {
  return AnswerWith(CannReference(), c, status, message, message_bytes);
}

}  // namespace npuconf::cann
