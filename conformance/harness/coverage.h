// Coverage classes (issue #9 item 6): the boundary classes a routine's cases
// must hit, as data beside each family (conformance/<family>/coverage.cpp).
// The runner classifies every case a property checked (explicit and random,
// skipped ones not) into the classes of the CASE's routine and counts hits per
// property × profile (PropertyResult::coverage_hits); after the run the gate
// sums them per routine × profile into report.json's `coverage` table and adds
// a failing result `<routine>.coverage` per routine × profile where a REQUIRED
// class that applies to the profile got no hit.
//
// Within the claims: a required class counts only where a case inside the
// port's claims reaches it: an explicit case of a property of the routine
// (real shapes aside) or a coverage witness, a case drawn from the property's
// generator inside the claims with a fixed seed that reaches a class no
// earlier case reaches (conformance/harness/runner.cpp), run as an explicit
// case. A class no case inside the claims reaches (and no case hit) is
// reported outside_claims, never missing. The reference reaches every
// required class on every profile (tests/coverage_test.cpp), so the gate is
// the same for every seed and with --no-real-shapes.
//
// When the gate fails the run: only on an unfiltered run (property and routine
// globs "*", at least the default number of random cases, no RapidCheck
// replay): a filtered run checks less on purpose, so its table is written and
// its missing classes printed, but they do not fail it. The gate covers the
// routine × profile pairs where at least one property of the routine applied
// and was claimed (a result other than not_claimed / not_covered /
// not_applicable); a selection of profiles (--profile) is not a filter, each
// profile is gated on its own.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/case.h"
#include "core/profile.h"
#include "reports/report.h"

namespace npuconf {

struct CoverageClass {
  std::string name;  // "n.block_multiple_plus_1"
  std::string doc;   // what the class is, its source, and how the default run reaches it
  bool required = true;
  // Empty: the class applies on every profile of the routine's vendor.
  std::function<bool(const Profile&)> applies;
  // Whether case `c` (of this routine, run on `profile`) is in the class.
  std::function<bool(const Case& c, const Profile& profile)> hit;
};

struct RoutineCoverage {
  std::string routine;
  std::vector<CoverageClass> classes;
};

class Suite;
struct RunOptions;

// Adds one hit to `hits[c.routine][class]` for every class of c's routine that
// c is in; nothing when the routine has no coverage data.
void CountCoverage(const Suite& suite, const Profile& profile, const Case& c,
                   std::map<std::string, std::map<std::string, int64_t>>* hits);

// The classes `c` is in (for tests and `npuconf case`-style tools).
std::vector<std::string> ClassesOf(const Suite& suite, const Profile& profile, const Case& c);

// Why a run is filtered for the gate ("" when it is not): a --property glob
// other than "*", fewer random cases than the default, a replay, a lower
// --max-case-bytes. A --routine glob is no filter: the gate is enforced within
// the routines it names.
std::string CoverageFilterReason(const RunOptions& options);

// Fills run->coverage and run->coverage_gate from the results' hits and, on an
// unfiltered run, appends one failing `<routine>.coverage` result per routine ×
// profile with a required class not hit, naming the classes.
// `profiles` are the run's profiles as claimed (PropertyContext::run_profiles).
// A required class counts only where some case inside the port's claims
// reaches it (PropertyResult::coverage_admitted) and no property left such a
// case unchecked (PropertyResult::coverage_unchecked: the claimed reading
// leaves it undefined); elsewhere its row says outside_claims.
// `filter` is CoverageFilterReason of the run's options: "" enforces the gate.
void ApplyCoverageGate(const Suite& suite, const std::string& filter,
                       const std::vector<const Profile*>& profiles, report::RunReport* run);

// A routine × profile where the port's claims left some property "not
// claimed" and not one call of every other property's checked cases was
// answered SUCCESS (PropertyResult::successful_calls) was only ever asked to
// reject: claims of dtype=FLOAT for an NC1HWC2 pack (no C2 for FLOAT), of
// rank(shape)=5, of a format the routine rejects. Its passing results
// (rejects_invalid, a documented rejected row, no_write_past_capacity of
// rejected calls) become not_claimed, with a message saying how many held, so
// a run that checked nothing else is NOTHING CHECKED (exit 4), never
// CONFORMANT. Where nothing is narrowed (the vendor rejects every call on the
// profile, and the other properties are not applicable; or a --property glob
// selected rejects_invalid alone) the rejections are the check and stay.
// A shard sees part of a cell: the rule runs on an unsharded run and again on
// `report merge`, which is the gate of a sharded run.
void ApplyValidCaseRule(report::RunReport* run);

}  // namespace npuconf
