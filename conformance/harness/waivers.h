// Waivers (issue 15 item 3): known failures a team keeps from turning its gate
// red, each with a reason and an expiry date. `--waivers FILE` (schema:
// docs/waivers.md, docs/waivers.schema.json):
//
//   {"waivers": [{"property": GLOB, "profile": GLOB, "when": "dtype=INT4,K%32==0",
//                 "reason": TEXT, "tracking": URL, "expires": "YYYY-MM-DD"}]}
//
// exactly these keys; property, profile, reason and expires required. A
// failing result whose property and profile match entries is `waived` when
// EVERY failing case it met (explicit cases, coverage witnesses, the first
// random failure and its shrunk form, a crash, a timeout) meets the `when` of
// an unexpired entry (the claims' condition syntax; a failure without a case
// meets no `when`). An entry holds through its expiry date, UTC, judged by
// the clock or `--today`; the date is in every report. A waived result is
// shown with its reason in every report and not counted as a failure. One
// case no entry names keeps the result failing, and the reports name that
// case. An expired entry no longer waives and the failure says so. An entry
// that matched no failure is stale: listed in every report, and a failure
// under --strict-waivers.
#pragma once

#include <string>
#include <vector>

#include "conformance/ports/claims.h"
#include "core/case.h"
#include "reports/report.h"

namespace npuconf {

class Suite;

struct Waiver {
  std::string property;  // glob (runner.h GlobMatch)
  std::string profile;   // glob
  std::string when;      // condition text, "" for none
  std::vector<ClaimCondition> conditions;
  std::string reason;
  std::string tracking;  // "" when absent
  std::string expires;   // YYYY-MM-DD
};

struct WaiverSet {
  std::string path;  // as given to --waivers
  std::vector<Waiver> entries;
  bool strict = false;  // --strict-waivers: a stale entry fails the run
};

// Parses a waivers document; returns an error naming the entry and the key or
// value at fault ("" on success). `suite` checks that a `when` names params of
// the routines its property glob matches.
std::string ParseWaivers(const std::string& text, const Suite& suite, WaiverSet* out);

// Today's date as YYYY-MM-DD in UTC, from the clock (`--today` overrides it
// for a run, ParseToday; no environment variable does).
std::string TodayUtc();

// `--today DATE`: *date set when `text` is a real YYYY-MM-DD, else an error
// naming it.
std::string ParseToday(const std::string& text, std::string* date);

// Whether an unexpired entry names failing case `c` of `property` on
// `profile`: the runner records such a case and goes on looking for one no
// entry names (runner.cpp).
bool WaivesCase(const WaiverSet& waivers, const std::string& today, const Suite& suite,
                const std::string& property, const std::string& profile, const Case& c);

// Waives the result when every failing case it met (result->failing_cases;
// a report without them: its counterexample) meets an unexpired entry. A case
// no entry names keeps it failing: `message` and `unwaived_case` name that
// case. An expired entry waives nothing and the failure says so. Marks every
// entry that named a case in `used`.
void ApplyWaivers(const WaiverSet& waivers, const std::string& today, const Suite& suite,
                  report::PropertyResult* result, std::vector<bool>* used);

// After the run: the entries no result used are stale (report.stale_waivers);
// under `strict` (and not a shard, whose peers may use them) a failing result
// `npuconf.waivers` names them.
void FinishWaivers(const WaiverSet& waivers, const std::vector<bool>& used, bool shard,
                   report::RunReport* run);

// ApplyWaivers, keeping the result's outcome and message from before it in
// result->unwaived when a waiver changed them, so that the raw result travels
// in report.json and `report merge` judges it again (Unwaive).
void ApplyWaiversKeepingRaw(const WaiverSet& waivers, const std::string& today, const Suite& suite,
                            report::PropertyResult* result, std::vector<bool>* used);

// The result as it was before any waiver judged it: outcome and message of
// result->unwaived restored, no waiver note.
void Unwaive(report::PropertyResult* result);

}  // namespace npuconf
