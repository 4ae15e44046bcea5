// The built-in reference port: reference/ answering cases through the port ABI
// (include/npuconf/port.h), exactly as any other port does.
#pragma once

#include "npuconf/port.h"

namespace npuconf {

const npuconf_port* ReferencePort();

// Answers one case with the reference routines; the body of ReferencePort()'s
// `call`, exposed so that wrapping ports (mutants/) can delegate to it.
int32_t ReferenceCall(const npuconf_case* c, int64_t* vendor_status, char* message,
                      uint64_t message_bytes);

}  // namespace npuconf
