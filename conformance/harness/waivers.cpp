#include "conformance/harness/waivers.h"

#include <chrono>
#include <ctime>
#include <nlohmann/json.hpp>

#include "conformance/harness/coverage.h"
#include "conformance/harness/runner.h"
#include "conformance/harness/suite.h"
#include "core/case_json.h"
#include "core/json_text.h"

namespace npuconf {
namespace {

// YYYY-MM-DD with a real month and day.
bool IsDate(const std::string& text) {
  if (text.size() != 10 || text[4] != '-' || text[7] != '-') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9}) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  const int month = std::stoi(text.substr(5, 2)), day = std::stoi(text.substr(8, 2));
  const int year = std::stoi(text.substr(0, 4));
  const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= days[month - 1] + (month == 2 && leap ? 1 : 0);
}

report::WaiverNote NoteOf(const Waiver& w) {
  return {.property = w.property,
          .profile = w.profile,
          .when = w.when,
          .reason = w.reason,
          .tracking = w.tracking,
          .expires = w.expires};
}

// Whether entry `w` names failing case `c` (null: a failure with no case,
// which meets no `when`) of `property` on `profile`.
bool Names(const Waiver& w, const Suite& suite, const std::string& property,
           const std::string& profile, const nlohmann::json* c) {
  if (!GlobMatch(w.property, property) || !GlobMatch(w.profile, profile)) return false;
  if (w.conditions.empty()) return true;
  Case parsed;
  if (!c || c->is_null() || !CaseFromJson(*c, &parsed).empty()) return false;
  const Routine* routine = suite.FindRoutine(parsed.routine);
  if (!routine) return false;
  // As claims do, a `when` sees the case's effective values: `c0=32` names an
  // INT8 case that leaves c0 to the profile (Suite::Effective).
  const Profile* on = FindProfile(profile);
  return ConditionsHold(w.conditions, on ? suite.Effective(parsed, *on) : parsed, *routine->spec);
}

// The first entry naming the case, an unexpired one before any expired one;
// -1: none.
int EntryFor(const WaiverSet& waivers, const std::string& today, const Suite& suite,
             const std::string& property, const std::string& profile, const nlohmann::json* c) {
  int expired = -1;
  for (size_t i = 0; i < waivers.entries.size(); ++i) {
    const Waiver& w = waivers.entries[i];
    if (!Names(w, suite, property, profile, c)) continue;
    if (!(w.expires < today)) return static_cast<int>(i);
    if (expired < 0) expired = static_cast<int>(i);
  }
  return expired;
}

}  // namespace

std::string ParseWaivers(const std::string& text, const Suite& suite, WaiverSet* out) {
  std::string why;
  const auto parsed = ParseJsonText(text, &why);
  if (!parsed) return "not JSON: " + why;
  const nlohmann::json& doc = *parsed;
  if (!doc.is_object()) return "the document must be an object {\"waivers\": [...]}";
  for (const auto& [key, value] : doc.items()) {
    if (key != "waivers") return "unknown key '" + key + "' (the document has only \"waivers\")";
  }
  if (!doc.contains("waivers") || !doc["waivers"].is_array())
    return "\"waivers\" must be an array of entries";
  static const char* kKeys[] = {"property", "profile", "when", "reason", "tracking", "expires"};
  size_t index = 0;
  for (const auto& entry : doc["waivers"]) {
    const std::string where = "waiver " + std::to_string(index++);
    if (!entry.is_object()) return where + ": not an object";
    for (const auto& [key, value] : entry.items()) {
      if (std::find(std::begin(kKeys), std::end(kKeys), key) == std::end(kKeys)) {
        return where + ": unknown key '" + key +
               "' (keys: property, profile, when, reason, tracking, expires)";
      }
      if (!value.is_string()) return where + ": '" + key + "' must be a string";
    }
    Waiver w;
    for (const char* required : {"property", "profile", "reason", "expires"}) {
      if (!entry.contains(required) || entry[required].get<std::string>().empty())
        return where + ": '" + required + "' is required";
    }
    w.property = entry["property"].get<std::string>();
    w.profile = entry["profile"].get<std::string>();
    w.reason = entry["reason"].get<std::string>();
    w.expires = entry["expires"].get<std::string>();
    w.when = entry.value("when", "");
    w.tracking = entry.value("tracking", "");
    if (!IsDate(w.expires)) return where + ": expires '" + w.expires + "' is not a date YYYY-MM-DD";
    // A misspelt property would waive nothing, silently. The coverage gate's
    // results (ROUTINE.coverage, coverage.h) are properties a waiver may name.
    const bool names_property =
        std::any_of(suite.properties().begin(), suite.properties().end(),
                    [&](const Property& p) { return GlobMatch(w.property, p.name); });
    const bool names_coverage = std::any_of(
        suite.coverage().begin(), suite.coverage().end(),
        [&](const RoutineCoverage& rc) { return GlobMatch(w.property, rc.routine + ".coverage"); });
    if (!names_property && !names_coverage) {
      return where + ": property '" + w.property +
             "' matches no property (npuconf list properties) and no coverage gate "
             "(ROUTINE.coverage)";
    }
    if (!w.when.empty() && !names_property) {
      return where + ": when '" + w.when + "' on '" + w.property +
             "' can never hold: a coverage gap has no failing case to meet it";
    }
    if (!w.when.empty()) {
      std::string error;
      w.conditions = ParseConditions(w.when, &error);
      if (!error.empty()) return where + ": when '" + w.when + "': " + error;
      // Each condition must mean something on a routine the property glob names.
      bool any = false;
      std::string problem;
      for (const Property& p : suite.properties()) {
        if (!GlobMatch(w.property, p.name)) continue;
        const std::string why =
            ValidateConditions(w.conditions, *suite.FindRoutine(p.routine)->spec);
        any |= why.empty();
        if (problem.empty()) problem = why;
      }
      if (!any && !problem.empty()) return where + ": when '" + w.when + "': " + problem;
    }
    out->entries.push_back(std::move(w));
  }
  return {};
}

std::string TodayUtc() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof(text), "%Y-%m-%d", &utc);
  return text;
}

std::string ParseToday(const std::string& text, std::string* date) {
  if (!IsDate(text)) return "--today '" + text + "' is not a date YYYY-MM-DD";
  *date = text;
  return {};
}

bool WaivesCase(const WaiverSet& waivers, const std::string& today, const Suite& suite,
                const std::string& property, const std::string& profile, const Case& c) {
  const nlohmann::json json = ToJson(c);
  const int i = EntryFor(waivers, today, suite, property, profile, &json);
  return i >= 0 && !(waivers.entries[static_cast<size_t>(i)].expires < today);
}

void ApplyWaivers(const WaiverSet& waivers, const std::string& today, const Suite& suite,
                  report::PropertyResult* result, std::vector<bool>* used) {
  // A result carries its waiver once (a merge applies waivers again).
  if (!report::IsFailure(result->outcome) || !result->waiver.reason.empty()) return;
  // The failing cases to judge: those the runner recorded; a report without
  // them, its counterexample; a failure with no case at all (gave up,
  // vacuous, a coverage gap, a worker that died on no known case) is one case
  // that meets no `when`.
  std::vector<report::FailingCase> cases = result->failing_cases;
  if (cases.empty() && !result->counterexample_case.is_null()) {
    cases.push_back({.kind = "counterexample",
                     .text = result->counterexample,
                     .case_json = result->counterexample_case});
  }
  // Giving up and checking nothing are failures of their own, with no case.
  if (cases.empty() || result->outcome != report::Outcome::kFail)
    cases.push_back({.kind = report::ToString(result->outcome), .text = "(no case)"});
  std::vector<int> entry(cases.size());
  bool any = false;
  for (size_t i = 0; i < cases.size(); ++i) {
    const nlohmann::json* c = cases[i].case_json.is_null() ? nullptr : &cases[i].case_json;
    entry[i] = EntryFor(waivers, today, suite, result->property, result->profile, c);
    if (entry[i] >= 0) (*used)[static_cast<size_t>(entry[i])] = any = true;
  }
  if (!any) return;
  // Every failing case needs an unexpired entry: one left out keeps the
  // result failing, and the reports name it.
  for (size_t i = 0; i < cases.size(); ++i) {
    if (entry[i] >= 0) continue;
    size_t named = 0;
    for (int e : entry) named += e >= 0;
    result->unwaived_case = cases[i].kind + ": " + cases[i].text;
    result->message += " (a waiver of " + waivers.path + " names " + std::to_string(named) +
                       " of its " + std::to_string(cases.size()) + " failing cases, not the " +
                       result->unwaived_case + ", so the property stays failing)";
    return;
  }
  for (size_t i = 0; i < cases.size(); ++i) {
    const Waiver& w = waivers.entries[static_cast<size_t>(entry[i])];
    if (!(w.expires < today)) continue;
    result->waiver = NoteOf(w);
    result->message += " (a waiver of " + waivers.path + " named this failure, but expired on " +
                       w.expires + ": " + w.reason + ")";
    return;
  }
  result->waiver = NoteOf(waivers.entries[static_cast<size_t>(entry[0])]);
  result->outcome = report::Outcome::kWaived;
}

void FinishWaivers(const WaiverSet& waivers, const std::vector<bool>& used, bool shard,
                   report::RunReport* run) {
  run->waivers_file = waivers.path;
  run->stale_waivers.clear();
  for (size_t i = 0; i < waivers.entries.size(); ++i) {
    if (!used[i]) run->stale_waivers.push_back(NoteOf(waivers.entries[i]));
  }
  if (!waivers.strict || shard || run->stale_waivers.empty()) return;
  report::PropertyResult fail;
  fail.property = "npuconf.waivers";
  fail.routine = "npuconf";
  fail.profile = "*";
  fail.description = "every waiver of --waivers matches a failure (--strict-waivers)";
  fail.outcome = report::Outcome::kFail;
  fail.message = std::to_string(run->stale_waivers.size()) + " waiver(s) of " + waivers.path +
                 " matched no failure: ";
  for (size_t i = 0; i < run->stale_waivers.size(); ++i) {
    const auto& w = run->stale_waivers[i];
    fail.message += (i ? "; " : "") + w.property + " @ " + w.profile +
                    (w.when.empty() ? "" : " when " + w.when) + " (" + w.reason + ")";
  }
  run->results.push_back(std::move(fail));
}

void ApplyWaiversKeepingRaw(const WaiverSet& waivers, const std::string& today, const Suite& suite,
                            report::PropertyResult* result, std::vector<bool>* used) {
  report::Unwaived raw{.outcome = result->outcome, .message = result->message};
  if (result->unwaived) raw = *result->unwaived;
  ApplyWaivers(waivers, today, suite, result, used);
  if (result->outcome != raw.outcome || result->message != raw.message)
    result->unwaived = std::move(raw);
}

void Unwaive(report::PropertyResult* result) {
  if (result->unwaived) {
    result->outcome = result->unwaived->outcome;
    result->message = std::move(result->unwaived->message);
    result->unwaived.reset();
  }
  result->waiver = {};
}

}  // namespace npuconf
