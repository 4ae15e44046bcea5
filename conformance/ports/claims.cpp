#include "conformance/ports/claims.h"

#include <algorithm>
#include <charconv>
#include <numeric>

#include "core/dtype.h"

namespace npuconf {
namespace {

std::vector<std::string> Split(const std::string& text, char separator) {
  std::vector<std::string> out;
  size_t start = 0;
  for (;;) {
    const size_t end = text.find(separator, start);
    out.push_back(text.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

bool ParseInt(const std::string& text, int64_t* out) {
  if (text.empty()) return false;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

bool IsKey(const std::string& key) {
  return !key.empty() &&
         key.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") ==
             std::string::npos;
}

// One condition; the error names it.
std::optional<ClaimCondition> ParseCondition(const std::string& text, std::string* error) {
  ClaimCondition cond;
  cond.text = text;
  std::string number;
  if (const size_t mod = text.find('%'); mod != std::string::npos) {
    cond.key = text.substr(0, mod);
    cond.kind = ClaimCondition::Kind::kMultipleOf;
    const std::string rest = text.substr(mod + 1);
    if (rest.size() < 4 || rest.substr(rest.size() - 3) != "==0") {
      *error = "condition '" + text + "' must read KEY%M==0";
      return std::nullopt;
    }
    number = rest.substr(0, rest.size() - 3);
  } else if (const size_t le = text.find("<="); le != std::string::npos) {
    cond.key = text.substr(0, le);
    cond.kind = ClaimCondition::Kind::kAtMost;
    number = text.substr(le + 2);
  } else if (const size_t ge = text.find(">="); ge != std::string::npos) {
    cond.key = text.substr(0, ge);
    cond.kind = ClaimCondition::Kind::kAtLeast;
    number = text.substr(ge + 2);
  } else if (const size_t eq = text.find('='); eq != std::string::npos) {
    cond.key = text.substr(0, eq);
    cond.kind = ClaimCondition::Kind::kInSet;
    cond.values = Split(text.substr(eq + 1), '|');
    for (const auto& value : cond.values) {
      if (value.empty()) {
        *error = "condition '" + text + "' lists an empty value";
        return std::nullopt;
      }
    }
  } else {
    *error = "condition '" + text + "' is none of KEY=V1|V2, KEY%M==0, KEY<=V, KEY>=V";
    return std::nullopt;
  }
  if (cond.key.size() > 6 && cond.key.rfind("rank(", 0) == 0 && cond.key.back() == ')') {
    cond.on_rank = true;
    cond.key = cond.key.substr(5, cond.key.size() - 6);
    if (cond.kind == ClaimCondition::Kind::kMultipleOf) {
      *error = "condition '" + text + "': a rank reads rank(KEY)=R1|R2, rank(KEY)<=R or " +
               "rank(KEY)>=R";
      return std::nullopt;
    }
    for (const auto& value : cond.values) {
      int64_t rank = 0;
      if (!ParseInt(value, &rank) || rank < 0) {
        *error = "condition '" + text + "': rank '" + value + "' is not a non-negative integer";
        return std::nullopt;
      }
      if (std::to_string(rank) != value) {
        *error = "condition '" + text + "': rank '" + value + "' is written '" +
                 std::to_string(rank) + "'";
        return std::nullopt;
      }
    }
  }
  if (!cond.on_rank && !cond.key.empty() && cond.key.back() == ']') {
    const size_t open = cond.key.find('[');
    int64_t axis = -1;
    const std::string index =
        open == std::string::npos ? "" : cond.key.substr(open + 1, cond.key.size() - open - 2);
    if (open == std::string::npos || !ParseInt(index, &axis) || axis < 0 ||
        std::to_string(axis) != index) {
      *error = "condition '" + text + "': an axis reads KEY[I] with I a non-negative integer";
      return std::nullopt;
    }
    cond.axis = static_cast<size_t>(axis);
    cond.key = cond.key.substr(0, open);
  }
  if (!IsKey(cond.key)) {
    *error = "condition '" + text + "' names no param key ('" + cond.key + "')";
    return std::nullopt;
  }
  if (cond.kind != ClaimCondition::Kind::kInSet) {
    if (!ParseInt(number, &cond.number)) {
      *error = "condition '" + text + "': '" + number + "' is not an integer";
      return std::nullopt;
    }
    // Numbers compare as numbers; one spelling each, so that a claim, a
    // waiver and a report all name a bound the same way.
    if (std::to_string(cond.number) != number) {
      *error = "condition '" + text + "': '" + number + "' is written '" +
               std::to_string(cond.number) + "'";
      return std::nullopt;
    }
    if (cond.kind == ClaimCondition::Kind::kMultipleOf && cond.number <= 0) {
      *error = "condition '" + text + "': the modulus must be positive";
      return std::nullopt;
    }
  }
  return cond;
}

bool MatchField(const std::string& pattern, const std::string& value) {
  return pattern == "*" || pattern == value;
}

bool HoldsForInt(const ClaimCondition& cond, int64_t v) {
  switch (cond.kind) {
    case ClaimCondition::Kind::kMultipleOf:
      return v % cond.number == 0;
    case ClaimCondition::Kind::kAtMost:
      return v <= cond.number;
    case ClaimCondition::Kind::kAtLeast:
      return v >= cond.number;
    case ClaimCondition::Kind::kInSet:
      break;
  }
  return false;
}

// A listed value as the typed value it names: an int, an int list, else text.
ParamValue Typed(const std::string& text) {
  Case parsed;
  if (ParseCaseArgs({"v=" + text}, &parsed).empty()) {
    const ParamValue& v = parsed.params.at("v");
    if (v.kind == ParamValue::Kind::kInt || v.kind == ParamValue::Kind::kIntList) return v;
  }
  return ParamValue::String(text);
}

// KEY=V1|V2 compares typed values: 32 and an int 32, [64] and a shape [64].
bool Listed(const ClaimCondition& cond, const ParamValue& value) {
  return std::any_of(cond.values.begin(), cond.values.end(), [&](const std::string& listed) {
    if (value.kind == ParamValue::Kind::kInt || value.kind == ParamValue::Kind::kIntList)
      return Typed(listed) == value;
    return listed == value.ToText();
  });
}

bool Holds(const ClaimCondition& cond, const ParamValue& value) {
  if (cond.axis) {
    if (value.kind != ParamValue::Kind::kIntList || *cond.axis >= value.ints.size()) return false;
    const ParamValue element = ParamValue::Int(value.ints[*cond.axis]);
    if (cond.kind == ClaimCondition::Kind::kInSet) return Listed(cond, element);
    return HoldsForInt(cond, element.i);
  }
  if (cond.on_rank) {
    if (value.kind != ParamValue::Kind::kIntList) return false;
    const auto rank = static_cast<int64_t>(value.ints.size());
    if (cond.kind == ClaimCondition::Kind::kInSet) return Listed(cond, ParamValue::Int(rank));
    return HoldsForInt(cond, rank);
  }
  if (cond.kind == ClaimCondition::Kind::kInSet) {
    if (value.kind == ParamValue::Kind::kNull) return false;
    return Listed(cond, value);
  }
  if (value.kind == ParamValue::Kind::kInt) return HoldsForInt(cond, value.i);
  if (value.kind == ParamValue::Kind::kIntList) {
    return std::all_of(value.ints.begin(), value.ints.end(),
                       [&](int64_t v) { return HoldsForInt(cond, v); });
  }
  return false;
}

}  // namespace

PortClaims PortClaims::Parse(const std::vector<std::string>& texts, std::string* error) {
  PortClaims claims;
  auto fail = [&](const std::string& claim, const std::string& why) {
    if (error && error->empty()) *error = "claim '" + claim + "': " + why;
  };
  for (const std::string& text : texts) {
    if (text.rfind("choice:", 0) == 0) {
      const size_t eq = text.find('=');
      if (eq == std::string::npos || eq == 7 || eq + 1 == text.size()) {
        fail(text, "a choice claim reads choice:NAME=VALUE");
        continue;
      }
      claims.choices_.push_back({text, text.substr(7, eq - 7), text.substr(eq + 1)});
      continue;
    }
    if (text.rfind("honours:", 0) == 0) {
      const size_t colon = text.find(':', 8);
      if (colon == std::string::npos || colon == 8 || colon + 1 == text.size()) {
        fail(text, "an honours claim reads honours:ROUTINE:KEY");
        continue;
      }
      claims.honours_.push_back({text, text.substr(8, colon - 8), text.substr(colon + 1)});
      continue;
    }
    const size_t first = text.find(':');
    if (first == std::string::npos || first == 0) {
      fail(text, "a claim reads ROUTINE:PROFILE[:CONDITION,...] or choice:NAME=VALUE");
      continue;
    }
    const size_t second = text.find(':', first + 1);
    RoutineClaim claim;
    claim.text = text;
    claim.routine = text.substr(0, first);
    claim.profile = text.substr(
        first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
    if (claim.profile.empty()) {
      fail(text, "no profile (use '*' for every profile)");
      continue;
    }
    bool ok = true;
    if (second != std::string::npos) {
      std::string why;
      claim.conditions = ParseConditions(text.substr(second + 1), &why);
      if (!why.empty()) {
        fail(text, why);
        ok = false;
      }
    }
    if (ok) claims.routines_.push_back(std::move(claim));
  }
  return claims;
}

bool PortClaims::Claims(const std::string& routine, const std::string& profile) const {
  return std::any_of(routines_.begin(), routines_.end(), [&](const RoutineClaim& claim) {
    return MatchField(claim.routine, routine) && MatchField(claim.profile, profile);
  });
}

std::vector<ClaimCondition> ParseConditions(const std::string& text, std::string* error) {
  std::vector<ClaimCondition> out;
  for (const std::string& part : Split(text, ',')) {
    std::string why;
    auto cond = ParseCondition(part, &why);
    if (!cond) {
      if (error) *error = why;
      return {};
    }
    out.push_back(std::move(*cond));
  }
  return out;
}

bool ConditionsHold(const std::vector<ClaimCondition>& conditions, const Case& c,
                    const RoutineSpec& spec) {
  return std::all_of(conditions.begin(), conditions.end(), [&](const ClaimCondition& cond) {
    const ParamValue* value = c.Find(cond.key);
    if (!value) {
      const ParamSpec* param = spec.FindParam(cond.key);
      if (!param || !param->default_value) return false;
      value = &*param->default_value;
    }
    return Holds(cond, *value);
  });
}

bool PortClaims::Covers(const Case& c, const std::string& profile, const RoutineSpec& spec) const {
  for (const RoutineClaim& claim : routines_) {
    if (!MatchField(claim.routine, c.routine) || !MatchField(claim.profile, profile)) continue;
    if (ConditionsHold(claim.conditions, c, spec)) return true;
  }
  return false;
}

namespace {

int64_t Lcm(int64_t a, int64_t b) {
  const int64_t g = std::gcd(a, b);
  // A modulus past int64 admits no value but 0: keep the larger one then.
  if (a / g > INT64_MAX / b) return std::max(a, b);
  return a / g * b;
}

// Every condition of `claim` as bounds on its param.
CaseDomain DomainOf(const RoutineClaim& claim, const RoutineSpec& spec) {
  CaseDomain domain;
  for (const ClaimCondition& cond : claim.conditions) {
    // An axis condition bounds one element, which ParamBounds cannot say: the
    // runner judges it on each drawn case (PortClaims::Covers).
    if (cond.axis) continue;
    ParamBounds& b = domain.params[cond.key];
    switch (cond.kind) {
      case ClaimCondition::Kind::kInSet: {
        if (cond.on_rank) {
          std::vector<int64_t> ranks;
          for (const auto& v : cond.values) {
            int64_t r = 0;
            ParseInt(v, &r);
            if (!b.ranks || std::find(b.ranks->begin(), b.ranks->end(), r) != b.ranks->end())
              ranks.push_back(r);
          }
          b.ranks = std::move(ranks);
          break;
        }
        std::vector<std::string> texts;
        for (const auto& v : cond.values) {
          if (b.AdmitsText(v)) texts.push_back(v);
        }
        b.texts = std::move(texts);
        break;
      }
      case ClaimCondition::Kind::kMultipleOf:
        b.multiple = Lcm(b.multiple, cond.number);
        break;
      case ClaimCondition::Kind::kAtMost:
        (cond.on_rank ? b.rank_max : b.max) =
            std::min(cond.on_rank ? b.rank_max : b.max, cond.number);
        break;
      case ClaimCondition::Kind::kAtLeast:
        (cond.on_rank ? b.rank_min : b.min) =
            std::max(cond.on_rank ? b.rank_min : b.min, cond.number);
        break;
    }
  }
  // A case leaving a param out takes its literal default (as Covers reads it);
  // one the profile decides (a dtype's C0, a reading) is resolved per case by
  // the runner (Suite::Effective), so a generator may leave it out and draw
  // the dtype that gives an admitted value.
  for (auto& [key, bounds] : domain.params) {
    const ParamSpec* param = spec.FindParam(key);
    if (!param) continue;
    if (!param->default_value) {
      bounds.admits_absent = !param->default_doc.empty() || !param->default_choice.empty();
      continue;
    }
    // &key = key: clang 14 (the fuzz build) cannot capture a structured binding in a lambda.
    bounds.admits_absent =
        std::all_of(claim.conditions.begin(), claim.conditions.end(),
                    [&, &key = key](const ClaimCondition& cond) {
                      return cond.key != key || Holds(cond, *param->default_value);
                    });
  }
  return domain;
}

}  // namespace

std::vector<CaseDomain> PortClaims::Domains(const RoutineSpec& spec,
                                            const std::string& profile) const {
  std::vector<CaseDomain> out;
  for (const RoutineClaim& claim : routines_) {
    if (!MatchField(claim.routine, spec.id) || !MatchField(claim.profile, profile)) continue;
    if (claim.conditions.empty()) return {CaseDomain{}};
    out.push_back(DomainOf(claim, spec));
  }
  return out;
}

bool PortClaims::Honours(const std::string& routine, const std::string& key) const {
  return std::any_of(honours_.begin(), honours_.end(), [&](const HonoursClaim& claim) {
    return MatchField(claim.routine, routine) && MatchField(claim.key, key);
  });
}

std::optional<std::string> PortClaims::Choice(const std::string& name) const {
  for (const ChoiceClaim& claim : choices_) {
    if (claim.name == name) return claim.value;
  }
  return std::nullopt;
}

std::string ValidateConditions(const std::vector<ClaimCondition>& conditions,
                               const RoutineSpec& spec) {
  for (const ClaimCondition& cond : conditions) {
    const ParamSpec* p = spec.FindParam(cond.key);
    if (!p) {
      return "'" + cond.key + "' is not a param of " + spec.id + " (npuconf list routines)";
    }
    if (cond.on_rank || cond.axis) {
      if (p->type != ParamType::kIntList) {
        return "condition '" + cond.text + "' needs an int-list param; " + cond.key + " is " +
               std::string(ToString(p->type));
      }
      if (cond.on_rank) continue;
      for (const std::string& value : cond.values) {
        int64_t number = 0;
        if (!ParseInt(value, &number) || std::to_string(number) != value)
          return "'" + value + "' is not an integer written as a case writes it (" + cond.key +
                 "[" + std::to_string(*cond.axis) + "] is an int)";
      }
      continue;
    }
    if (cond.kind != ClaimCondition::Kind::kInSet) {
      if (p->type != ParamType::kInt && p->type != ParamType::kIntList) {
        return "condition '" + cond.text + "' needs an integer param; " + cond.key + " is " +
               std::string(ToString(p->type));
      }
      continue;
    }
    for (const std::string& value : cond.values) {
      if (p->type == ParamType::kEnum &&
          std::find(p->values.begin(), p->values.end(), value) == p->values.end()) {
        return "'" + value + "' is not a value of " + cond.key;
      }
      if (p->type == ParamType::kDType) {
        const auto dtype = ParseDType(value);
        if (!dtype) return "unknown dtype '" + value + "'";
        // A case writes the dtype's name; any other spelling would match nothing.
        if (Name(*dtype) != value) {
          return "dtype '" + value + "' is written '" + std::string(Name(*dtype)) + "'";
        }
      }
      int64_t number = 0;
      if (p->type == ParamType::kInt) {
        if (!ParseInt(value, &number))
          return "'" + value + "' is not an integer (" + cond.key + " is int)";
        // Compared as a number; refused in any spelling but the one a case writes.
        if (std::to_string(number) != value)
          return "'" + value + "' is written '" + std::to_string(number) + "' (" + cond.key +
                 " is int)";
      }
      if (p->type == ParamType::kIntList) {
        const ParamValue list = Typed(value);
        if (list.kind != ParamValue::Kind::kIntList)
          return "'" + value + "' is not a list [a,b,...] of integers (" + cond.key +
                 " is an int list)";
        if (list.ToText() != value)
          return "'" + value + "' is written '" + list.ToText() + "' (" + cond.key +
                 " is an int list)";
      }
    }
  }
  return {};
}

std::string ValidateClaims(const std::vector<std::string>& texts,
                           const std::vector<const RoutineSpec*>& specs,
                           const std::vector<Profile>& profiles) {
  std::string error;
  const PortClaims claims = PortClaims::Parse(texts, &error);
  if (!error.empty()) return error;
  for (const RoutineClaim& claim : claims.routines()) {
    const RoutineSpec* spec = nullptr;
    if (claim.routine != "*") {
      for (const RoutineSpec* s : specs) {
        if (s->id == claim.routine) spec = s;
      }
      if (!spec) {
        return "claim '" + claim.text + "': unknown routine '" + claim.routine +
               "' (npuconf list routines)";
      }
    }
    if (claim.profile != "*") {
      const auto it = std::find_if(profiles.begin(), profiles.end(),
                                   [&](const Profile& p) { return p.name == claim.profile; });
      if (it == profiles.end()) {
        return "claim '" + claim.text + "': unknown profile '" + claim.profile +
               "' (npuconf list profiles)";
      }
      if (spec && it->family != spec->vendor) {
        return "claim '" + claim.text + "': " + spec->id + " runs on " + spec->vendor +
               " profiles, not on '" + claim.profile + "' (" + it->family + ")";
      }
    }
    // A claim says which inputs a port accepts, never which data it is fed:
    // a condition on the seed (or on verbatim values) would let a port pick
    // the few cases it passes.
    for (const ClaimCondition& cond : claim.conditions) {
      for (const RoutineSpec* s : specs) {
        if (spec && s != spec) continue;
        const ParamSpec* param = s->FindParam(cond.key);
        if (param && param->data) {
          return "claim '" + claim.text + "': '" + cond.key + "' picks the input data of " + s->id +
                 " (" + param->doc + "), not what a port accepts; a claim cannot narrow it";
        }
      }
    }
    // The params must exist on the claimed routine (on some routine for '*').
    if (spec) {
      if (std::string why = ValidateConditions(claim.conditions, *spec); !why.empty())
        return "claim '" + claim.text + "': " + why;
      continue;
    }
    for (const ClaimCondition& cond : claim.conditions) {
      std::string first_problem;
      bool fits_one = false;
      for (const RoutineSpec* s : specs) {
        if (!s->FindParam(cond.key)) continue;
        const std::string why = ValidateConditions({cond}, *s);
        fits_one |= why.empty();
        if (first_problem.empty()) first_problem = why;
      }
      if (!fits_one) {
        return "claim '" + claim.text + "': " +
               (first_problem.empty()
                    ? "'" + cond.key + "' is not a param of any routine (npuconf list routines)"
                    : first_problem);
      }
    }
  }
  for (const HonoursClaim& claim : claims.honours()) {
    bool fits = false;
    for (const RoutineSpec* s : specs) {
      if (!MatchField(claim.routine, s->id)) continue;
      for (const ParamSpec& param : s->params)
        fits |= param.profile_default && MatchField(claim.key, param.key);
    }
    if (!fits) {
      const bool routine_known = claim.routine == "*" ||
                                 std::any_of(specs.begin(), specs.end(), [&](const RoutineSpec* s) {
                                   return s->id == claim.routine;
                                 });
      if (!routine_known) {
        return "claim '" + claim.text + "': unknown routine '" + claim.routine +
               "' (npuconf list routines)";
      }
      return "claim '" + claim.text + "': '" + claim.key + "' is no param of " + claim.routine +
             " whose default the profile decides (those have profile_default in `npuconf list "
             "routines --json`)";
    }
  }
  for (const ChoiceClaim& claim : claims.choices()) {
    for (const ChoiceClaim& other : claims.choices()) {
      if (other.name == claim.name && other.value != claim.value) {
        return "claims '" + claim.text + "' and '" + other.text + "' name two readings of " +
               "choice " + claim.name + ": a port implements one";
      }
    }
    bool known = false;
    for (const Profile& profile : profiles) {
      const npuconf::Choice* choice = profile.FindChoice(claim.name);
      if (!choice) continue;
      known = true;
      if (const auto it = choice->cannot_check.find(claim.value);
          it != choice->cannot_check.end()) {
        return "claim '" + claim.text + "': profile " + profile.name + " lists reading '" +
               claim.value + "' of choice " + claim.name + " but npuconf cannot check it (" +
               it->second + "); claim another reading or none";
      }
      if (std::find(choice->readings.begin(), choice->readings.end(), claim.value) ==
          choice->readings.end()) {
        std::string readings;
        for (const auto& r : choice->readings) readings += (readings.empty() ? "" : ", ") + r;
        return "claim '" + claim.text + "': profile " + profile.name + " lists no reading '" +
               claim.value + "' of choice " + claim.name + " (readings: " + readings + ")";
      }
    }
    if (!known) {
      return "claim '" + claim.text + "': unknown choice '" + claim.name +
             "' (npuconf list profiles)";
    }
  }
  return {};
}

std::optional<Profile> ProfileAsClaimed(const Profile& profile, const PortClaims& claims) {
  nlohmann::json raw = profile.raw;
  bool changed = false;
  if (!raw.contains("choices")) return std::nullopt;
  for (auto& choice : raw["choices"]) {
    const auto claimed = claims.Choice(choice.value("name", ""));
    if (!claimed) continue;
    const Choice* current = profile.FindChoice(choice.value("name", ""));
    if (!current || current->value == *claimed) continue;
    if (std::find(current->readings.begin(), current->readings.end(), *claimed) ==
        current->readings.end()) {
      continue;  // ValidateClaims refuses it; never check an unlisted reading
    }
    // Readings are stored as text; a numeric reading goes back as a number.
    int64_t number = 0;
    choice["value"] = choice["value"].is_string() || !ParseInt(*claimed, &number)
                          ? nlohmann::json(*claimed)
                          : nlohmann::json(number);
    changed = true;
  }
  if (!changed) return std::nullopt;
  return ParseProfile(profile.name, raw);
}

}  // namespace npuconf
