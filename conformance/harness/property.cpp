#include "conformance/harness/property.h"

#include "conformance/harness/suite.h"
#include "conformance/ports/claims.h"

namespace npuconf {

bool PropertyContext::Inside(const Case& c, const std::string& profile_name) const {
  if (!claims) return true;
  const Routine* routine = suite.FindRoutine(c.routine);
  return routine && claims->Covers(c, profile_name, *routine->spec);
}

std::optional<Case> RunHere(const PropertyContext& ctx,
                            const std::function<std::vector<Case>(const Profile&)>& equivalent) {
  for (const Profile* p : ctx.run_profiles) {
    for (Case& c : equivalent(*p)) {
      if (!ctx.Inside(c, p->name)) continue;
      if (p->name == ctx.profile.name) return std::move(c);
      return std::nullopt;
    }
  }
  return std::nullopt;
}

}  // namespace npuconf
