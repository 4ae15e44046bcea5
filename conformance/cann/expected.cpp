// The CANN routines' expected answers for vector files: the validation
// oracle's status (spec cann.md §1.3, §1.4, §2.2) and the Eigen FRACTAL_NZ
// oracle's output (§2.5).
#include <cstring>

#include "conformance/cann/support.h"
#include "core/status.h"

namespace npuconf::cann_props {

Expected ExpectSizeAnswer(const PropertyContext& ctx, const Invocation& inv) {
  const auto want = ExpectSize(ctx, inv.c);
  if (want.undefined) return Expected::Undefined(want.rule);
  Expected e;
  e.rule = want.rule;
  e.status = want.status;
  const bool null_output = inv.outputs.at(0).null;
  if (want.status == cann::kAclnnSuccess && want.size) {
    Bytes bytes(sizeof(uint64_t));
    const uint64_t size_elems = static_cast<uint64_t>(*want.size);
    std::memcpy(bytes.data(), &size_elems, sizeof(size_elems));  // little-endian hosts only
    e.outputs.push_back({"weight_tensor_size", DType::kUint64, {}, bytes});
  } else if (!null_output) {
    e.untouched.push_back("weight_tensor_size");
  }
  return e;
}

Expected ExpectTransAnswer(const PropertyContext& ctx, const Invocation& inv) {
  const auto want = ExpectTrans(ctx, inv.c);
  if (want.converts) {
    return ExpectLayout(NzLayoutInstance(inv.c, ctx.profile, kTrans), want.status, inv, want.rule);
  }
  Expected e;
  e.rule = want.rule;
  e.status = want.status;
  if (!inv.outputs.at(0).null) e.untouched.push_back("mm_weight_ref");
  return e;
}

Expected ExpectNzAnswer(const PropertyContext& ctx, const Invocation& inv) {
  return ExpectLayout(NzLayoutInstance(inv.c, ctx.profile, inv.c.routine), cann::kAclnnSuccess, inv,
                      "spec cann.md §2.5 (Eigen pad -> reshape -> shuffle oracle)");
}

}  // namespace npuconf::cann_props
