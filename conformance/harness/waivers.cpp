#include "conformance/harness/waivers.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <nlohmann/json.hpp>

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

// Whether the failure `r` is the one entry `w` names.
bool Matches(const Waiver& w, const Suite& suite, const report::PropertyResult& r) {
  if (!GlobMatch(w.property, r.property) || !GlobMatch(w.profile, r.profile)) return false;
  if (w.conditions.empty()) return true;
  Case c;
  if (r.counterexample_case.is_null() || !CaseFromJson(r.counterexample_case, &c).empty())
    return false;
  const Routine* routine = suite.FindRoutine(c.routine);
  return routine && ConditionsHold(w.conditions, c, *routine->spec);
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
    // A misspelt property would waive nothing, silently.
    if (std::none_of(suite.properties().begin(), suite.properties().end(),
                     [&](const Property& p) { return GlobMatch(w.property, p.name); })) {
      return where + ": property '" + w.property +
             "' matches no property (npuconf list properties)";
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
  if (const char* forced = std::getenv("NPUCONF_TODAY"); forced && IsDate(forced)) return forced;
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[16];
  std::strftime(text, sizeof(text), "%Y-%m-%d", &utc);
  return text;
}

void ApplyWaivers(const WaiverSet& waivers, const std::string& today, const Suite& suite,
                  report::PropertyResult* result, std::vector<bool>* used) {
  // A result carries its waiver once (a merge applies waivers again).
  if (!report::IsFailure(result->outcome) || !result->waiver.reason.empty()) return;
  for (size_t i = 0; i < waivers.entries.size(); ++i) {
    const Waiver& w = waivers.entries[i];
    if (!Matches(w, suite, *result)) continue;
    (*used)[i] = true;
    result->waiver = NoteOf(w);
    if (w.expires < today) {  // ISO dates order as text; the last valid day is `expires`
      result->message += " (a waiver of " + waivers.path + " named this failure, but expired on " +
                         w.expires + ": " + w.reason + ")";
    } else {
      result->outcome = report::Outcome::kWaived;
    }
    return;
  }
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
