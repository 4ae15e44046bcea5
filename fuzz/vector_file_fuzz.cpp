// Vector files (`npuconf vectors check|replay|verify DIR`): the text parsed
// within core/json_text.h's limits, then vectors::FromJson. Every case it keeps
// is one the writer can write and the reader read again without a problem.
#include "core/json_text.h"
#include "fuzz/fuzz_util.h"
#include "vectors/vector_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npuconf;
  const auto doc = ParseJsonText(fuzz::Text(data, size), nullptr);
  if (!doc) return 0;
  vectors::VectorFile file;
  std::vector<int64_t> kept;
  const auto problems = vectors::FromJson(*doc, &file, &kept);
  fuzz::Require(kept.size() == file.cases.size(), "each kept case has its index");
  for (const auto& p : problems) {
    if (p.case_index < 0) return 0;  // the file itself is refused
  }
  const std::string text = vectors::ToJson(file).dump(1);
  const auto again = ParseJsonText(text, nullptr);
  fuzz::Require(again.has_value(), "a written vector file is JSON");
  vectors::VectorFile back;
  const auto reread = vectors::FromJson(*again, &back, nullptr);
  fuzz::Require(reread.empty() && back.cases.size() == file.cases.size(),
                "the cases a vector file keeps read back without a problem",
                reread.empty() ? "" : reread.front().what);
  return 0;
}
