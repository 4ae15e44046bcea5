// A port in any language: a long-lived subprocess (`--port 'exec:CMD ARGS'`)
// that speaks JSON lines on its stdin/stdout, as docs/port-protocol.md says.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "conformance/ports/port.h"

namespace npuconf {

inline constexpr char kPortProtocol[] = "npuconf-port";
inline constexpr int kPortProtocolVersion = 1;

// "CMD ARGS" split into words: blanks separate words, '...' keeps everything
// literally, "..." keeps everything but \" and \\, a backslash outside quotes
// keeps the next character. No variables, globs or other shell syntax.
// Returns "" or a message naming what is wrong (an unterminated quote).
std::string SplitCommandLine(const std::string& command, std::vector<std::string>* words);

// What a port says of itself in its handshake line (docs/port-protocol.md).
struct PortHandshake {
  std::string name, version;
  std::vector<std::string> claims;
};

// The port's first line (without its '\n') into *hello; "" or a message naming
// what in the line breaks the protocol. The line is untrusted bytes.
std::string ParseHandshakeLine(const std::string& line, PortHandshake* hello);

// The port's answer line to request `id` of `inv`: status, message and dims
// into *answer, line-borne output bytes into `buffers` (one per inv.outputs;
// outputs with a non-empty `output_paths` entry travel as files instead). ""
// or the fault, quoting the line without its id so that the same answer to a
// later request gets the same message.
std::string ParseAnswerLine(const std::string& line, uint64_t id, const Invocation& inv,
                            const std::vector<std::shared_ptr<GuardedBuffer>>& buffers,
                            const std::vector<std::string>& output_paths, Answer* answer);

// The subprocess behind an ExecPort: its pid, our ends of its stdin/stdout,
// and the pid of the process that started it (after fork() only that process
// may talk to it or reap it).
struct ExecChild {
  pid_t pid = -1;
  pid_t owner = -1;
  int to_child = -1;    // the child's stdin
  int from_child = -1;  // the child's stdout
  std::string pending;  // bytes read past the last full line
};

// The port is untrusted: every way it can fail to answer a case (exit, signal,
// timeout, garbage, a wrong id) becomes Answer::fault for that case, and the
// subprocess is started again for the next one. stderr is inherited: what
// the port prints there appears unchanged on npuconf's stderr.
class ExecPort : public Port {
 public:
  // Starts `command` (the text after "exec:") and reads its handshake. nullptr
  // and *error set (naming the command and what went wrong) when it cannot be
  // started, dies or times out before the handshake, or the handshake is not
  // the protocol's. `timeout_ms` limits each case (and, at least 5 s, the
  // handshake).
  static std::unique_ptr<ExecPort> Start(const std::string& command, int64_t timeout_ms,
                                         std::string* error);
  ~ExecPort() override;

  Answer Call(const Invocation& invocation) const override;
  bool Restart() const override;

 private:
  ExecPort(std::string name, std::string version, std::vector<std::string> claims,
           std::vector<std::string> argv, int64_t timeout_ms, ExecChild child);
  // "" or a fault; a running child of this process afterwards on success.
  std::string EnsureRunning() const;
  // Kills (if ours) and reaps the child, closes our ends.
  void Stop(bool kill_first) const;
  // What became of a child that closed its stdout or could not be written to.
  std::string DescribeExit() const;

  std::vector<std::string> argv_;
  int64_t timeout_ms_;
  mutable ExecChild child_;
  mutable uint64_t next_id_ = 1;
};

}  // namespace npuconf
