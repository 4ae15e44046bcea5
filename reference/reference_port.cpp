#include "reference/reference_port.h"

#include <string>

#include "core/abi_view.h"
#include "core/profile.h"
#include "reference/cann/cann_port.h"
#include "reference/quant/quant_port.h"
#include "reference/rknn/rknn_port.h"

namespace npuconf {
namespace {

// One entry per family of routines; a new family adds one line.
struct FamilyEntry {
  const char* prefix;
  int32_t (*answer)(const CaseView&, const Profile&, int64_t*, std::string*);
};
const FamilyEntry kFamilies[] = {
    {"cann.antiquant", quant::AnswerQuantCase},
    {"cann.gather_dequant_int8", quant::AnswerQuantCase},
    {"rknn.dequant_b", quant::AnswerQuantCase},
    {"cann.", cann::AnswerCannCase},
    {"rknn.", rknn::AnswerRknnCase},
};

int32_t Dispatch(const CaseView& view, int64_t* status, std::string* message) {
  const Profile* profile = FindProfile(view.profile());
  if (!profile) {
    *message = "unknown profile '" + view.profile() + "'";
    return NPUCONF_CALL_UNCLAIMED;
  }
  const std::string routine = view.routine();
  for (const auto& family : kFamilies) {
    if (routine.rfind(family.prefix, 0) == 0) return family.answer(view, *profile, status, message);
  }
  *message = "routine '" + routine + "' not implemented";
  return NPUCONF_CALL_UNCLAIMED;
}

const char* const kClaims[] = {
    "cann.calculate_matmul_weight_size:*",
    "cann.calculate_matmul_weight_size_v2:*",
    "cann.trans_matmul_weight:*",
    "cann.nd_to_nz:*",
    "cann.nz_to_nd:*",
    "rknn.matmul_create:*",
    "rknn.matmul_create_dynamic:*",
    "rknn.a_norm_to_native:*",
    "rknn.a_native_to_norm:*",
    "rknn.c_norm_to_native:*",
    "rknn.c_native_to_norm:*",
    "rknn.b_norm_to_native:*",
    "rknn.b_native_to_norm:*",
    "rknn.b_tp_norm_to_native:*",
    "rknn.b_native_to_tp_norm:*",
    "rknn.int4_pack:*",
    "rknn.int4_unpack:*",
    "cann.antiquant:*",
    "cann.gather_dequant_int8:*",
    "cann.gather_dequant_int8_quantize:*",
    "rknn.dequant_b:*",
    // Undefined upstream (spec cann.md §3.4, §5.10); the reference defines them.
    "choice:cann.gather_dequant.validation=param_invalid",
    "choice:cann.gather_dequant.embed_dim=any",
    // Undefined upstream (spec cann.md §1.5); the reference defines them.
    "choice:cann.size.negative_dims=param_invalid",
    "choice:cann.size.overflow=param_invalid",
    nullptr,
};

}  // namespace

int32_t ReferenceCall(const npuconf_case* c, int64_t* vendor_status, char* message,
                      uint64_t message_bytes) {
  if (!c || !vendor_status) return NPUCONF_CALL_BAD_CASE;
  std::string note;
  const int32_t result = Dispatch(CaseView(c), vendor_status, &note);
  if (result != NPUCONF_CALL_ANSWERED) WriteMessage(message, message_bytes, note);
  return result;
}

const npuconf_port* ReferencePort() {
  static const npuconf_port port = {NPUCONF_PORT_ABI_VERSION, "reference", "0.1.0", kClaims,
                                    &ReferenceCall};
  return &port;
}

}  // namespace npuconf
