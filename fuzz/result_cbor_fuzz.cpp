// A result frame of a runner worker (conformance/harness/parallel.cpp): the
// worker hosts the port, so its frames are untrusted bytes. ResultFromCbor
// refuses with std::runtime_error only, and a result it reads writes and
// reads back to the same result.
#include <stdexcept>

#include "fuzz/fuzz_util.h"
#include "reports/result_json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npuconf;
  report::PropertyResult result;
  try {
    result = report::ResultFromCbor({data, size});
  } catch (const std::runtime_error&) {
    return 0;
  }
  const nlohmann::json item = report::ResultToJson(result);
  const auto cbor = nlohmann::json::to_cbor(item);
  report::PropertyResult back;
  try {
    back = report::ResultFromCbor(cbor);
  } catch (const std::runtime_error& e) {
    fuzz::Require(false, "a result read from a frame writes a readable frame", e.what());
  }
  fuzz::Require(report::ResultToJson(back) == item, "a result reads back as written",
                item.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return 0;
}
