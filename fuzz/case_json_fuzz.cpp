// The JSON form of a case (`npuconf case --from FILE`, a report's
// counterexample_case, a worker's crash note): parsed within core/json_text.h's
// limits, read by CaseFromJson and validated against the routine table. The
// form is the case's one JSON form, so what was read writes back and reads
// back to the same case; the same document is also tried as an invocation.
#include "cli/families.h"
#include "core/case_json.h"
#include "core/json_text.h"
#include "core/routine.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npuconf;
  const auto doc = ParseJsonText(fuzz::Text(data, size), nullptr);
  if (!doc) return 0;
  Invocation inv;
  (void)InvocationFromJson(*doc, &inv);
  Case c;
  if (!CaseFromJson(*doc, &c).empty()) return 0;
  Case back;
  const std::string error = CaseFromJson(ToJson(c), &back);
  fuzz::Require(error.empty() && back == c, "a case read from JSON writes back to the same case",
                error);
  (void)c.ToText();
  if (const Routine* routine = BuiltinSuite().FindRoutine(c.routine)) {
    (void)ValidateCase(*routine->spec, &c);
  }
  return 0;
}
