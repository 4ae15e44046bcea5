// A --real-shapes file (vectors/real/model_shapes.json's or conv_shapes.json's
// form): the text parsed within core/json_text.h's limits, then both parsers
// (ParseRealShapes, ParseRealConvShapes), which refuse with std::runtime_error
// only.
#include <stdexcept>

#include "core/conv_shapes.h"
#include "core/json_text.h"
#include "core/real_shapes.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npuconf;
  const auto doc = ParseJsonText(fuzz::Text(data, size), nullptr);
  if (!doc) return 0;
  try {
    (void)ParseRealShapes(*doc);
  } catch (const std::runtime_error&) {
  }
  try {
    (void)ParseRealConvShapes(*doc);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
