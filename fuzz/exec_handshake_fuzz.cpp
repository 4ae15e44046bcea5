// The first line an exec: port prints (docs/port-protocol.md, "Handshake"):
// ParseHandshakeLine, then its claims as `npuconf run` checks them.
#include "cli/families.h"
#include "conformance/ports/claims.h"
#include "conformance/ports/exec_port.h"
#include "fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npuconf;
  PortHandshake hello;
  if (!ParseHandshakeLine(std::string(fuzz::Text(data, size)), &hello).empty()) return 0;
  fuzz::Require(!hello.name.empty(), "an accepted handshake names the port");
  (void)ValidateClaims(hello.claims, BuiltinSuite().specs(), BuiltinProfiles());
  return 0;
}
