// The reference port's dequant routines (reference/quant/: cann.antiquant,
// cann.gather_dequant_int8[_quantize], rknn.dequant_b), each answering a case
// read through the port ABI, listed by exact routine id.
#pragma once

#include <cstdint>
#include <string>

#include "core/abi_view.h"
#include "core/profile.h"
#include "reference/reference_port.h"

namespace npuconf::quant {

const ReferenceFamily& QuantReference();

// AnswerWith(QuantReference(), …): what mutants/ delegate to.
int32_t QuantReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                           uint64_t message_bytes);

// The reading of an uncertain point a case asks for: its `param`, else the
// profile's choice `choice`, else `fallback`.
std::string CaseReading(const CaseView& view, const Profile& profile, const char* param,
                        const char* choice, const char* fallback);

}  // namespace npuconf::quant
