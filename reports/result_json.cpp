#include "reports/result_json.h"

#include <stdexcept>

namespace npuconf::report {
namespace {

template <typename T>
void Read(const nlohmann::json& item, const char* key, T* out, bool optional = false) {
  const auto it = item.find(key);
  if (it == item.end()) {
    if (optional) return;
    throw std::runtime_error(std::string("result item has no '") + key + "'");
  }
  try {
    *out = it->template get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("result item field '") + key + "': " + e.what());
  }
}

Outcome OutcomeFromString(const std::string& text) {
  for (Outcome o :
       {Outcome::kPass, Outcome::kFail, Outcome::kGaveUp, Outcome::kNotClaimed,
        Outcome::kNotCovered, Outcome::kNotApplicable, Outcome::kVacuous, Outcome::kTooLarge}) {
    if (ToString(o) == text) return o;
  }
  throw std::runtime_error("unknown result '" + text + "'");
}

}  // namespace

// The writer stays the one of report.json: a one-result report, its item.
nlohmann::json ResultToJson(const PropertyResult& result) {
  RunReport one;
  one.results = {result};
  return ToJson(one)["results"][0];
}

PropertyResult ResultFromJson(const nlohmann::json& item) {
  if (!item.is_object()) throw std::runtime_error("result item is not an object");
  PropertyResult r;
  Read(item, "property", &r.property);
  Read(item, "routine", &r.routine);
  Read(item, "profile", &r.profile);
  Read(item, "description", &r.description);
  std::string outcome;
  Read(item, "result", &outcome);
  r.outcome = OutcomeFromString(outcome);
  Read(item, "explicit_cases", &r.explicit_cases);
  Read(item, "explicit_skipped", &r.explicit_skipped);
  Read(item, "random_cases", &r.random_cases);
  Read(item, "outside_claims", &r.outside_claims);
  Read(item, "too_large", &r.too_large);
  Read(item, "too_large_cases", &r.too_large_cases, true);
  Read(item, "seed", &r.seed);
  Read(item, "seconds", &r.seconds);
  // The writer leaves out empty strings and null JSON.
  Read(item, "message", &r.message, true);
  Read(item, "counterexample", &r.counterexample, true);
  if (auto it = item.find("counterexample_case"); it != item.end()) r.counterexample_case = *it;
  if (auto it = item.find("evidence"); it != item.end()) r.evidence = *it;
  Read(item, "reproduce", &r.reproduce, true);
  Read(item, "first_explicit_failure", &r.first_explicit_failure, true);
  Read(item, "rapidcheck_reproduce", &r.rapidcheck_reproduce, true);
  Read(item, "coverage_hits", &r.coverage_hits, true);
  Read(item, "coverage_admitted", &r.coverage_admitted, true);
  Read(item, "coverage_witnesses", &r.coverage_witnesses, true);
  nlohmann::json choices;
  Read(item, "choices", &choices);
  for (const auto& c : choices) {
    ChoiceUsed used;
    Read(c, "name", &used.name);
    Read(c, "value", &used.value);
    Read(c, "profile_default", &used.profile_default);
    Read(c, "claimed", &used.claimed);
    Read(c, "readings", &used.readings);
    Read(c, "source", &used.source);
    r.choices.push_back(std::move(used));
  }
  return r;
}

}  // namespace npuconf::report
