// The result model of a run and its renderings: report.json (versioned schema),
// junit.xml (one testcase per property × profile), report.md, and the terminal
// summary table.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace npuconf::report {

inline constexpr int kSchemaVersion = 1;

// `run --shard K/N` takes N up to this, and a report.json read back (report
// merge) may say no more: merge names every missing shard of the N.
inline constexpr int kMaxShards = 1000;

enum class Outcome {
  kPass,           // every case held
  kFail,           // a case failed: counterexample and reproducer attached
  kGaveUp,         // the generator could not produce enough valid cases
  kNotClaimed,     // the port does not claim the routine on this profile
  kNotCovered,     // the profile's facts are not public (unverified profile)
  kNotApplicable,  // no valid case exists on this profile (e.g. V2 off its SoC list)
  kVacuous,        // it applies and is claimed, but not one case was checked: a failure
  kTooLarge,       // every case it had exceeded the memory budget (--max-case-bytes)
  kWaived,         // it failed, and an unexpired waiver names the failure (--waivers)
};

std::string ToString(Outcome outcome);
// fail, gave_up and vacuous make a run non-conformant.
bool IsFailure(Outcome outcome);

// A waiver entry as the reports show it (conformance/harness/waivers.h).
struct WaiverNote {
  std::string property, profile, when, reason, tracking, expires;
  bool operator==(const WaiverNote&) const = default;
};

// A result as the port's answers made it, before --waivers judged it: kept
// when a waiver changed the result, so that `report merge` judges the raw
// result again with its own waivers (the shards' never govern).
struct Unwaived {
  Outcome outcome = Outcome::kPass;
  std::string message;
  bool operator==(const Unwaived&) const = default;
};

struct ChoiceUsed {
  std::string name;
  std::string value;            // the reading checked
  std::string profile_default;  // the profile's reading
  bool claimed = false;         // `value` is the port's claimed reading (choice:NAME=VALUE)
  std::vector<std::string> readings;
  std::string source;
};

// How many of a result's too-large cases it names (PropertyResult::too_large_cases).
inline constexpr size_t kTooLargeListed = 8;

// One failing case a property met: "explicit", "witness" (a coverage witness),
// "random" (RapidCheck's first failing draw), "shrunk" (its shrunk form),
// "crash" (the case a worker died on) or "timeout"; the case as
// `routine key=value …` and in its JSON form (core/case_json.h).
struct FailingCase {
  std::string kind;
  std::string text;
  nlohmann::json case_json;
  bool operator==(const FailingCase&) const = default;
};

struct PropertyResult {
  std::string property;
  std::string routine;
  std::string profile;
  std::string description;
  Outcome outcome = Outcome::kPass;
  int explicit_cases = 0;  // explicit cases that ran (skipped ones not counted)
  int explicit_skipped = 0;
  int random_cases = 0;
  // Cases left unchecked because they lie outside the port's claims (explicit
  // ones counted, random ones discarded).
  int outside_claims = 0;
  // Calls the port answered with vendor status 0: none in a whole routine ×
  // profile means no valid call was checked there (ApplyValidCaseRule).
  int successful_calls = 0;
  // Cases refused before allocation: over the memory budget (--max-case-bytes).
  int too_large = 0;
  // The first kTooLargeListed of them as `routine key=value …`, so a report
  // names what was not run.
  std::vector<std::string> too_large_cases;
  uint64_t seed = 0;
  std::string message;                 // why it failed / gave up / is not claimed
  std::string counterexample;          // the (shrunk) case, as `routine key=value …`
  nlohmann::json counterexample_case;  // the same case in its JSON form (core/case_json.h)
  // Structured evidence of the failure: mismatching elements with their places
  // (verify/compare.h), blocks that differ.
  nlohmann::json evidence;
  std::string reproduce;  // a shell command that replays the failure
  // When an explicit case failed first and RapidCheck then shrank a random
  // failure, `counterexample` is the shrunk one and this the explicit one.
  std::string first_explicit_failure;
  std::string rapidcheck_reproduce;  // RapidCheck's own reproduce string, if random
  std::vector<ChoiceUsed> choices;
  double seconds = 0.0;
  // Coverage classes the checked cases hit: routine of the case -> class ->
  // cases (conformance/harness/coverage.h). In report.json as "coverage_hits".
  std::map<std::string, std::map<std::string, int64_t>> coverage_hits;
  // The classes some case inside the port's claims reaches (an explicit case
  // or a coverage witness drawn with a fixed seed): routine -> classes. What
  // makes a required class required (conformance/harness/coverage.h).
  std::map<std::string, std::set<std::string>> coverage_admitted;
  // The classes of cases inside the claims that a property left unchecked (a
  // skip: the reading the port claims, or its absence, leaves the case
  // undefined): routine -> classes. A class no checked case hits but some
  // unchecked one does is the claims' consequence, not a gap of the run.
  std::map<std::string, std::set<std::string>> coverage_unchecked;
  // Of explicit_cases, the coverage witnesses drawn from the generator.
  int coverage_witnesses = 0;
  // What the verdict rests on beyond the vendor's documents ("device logs
  // (spec rknn.md §3.2a)"); "" for the documents alone.
  std::string basis;
  // The failure did not show the same way when the case was asked again (in
  // the run, or replayed in a fresh port process): its reproducer may pass.
  bool non_deterministic = false;
  // The failure is a call that timed out: the port was asked nothing more for
  // this property (no shrinking, no second answer).
  bool timed_out = false;
  // --shard: the unit's place in the whole (unsharded) selection; -1 unsharded.
  int unit = -1;
  // The entry that waives this failure (outcome kWaived), or that expired
  // (outcome kFail, `message` says so); empty reason: none.
  WaiverNote waiver;
  // The outcome and message before the waivers, when they changed either
  // (report.json "unwaived"); none: the result is its raw outcome.
  std::optional<Unwaived> unwaived;
  // Every failing case the property met, in the order met: a waiver waives the
  // result only when each meets an unexpired entry (waivers.h).
  std::vector<FailingCase> failing_cases;
  // A waiver matched the result but not this failing case (`kind: text`), so it
  // stays failing; "" otherwise.
  std::string unwaived_case;
};

// One row of the coverage table: how many checked cases of `routine` on
// `profile` fell into coverage class `class_name` (conformance/harness/coverage.h).
struct CoverageRow {
  std::string routine;
  std::string profile;
  std::string class_name;
  std::string doc;
  int64_t hits = 0;
  bool required = true;
  // "hit"; "missing": required, inside the claims, and hit by no checked case
  // (fails an enforced gate); "outside_claims": required, but no explicit case
  // of the class lies inside the port's claims (and none was hit); "not_hit":
  // an optional class no case hit.
  std::string status = "hit";
};

// How strong the run's gate is, quoted from `npuconf selftest` (cli/selftest_cmd.h,
// `run --selftest FILE`): of the `known` built-in mutants whose routines the
// port claims, `killed` fail a property of this run.
struct KillRate {
  bool measured = false;  // false: no --selftest file was given
  int killed = 0, known = 0;
  std::vector<std::string> survivors;  // the mutants no property of the run killed
  std::string basis;                   // the selftest's version, seed, cases and file
  std::string file;
};

// The sentence every report states about `rate` (plain text).
std::string KillRateText(const KillRate& rate);

// Every option that decides what a run checked, and the waivers that judged
// it, as option -> canonical text (report.json "fingerprint"; docs/reports.md):
// `report merge` refuses shards that differ in any but "waivers", and `report
// diff` names each difference.
using Fingerprint = std::map<std::string, std::string>;

struct RunReport {
  std::string suite_version;
  // The kernel path (simd::IsaName) of npuconf's built-in reference port in
  // this run: "avx512", "avx2", "neon", "portable" ("" in an older report).
  std::string isa;
  std::string port_name;
  std::string port_version;
  std::vector<std::string> port_claims;  // as the port states them
  std::vector<std::string> profiles;
  uint64_t seed = 0;
  int cases = 0;                // random cases per property
  uint64_t max_case_bytes = 0;  // the memory budget of one case (--max-case-bytes)
  std::string command;
  std::vector<PropertyResult> results;
  // Every class of every routine × profile the run gated, hit or not.
  std::vector<CoverageRow> coverage;
  // "enforced", or "report only: <why>" for a filtered run (a missing class
  // then does not fail the run), or "" when no gate ran.
  std::string coverage_gate;
  // Why the coverage gate only reports ("" when it is enforced): what `report
  // merge` needs to apply the gate of a sharded run.
  std::string coverage_filter;
  // --shard K/N: this report holds shard K of N (0 when unsharded) of a
  // selection of `units_total` units whose names digest to `selection`.
  int shard_index = 0, shard_count = 0, units_total = 0;
  std::string selection;
  // --waivers: the file, and the entries that matched no failure.
  std::string waivers_file;
  std::vector<WaiverNote> stale_waivers;
  // The date (YYYY-MM-DD, UTC) waiver expiry was judged by, and whether
  // `--today` set it rather than the clock.
  std::string today;
  bool today_forced = false;
  KillRate kill_rate;
  Fingerprint fingerprint;  // empty: written by an npuconf without one
};

// The sentence every report states about the date waivers expire by ("" when
// the run has none): "waivers judged on 2026-12-07 (UTC, the clock)", or
// "… (set by --today, not the clock)".
std::string TodayText(const RunReport& report);

nlohmann::json ToJson(const RunReport& report);
// `complete` false: the run has not finished; a failing test case "run" says so
// (as it does when nothing was checked).
// `incomplete_reason` says why, for a run that ended without checking all
// it was given (bad input); "" for one that has not finished.
std::string ToJunitXml(const RunReport& report, bool complete = true,
                       const std::string& incomplete_reason = "");
std::string ToMarkdown(const RunReport& report);
// One self-contained page (reports/html.cpp): the matrix, filterable; failures
// with their cases, reproducers, mismatches and block pictures.
std::string ToHtml(const RunReport& report);
// The same, reading the coverage table from `report_json` (ToJson(report),
// computed once by WriteReports).
std::string ToHtml(const RunReport& report, const nlohmann::json& report_json);
// Plain-text table for the terminal: one line per property × profile that did
// not pass, then per-outcome counts.
std::string SummaryTable(const RunReport& report);

bool AnyFailure(const RunReport& report);

// A shard (--shard K/N) none of whose units the port claims and the profile
// admits (more shards than claimed units): it exits 0, "this shard holds no
// claimed unit", and `report merge` gives the run's verdict.
bool EmptyShard(const RunReport& report);

}  // namespace npuconf::report
