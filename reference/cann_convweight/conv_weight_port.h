// The reference port's conv-weight and format-cast size routines
// (reference/cann_convweight/), each answering a case read through the port ABI.
#pragma once

#include <cstdint>

#include "reference/reference_port.h"

namespace npuconf::cann_convweight {

const ReferenceFamily& CannConvWeightReference();

// AnswerWith(CannConvWeightReference(), …): what mutants/ delegate to.
int32_t CannConvWeightReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                                    uint64_t message_bytes);

}  // namespace npuconf::cann_convweight
