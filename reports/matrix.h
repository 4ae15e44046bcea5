// What report.md and report.html both show, computed once from a RunReport: the
// verdict, the routine × profile matrix (one cell per pair, the properties of
// the routine on the profile folded into one outcome) and the vendor readings
// (choices) each profile was checked under.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "reports/report.h"

namespace npuconf::report {

enum class Verdict { kConformant, kNonConformant, kNothingChecked };
// NON-CONFORMANT when a result is a failure (IsFailure); NOTHING CHECKED when no
// property passed either (every pair not claimed, not covered or not applicable).
Verdict VerdictOf(const RunReport& report);
std::string ToString(Verdict verdict);  // "CONFORMANT", "NON-CONFORMANT", "NOTHING CHECKED"

// One routine on one profile: the worst outcome of its properties there, in the
// order fail > gave up > vacuous > waived > pass > not claimed > not covered > not
// applicable (a routine that passes two properties and has none applicable for a
// third passes).
struct Cell {
  bool empty = true;  // no property of the routine ran on the profile (filtered out)
  Outcome outcome = Outcome::kPass;
  int properties = 0;  // results folded into the cell
  int failing = 0;     // of them, IsFailure
  int passing = 0;
  int waived = 0;  // failures an unexpired waiver names
};

struct Matrix {
  std::vector<std::string> routines;  // in the order the run reported them
  std::vector<std::string> profiles;  // the run's profiles, then any others results name
  std::map<std::pair<std::string, std::string>, Cell> cells;  // (routine, profile)
  const Cell& at(const std::string& routine, const std::string& profile) const;
};

Matrix BuildMatrix(const RunReport& report);

// A cell in report.md: "✅", "❌ 2/5" (failing of the properties), "🏳️ 1/5 waived", "⚠️
// gave up", "⚠️ vacuous", "—" (not claimed), "?" (not covered), "n/a"; " " when empty.
std::string MarkdownCell(const Cell& cell);

// The readings one or more profiles were checked under: profiles whose sets of
// choices are equal share one group, so each profile's readings appear once.
struct ChoiceGroup {
  std::vector<std::string> profiles;
  std::vector<ChoiceUsed> choices;  // sorted by name
};
std::vector<ChoiceGroup> ChoicesByProfile(const RunReport& report);

// Per-outcome counts over all results, in the Outcome enum's order.
std::map<Outcome, int> CountOutcomes(const RunReport& report);
// "3 fail, 35 pass, 2 not claimed" (non-zero counts only; "no results" when none).
std::string CountsLine(const RunReport& report);

// The cases a run left out for the memory budget: how many, the budget, and
// the first few by name.
struct TooLargeSummary {
  int total = 0;
  std::string budget;  // "1.50 GiB", "2000 bytes"
  std::vector<std::string> named;
  // "" when total is 0; else one sentence, case texts through `code`, the rest
  // through `escape` (Markdown, HTML or plain).
  std::string Text(const std::function<std::string(const std::string&)>& code,
                   const std::function<std::string(const std::string&)>& escape) const;
};
TooLargeSummary TooLargeOf(const RunReport& report);

}  // namespace npuconf::report

namespace npuconf::report {

// The matrix split by routine family (the routine name up to its first '.',
// "cann", "rknn"): each family's routines against only the profiles they ran
// on, so a table has no column of empty cells.
struct MatrixPart {
  std::string family;
  std::vector<std::string> routines;
  std::vector<std::string> profiles;
};
std::vector<MatrixPart> SplitByFamily(const Matrix& matrix);

}  // namespace npuconf::report
