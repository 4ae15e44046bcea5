// The reference routines as a port: each family of reference/ lists, by exact
// routine id, the function that answers a case of that routine through the port
// ABI (include/npuconf/port.h), exactly as any other port does. cli/ assembles
// the built-in reference port from these lists; mutants/ answer through them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/abi_view.h"
#include "core/profile.h"
#include "npuconf/port.h"

namespace npuconf {

// Answers one case: returns an npuconf_call_result, the vendor status in
// *status, a note in *message (why a call was rejected, or why it was not
// answered).
using AnswerFn = int32_t (*)(const CaseView& view, const Profile& profile, int64_t* status,
                             std::string* message);

struct ReferenceRoutine {
  const char* id;  // a constant of core/routines/
  AnswerFn answer;
};

struct ReferenceFamily {
  std::vector<ReferenceRoutine> routines;
  // "choice:NAME=VALUE": readings of behaviour the vendor leaves undefined that
  // the reference defines (and claims, so that they are checked).
  std::vector<std::string> choice_claims;
};

// Answers `c` with the routine of `family` whose id equals c->routine exactly
// (no prefixes, no fall-through): UNCLAIMED naming the id or the profile when
// either is unknown. The body of every built-in port's `call`.
int32_t AnswerWith(const ReferenceFamily& family, const npuconf_case* c, int64_t* status,
                   char* message, uint64_t message_bytes);

}  // namespace npuconf
