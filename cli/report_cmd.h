// `npuconf report merge | diff` (issue 15 items 4, 5): joins the reports of the
// shards of one run (`npuconf run --shard K/N`) into the report the unsharded
// run writes, and compares two runs for a pull request (new failures, fixed
// ones, changed counterexamples, claims gained or lost).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "reports/report.h"

namespace npuconf {

// argv[0] is the program, argv[1] "report". Returns the process exit code.
int RunReportCli(int argc, char** argv, std::ostream& out, std::ostream& err);

// The merged report of `shards` (each a shard's report.json, read back), and
// every problem with the set (a missing or repeated shard), each naming the
// shard; the merge is complete when there is none. Shards that are no part
// of one run (not a shard, another fingerprint but for "waivers", another
// selection) go to `refusals` (to `problems` when it is null), and then
// nothing is merged. Every result is merged unwaived (Unwaive): the caller
// judges them with its own waivers.
report::RunReport MergeShards(const std::vector<report::RunReport>& shards,
                              const std::vector<std::string>& names,
                              std::vector<std::string>* problems,
                              std::vector<std::string>* refusals = nullptr);

// What changed from `old_run` to `new_run`, as Markdown; *regressed is set
// when a result that was not failing now fails.
std::string DiffReports(const report::RunReport& old_run, const report::RunReport& new_run,
                        bool* regressed);

}  // namespace npuconf
