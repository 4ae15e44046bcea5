// A profile document (profiles/**.json, embedded at build time, and a built-in
// profile with a port's claimed readings written into its choices,
// ProfileAsClaimed): the text parsed within core/json_text.h's limits, then
// ParseProfile, which refuses with std::runtime_error only. No CLI option
// reads a profile file from a user; this target keeps the parser safe for the
// day one does, and for a profile contributed with a mistake. A profile it
// accepts lists its facts as `npuconf list facts` does.
#include <stdexcept>

#include "core/json_text.h"
#include "core/profile.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npuconf;
  const auto doc = ParseJsonText(fuzz::Text(data, size), nullptr);
  if (!doc) return 0;
  Profile profile;
  try {
    profile = ParseProfile("fuzz", *doc);
  } catch (const std::runtime_error&) {
    return 0;
  }
  (void)ListFacts(profile);
  return 0;
}
