// The reference port's answers to the dequant routines (cann.antiquant,
// cann.gather_dequant_int8[_quantize], rknn.dequant_b): reads the case through
// the ABI view and calls reference/quant/.
#pragma once

#include <cstdint>
#include <string>

#include "core/abi_view.h"
#include "core/profile.h"

namespace npuconf::quant {

// Returns an npuconf_call_result; the vendor status goes to *status, a note for
// UNCLAIMED / BAD_CASE to *message.
int32_t AnswerQuantCase(const CaseView& view, const Profile& profile, int64_t* status,
                        std::string* message);

// The reading of an uncertain point a case asks for: its `param`, else the
// profile's choice `choice`, else `fallback`.
std::string CaseReading(const CaseView& view, const Profile& profile, const char* param,
                        const char* choice, const char* fallback);

}  // namespace npuconf::quant
