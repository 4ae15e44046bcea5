// The reference port's entry for the RKNN Matmul family: answers one "rknn.*"
// case (routine catalogue: conformance/rknn_routines.cpp, `npuconf list routines`).
#pragma once

#include <cstdint>
#include <string>

#include "core/abi_view.h"
#include "core/profile.h"

namespace npuconf::rknn {

// Returns an npuconf_call_result; the vendor status (0 or −5) goes to *status,
// a note for UNCLAIMED / BAD_CASE to *message.
int32_t AnswerRknnCase(const CaseView& view, const Profile& profile, int64_t* status, std::string* message);

}  // namespace npuconf::rknn
