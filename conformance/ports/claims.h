// A port's claims as data: which routines on which profiles, narrowed by
// param conditions (dtype in a set, K a multiple of 32, K <= 8192, ...), and
// which reading of a profile choice the port implements. The syntax is
// documented in include/npuconf/port.h; this file parses it, validates it
// against the routine table and the profiles, and decides whether a case lies
// inside the claims.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/case.h"
#include "core/domain.h"
#include "core/profile.h"
#include "core/routine.h"

namespace npuconf {

// One condition on a case's param.
struct ClaimCondition {
  enum class Kind {
    kInSet,       // KEY=V1|V2|...: the param's text (as `npuconf case` writes it) is listed
    kMultipleOf,  // KEY%M==0: an int param, or every element of an int-list param
    kAtMost,      // KEY<=V
    kAtLeast,     // KEY>=V
  };
  std::string text;  // as written, for messages
  std::string key;
  // rank(KEY)=R1|R2, rank(KEY)<=R, rank(KEY)>=R: the condition is on the
  // length of the int-list param KEY (a 2-D only port: rank(shape)=2).
  bool on_rank = false;
  // KEY[I]=..., KEY[I]<=V, ...: the condition is on element I of the int-list
  // param KEY only (a batch-1 client: shape[0]<=1); a shorter list meets none.
  std::optional<size_t> axis;
  Kind kind = Kind::kInSet;
  std::vector<std::string> values;  // kInSet
  int64_t number = 0;               // the modulus or the bound
};

// "ROUTINE:PROFILE[:CONDITION,CONDITION...]"; '*' matches any routine or profile.
struct RoutineClaim {
  std::string text;
  std::string routine;
  std::string profile;
  std::vector<ClaimCondition> conditions;
};

// "choice:NAME=VALUE".
struct ChoiceClaim {
  std::string text;
  std::string name;
  std::string value;
};

// "honours:ROUTINE:KEY": the port honours a caller-supplied value of param KEY
// whose default the profile decides (ParamSpec::profile_default: an explicit
// c0, sub-block, segment length or reading); '*' as a whole field matches any.
// A case setting such a param to another value than its default is inside the
// claims only where the port claims to honour it.
struct HonoursClaim {
  std::string text;
  std::string routine;
  std::string key;
};

// "COND,COND..." in the claims' condition syntax (KEY=V1|V2, KEY%M==0,
// KEY<=V, KEY>=V, rank(KEY)...); a malformed one is named in *error.
std::vector<ClaimCondition> ParseConditions(const std::string& text, std::string* error);
// Whether every condition holds for `c` (a param it leaves out takes its
// literal default from `spec`; absent without one, or null, none holds).
bool ConditionsHold(const std::vector<ClaimCondition>& conditions, const Case& c,
                    const RoutineSpec& spec);
// The first problem of `conditions` against routine `spec` (an unknown key, a
// value outside an enum, a numeric condition on a text param), "" when none.
std::string ValidateConditions(const std::vector<ClaimCondition>& conditions,
                               const RoutineSpec& spec);

class PortClaims {
 public:
  // Parses every claim; a malformed one is reported in *error (naming the
  // claim and what is wrong) and left out. `error` may be null.
  static PortClaims Parse(const std::vector<std::string>& texts, std::string* error = nullptr);

  const std::vector<RoutineClaim>& routines() const { return routines_; }
  const std::vector<ChoiceClaim>& choices() const { return choices_; }
  const std::vector<HonoursClaim>& honours() const { return honours_; }
  // Some honours: claim names param `key` of `routine`.
  bool Honours(const std::string& routine, const std::string& key) const;

  // Some claim names `routine` on `profile` (conditions aside).
  bool Claims(const std::string& routine, const std::string& profile) const;
  // Some claim on the case's routine and `profile` holds for every condition.
  // A param absent from the case takes its literal default from `spec`; absent
  // without a default, or null, it satisfies no condition.
  bool Covers(const Case& c, const std::string& profile, const RoutineSpec& spec) const;
  // The reading claimed for choice `name`, if any.
  std::optional<std::string> Choice(const std::string& name) const;
  // What the claims naming routine `spec` on `profile` admit: one domain per claim
  // (a case is inside when it lies in any), or the single unbounded domain
  // when one of them has no condition; empty when none names the pair.
  // Generators draw inside each (core/domain.h).
  std::vector<CaseDomain> Domains(const RoutineSpec& spec, const std::string& profile) const;

 private:
  std::vector<RoutineClaim> routines_;
  std::vector<ChoiceClaim> choices_;
  std::vector<HonoursClaim> honours_;
};

// Checks claims against the routine table and the profiles: an unknown
// routine, profile, param key, enum value or dtype, a condition on a param of
// the wrong type, an unknown choice or a reading the profiles do not list, two
// different readings claimed for one choice.
// Returns the first problem, naming the claim and the offending value; empty
// when every claim is meaningful.
std::string ValidateClaims(const std::vector<std::string>& texts,
                           const std::vector<const RoutineSpec*>& specs,
                           const std::vector<Profile>& profiles);

// `profile` with every choice the port claims set to the claimed reading (the
// profile's facts re-derived from it), or nullopt when no claim changes it.
std::optional<Profile> ProfileAsClaimed(const Profile& profile, const PortClaims& claims);

}  // namespace npuconf
