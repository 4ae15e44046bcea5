// A port under test as the runner sees it: a name, claims, and a call that
// answers one concrete case (core/invocation.h) with a vendor status and the
// output buffers as the port left them, guard zones included. How the port is
// reached (in this process, a child process, a subprocess speaking JSON) is
// the business of the implementations in this folder.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/buffer.h"
#include "core/invocation.h"
#include "npuconf/port.h"

namespace npuconf {

struct OutputResult {
  std::string name;
  bool null = false;
  std::shared_ptr<const GuardedBuffer> buffer;  // the buffer after the call
  std::span<const uint8_t> contents() const {
    return {buffer->data(), static_cast<size_t>(buffer->capacity_bytes())};
  }
  bool guards_intact = true;
  int64_t first_bad_offset = 0;  // of the guard zones, relative to the data start
  int32_t rank = -1;             // as written by the port; -1 if not written
  Shape dims;
};

// The dims a port reported for an output, for a message: "[2, 3]", "not
// reported" (rank -1, as handed over), or what is wrong with the rank it wrote
// ("rank 1000, beyond NPUCONF_MAX_RANK (16)", "rank -7, not a rank").
std::string ReportedDims(const OutputResult& out);

struct Answer {
  int32_t call_result = NPUCONF_CALL_UNCLAIMED;
  int64_t status = 0;
  std::string message;
  std::vector<OutputResult> outputs;
  // Set when the port did not return from `call` normally (ports reached in a
  // child process or a subprocess): what happened, for a person, e.g. "killed
  // by SIGSEGV", "timed out after 10000 ms", "exited with status 0 inside
  // call". Empty when the port answered; then call_result says how.
  std::string fault;
  // The fault is a timeout: the call cost the whole --timeout-ms, so the runner
  // does not ask this port again for the property (conformance/harness/runner.cpp).
  bool timed_out = false;
  const OutputResult* Output(const std::string& name) const;
};

class Port {
 public:
  virtual ~Port() = default;
  Port(const Port&) = delete;
  Port& operator=(const Port&) = delete;

  const std::string& name() const { return name_; }
  const std::string& version() const { return version_; }
  const std::vector<std::string>& claims() const { return claims_; }
  // "routine:profile" claims, '*' allowed as a whole field.
  bool Claims(const std::string& routine, const std::string& profile) const;
  // The value of a "choice:NAME=VALUE" claim, if the port makes one.
  std::optional<std::string> ClaimedChoice(const std::string& choice_name) const;

  virtual Answer Call(const Invocation& invocation) const = 0;
  // Ends the process the port runs in, so the next call starts a fresh one
  // with nothing left of earlier calls; false when the port runs in this
  // process and cannot be restarted.
  virtual bool Restart() const { return false; }

 protected:
  Port(std::string name, std::string version, std::vector<std::string> claims)
      : name_(std::move(name)), version_(std::move(version)), claims_(std::move(claims)) {}

 private:
  std::string name_;
  std::string version_;
  std::vector<std::string> claims_;
};

// What a port may say of itself, whichever way it is reached: its name, its
// version and each claim at most kMaxPortStringBytes, at most kMaxPortClaims
// claims. A library's longer strings are cut there (and flagged), an exec:
// port's handshake beyond either is refused.
inline constexpr size_t kMaxPortStringBytes = 4096;
inline constexpr size_t kMaxPortClaims = 4096;

// The frame of a crash note (InProcessPort::SetCrashNoteFd) on a runner
// worker's result socket: a uint64 header, kCrashNoteFlag | the size of the
// case JSON that follows (at most kCrashNoteMaxBytes). A result frame's header
// never has the flag.
inline constexpr uint64_t kCrashNoteFlag = uint64_t{1} << 63;
inline constexpr size_t kCrashNoteMaxBytes = 60000;

// The `call` of a port table (include/npuconf/port.h), or a C++ callable with
// the same contract (the built-in ports).
using PortCallFn = std::function<int32_t(const npuconf_case*, int64_t*, char*, uint64_t)>;

// Inputs up to this many bytes in all are copied for an in-process call; larger
// ones are handed over in place, guarded by chunk digests (core/digest.h).
inline constexpr uint64_t kCopyInputsBytes = uint64_t{64} << 20;

// A port answering in this process through the C ABI: the case is marshalled
// into npuconf_case structs exactly as for any port, outputs sit between guard
// zones. A crash inside the port ends the process with exit code 3 and names the
// case on stderr.
class InProcessPort : public Port {
 public:
  InProcessPort(std::string name, std::string version, std::vector<std::string> claims,
                PortCallFn call);
  ~InProcessPort() override;
  // Loads a shared library exporting npuconf_port_entry. nullptr and *error set
  // when it cannot be loaded or speaks another ABI version.
  static std::unique_ptr<InProcessPort> LoadLibrary(const std::string& path, std::string* error);

  Answer Call(const Invocation& invocation) const override;

  // What the crash line puts before the case, e.g. "/abs/npuconf case --port
  // /abs/port.so " (default "npuconf case "), so the line replays on that port.
  static void SetCrashReplayPrefix(std::string prefix);

  // A crash inside the port also writes the case's JSON (core/case_json.h),
  // framed for RunUnitsInWorkers (conformance/harness/parallel.h), to `fd`
  // before the process exits; -1 (the default): nowhere. Set in a runner
  // worker, so its parent can report the case that crashed it.
  static void SetCrashNoteFd(int fd);

 private:
  PortCallFn call_;
  void* library_ = nullptr;
};

}  // namespace npuconf
