// The run fingerprint (issue 42 item 2): every option that decides what a run
// checks, and the waivers that judge it, as report.json's "fingerprint".
#pragma once

#include <cstdint>
#include <string>

#include "conformance/ports/port.h"
#include "reports/report.h"

namespace npuconf {

// What a fingerprint is made of: `run`'s options as parsed.
struct FingerprintOptions {
  std::string port_arg;  // --port as given
  uint64_t seed = 0;
  int cases = 0;
  bool real_shapes = true;
  std::string real_shapes_file;  // --real-shapes, "" for the built-in shapes
  uint64_t max_case_bytes = 0;
  int64_t timeout_ms = 0;
  int64_t determinism_every = 0;
  bool in_process = false;
  std::string waivers_file;  // --waivers, "" for none
};

// The port's identity: "reference (built in, npuconf V)", "mutant:NAME (built
// in, npuconf V)", "exec:CMD" (the command as given), or "shared library
// xxh3-64:HEX" (a digest of the file's bytes, not its path: shards on other
// hosts load it from other places). Empty and *error set when a file cannot
// be read.
std::string PortIdentity(const std::string& port_arg, std::string* error);

// "none", or the digest of file `path` ("xxh3-64:HEX"); *error set when it
// cannot be read.
std::string FileIdentity(const std::string& path, std::string* error);

// The fingerprint of `run` with `options` on `port`: suite_version, port,
// claims, isa (the reference kernels' path), seed, cases, real_shapes ("off",
// "built-in" or "file xxh3-64:HEX"), max_case_bytes, timeout_ms,
// determinism_every, in_process ("yes"/"no"), waivers ("none" or the file's
// digest). *error set (and the result partial) when a file cannot be read.
report::Fingerprint RunFingerprint(const FingerprintOptions& options, const Port& port,
                                   std::string* error);

}  // namespace npuconf
