// The reference port's RKNN Matmul routines (reference/rknn/), each answering a
// case read through the port ABI, listed by exact routine id.
#pragma once

#include <cstdint>

#include "reference/reference_port.h"

namespace npuconf::rknn {

const ReferenceFamily& RknnReference();

// AnswerWith(RknnReference(), …): what mutants/ delegate to.
int32_t RknnReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                          uint64_t message_bytes);

}  // namespace npuconf::rknn
