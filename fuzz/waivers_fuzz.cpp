// A --waivers file (docs/waivers.md): ParseWaivers against the built-in suite,
// then the waivers applied to a failure with a counterexample, as a run does.
#include "cli/families.h"
#include "conformance/harness/waivers.h"
#include "core/case_json.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npuconf;
  const Suite& suite = BuiltinSuite();
  WaiverSet waivers;
  if (!ParseWaivers(std::string(fuzz::Text(data, size)), suite, &waivers).empty()) return 0;
  report::PropertyResult failure;
  failure.property = "cann.nd_to_nz.matches_oracle";
  failure.routine = "cann.nd_to_nz";
  failure.profile = "ascend910b";
  failure.outcome = report::Outcome::kFail;
  failure.counterexample_case = ToJson(Case("cann.nd_to_nz", "ascend910b")
                                           .Set("dtype", "FLOAT16")
                                           .Set("shape", Shape{17, 33})
                                           .Set("seed", int64_t{7}));
  std::vector<bool> used(waivers.entries.size(), false);
  ApplyWaivers(waivers, "2026-01-01", suite, &failure, &used);
  report::RunReport run;
  run.results = {failure};
  FinishWaivers(waivers, used, false, &run);
  return 0;
}
