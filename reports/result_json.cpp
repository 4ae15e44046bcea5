#include "reports/result_json.h"

#include <limits>
#include <map>
#include <set>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "core/digest.h"
#include "core/json_text.h"

namespace npuconf::report {
namespace {

template <typename T>
struct IsList : std::false_type {};
template <typename U>
struct IsList<std::vector<U>> : std::true_type {};
template <typename U>
struct IsList<std::set<U>> : std::true_type {};
template <typename T>
struct IsMap : std::false_type {};
template <typename U>
struct IsMap<std::map<std::string, U>> : std::true_type {};

// Whether every number `j` holds where T holds an integer is an integer within
// T's range. nlohmann converts a float to an integer with static_cast, which is
// undefined behaviour when the value does not fit (1e300, NaN), and an integer
// to a narrower or unsigned one modulo 2^n; report.json writes neither.
// Other mismatches are left to get<T>(), which throws a type_error for them.
template <typename T>
bool IntegersFit(const nlohmann::json& j) {
  if constexpr (std::is_same_v<T, bool>) {
    return true;
  } else if constexpr (std::is_integral_v<T>) {
    if (!j.is_number()) return true;
    if (j.is_number_float()) return false;
    if (j.is_number_unsigned())
      return j.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<T>::max());
    const int64_t v = j.get<int64_t>();
    if (v < 0)
      return std::is_signed_v<T> && v >= static_cast<int64_t>(std::numeric_limits<T>::min());
    return static_cast<uint64_t>(v) <= static_cast<uint64_t>(std::numeric_limits<T>::max());
  } else if constexpr (IsList<T>::value) {
    if (!j.is_array()) return true;
    for (const auto& e : j) {
      if (!IntegersFit<typename T::value_type>(e)) return false;
    }
    return true;
  } else if constexpr (IsMap<T>::value) {
    if (!j.is_object()) return true;
    for (const auto& [k, v] : j.items()) {
      if (!IntegersFit<typename T::mapped_type>(v)) return false;
    }
    return true;
  } else {
    return true;
  }
}

template <typename T>
void Read(const nlohmann::json& item, const char* key, T* out, bool optional = false) {
  const auto it = item.find(key);
  if (it == item.end()) {
    if (optional) return;
    throw std::runtime_error(std::string("result item has no '") + key + "'");
  }
  if (!IntegersFit<T>(*it)) {
    // A worker's CBOR strings are not checked for UTF-8: dumped, they are repaired.
    std::string text = it->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > 80) text = text.substr(0, 77) + "...";
    throw std::runtime_error(std::string("result item field '") + key + "': " + text +
                             " holds a number that is no integer of the field's range");
  }
  try {
    *out = it->template get<T>();
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(std::string("result item field '") + key + "': " + e.what());
  }
}

Outcome OutcomeFromString(const std::string& text) {
  for (Outcome o : {Outcome::kPass, Outcome::kFail, Outcome::kGaveUp, Outcome::kNotClaimed,
                    Outcome::kNotCovered, Outcome::kNotApplicable, Outcome::kVacuous,
                    Outcome::kTooLarge, Outcome::kWaived}) {
    if (ToString(o) == text) return o;
  }
  throw std::runtime_error("unknown result '" + text + "'");
}

}  // namespace

nlohmann::json WaiverNoteToJson(const WaiverNote& w) {
  nlohmann::json j = {{"property", w.property},
                      {"profile", w.profile},
                      {"reason", w.reason},
                      {"expires", w.expires}};
  if (!w.when.empty()) j["when"] = w.when;
  if (!w.tracking.empty()) j["tracking"] = w.tracking;
  return j;
}

WaiverNote WaiverNoteFromJson(const nlohmann::json& j) {
  WaiverNote w;
  Read(j, "property", &w.property);
  Read(j, "profile", &w.profile);
  Read(j, "when", &w.when, true);
  Read(j, "reason", &w.reason);
  Read(j, "tracking", &w.tracking, true);
  Read(j, "expires", &w.expires);
  return w;
}

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
  Read(item, "coverage_unchecked", &r.coverage_unchecked, true);
  Read(item, "coverage_witnesses", &r.coverage_witnesses, true);
  if (auto it = item.find("waiver"); it != item.end()) r.waiver = WaiverNoteFromJson(*it);
  if (auto it = item.find("unwaived"); it != item.end()) {
    std::string raw;
    Read(*it, "result", &raw);
    r.unwaived = Unwaived{.outcome = OutcomeFromString(raw)};
    Read(*it, "message", &r.unwaived->message);
  }
  if (auto it = item.find("failing_cases"); it != item.end()) {
    if (!it->is_array()) throw std::runtime_error("\"failing_cases\" must be an array");
    for (const auto& f : *it) {
      FailingCase one;
      Read(f, "kind", &one.kind);
      Read(f, "case", &one.text);
      if (auto c = f.find("case_json"); c != f.end()) one.case_json = *c;
      r.failing_cases.push_back(std::move(one));
    }
  }
  Read(item, "unwaived_case", &r.unwaived_case, true);
  Read(item, "unit", &r.unit, true);
  Read(item, "basis", &r.basis, true);
  Read(item, "non_deterministic", &r.non_deterministic, true);
  Read(item, "timed_out", &r.timed_out, true);
  Read(item, "successful_calls", &r.successful_calls, true);
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

RunReport RunReportFromJson(const nlohmann::json& doc) {
  if (!doc.is_object() || !doc.contains("schema") || doc["schema"] != "npuconf-report")
    throw std::runtime_error("not an npuconf report.json (schema npuconf-report)");
  if (!doc.contains("schema_version") || doc["schema_version"] != kSchemaVersion) {
    throw std::runtime_error(
        "report.json schema_version " +
        (doc.contains("schema_version")
             ? doc["schema_version"].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)
             : std::string("missing")) +
        ", this npuconf reads " + std::to_string(kSchemaVersion));
  }
  RunReport run;
  Read(doc, "suite_version", &run.suite_version);
  Read(doc, "isa", &run.isa, true);
  nlohmann::json port;
  Read(doc, "port", &port);
  Read(port, "name", &run.port_name);
  Read(port, "version", &run.port_version);
  Read(port, "claims", &run.port_claims);
  Read(doc, "profiles", &run.profiles);
  Read(doc, "seed", &run.seed);
  Read(doc, "cases_per_property", &run.cases);
  Read(doc, "max_case_bytes", &run.max_case_bytes);
  Read(doc, "command", &run.command, true);
  nlohmann::json results;
  Read(doc, "results", &results);
  for (const auto& item : results) run.results.push_back(ResultFromJson(item));
  if (auto it = doc.find("coverage"); it != doc.end()) {
    for (const auto& row : *it) {
      CoverageRow c;
      Read(row, "routine", &c.routine);
      Read(row, "profile", &c.profile);
      Read(row, "class", &c.class_name);
      Read(row, "doc", &c.doc);
      Read(row, "hits", &c.hits);
      Read(row, "required", &c.required);
      Read(row, "status", &c.status, true);
      run.coverage.push_back(std::move(c));
    }
  }
  Read(doc, "coverage_gate", &run.coverage_gate, true);
  Read(doc, "coverage_filter", &run.coverage_filter, true);
  if (auto it = doc.find("shard"); it != doc.end()) {
    Read(*it, "index", &run.shard_index);
    Read(*it, "count", &run.shard_count);
    if (run.shard_count < 1 || run.shard_count > kMaxShards || run.shard_index < 1 ||
        run.shard_index > run.shard_count) {
      throw std::runtime_error(
          "shard " + std::to_string(run.shard_index) + "/" + std::to_string(run.shard_count) +
          " is not K/N with 1 <= K <= N <= kMaxShards (" + std::to_string(kMaxShards) + ")");
    }
    Read(*it, "units_total", &run.units_total);
    Read(*it, "selection", &run.selection);
  }
  if (auto it = doc.find("waivers"); it != doc.end()) {
    Read(*it, "file", &run.waivers_file);
    nlohmann::json stale = nlohmann::json::array();
    Read(*it, "stale", &stale, true);
    for (const auto& w : stale) run.stale_waivers.push_back(WaiverNoteFromJson(w));
  }
  Read(doc, "fingerprint", &run.fingerprint, true);
  if (auto it = doc.find("today"); it != doc.end()) {
    Read(*it, "date", &run.today);
    std::string set_by;
    Read(*it, "set_by", &set_by, true);
    run.today_forced = set_by == "--today";
  }
  if (auto it = doc.find("kill_rate"); it != doc.end() && it->value("measured", false)) {
    run.kill_rate.measured = true;
    Read(*it, "killed", &run.kill_rate.killed);
    Read(*it, "known", &run.kill_rate.known);
    Read(*it, "basis", &run.kill_rate.basis);
    Read(*it, "file", &run.kill_rate.file);
    for (const auto& name : it->value("survivors", nlohmann::json::array()))
      if (name.is_string()) run.kill_rate.survivors.push_back(name.get<std::string>());
  }
  return run;
}

PropertyResult ResultFromCbor(std::span<const uint8_t> bytes) {
  std::string error;
  const auto item = ParseCbor(bytes, &error);
  if (!item) throw std::runtime_error("not CBOR: " + error);
  return ResultFromJson(*item);
}

RunReport RunReportFromText(std::string_view text, bool* complete) {
  std::string error;
  const auto doc = ParseJsonText(text, &error);
  if (!doc) throw std::runtime_error("not JSON: " + error);
  if (complete) {
    const auto it = doc->find("complete");
    if (it != doc->end() && !it->is_boolean())
      throw std::runtime_error("\"complete\" must be true or false");
    *complete = it == doc->end() || it->get<bool>();
  }
  return RunReportFromJson(*doc);
}

std::string ReportDigest(const nlohmann::json& doc) {
  nlohmann::json rest = doc;
  if (rest.is_object()) rest.erase("digest");
  // The writer's replacement of invalid UTF-8, so that a file read back digests as written.
  const std::string text = rest.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return DigestText({reinterpret_cast<const uint8_t*>(text.data()), text.size()});
}

std::string CheckReportDigest(const nlohmann::json& doc) {
  const auto it = doc.find("digest");
  if (it == doc.end() || !it->is_string())
    return "has no \"digest\" (not written by this npuconf's report writer)";
  const std::string want = ReportDigest(doc);
  if (it->get<std::string>() != want) {
    return "was changed after npuconf wrote it: its \"digest\" is " + it->get<std::string>() +
           ", its content digests to " + want + " (a corrupted or edited report.json)";
  }
  return {};
}

}  // namespace npuconf::report
