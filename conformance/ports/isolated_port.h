// A shared-library port answered in a child process: the runner survives
// whatever the port does inside `call`.
//
// The child (a long-lived "worker", forked from the runner) dlopens the
// library; the runner never loads it. Cases travel through a shared-memory
// arena (a memfd mapped in both processes, reused from case to case and grown
// when a case needs more); small control messages go over a socketpair.
// In the child every input ENDS at a page boundary with a PROT_NONE guard
// behind it (a read past the end faults), and every output's capacity ends at
// a page boundary with a guard behind it (a write past the capacity faults)
// and the guard bytes of core/buffer.h in front. A guard is as large as its
// buffer (at least 1 MiB, at most 64 MiB); the last one runs to the end of the
// arena, and the worker maps the arena between 1 MiB and 64 MiB of PROT_NONE
// reservation. The padding between buffers is filled with a pattern and
// checked after the call. So a write past an output is caught whether it runs
// on or jumps: into a guard it faults and is named ("wrote past the capacity
// of output 'nz' (byte 70000 of 4096)", or "... N bytes before output 'nz'"
// for a write in front of one), into padding it is named by the buffers on
// either side, into an input it is "wrote to its input". Only a write that
// lands inside another output's capacity cannot be told from the port's own.
//
// Whatever stops `call` from returning becomes Answer::fault, naming it:
// "killed by SIGSEGV (segmentation fault): read past the end of input ...",
// "aborted (SIGABRT)", "called exit(0) inside call", "threw a C++ exception
// through call: ...", "timed out after N ms" (the worker's process group is
// then killed with SIGKILL). The worker is restarted for the next case; when
// it cannot be, every further case gets "port worker could not be restarted".
// Text the port hands back (name, version, claims, message) is read with
// bounds and made valid UTF-8 (core/text.h).
//
// After fork() of the runner itself (parallel runners), a process other than
// the one that started the worker starts its own worker on first use and
// leaves the inherited one alone (it only closes the inherited descriptors).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "conformance/ports/port.h"

namespace npuconf {

class IsolatedWorker;

class IsolatedPort : public Port {
 public:
  // Starts the worker for the library at `path` and asks it for the port's
  // name, version and claims. nullptr and *error set when the library cannot
  // be loaded, does not export npuconf_port_entry, speaks another ABI
  // version, or the worker dies or hangs (longer than timeout_ms) while
  // loading it.
  static std::unique_ptr<IsolatedPort> Start(const std::string& path, int64_t timeout_ms,
                                             std::string* error);
  // The same, the worker bounded: its own data (heap, private mappings; not the
  // shared arena) may grow by `memory_limit_bytes` past what it held when it
  // started (RLIMIT_DATA; 0: unbounded, as under AddressSanitizer, whose shadow
  // memory the kernel counts). A call that fails (a signal, an abort, an
  // exception) with the worker within a quarter of the limit (at least 65 MiB)
  // of it is "exceeded the memory limit of N bytes (...)", and the worker is
  // restarted. A call that returns is judged by its answer, wherever the
  // worker's memory stands: a port that leaks fails the call that hits the limit.
  static std::unique_ptr<IsolatedPort> Start(const std::string& path, int64_t timeout_ms,
                                             uint64_t memory_limit_bytes, std::string* error);
  ~IsolatedPort() override;

  Answer Call(const Invocation& invocation) const override;
  bool Restart() const override;

 private:
  IsolatedPort(std::string name, std::string version, std::vector<std::string> claims,
               std::unique_ptr<IsolatedWorker> worker);
  std::unique_ptr<IsolatedWorker> worker_;
};

}  // namespace npuconf
