#include "core/interrupt.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <ctime>

namespace npuconf::interrupt {
namespace {

constexpr int kChildSlots = 1024;
constexpr int kFileSlots = 1024;
constexpr size_t kPathBytes = 512;
// How long a stopped runner waits for its workers to clean up before SIGKILL.
constexpr int kWorkerGraceMs = 3000;

enum SlotState : int { kFree = 0, kBusy = 1, kReady = 2 };

struct ChildSlot {
  std::atomic<int> state{kFree};
  pid_t pid = 0;
  ChildKind kind = ChildKind::kProcess;
};

struct FileSlot {
  std::atomic<int> state{kFree};
  char path[kPathBytes] = {};
};

ChildSlot g_children[kChildSlots];
FileSlot g_files[kFileSlots];
pid_t g_installer = 0;
char g_note[1024] = {};
size_t g_note_bytes = 0;

template <typename Slot, typename Fill>
void Claim(Slot* slots, int count, Fill fill) {
  for (int i = 0; i < count; ++i) {
    int expected = kFree;
    if (slots[i].state.compare_exchange_strong(expected, kBusy)) {
      fill(slots[i]);
      slots[i].state.store(kReady);
      return;
    }
  }
  // Full: the entry goes unrecorded (a signal then leaves it behind); never
  // reached with fewer than kChildSlots ports and workers alive at once.
}

void SleepMs(long ms) {
  timespec t{ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) != 0 && errno == EINTR) {
  }
}

void OnSignal(int sig) {
  const int saved = errno;
  // Ports first, so no port outlives its runner; workers are asked to stop and
  // clean up (their handler is this one).
  for (auto& c : g_children) {
    if (c.state.load() != kReady) continue;
    switch (c.kind) {
      case ChildKind::kProcessGroup:
        kill(-c.pid, SIGKILL);
        kill(c.pid, SIGKILL);
        break;
      case ChildKind::kProcess:
        kill(c.pid, SIGKILL);
        break;
      case ChildKind::kPoolWorker:
        kill(c.pid, SIGTERM);
        break;
    }
  }
  for (auto& f : g_files) {
    if (f.state.load() == kReady) unlink(f.path);
  }
  // Reap: workers within the grace time, then whatever is left by force.
  for (int waited = 0;; waited += 10) {
    bool alive = false;
    for (auto& c : g_children) {
      if (c.state.load() != kReady) continue;
      const pid_t got = waitpid(c.pid, nullptr, WNOHANG);
      if (got == c.pid || (got < 0 && errno == ECHILD)) {
        c.state.store(kFree);
      } else {
        alive = true;
      }
    }
    if (!alive) break;
    if (waited >= kWorkerGraceMs) {
      for (auto& c : g_children) {
        if (c.state.load() != kReady) continue;
        kill(c.pid, SIGKILL);
        waitpid(c.pid, nullptr, 0);
        c.state.store(kFree);
      }
      break;
    }
    SleepMs(10);
  }
  if (getpid() == g_installer && g_note_bytes > 0) {
    const char* name = sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP";
    ssize_t ignored = write(STDERR_FILENO, "\nnpuconf: stopped by ", 21);
    ignored = write(STDERR_FILENO, name, std::strlen(name));
    ignored = write(STDERR_FILENO, g_note, g_note_bytes);
    (void)ignored;
  }
  errno = saved;
  _exit(128 + sig);
}

}  // namespace

void AddChild(pid_t pid, ChildKind kind) {
  Claim(g_children, kChildSlots, [&](ChildSlot& s) {
    s.pid = pid;
    s.kind = kind;
  });
}

void RemoveChild(pid_t pid) {
  for (auto& c : g_children) {
    if (c.state.load() == kReady && c.pid == pid) c.state.store(kFree);
  }
}

void AddFile(const std::string& path) {
  if (path.size() >= kPathBytes) return;
  Claim(g_files, kFileSlots,
        [&](FileSlot& s) { std::memcpy(s.path, path.c_str(), path.size() + 1); });
}

void RemoveFile(const std::string& path) {
  for (auto& f : g_files) {
    if (f.state.load() == kReady && path == f.path) f.state.store(kFree);
  }
}

void ForgetInherited() {
  for (auto& c : g_children) c.state.store(kFree);
  for (auto& f : g_files) f.state.store(kFree);
}

void Install(const std::string& note) {
  g_installer = getpid();
  g_note_bytes = std::min(note.size(), sizeof(g_note));
  std::memcpy(g_note, note.data(), g_note_bytes);
  struct sigaction action {};
  action.sa_handler = OnSignal;
  sigemptyset(&action.sa_mask);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigaddset(&action.sa_mask, sig);
  for (int sig : {SIGTERM, SIGINT, SIGHUP}) sigaction(sig, &action, nullptr);
  signal(SIGXFSZ, SIG_IGN);
}

}  // namespace npuconf::interrupt
