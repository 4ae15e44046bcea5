// A report.json read back by `npuconf report merge` and `report diff`:
// RunReportFromText refuses with std::runtime_error only, and a report it reads
// goes through everything merge and diff do with it: the merge of it as a
// shard, the diff against itself, and every rendering of it and of the merge.
#include <stdexcept>

#include "cli/report_cmd.h"
#include "fuzz/fuzz_util.h"
#include "reports/report.h"
#include "reports/result_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npuconf;
  report::RunReport run;
  bool complete = true;
  try {
    run = report::RunReportFromText(fuzz::Text(data, size), &complete);
  } catch (const std::runtime_error&) {
    return 0;
  }
  bool regressed = false;
  (void)DiffReports(run, run, &regressed);
  std::vector<std::string> problems;
  const report::RunReport merged = MergeShards({run}, {"shard"}, &problems);
  for (const report::RunReport* r : std::vector<const report::RunReport*>{&run, &merged}) {
    (void)report::ToJson(*r).dump();
    (void)report::ToJunitXml(*r, complete);
    (void)report::ToMarkdown(*r);
    (void)report::SummaryTable(*r);
    (void)report::ToHtml(*r);
  }
  return 0;
}
