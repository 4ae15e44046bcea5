// Turning a --port argument into a Port: "reference", "mutant:NAME", a path to
// a shared library (include/npuconf/port.h).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "conformance/ports/port.h"

namespace npuconf {

// How an external port (a shared library or, with "exec:", a subprocess) is reached.
struct PortOptions {
  bool in_process = false;     // --in-process: call a .so port in this process, unisolated
  int64_t timeout_ms = 10000;  // --timeout-ms: per-case limit for a port outside this process
  // The memory an isolated .so port's worker may take beyond what it starts with
  // (--max-case-bytes; IsolatedPort::Start); 0: unbounded.
  uint64_t memory_limit_bytes = 0;
};

struct PortChoice {
  std::unique_ptr<Port> port;
  int exit_code = 0;  // non-zero (ExitCode): could not be had; see error
  std::string error;
};

PortChoice OpenPort(const std::string& arg, const PortOptions& options);

}  // namespace npuconf
