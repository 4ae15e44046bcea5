// A property: a named invariant of one routine, checked on explicit cases
// first and then on generated ones (DESIGN.md "Properties"). Everything a
// property needs reaches it through a PropertyContext: the port under test,
// the profile, and the port's claimed choices.
#pragma once

#include <rapidcheck.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "conformance/ports/port.h"
#include "core/case.h"
#include "core/domain.h"
#include "core/profile.h"

namespace npuconf {

class PortClaims;

struct Verdict {
  enum class Kind { kPass, kFail, kSkip };
  Kind kind = Kind::kPass;
  std::string message;
  // Structured evidence of a failure for the reports: {"output", "dtype",
  // "logical_name", "compared", "mismatches", "first": [verify::Mismatch JSON],
  // "block_elements", "block_mismatches"} (see verify/compare.h).
  nlohmann::json evidence;

  static Verdict Pass() { return {}; }
  static Verdict Fail(std::string why, nlohmann::json evidence = {}) {
    return {Kind::kFail, std::move(why), std::move(evidence)};
  }
  // The case lies outside the domain the vendor defines and the port claims.
  static Verdict Skip(std::string why) { return {Kind::kSkip, std::move(why), {}}; }
  // A further call the check needs (the way back of a round trip, say) lies
  // outside the port's claims: the case is counted as outside them, as a
  // drawn case would be, so a property whose every case needs one is
  // "not claimed", never a failure or a give-up blamed on the port.
  static constexpr std::string_view kOutsideClaimsMark = "outside the port's claims: ";
  static Verdict OutsideClaims(std::string why) {
    return Skip(std::string(kOutsideClaimsMark) + why);
  }
  bool IsOutsideClaims() const {
    return kind == Kind::kSkip && message.rfind(kOutsideClaimsMark, 0) == 0;
  }
  bool failed() const { return kind == Kind::kFail; }
};

class Suite;

// What calling the port has cost one property so far (CallPort counts it).
struct CallCost {
  int timeouts = 0;   // calls that timed out (Answer::timed_out)
  int successes = 0;  // calls answered with vendor status 0 (SUCCESS on every vendor)
  int faults = 0;     // calls the port did not return from (a crash, a timeout)
};

struct PropertyContext {
  const Suite& suite;
  const Port& port;
  // The profile as the port's claims make it: every claimed reading applied
  // (ProfileAsClaimed, conformance/ports/claims.h).
  const Profile& profile;
  // Every profile of this run, in order, each as claimed: a case that is the
  // same on several profiles (a layout on real model shapes) runs on the first
  // whose claims admit it. Profiles are told apart by name, never by address.
  const std::vector<const Profile*>& run_profiles;
  bool real_shapes = true;
  // The port's claims; null: every case is inside (a caller with no port of
  // its own, such as `vectors generate`).
  const PortClaims* claims = nullptr;
  // The claim the random phase draws inside (core/domain.h); null: unbounded.
  const CaseDomain* domain = nullptr;
  // Counted by CallPort; null: not counted. After a timeout the runner asks
  // the port nothing more for the property: a hang is not shrunk by re-hanging.
  CallCost* cost = nullptr;

  const CaseDomain& Domain() const { return domain ? *domain : UnboundedDomain(); }
  // Whether `c` (run on the profile named `profile_name`) lies inside the claims.
  bool Inside(const Case& c, const std::string& profile_name) const;
  bool Inside(const Case& c) const { return Inside(c, profile.name); }
};

// Whether `c`, run on `profile` (its claimed readings applied), lies inside
// `claims` (DESIGN.md "Claims shape the run"): some claim on its routine and
// profile holds for the case's effective values (Suite::Effective), and every
// param it sets whose default the profile decides (ParamSpec::profile_default)
// takes that default or is one the port claims to honour (honours:ROUTINE:KEY).
// `why`, when not null, receives what keeps an outside case out.
bool InsideClaims(const Suite& suite, const PortClaims& claims, const Case& c,
                  const Profile& profile, std::string* why = nullptr);

// Cases that are the same on several profiles (a real model shape's layout)
// run once: on the first profile of the run where one of `equivalent(p)` (the
// cases on p giving the same bytes, in order of preference; empty where p
// cannot take them) lies inside the port's claims. Returns that case when the
// first such profile is ctx.profile, else nullopt.
std::optional<Case> RunHere(const PropertyContext& ctx,
                            const std::function<std::vector<Case>(const Profile&)>& equivalent);

struct Property {
  std::string name;                     // family.routine.property
  std::string routine;                  // the routine whose claim decides "not claimed"
  std::vector<std::string> also_needs;  // further routines the check calls
  std::string description;
  std::vector<std::string> choices;  // profile choices the verdicts depend on
  // Empty, or why the property has no case on this profile (e.g. V2 returns
  // 361001 for every call on a SoC it does not support).
  std::function<std::string(const Profile&)> not_applicable;
  std::function<std::vector<Case>(const PropertyContext&)> explicit_cases;
  std::function<rc::Gen<Case>(const PropertyContext&)> generator;  // empty: explicit only
  std::function<Verdict(const PropertyContext&, const Case&)> check;
  // What its verdicts rest on when that is not the vendor's documents: "device
  // logs (…)" for cases devices really ran (the reports mark such results).
  std::string basis;
  // Empty, or why this profile's facts for the routine are not public (RK3576's
  // NC1HWC2 C2, say): reported not_covered, as a whole unverified profile is.
  std::function<std::string(const Profile&)> not_covered;

  // `routine` and `also_needs`: every routine the port must claim.
  std::vector<std::string> AllRoutines() const {
    std::vector<std::string> out = {routine};
    out.insert(out.end(), also_needs.begin(), also_needs.end());
    return out;
  }
};

}  // namespace npuconf
