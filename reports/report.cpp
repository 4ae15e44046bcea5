#include "reports/report.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

#include "reports/matrix.h"
#include "reports/result_json.h"
#include "reports/text.h"

namespace npuconf::report {
namespace {

// junit.xml text and attributes: reports/text.h's HtmlEscape (the five XML
// entities, &#39; for the quote) on sanitised UTF-8 without control
// characters, which XML 1.0 does not allow either.
std::string XmlEscape(const std::string& text) { return HtmlEscape(text); }

std::string ChoicesLine(const PropertyResult& r) {
  std::string out;
  for (const auto& c : r.choices) {
    out += (out.empty() ? "" : ", ") + c.name + "=" + c.value;
    if (c.claimed)
      out += " (claimed reading " + c.value + "; profile default " + c.profile_default + ")";
  }
  return out;
}

}  // namespace

std::string ToString(Outcome outcome) {
  switch (outcome) {
    case Outcome::kPass:
      return "pass";
    case Outcome::kFail:
      return "fail";
    case Outcome::kGaveUp:
      return "gave_up";
    case Outcome::kNotClaimed:
      return "not_claimed";
    case Outcome::kNotCovered:
      return "not_covered";
    case Outcome::kNotApplicable:
      return "not_applicable";
    case Outcome::kVacuous:
      return "vacuous";
    case Outcome::kTooLarge:
      return "skipped_too_large";
    case Outcome::kWaived:
      return "waived";
  }
  return "?";
}

bool IsFailure(Outcome outcome) {
  return outcome == Outcome::kFail || outcome == Outcome::kGaveUp || outcome == Outcome::kVacuous;
}

bool AnyFailure(const RunReport& report) {
  for (const auto& r : report.results) {
    if (IsFailure(r.outcome)) return true;
  }
  return false;
}

bool EmptyShard(const RunReport& report) {
  if (report.shard_count == 0) return false;
  return std::none_of(report.results.begin(), report.results.end(), [](const PropertyResult& r) {
    return r.outcome != Outcome::kNotClaimed && r.outcome != Outcome::kNotApplicable &&
           r.outcome != Outcome::kNotCovered;
  });
}

nlohmann::json ToJson(const RunReport& report) {
  nlohmann::json doc;
  doc["schema"] = "npuconf-report";
  doc["schema_version"] = kSchemaVersion;
  doc["suite_version"] = report.suite_version;
  doc["isa"] = report.isa;
  doc["port"] = {
      {"name", report.port_name}, {"version", report.port_version}, {"claims", report.port_claims}};
  doc["profiles"] = report.profiles;
  doc["seed"] = report.seed;
  doc["cases_per_property"] = report.cases;
  doc["max_case_bytes"] = report.max_case_bytes;
  doc["command"] = report.command;
  // Conformant only when something was checked and nothing failed.
  doc["conformant"] = VerdictOf(report) == Verdict::kConformant;
  doc["verdict"] = ToString(VerdictOf(report));
  std::map<std::string, int> counts;
  nlohmann::json results = nlohmann::json::array();
  for (const auto& r : report.results) {
    ++counts[ToString(r.outcome)];
    nlohmann::json item = {
        {"property", r.property},
        {"routine", r.routine},
        {"profile", r.profile},
        {"description", r.description},
        {"result", ToString(r.outcome)},
        {"explicit_cases", r.explicit_cases},
        {"explicit_skipped", r.explicit_skipped},
        {"random_cases", r.random_cases},
        {"outside_claims", r.outside_claims},
        {"too_large", r.too_large},
        {"successful_calls", r.successful_calls},
        {"too_large_cases", r.too_large_cases},
        {"seed", r.seed},
        {"seconds", r.seconds},
    };
    if (!r.message.empty()) item["message"] = r.message;
    if (!r.counterexample.empty()) item["counterexample"] = r.counterexample;
    if (!r.counterexample_case.is_null()) item["counterexample_case"] = r.counterexample_case;
    if (!r.evidence.is_null()) item["evidence"] = r.evidence;
    if (!r.reproduce.empty()) item["reproduce"] = r.reproduce;
    if (!r.first_explicit_failure.empty())
      item["first_explicit_failure"] = r.first_explicit_failure;
    if (!r.rapidcheck_reproduce.empty()) item["rapidcheck_reproduce"] = r.rapidcheck_reproduce;
    nlohmann::json choices = nlohmann::json::array();
    for (const auto& c : r.choices) {
      choices.push_back({{"name", c.name},
                         {"value", c.value},
                         {"profile_default", c.profile_default},
                         {"claimed", c.claimed},
                         {"readings", c.readings},
                         {"source", c.source}});
    }
    item["choices"] = choices;
    if (!r.coverage_hits.empty()) item["coverage_hits"] = r.coverage_hits;
    if (!r.coverage_admitted.empty()) item["coverage_admitted"] = r.coverage_admitted;
    if (!r.coverage_unchecked.empty()) item["coverage_unchecked"] = r.coverage_unchecked;
    if (r.coverage_witnesses > 0) item["coverage_witnesses"] = r.coverage_witnesses;
    if (!r.waiver.reason.empty()) item["waiver"] = WaiverNoteToJson(r.waiver);
    if (r.unwaived) {
      item["unwaived"] = {{"result", ToString(r.unwaived->outcome)},
                          {"message", r.unwaived->message}};
    }
    if (!r.failing_cases.empty()) {
      nlohmann::json cases = nlohmann::json::array();
      for (const auto& f : r.failing_cases)
        cases.push_back({{"kind", f.kind}, {"case", f.text}, {"case_json", f.case_json}});
      item["failing_cases"] = cases;
    }
    if (!r.unwaived_case.empty()) item["unwaived_case"] = r.unwaived_case;
    if (r.unit >= 0) item["unit"] = r.unit;
    if (!r.basis.empty()) item["basis"] = r.basis;
    if (r.non_deterministic) item["non_deterministic"] = true;
    if (r.timed_out) item["timed_out"] = true;
    results.push_back(item);
  }
  doc["summary"] = counts;
  doc["results"] = results;
  if (!report.coverage_gate.empty()) {
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : report.coverage) {
      rows.push_back({{"routine", row.routine},
                      {"profile", row.profile},
                      {"class", row.class_name},
                      {"doc", row.doc},
                      {"hits", row.hits},
                      {"required", row.required},
                      {"status", row.status}});
    }
    doc["coverage"] = rows;
    doc["coverage_gate"] = report.coverage_gate;
  }
  if (!report.coverage_filter.empty()) doc["coverage_filter"] = report.coverage_filter;
  if (report.shard_count > 0) {
    doc["shard"] = {{"index", report.shard_index},
                    {"count", report.shard_count},
                    {"units_total", report.units_total},
                    {"selection", report.selection}};
  }
  if (!report.waivers_file.empty()) {
    nlohmann::json stale = nlohmann::json::array();
    for (const auto& w : report.stale_waivers) stale.push_back(WaiverNoteToJson(w));
    doc["waivers"] = {{"file", report.waivers_file}, {"stale", stale}};
  }
  if (!report.fingerprint.empty()) doc["fingerprint"] = report.fingerprint;
  if (!report.today.empty()) {
    doc["today"] = {{"date", report.today},
                    {"set_by", report.today_forced ? "--today" : "clock"},
                    {"text", TodayText(report)}};
  }
  const KillRate& k = report.kill_rate;
  doc["kill_rate"] = {{"measured", k.measured}, {"text", KillRateText(k)}};
  if (k.measured) {
    doc["kill_rate"].update({{"killed", k.killed},
                             {"known", k.known},
                             {"survivors", k.survivors},
                             {"basis", k.basis},
                             {"file", k.file}});
  }
  return doc;
}

std::string TodayText(const RunReport& report) {
  if (report.today.empty()) return "";
  return "waivers judged on " + report.today +
         (report.today_forced ? " (set by --today, not the clock)" : " (UTC, the clock)");
}

std::string KillRateText(const KillRate& rate) {
  if (!rate.measured) {
    return "Gate strength not measured: npuconf selftest --out DIR, then npuconf run --selftest "
           "DIR/selftest.json";
  }
  std::string text = "This run's properties kill " + std::to_string(rate.killed) + " of " +
                     std::to_string(rate.known) +
                     " known faults (built-in mutants) in the routines the port claims";
  if (!rate.survivors.empty()) {
    text += "; not killed:";
    for (const auto& name : rate.survivors) text += " " + name;
  }
  return text + " (" + rate.basis + ")";
}

std::string ToJunitXml(const RunReport& report, bool complete,
                       const std::string& incomplete_reason) {
  // One test case per result of the run's selection: one the port does not
  // claim is skipped with its reason, as one not applicable is (a CI counting
  // test cases sees the same number for every port).
  int failures = 0;
  int skipped = 0;
  int not_claimed = 0;
  size_t listed = 0;
  for (const auto& r : report.results) {
    not_claimed += r.outcome == Outcome::kNotClaimed;
    ++listed;
    failures += IsFailure(r.outcome);
    skipped += r.outcome == Outcome::kNotCovered || r.outcome == Outcome::kNotApplicable ||
               r.outcome == Outcome::kTooLarge || r.outcome == Outcome::kWaived ||
               r.outcome == Outcome::kNotClaimed;
  }
  // A run that has not finished, or that checked nothing, is no pass for a CI
  // reading only junit.xml: one failing test case of the run itself says so.
  std::string run_failure;
  if (!complete && !incomplete_reason.empty()) {
    run_failure = "the run is incomplete: " + incomplete_reason;
  } else if (!complete) {
    run_failure = "the run has not finished (or the runner died): these are the results so far";
  } else if (VerdictOf(report) == Verdict::kNothingChecked && !EmptyShard(report)) {
    run_failure = "nothing was checked: no claimed, applicable case on the selected profiles";
  }
  const size_t tests = listed + (run_failure.empty() ? 0 : 1);
  failures += !run_failure.empty();
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"npuconf\" tests=\"" << tests << "\" failures=\"" << failures
      << "\" skipped=\"" << skipped << "\">\n";
  out << "  <testsuite name=\"npuconf." << XmlEscape(report.port_name) << "\" tests=\"" << tests
      << "\" failures=\"" << failures << "\" skipped=\"" << skipped << "\">\n";
  // An unfinished run is no verdict's (report_writer.cpp writes the same in report.json).
  const std::string verdict = !complete && VerdictOf(report) == Verdict::kConformant
                                  ? std::string("INCOMPLETE")
                                  : ToString(VerdictOf(report));
  out << "    <properties>\n      <property name=\"verdict\" value=\"" << verdict
      << "\"/>\n      <property name=\"not_claimed\" value=\"" << not_claimed << "\"/>\n";
  if (const std::string today = TodayText(report);
      !today.empty() && (report.today_forced || !report.waivers_file.empty()))
    out << "      <property name=\"today\" value=\"" << XmlEscape(today) << "\"/>\n";
  out << "    </properties>\n";
  for (const auto& r : report.results) {
    out << "    <testcase classname=\"" << XmlEscape(r.profile) << "\" name=\""
        << XmlEscape(r.property) << "\" time=\"" << std::fixed << std::setprecision(3) << r.seconds
        << "\">\n";
    if (IsFailure(r.outcome)) {
      out << "      <failure message=\"" << XmlEscape(r.message) << "\">"
          << XmlEscape(r.counterexample.empty()
                           ? r.message
                           : "counterexample: " + r.counterexample + "\nreproduce: " + r.reproduce)
          << XmlEscape(r.unwaived_case.empty() ? "" : "\nnot waived: " + r.unwaived_case)
          << "</failure>\n";
    } else if (r.outcome == Outcome::kWaived) {
      out << "      <skipped message=\""
          << XmlEscape("waived (" + r.waiver.reason + ", expires " + r.waiver.expires +
                       "): " + r.message)
          << "\"/>\n";
    } else if (r.outcome != Outcome::kPass) {
      out << "      <skipped message=\"" << XmlEscape(ToString(r.outcome) + ": " + r.message)
          << "\"/>\n";
    }
    const std::string choices = ChoicesLine(r);
    if (!choices.empty()) {
      out << "      <system-out>" << XmlEscape("choices: " + choices) << "</system-out>\n";
    }
    out << "    </testcase>\n";
  }
  if (!run_failure.empty()) {
    out << "    <testcase classname=\"npuconf\" name=\"run\">\n      <failure message=\""
        << XmlEscape(run_failure) << "\"/>\n    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
  return out.str();
}

// ToMarkdown: reports/markdown.cpp.

std::string SummaryTable(const RunReport& report) {
  std::ostringstream out;
  std::map<Outcome, int> counts;
  size_t width = 8;
  for (const auto& r : report.results) width = std::max(width, r.property.size());
  out << std::left << std::setw(static_cast<int>(width)) << "property"
      << "  " << std::setw(13) << "profile"
      << "  " << std::setw(11) << "result"
      << "  cases (explicit+random)\n";
  for (const auto& r : report.results) {
    ++counts[r.outcome];
    out << std::left << std::setw(static_cast<int>(width)) << r.property << "  " << std::setw(13)
        << r.profile << "  " << std::setw(11) << ToString(r.outcome) << "  " << r.explicit_cases
        << "+" << r.random_cases << "\n";
    if (IsFailure(r.outcome)) {
      // A give-up or a vacuous result has no case to show (breaker F4).
      out << "    " << r.message << "\n";
      if (!r.counterexample.empty()) out << "    counterexample: " << r.counterexample << "\n";
      if (!r.reproduce.empty()) out << "    reproduce: " << r.reproduce << "\n";
      if (!r.unwaived_case.empty()) out << "    not waived: " << r.unwaived_case << "\n";
    }
    if (r.outcome == Outcome::kWaived) {
      out << "    waived: " << r.waiver.reason << " (expires " << r.waiver.expires
          << (r.waiver.tracking.empty() ? "" : ", " + r.waiver.tracking) << ")\n";
    }
  }
  out << "\n"
      << report.results.size() << " results: " << counts[Outcome::kPass] << " pass, "
      << counts[Outcome::kFail] << " fail, " << counts[Outcome::kGaveUp] << " gave up, "
      << counts[Outcome::kVacuous] << " vacuous, " << counts[Outcome::kNotClaimed]
      << " not claimed, " << counts[Outcome::kNotCovered] << " not covered, "
      << counts[Outcome::kNotApplicable] << " not applicable, " << counts[Outcome::kTooLarge]
      << " skipped too large";
  if (counts[Outcome::kWaived] > 0) out << ", " << counts[Outcome::kWaived] << " waived";
  out << "\n";
  if (report.today_forced || !report.waivers_file.empty()) out << TodayText(report) << "\n";
  for (const auto& w : report.stale_waivers) {
    out << "stale waiver (matched no failure): " << w.property << " @ " << w.profile
        << (w.when.empty() ? "" : " when " + w.when) << ": " << w.reason << "\n";
  }
  const auto plain = [](const std::string& s) { return s; };
  if (const std::string line = TooLargeOf(report).Text(plain, plain); !line.empty())
    out << "not run: " << line << "\n";
  int missing = 0;
  for (const auto& row : report.coverage) {
    if (row.status != "missing") continue;
    if (missing++ == 0) out << "coverage classes not hit (" << report.coverage_gate << "):\n";
    out << "    " << row.routine << " @ " << row.profile << ": " << row.class_name << "\n";
  }
  out << "verdict: " << ToString(VerdictOf(report)) << "\n";
  return out.str();
}

}  // namespace npuconf::report
