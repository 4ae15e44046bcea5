// The text form of a case (`npuconf case ROUTINE key=value ...`, every
// reproducer line): one word a line, the routine first, through ParseCaseArgs
// and the routine table's ValidateCase. A parsed case's ToText() replays it
// exactly (core/case.h), so it must parse back to the same case.
#include "cli/families.h"
#include "core/case.h"
#include "core/routine.h"
#include "fuzz/fuzz_util.h"

namespace npuconf::fuzz {
namespace {

// ToText() words are split at blanks, as a shell does.
std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> words;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) words.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return words;
}

}  // namespace
}  // namespace npuconf::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npuconf;
  std::vector<std::string> words = fuzz::Lines(fuzz::Text(data, size));
  if (words.empty()) return 0;
  Case c;
  c.routine = words.front();
  words.erase(words.begin());
  if (!ParseCaseArgs(words, &c).empty()) return 0;

  // Only words a shell keeps whole can round-trip through the text form.
  bool plain = c.routine.find_first_of(" \t") == std::string::npos && !c.routine.empty();
  for (const auto& word : words) plain = plain && word.find_first_of(" \t") == std::string::npos;
  if (plain) {
    std::vector<std::string> again = fuzz::Words(c.ToText());
    Case back;
    back.routine = again.front();
    again.erase(again.begin());
    const std::string error = ParseCaseArgs(again, &back);
    fuzz::Require(error.empty() && back == c, "a case's ToText() parses back to the case",
                  c.ToText() + (error.empty() ? " reads as " + back.ToText() : ": " + error));
  }
  if (const Routine* routine = BuiltinSuite().FindRoutine(c.routine)) {
    (void)ValidateCase(*routine->spec, &c);
  }
  return 0;
}
