// Waivers (issue 15 item 3): known failures a team keeps from turning its gate
// red, each with a reason and an expiry date. `--waivers FILE` (schema:
// docs/waivers.md, docs/waivers.schema.json):
//
//   {"waivers": [{"property": GLOB, "profile": GLOB, "when": "dtype=INT4,K%32==0",
//                 "reason": TEXT, "tracking": URL, "expires": "YYYY-MM-DD"}]}
//
// exactly these keys; property, profile, reason and expires required. A
// failing result whose property and profile match an entry, and whose
// counterexample meets `when` (the claims' condition syntax; a result without
// a counterexample meets no `when`), is `waived` while the entry has not
// expired (it holds through its expiry date, UTC): shown with its reason in
// every report and not counted as a failure. An expired entry no longer waives
// and the failure says so. An entry that matched no failure is stale: listed in
// every report, and a failure under --strict-waivers.
#pragma once

#include <string>
#include <vector>

#include "conformance/ports/claims.h"
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

// Today's date as YYYY-MM-DD in UTC (NPUCONF_TODAY overrides it, for tests).
std::string TodayUtc();

// Waives the result if an unexpired entry matches its failure; notes an
// expired one on the failure. Marks every entry that matched in `used`.
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
