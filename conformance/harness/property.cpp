#include "conformance/harness/property.h"

#include "conformance/harness/suite.h"
#include "conformance/ports/claims.h"

namespace npuconf {

bool InsideClaims(const Suite& suite, const PortClaims& claims, const Case& c,
                  const Profile& profile, std::string* why) {
  const Routine* routine = suite.FindRoutine(c.routine);
  if (!routine) {
    if (why) *why = "unknown routine " + c.routine;
    return false;
  }
  if (!claims.Covers(suite.Effective(c, profile), profile.name, *routine->spec)) {
    if (why) *why = "no claim on " + c.routine + " for " + profile.name + " holds for it";
    return false;
  }
  for (const ParamSpec& param : routine->spec->params) {
    const ParamValue* value = c.Find(param.key);
    if (!param.profile_default || !value || claims.Honours(c.routine, param.key)) continue;
    Case without = c;
    without.params.erase(param.key);
    const ParamValue* taken = suite.Effective(without, profile).Find(param.key);
    if (taken && *taken == *value) continue;
    if (why) {
      *why = "it sets " + param.key + "=" + value->ToText() + " where " + profile.name + " takes " +
             (taken ? taken->ToText() : std::string("no value")) +
             ", and the port does not claim honours:" + c.routine + ":" + param.key;
    }
    return false;
  }
  return true;
}

bool PropertyContext::Inside(const Case& c, const std::string& profile_name) const {
  if (!claims) return true;
  // Claims are judged on the profile as claimed: the run's profile of that name.
  const Profile* on = profile.name == profile_name ? &profile : nullptr;
  for (const Profile* p : run_profiles) {
    if (p->name == profile_name) on = p;
  }
  return on && InsideClaims(suite, *claims, c, *on);
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
