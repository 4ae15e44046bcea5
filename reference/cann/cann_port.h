// The reference port's entry for the CANN family: answers one "cann.*" case.
#pragma once

#include <cstdint>
#include <string>

#include "core/abi_view.h"
#include "core/profile.h"

namespace npuconf::cann {

// Returns an npuconf_call_result; the vendor status goes to *status, a note for
// UNCLAIMED / BAD_CASE to *message.
int32_t AnswerCannCase(const CaseView& view, const Profile& profile, int64_t* status,
                       std::string* message);

}  // namespace npuconf::cann
