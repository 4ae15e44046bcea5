#include "reports/matrix.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace npuconf::report {
namespace {

// Higher folds over lower in a cell.
int Severity(Outcome outcome) {
  switch (outcome) {
    case Outcome::kFail:
      return 7;
    case Outcome::kGaveUp:
      return 6;
    case Outcome::kVacuous:
      return 5;
    case Outcome::kWaived:
      return 4;
    case Outcome::kPass:
      return 3;
    case Outcome::kNotClaimed:
    case Outcome::kTooLarge:
      return 2;
    case Outcome::kNotCovered:
      return 1;
    case Outcome::kNotApplicable:
      return 0;
  }
  return 0;
}

std::string Spaced(Outcome outcome) {
  std::string text = ToString(outcome);
  std::replace(text.begin(), text.end(), '_', ' ');
  return text;
}

}  // namespace

Verdict VerdictOf(const RunReport& report) {
  if (AnyFailure(report)) return Verdict::kNonConformant;
  // A waived failure was checked: waivers keep a run conformant, never empty.
  for (const auto& r : report.results) {
    if (r.outcome == Outcome::kPass || r.outcome == Outcome::kWaived) return Verdict::kConformant;
  }
  return Verdict::kNothingChecked;
}

std::string ToString(Verdict verdict) {
  switch (verdict) {
    case Verdict::kConformant:
      return "CONFORMANT";
    case Verdict::kNonConformant:
      return "NON-CONFORMANT";
    case Verdict::kNothingChecked:
      return "NOTHING CHECKED";
  }
  return "?";
}

const Cell& Matrix::at(const std::string& routine, const std::string& profile) const {
  static const Cell kEmpty;
  auto it = cells.find({routine, profile});
  return it == cells.end() ? kEmpty : it->second;
}

Matrix BuildMatrix(const RunReport& report) {
  Matrix m;
  m.profiles = report.profiles;
  std::set<std::string> routines_seen;
  std::set<std::string> profiles_seen(report.profiles.begin(), report.profiles.end());
  for (const auto& r : report.results) {
    if (routines_seen.insert(r.routine).second) m.routines.push_back(r.routine);
    if (profiles_seen.insert(r.profile).second) m.profiles.push_back(r.profile);
    Cell& cell = m.cells[{r.routine, r.profile}];
    if (cell.empty || Severity(r.outcome) > Severity(cell.outcome)) cell.outcome = r.outcome;
    cell.empty = false;
    ++cell.properties;
    cell.failing += IsFailure(r.outcome);
    cell.passing += r.outcome == Outcome::kPass;
    cell.waived += r.outcome == Outcome::kWaived;
  }
  return m;
}

std::vector<ChoiceGroup> ChoicesByProfile(const RunReport& report) {
  // profile -> name -> choice, in the profile order of the run.
  std::vector<std::string> order = report.profiles;
  std::map<std::string, std::map<std::string, ChoiceUsed>> by_profile;
  for (const auto& r : report.results) {
    if (std::find(order.begin(), order.end(), r.profile) == order.end()) order.push_back(r.profile);
    for (const auto& c : r.choices) by_profile[r.profile].emplace(c.name, c);
  }
  std::vector<ChoiceGroup> groups;
  for (const auto& profile : order) {
    auto it = by_profile.find(profile);
    if (it == by_profile.end()) continue;
    std::vector<ChoiceUsed> choices;
    for (const auto& [name, c] : it->second) choices.push_back(c);
    auto same = std::find_if(groups.begin(), groups.end(), [&](const ChoiceGroup& g) {
      if (g.choices.size() != choices.size()) return false;
      for (size_t i = 0; i < choices.size(); ++i) {
        if (g.choices[i].name != choices[i].name || g.choices[i].value != choices[i].value)
          return false;
      }
      return true;
    });
    if (same != groups.end()) {
      same->profiles.push_back(profile);
    } else {
      groups.push_back({.profiles = {profile}, .choices = std::move(choices)});
    }
  }
  return groups;
}

std::map<Outcome, int> CountOutcomes(const RunReport& report) {
  std::map<Outcome, int> counts;
  for (const auto& r : report.results) ++counts[r.outcome];
  return counts;
}

std::string CountsLine(const RunReport& report) {
  std::string out;
  for (const auto& [outcome, n] : CountOutcomes(report)) {
    if (n == 0) continue;
    out += (out.empty() ? "" : ", ") + std::to_string(n) + " " + Spaced(outcome);
  }
  return out.empty() ? "no results" : out;
}

}  // namespace npuconf::report

namespace npuconf::report {

std::vector<MatrixPart> SplitByFamily(const Matrix& matrix) {
  std::vector<MatrixPart> parts;
  for (const auto& routine : matrix.routines) {
    const std::string family = routine.substr(0, routine.find('.'));
    auto part = std::find_if(parts.begin(), parts.end(),
                             [&](const MatrixPart& p) { return p.family == family; });
    if (part == parts.end()) {
      parts.push_back({.family = family});
      part = parts.end() - 1;
    }
    part->routines.push_back(routine);
  }
  for (auto& part : parts) {
    for (const auto& profile : matrix.profiles) {
      for (const auto& routine : part.routines) {
        if (!matrix.at(routine, profile).empty) {
          part.profiles.push_back(profile);
          break;
        }
      }
    }
  }
  return parts;
}

TooLargeSummary TooLargeOf(const RunReport& report) {
  constexpr size_t kNamed = 3;
  TooLargeSummary out;
  for (const auto& r : report.results) {
    out.total += r.too_large;
    for (const auto& c : r.too_large_cases) {
      if (out.named.size() < kNamed) out.named.push_back(c);
    }
  }
  char text[48];
  if (report.max_case_bytes >= (uint64_t{1} << 20)) {
    std::snprintf(text, sizeof text, "%.2f GiB", report.max_case_bytes / double(1ull << 30));
  } else {
    std::snprintf(text, sizeof text, "%llu bytes",
                  static_cast<unsigned long long>(report.max_case_bytes));
  }
  out.budget = text;
  return out;
}

std::string TooLargeSummary::Text(
    const std::function<std::string(const std::string&)>& code,
    const std::function<std::string(const std::string&)>& escape) const {
  if (total == 0) return {};
  std::string out = escape(std::to_string(total) + (total == 1 ? " case" : " cases") +
                           " over the memory budget of " + budget + " (") +
                    code("--max-case-bytes") + escape(", a case's buffers)");
  for (size_t i = 0; i < named.size(); ++i) out += escape(i == 0 ? ": " : "; ") + code(named[i]);
  if (static_cast<size_t>(total) > named.size()) out += escape("; …");
  return out;
}

}  // namespace npuconf::report
