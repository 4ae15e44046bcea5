// The reference port's RKNN native-tensor routines (reference/rknn_native/),
// each answering a case read through the port ABI, listed by exact routine id.
#pragma once

#include <cstdint>

#include "reference/reference_port.h"

namespace npuconf::rknn_native {

const ReferenceFamily& RknnNativeReference();

// AnswerWith(RknnNativeReference(), …): what mutants/ delegate to.
int32_t RknnNativeReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                                uint64_t message_bytes);

}  // namespace npuconf::rknn_native
