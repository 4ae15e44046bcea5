// Reports that survive the runner: stale reports are removed before a run, and
// each rewrite goes to a temporary file renamed over the old one, so a runner
// killed at any moment leaves the last complete set (report.json marked
// "complete": false until the run ends).
#pragma once

#include <string>

#include "reports/report.h"

namespace npuconf::report {

// Removes report.json, junit.xml, report.md, report.html and failures/ from
// `dir`, so an older run's verdict cannot pass for this one's. Returns an error
// naming the file and the system's reason, empty on success (absent files are
// no error).
std::string RemoveStaleReports(const std::string& dir);

// Takes the exclusive lock of report directory `dir` (flock on the directory,
// held until the process and the workers it forks end; no file is left), so a
// second run on the same --out stops before it removes or writes anything.
// "" or why not, naming the directory.
std::string LockReportDir(const std::string& dir);

// Writes `text` to `path` through `path`.tmp and rename(2): readers see the
// old file or the new one, never half of one. Returns the error, empty on
// success.
std::string WriteFileAtomically(const std::string& path, const std::string& text);

// report.json (with "complete": `complete` and its "digest"), junit.xml,
// report.md and, when complete, report.html into `dir` (created if needed),
// as one set: the verdict is decided once, every file is written to a
// temporary name first and only when all are written are they renamed over
// the old ones, report.json last. A failed write renames nothing (the set
// before stays, which a run writes incomplete) and a failed rename removes
// the files renamed before it, so no report.md or junit.xml reads CONFORMANT
// beside a report.json that does not. `incomplete_reason`: why a run that
// ended is incomplete (bad input), shown in every file; "" for a run that has
// not finished. Returns the error, empty on success.
std::string WriteReportsAtomically(const RunReport& report, const std::string& dir, bool complete,
                                   const std::string& incomplete_reason = "");

// A test seam (tests/report_test.cpp): the next write of the report file
// named `name` ("report.json", …) fails as on a full disk (ENOSPC); "" clears it.
void FailNextReportWriteForTesting(const std::string& name);

// The exit code of a run (core/status.h ExitCode): 1 when any result is a
// failure, 4 when no result checked a case (all not claimed, not applicable
// or not covered: a run that checked nothing is no pass), else 0 — and 0 for
// an empty shard (EmptyShard), whose merge gives the verdict.
int RunExitCode(const RunReport& report);

}  // namespace npuconf::report
