// The reference port's CANN routines (reference/cann/), each answering a case
// read through the port ABI, listed by exact routine id.
#pragma once

#include <cstdint>

#include "reference/reference_port.h"

namespace npuconf::cann {

const ReferenceFamily& CannReference();

// AnswerWith(CannReference(), …): what mutants/ delegate to.
int32_t CannReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                          uint64_t message_bytes);

}  // namespace npuconf::cann
