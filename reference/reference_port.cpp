#include "reference/reference_port.h"

#include <cstring>

namespace npuconf {

int32_t AnswerWith(const ReferenceFamily& family, const npuconf_case* c, int64_t* status,
                   char* message, uint64_t message_bytes) {
  if (!c || !status) return NPUCONF_CALL_BAD_CASE;
  const CaseView view(c);
  std::string note;
  int32_t result = NPUCONF_CALL_UNCLAIMED;
  const Profile* profile = FindProfile(view.profile());
  const ReferenceRoutine* routine = nullptr;
  for (const auto& r : family.routines) {
    if (c->routine && std::strcmp(r.id, c->routine) == 0) routine = &r;
  }
  if (!routine) {
    note = "routine '" + view.routine() + "' not implemented";
  } else if (!profile) {
    note = "unknown profile '" + view.profile() + "'";
  } else {
    result = routine->answer(view, *profile, status, &note);
  }
  WriteMessage(message, message_bytes, note);
  return result;
}

}  // namespace npuconf
