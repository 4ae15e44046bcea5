// report.md: a page for a CI job summary or a pull-request comment. The verdict
// first, then the routine × profile matrix, the vendor readings once per
// profile, then each failure with its minimal case, reproducer and first
// mismatches in logical coordinates.
#include <sstream>

#include "reports/matrix.h"
#include "reports/report.h"
#include "reports/text.h"

namespace npuconf::report {
namespace {

// Failures shown in full; the rest get one line each (a PR comment is capped
// at 65536 characters).
constexpr int kMaxDetailedFailures = 20;
constexpr int kMaxMismatchRows = 5;
constexpr size_t kMaxMessageChars = 600;

const char* VerdictMark(Verdict verdict) {
  switch (verdict) {
    case Verdict::kConformant:
      return "✅";
    case Verdict::kNonConformant:
      return "❌";
    case Verdict::kNothingChecked:
      return "⚠️";
  }
  return "";
}

void WriteMismatchTable(const nlohmann::json& evidence, std::ostream& out) {
  if (!evidence.is_object() || !evidence.contains("first") || !evidence["first"].is_array() ||
      evidence["first"].empty()) {
    return;
  }
  out << "\nFirst mismatches";
  if (evidence.contains("mismatches") && evidence.contains("compared")) {
    out << " (" << evidence["mismatches"].dump() << " of " << evidence["compared"].dump()
        << " elements of " << MdCode(evidence.value("output", std::string())) << " differ)";
  }
  out << ":\n\n| logical | storage block | in block | expected | held | meaning |\n"
      << "|---|---|---|---|---|---|\n";
  int rows = 0;
  for (const auto& m : evidence["first"]) {
    if (++rows > kMaxMismatchRows) break;
    const nlohmann::json place = m.value("place", nlohmann::json::object());
    out << "| " << MdEscape(LogicalText(m)) << " | "
        << MdEscape(CoordsText(place.value("block", nlohmann::json::array()), true)) << " | "
        << MdEscape(CoordsText(place.value("within", nlohmann::json::array()), false)) << " | "
        << MdEscape(m.value("expected", std::string())) << " | "
        << MdEscape(m.value("actual", std::string())) << " | "
        << MdEscape(Shorten(m.value("meaning", std::string()), 160)) << " |\n";
  }
}

void WriteFailure(const PropertyResult& r, std::ostream& out) {
  out << "\n### ❌ " << MdCode(r.property) << " on " << MdEscape(r.profile) << " ("
      << ToString(r.outcome) << ")\n\n"
      << MdEscape(Shorten(r.message, kMaxMessageChars)) << "\n";
  if (!r.counterexample.empty()) out << "\nMinimal case: " << MdCode(r.counterexample) << "\n";
  if (!r.first_explicit_failure.empty()) {
    out << "\nFirst explicit case that failed: " << MdCode(r.first_explicit_failure) << "\n";
  }
  if (!r.unwaived_case.empty()) {
    out << "\nNot waived: a waiver names this property, but not its failing case "
        << MdCode(r.unwaived_case) << "\n";
  }
  // Evidence read back from a report.json (report merge) is outside data: a
  // field of another type than the runner writes is noted, and the rest of
  // the report still renders.
  try {
    std::ostringstream table;
    WriteMismatchTable(r.evidence, table);
    out << table.str();
  } catch (const nlohmann::json::exception& e) {
    out << "\n(evidence not shown: " << MdEscape(e.what()) << ")\n";
  }
  if (!r.reproduce.empty()) {
    std::string command = SanitizeUtf8(r.reproduce);
    std::string fence = "```";
    while (command.find(fence) != std::string::npos) fence += '`';
    out << "\nReproduce:\n\n" << fence << "sh\n" << command << "\n" << fence << "\n";
  }
}

}  // namespace

std::string ToMarkdown(const RunReport& report) {
  std::ostringstream out;
  const Verdict verdict = VerdictOf(report);
  out << "## " << VerdictMark(verdict) << " " << ToString(verdict) << ": "
      << MdCode(report.port_name);
  if (!report.port_version.empty()) out << " " << MdEscape(report.port_version);
  out << " — " << report.results.size() << " results: " << CountsLine(report) << "\n\n";
  out << "npuconf " << MdEscape(report.suite_version);
  if (!report.isa.empty()) out << " (reference kernels: " << MdEscape(report.isa) << ")";
  out << ", seed " << report.seed << ", " << report.cases << " random cases per property";
  if (!report.command.empty()) out << ", " << MdCode(report.command);
  out << "\n";
  if (const std::string line = TooLargeOf(report).Text(MdCode, MdEscape); !line.empty())
    out << "\nNot run: " << line << "\n";
  if (EmptyShard(report)) {
    out << "\nThis shard (" << report.shard_index << "/" << report.shard_count
        << ") holds no claimed unit: `npuconf report merge` of every shard gives the run's "
           "verdict.\n";
  }
  out << "\n" << MdEscape(KillRateText(report.kill_rate)) << "\n";
  if (const std::string today = TodayText(report);
      !today.empty() && (report.today_forced || !report.waivers_file.empty()))
    out << "\n" << MdEscape(today) << "\n";
  out << "\nClaims of the port:";
  for (const auto& claim : report.port_claims) out << " " << MdCode(claim);
  out << (report.port_claims.empty() ? " none\n" : "\n");

  const Matrix matrix = BuildMatrix(report);
  for (const auto& part : SplitByFamily(matrix)) {
    out << "\n| " << MdEscape(part.family) << " routine |";
    for (const auto& p : part.profiles) out << " " << MdEscape(p) << " |";
    out << "\n|---|";
    for (size_t i = 0; i < part.profiles.size(); ++i) out << ":---:|";
    out << "\n";
    for (const auto& routine : part.routines) {
      out << "| " << MdCode(routine) << " |";
      for (const auto& p : part.profiles) out << " " << MarkdownCell(matrix.at(routine, p)) << " |";
      out << "\n";
    }
  }
  out << "\n✅ every property passed · ❌ n/m: n of the m properties failed · 🏳️ n/m "
         "waived: "
         "n "
         "failures a waiver names (not counted) · ⚠️ gave up / "
         "vacuous: too few valid cases / none checked (a failure) · — not claimed by the port · "
         "? not covered (the profile's facts are not public) · n/a: no valid case on the profile\n";

  const auto groups = ChoicesByProfile(report);
  if (!groups.empty()) {
    out << "\n### Vendor readings checked (choices)\n\n| profiles | readings |\n|---|---|\n";
    for (const auto& g : groups) {
      std::string profiles, choices;
      for (const auto& p : g.profiles) profiles += (profiles.empty() ? "" : ", ") + MdEscape(p);
      for (const auto& c : g.choices) {
        choices += (choices.empty() ? "" : ", ") + MdCode(c.name + "=" + c.value);
        if (c.claimed) {
          choices += " (claimed reading " + MdEscape(c.value) + "; profile default " +
                     MdEscape(c.profile_default) + ")";
        }
      }
      out << "| " << profiles << " | " << choices << " |\n";
    }
  }

  // Results that rest on device evidence rather than the vendor's documents.
  std::string device;
  for (const auto& r : report.results) {
    if (r.basis.empty() || r.outcome == Outcome::kNotClaimed ||
        r.outcome == Outcome::kNotApplicable)
      continue;
    device += "- " + MdCode(r.property) + " on " + MdEscape(r.profile) + ": " +
              ToString(r.outcome) + " (rests on " + MdEscape(r.basis) + ")\n";
  }
  if (!device.empty()) out << "\n### Results resting on device evidence\n\n" << device;

  // Waived failures, each with its reason; stale waivers (matched nothing).
  std::ostringstream waived;
  int n_waived = 0;
  for (const auto& r : report.results) {
    if (r.outcome != Outcome::kWaived) continue;
    ++n_waived;
    waived << "- " << MdCode(r.property) << " on " << MdEscape(r.profile) << ": "
           << MdEscape(r.waiver.reason) << " (expires " << MdEscape(r.waiver.expires)
           << (r.waiver.tracking.empty() ? "" : ", " + MdEscape(r.waiver.tracking)) << ") — "
           << MdEscape(Shorten(r.message, 200)) << "\n";
  }
  if (n_waived > 0) {
    out << "\n## Waived (" << n_waived << ", " << MdCode(report.waivers_file) << ")\n\n"
        << waived.str();
  }
  if (!report.stale_waivers.empty()) {
    out << "\n## Stale waivers (" << report.stale_waivers.size()
        << ": they matched no failure)\n\n";
    for (const auto& w : report.stale_waivers) {
      out << "- " << MdCode(w.property) << " on " << MdCode(w.profile)
          << (w.when.empty() ? "" : " when " + MdCode(w.when)) << ": " << MdEscape(w.reason)
          << " (expires " << MdEscape(w.expires) << ")\n";
    }
  }

  int failures = 0;
  for (const auto& r : report.results) failures += IsFailure(r.outcome);
  if (failures > 0) {
    out << "\n## Failures (" << failures << ")\n";
    int shown = 0;
    std::ostringstream rest;
    for (const auto& r : report.results) {
      if (!IsFailure(r.outcome)) continue;
      if (++shown <= kMaxDetailedFailures) {
        WriteFailure(r, out);
      } else {
        rest << "- " << MdCode(r.property) << " on " << MdEscape(r.profile) << ": "
             << MdEscape(Shorten(r.message, 200)) << "\n";
      }
    }
    if (shown > kMaxDetailedFailures) {
      out << "\n### " << shown - kMaxDetailedFailures
          << " more failures (details in report.html and report.json)\n\n"
          << rest.str();
    }
  }
  return out.str();
}

std::string MarkdownCell(const Cell& cell) {
  if (cell.empty) return " ";
  switch (cell.outcome) {
    case Outcome::kPass:
      return "✅";
    case Outcome::kFail:
      return "❌ " + std::to_string(cell.failing) + "/" + std::to_string(cell.properties);
    case Outcome::kGaveUp:
      return "⚠️ gave up";
    case Outcome::kVacuous:
      return "⚠️ vacuous";
    case Outcome::kNotClaimed:
      return "—";
    case Outcome::kNotCovered:
      return "?";
    case Outcome::kNotApplicable:
      return "n/a";
    case Outcome::kTooLarge:
      return "too large";
    case Outcome::kWaived:
      return "🏳️ " + std::to_string(cell.waived) + "/" + std::to_string(cell.properties) +
             " waived";
  }
  return "?";
}

}  // namespace npuconf::report
