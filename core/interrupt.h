// What the runner undoes when it is stopped by a signal (issue 17 item 6):
// SIGTERM, SIGINT or SIGHUP to `npuconf run` ends its worker processes and its
// ports' processes, removes the files it had made (exec: tensor files in
// /dev/shm, half-written report temporaries), prints a note and exits
// 128 + the signal (130 for SIGINT, 143 for SIGTERM). The reports written after
// the last result stay as they are: readable, `"complete": false`.
//
// Processes and files are recorded here while they exist. The record is a
// fixed set of lock-free slots, read by the signal handler with
// async-signal-safe calls only (kill, waitpid, unlink, nanosleep, write,
// _exit).
#pragma once

#include <sys/types.h>

#include <string>

namespace npuconf::interrupt {

enum class ChildKind {
  kPoolWorker,    // a runner process of parallel.h: sent SIGTERM, waited for (it cleans up its own)
  kProcessGroup,  // an isolated port worker, leader of its group: the group gets SIGKILL
  kProcess,       // an exec: port: SIGKILL
};

void AddChild(pid_t pid, ChildKind kind);
void RemoveChild(pid_t pid);
void AddFile(const std::string& path);
void RemoveFile(const std::string& path);

// In a fork()ed copy of the runner: the inherited entries are the parent's.
void ForgetInherited();

// Installs the handlers of SIGTERM, SIGINT and SIGHUP; `note` (a line ending
// in '\n') is written to stderr by the process that installed them, not by its
// forked workers. Also ignores SIGXFSZ, so a write past RLIMIT_FSIZE fails with
// EFBIG (named in the error) instead of killing the runner.
void Install(const std::string& note);

}  // namespace npuconf::interrupt
