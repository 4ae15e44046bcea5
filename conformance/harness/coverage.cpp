#include "conformance/harness/coverage.h"

#include <algorithm>
#include <set>
#include <utility>

#include "conformance/harness/materialize.h"
#include "conformance/harness/runner.h"
#include "conformance/harness/suite.h"

namespace npuconf {
namespace {

bool Applies(const CoverageClass& cls, const Profile& profile) {
  return !cls.applies || cls.applies(profile);
}

// A result on which the routine applied and was claimed: its cases count.
bool Gated(report::Outcome outcome) {
  using report::Outcome;
  return outcome != Outcome::kNotClaimed && outcome != Outcome::kNotCovered &&
         outcome != Outcome::kNotApplicable;
}

}  // namespace

void CountCoverage(const Suite& suite, const Profile& profile, const Case& c,
                   std::map<std::string, std::map<std::string, int64_t>>* hits) {
  const RoutineCoverage* coverage = suite.FindCoverage(c.routine);
  if (!coverage) return;
  for (const CoverageClass& cls : coverage->classes) {
    if (Applies(cls, profile) && cls.hit(c, profile)) ++(*hits)[c.routine][cls.name];
  }
}

std::vector<std::string> ClassesOf(const Suite& suite, const Profile& profile, const Case& c) {
  std::map<std::string, std::map<std::string, int64_t>> hits;
  CountCoverage(suite, profile, c, &hits);
  std::vector<std::string> out;
  for (const auto& [name, count] : hits[c.routine]) out.push_back(name);
  return out;
}

std::string CoverageFilterReason(const RunOptions& options) {
  // A --routine glob runs every property of the routines it names, so their
  // classes are gated as in a whole run (a routine outside it has no result,
  // hence no row): only --property leaves a routine's cases partly unchecked.
  if (options.property_glob != "*") return "--property " + options.property_glob;
  if (options.cases < kDefaultCases) {
    return "--cases " + std::to_string(options.cases) + " < " + std::to_string(kDefaultCases);
  }
  if (!options.rc_reproduce.empty()) return "a RapidCheck replay";
  // A lower budget leaves large cases out: their classes may go unhit, which
  // is the budget's doing, not the port's.
  if (MaxCaseBytes() < kMaxCaseBytes) {
    return "--max-case-bytes " + std::to_string(MaxCaseBytes()) + " < " +
           std::to_string(kMaxCaseBytes);
  }
  return "";
}

void ApplyCoverageGate(const Suite& suite, const std::string& filtered,
                       const std::vector<const Profile*>& profiles, report::RunReport* run) {
  // The gate's results are recomputed, not added twice (report merge reapplies it).
  std::erase_if(run->results, [](const report::PropertyResult& r) {
    return r.property.size() > 9 && r.property.ends_with(".coverage");
  });
  run->coverage.clear();
  run->coverage_gate =
      filtered.empty() ? "enforced" : "report only: filtered run (" + filtered + ")";
  // routine × profile pairs in first-seen order, and the hits on each profile.
  std::vector<std::pair<std::string, std::string>> pairs;
  std::set<std::pair<std::string, std::string>> seen;
  std::map<std::string, std::map<std::string, std::map<std::string, int64_t>>> by_profile;
  std::map<std::string, std::map<std::string, std::set<std::string>>> admitted, unchecked;
  for (const auto& r : run->results) {
    for (const auto& [routine, classes] : r.coverage_hits) {
      for (const auto& [name, count] : classes) by_profile[r.profile][routine][name] += count;
    }
    for (const auto& [routine, classes] : r.coverage_admitted)
      admitted[r.profile][routine].insert(classes.begin(), classes.end());
    for (const auto& [routine, classes] : r.coverage_unchecked)
      unchecked[r.profile][routine].insert(classes.begin(), classes.end());
    if (Gated(r.outcome) && suite.FindCoverage(r.routine) &&
        seen.insert({r.routine, r.profile}).second) {
      pairs.emplace_back(r.routine, r.profile);
    }
  }
  std::vector<report::PropertyResult> failures;
  for (const auto& [routine, profile_name] : pairs) {
    const Profile* profile = nullptr;
    for (const Profile* p : profiles) {
      if (p->name == profile_name) profile = p;
    }
    if (!profile) continue;
    // A required class is required only where a case inside the port's
    // claims reaches it: an explicit case (real shapes aside) or a coverage
    // witness, both the same for every seed and for --no-real-shapes.
    const std::set<std::string>& reachable = admitted[profile_name][routine];
    std::string missing;
    for (const CoverageClass& cls : suite.FindCoverage(routine)->classes) {
      if (!Applies(cls, *profile)) continue;
      const int64_t hits = by_profile[profile_name][routine][cls.name];
      // Reached inside the claims and checked there: a case of the class that
      // a property skipped (the claimed reading leaves it undefined) is not.
      const bool inside =
          reachable.count(cls.name) > 0 && unchecked[profile_name][routine].count(cls.name) == 0;
      std::string status = "hit";
      if (hits == 0) status = !cls.required ? "not_hit" : inside ? "missing" : "outside_claims";
      run->coverage.push_back({.routine = routine,
                               .profile = profile_name,
                               .class_name = cls.name,
                               .doc = cls.doc,
                               .hits = hits,
                               .required = cls.required && (inside || hits > 0),
                               .status = status});
      if (status == "missing") missing += (missing.empty() ? "" : ", ") + cls.name;
    }
    if (missing.empty() || !filtered.empty()) continue;
    report::PropertyResult fail;
    fail.property = routine + ".coverage";
    fail.routine = routine;
    fail.profile = profile_name;
    fail.description =
        "every required coverage class of the routine that the port's claims admit is hit by a "
        "checked case";
    fail.outcome = report::Outcome::kFail;
    fail.seed = run->seed;
    fail.message = "required coverage classes not hit by any checked case: " + missing +
                   " (report.json \"coverage\" says what each class is)";
    failures.push_back(std::move(fail));
  }
  for (auto& f : failures) run->results.push_back(std::move(f));
}

void ApplyValidCaseRule(report::RunReport* run) {
  using report::Outcome;
  struct Cell {
    bool narrowed = false;  // some property of it is not claimed
    int successes = 0;      // calls answered SUCCESS, over every property
  };
  std::map<std::pair<std::string, std::string>, Cell> cells;
  for (const auto& r : run->results) {
    Cell& cell = cells[{r.routine, r.profile}];
    cell.narrowed = cell.narrowed || r.outcome == Outcome::kNotClaimed;
    cell.successes += r.successful_calls;
  }
  for (auto& r : run->results) {
    if (r.outcome != Outcome::kPass) continue;
    const Cell& cell = cells[{r.routine, r.profile}];
    if (!cell.narrowed || cell.successes > 0) continue;
    r.outcome = Outcome::kNotClaimed;
    r.message = "the port's claims admit no valid case of " + r.routine + " on " + r.profile +
                ": not one call of the routine's checked cases was answered SUCCESS, and the "
                "rest is not claimed, so its conversion was never run; the " +
                std::to_string(r.explicit_cases + r.random_cases) +
                " rejected calls that held do not make it conformant";
  }
}

}  // namespace npuconf
