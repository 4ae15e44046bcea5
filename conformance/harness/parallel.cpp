#include "conformance/harness/parallel.h"

#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <numeric>
#include <optional>
#include <stdexcept>

#include "conformance/ports/port.h"
#include "core/interrupt.h"
#include "core/status.h"
#include "reports/result_json.h"

namespace npuconf {
namespace {

// A worker exits with this when an exception escaped the check it ran.
constexpr int kWorkerExceptionExit = 70;

struct Worker {
  pid_t pid = -1;
  int fd = -1;                                    // the parent's end of the worker's socket
  long unit = -1;                                 // the unit it checks, -1 when idle
  std::chrono::steady_clock::time_point started;  // when it took its unit
  std::string inbox;
  std::string crash_note;  // the case JSON of a crash note (port.h), "" when none
};

bool WriteAll(int fd, const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = send(fd, p, size, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

bool ReadAll(int fd, void* data, size_t size) {
  char* p = static_cast<char*>(data);
  while (size > 0) {
    const ssize_t n = read(fd, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    p += n;
    size -= static_cast<size_t>(n);
  }
  return true;
}

// The worker's life: read a unit index, check it, send the result as CBOR (the
// report.json item; CBOR carries port text that is not UTF-8 unchanged and
// doubles exactly), until the parent closes the socket.
[[noreturn]] void WorkerLoop(int fd, const std::vector<PoolUnit>& units,
                             const std::function<report::PropertyResult(size_t)>& run) {
  for (;;) {
    uint64_t index = 0;
    if (!ReadAll(fd, &index, sizeof index) || index >= units.size()) _exit(0);
    std::vector<uint8_t> message;
    try {
      message = nlohmann::json::to_cbor(report::ResultToJson(run(index)));
    } catch (const std::exception& e) {
      std::fprintf(stderr, "npuconf: worker checking %s: %s\n", units[index].name.c_str(),
                   e.what());
      _exit(kWorkerExceptionExit);
    }
    const uint64_t size = message.size();
    if (!WriteAll(fd, &size, sizeof size) || !WriteAll(fd, message.data(), message.size()))
      _exit(0);
  }
}

std::string DeathOf(int status) {
  if (WIFSIGNALED(status)) {
    const char* abbrev = sigabbrev_np(WTERMSIG(status));
    return abbrev ? "SIG" + std::string(abbrev) : "signal " + std::to_string(WTERMSIG(status));
  }
  if (WIFEXITED(status)) {
    const int code = WEXITSTATUS(status);
    return "exit status " + std::to_string(code) +
           (code == kWorkerExceptionExit ? " (an exception escaped the check)"
            : code == kExitPortFailure   ? " (the in-process port crashed)"
                                         : "");
  }
  return "wait status " + std::to_string(status);
}

class Pool {
 public:
  Pool(const std::vector<PoolUnit>& units, const std::function<report::PropertyResult(size_t)>& run,
       const std::function<void(int)>& on_worker_start)
      : units_(units), run_(run), on_worker_start_(on_worker_start) {}

  ~Pool() {
    for (Worker& w : workers_) Retire(&w);
  }

  // Starts a worker; false when fork or socketpair failed.
  bool Spawn(Worker* w) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) return false;
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
    const pid_t runner = getpid();
    const pid_t pid = fork();
    if (pid < 0) {
      close(fds[0]);
      close(fds[1]);
      return false;
    }
    if (pid == 0) {
      // The runner's records are its own; a runner that dies stops this worker.
      interrupt::ForgetInherited();
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (getppid() != runner) _exit(0);
      close(fds[0]);
      // Siblings' sockets must not stay open here, or a sibling would never
      // see its end of file.
      for (const Worker& other : workers_) {
        if (other.fd >= 0) close(other.fd);
      }
      if (on_worker_start_) on_worker_start_(fds[1]);
      WorkerLoop(fds[1], units_, run_);
    }
    close(fds[1]);
    interrupt::AddChild(pid, interrupt::ChildKind::kPoolWorker);
    *w = Worker{.pid = pid, .fd = fds[0]};
    return true;
  }

  // Closes the socket (the worker exits at end of file) and reaps it.
  void Retire(Worker* w, int* status = nullptr) {
    if (w->fd >= 0) close(w->fd);
    w->fd = -1;
    if (w->pid > 0) {
      int s = 0;
      while (waitpid(w->pid, &s, 0) < 0 && errno == EINTR) {
      }
      interrupt::RemoveChild(w->pid);
      if (status) *status = s;
    }
    w->pid = -1;
  }

  std::vector<Worker>& workers() { return workers_; }

 private:
  const std::vector<PoolUnit>& units_;
  const std::function<report::PropertyResult(size_t)>& run_;
  const std::function<void(int)>& on_worker_start_;
  std::vector<Worker> workers_;
};

}  // namespace

double EtaSeconds(double unstarted_cost, const std::vector<std::pair<double, double>>& running,
                  int workers, double speed) {
  // A running unit has left its cost less what it has run (in cost units), and
  // at least a tenth of its cost while it has not ended.
  double longest = 0, left = std::max(unstarted_cost, 0.0);
  for (const auto& [cost, seconds] : running) {
    const double rest = std::max(cost - seconds / std::max(speed, 1e-9), 0.1 * cost);
    longest = std::max(longest, rest);
    left += rest;
  }
  return std::max(longest, left / std::max(workers, 1)) * speed;
}

std::string ProgressLine(size_t done, size_t total, int failures, double eta_seconds,
                         const std::string& last) {
  char eta[32];
  const long s = std::lround(std::max(0.0, eta_seconds));
  std::snprintf(eta, sizeof eta, "%ld:%02ld", s / 60, s % 60);
  return "[" + std::to_string(done) + "/" + std::to_string(total) + "] " +
         std::to_string(failures) + " failing, ETA " + eta + (last.empty() ? "" : "  " + last);
}

void RunUnitsInWorkers(const std::vector<PoolUnit>& units, const PoolOptions& options,
                       const std::function<report::PropertyResult(size_t)>& run, const DiedFn& died,
                       const std::function<void(size_t, report::PropertyResult)>& deliver) {
  const size_t n = units.size();
  if (n == 0) return;
  // Longest first, so the run does not end on one long unit while the other
  // workers idle; ties keep report order.
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return units[a].cost > units[b].cost; });
  const double total_cost = std::accumulate(
      units.begin(), units.end(), 0.0, [](double sum, const PoolUnit& u) { return sum + u.cost; });

  Pool pool(units, run, options.on_worker_start);
  std::vector<Worker>& workers = pool.workers();
  workers.resize(
      static_cast<size_t>(std::max(1, std::min<int>(options.jobs, static_cast<int>(n)))));
  size_t next = 0, done = 0;
  int failures = 0;
  double done_cost = 0, done_seconds = 0, unstarted_cost = total_cost;
  const bool tty = isatty(STDERR_FILENO);
  size_t last_unit = 0;
  // When each unit started: a unit's worker forgets it before the unit is
  // finished, so its seconds are taken from here (the ETA sat at 0:00 when
  // they were looked up on the worker).
  std::vector<std::chrono::steady_clock::time_point> started(n);
  auto print_progress = [&] {
    const auto now = std::chrono::steady_clock::now();
    std::vector<std::pair<double, double>> running;
    for (const Worker& w : workers) {
      if (w.unit >= 0)
        running.emplace_back(units[static_cast<size_t>(w.unit)].cost,
                             std::chrono::duration<double>(now - w.started).count());
    }
    const double speed = done_cost > 0 ? done_seconds / done_cost : 1.0;
    const double eta = EtaSeconds(unstarted_cost, running, static_cast<int>(workers.size()), speed);
    std::cerr << (tty ? "\r\033[K" : "")
              << ProgressLine(done, n, failures, eta, units[last_unit].name) << (tty ? "" : "\n")
              << std::flush;
  };

  auto assign = [&](Worker* w) {
    while (next < n) {
      if (w->pid < 0 && !pool.Spawn(w)) {
        throw std::runtime_error(std::string("cannot start a worker process: ") + strerror(errno));
      }
      const uint64_t index = order[next];
      if (WriteAll(w->fd, &index, sizeof index)) {
        w->unit = static_cast<long>(index);
        w->started = started[index] = std::chrono::steady_clock::now();
        unstarted_cost -= units[index].cost;
        ++next;
        return;
      }
      pool.Retire(w);  // it died idle: a fresh one takes the unit
    }
    pool.Retire(w);  // nothing left for it
  };
  auto finish = [&](size_t unit, report::PropertyResult result) {
    failures += report::IsFailure(result.outcome);
    done_cost += units[unit].cost;
    done_seconds +=
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started[unit]).count();
    last_unit = unit;
    ++done;
    deliver(unit, std::move(result));
    if (options.progress) print_progress();
  };

  for (Worker& w : workers) assign(&w);
  while (done < n) {
    std::vector<pollfd> fds;
    std::vector<Worker*> polled;
    for (Worker& w : workers) {
      if (w.fd < 0) continue;
      fds.push_back({.fd = w.fd, .events = POLLIN, .revents = 0});
      polled.push_back(&w);
    }
    if (fds.empty()) throw std::logic_error("process pool: units left but no worker");
    // On a terminal the line is redrawn every second, so a long unit left at
    // the end counts down instead of freezing the ETA.
    const int ready = poll(fds.data(), fds.size(), options.progress && tty ? 1000 : -1);
    if (ready < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("poll: ") + strerror(errno));
    }
    if (ready == 0) {
      print_progress();
      continue;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      Worker* w = polled[i];
      char buffer[1 << 16];
      const ssize_t got = read(w->fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        // End of file: the worker is gone, with or without a unit.
        const long unit = w->unit;
        int status = 0;
        pool.Retire(w, &status);
        const std::string note = std::move(w->crash_note);
        w->inbox.clear();
        w->crash_note.clear();
        w->unit = -1;
        if (unit >= 0) {
          std::string why = DeathOf(status);
          if (note.empty() && WIFEXITED(status) && WEXITSTATUS(status) == kExitPortFailure)
            why += "; the case it was answering is on stderr";
          finish(static_cast<size_t>(unit), died(static_cast<size_t>(unit), why, note));
        }
        assign(w);
        continue;
      }
      w->inbox.append(buffer, static_cast<size_t>(got));
      // Frames, each a uint64 header and its payload, taken exactly: a crash
      // note (port.h) is kept for the worker's death, a result ends its unit.
      uint64_t size = 0;
      while (w->unit >= 0 && w->inbox.size() >= sizeof size) {
        std::memcpy(&size, w->inbox.data(), sizeof size);
        if (size & kCrashNoteFlag) {
          const uint64_t note_bytes = size & ~kCrashNoteFlag;
          if (note_bytes > kCrashNoteMaxBytes) {
            w->inbox.clear();  // not a note this runner wrote: dropped
            break;
          }
          if (w->inbox.size() < sizeof size + note_bytes) break;
          w->crash_note = w->inbox.substr(sizeof size, note_bytes);
          w->inbox.erase(0, sizeof size + note_bytes);
          continue;
        }
        if (w->inbox.size() < sizeof size + size) break;
        const size_t unit = static_cast<size_t>(w->unit);
        report::PropertyResult result;
        bool readable = true;
        try {
          result = report::ResultFromCbor(
              {reinterpret_cast<const uint8_t*>(w->inbox.data()) + sizeof size, size});
        } catch (const std::exception& e) {
          readable = false;
          result = died(unit, std::string("sent an unreadable result (") + e.what() + ")", "");
        }
        w->inbox.erase(0, sizeof size + size);
        if (readable && result.property + "@" + result.profile != units[unit].name) {
          readable = false;
          result = died(
              unit,
              "sent a result for another unit (" + result.property + "@" + result.profile + ")",
              "");
        } else if (readable && !w->inbox.empty()) {
          // One unit, one result: more bytes mean something in the worker (an
          // in-process port) wrote to this socket; nothing it sent is trusted.
          readable = false;
          result = died(unit, "sent more than one result for its unit", "");
        }
        w->inbox.clear();
        w->crash_note.clear();
        w->unit = -1;
        if (!readable) pool.Retire(w);
        finish(unit, std::move(result));
        assign(w);
      }
      if (w->unit < 0 && !w->inbox.empty()) {
        // Bytes from an idle worker belong to no unit: it is not trusted further.
        w->inbox.clear();
        pool.Retire(w);
        assign(w);
      }
    }
  }
  if (options.progress && tty) std::cerr << "\r\033[K" << std::flush;
}

}  // namespace npuconf

namespace npuconf {

double EstimatedUnitSeconds(const std::string& property, const std::string& profile,
                            bool real_shapes) {
  // Seconds of the units that carry the real model shapes, from one default
  // run (`npuconf run --port reference`, 2026-12-01, 2 cores shared): they
  // are what the run's length hangs on. Everything else took under 6 s.
  struct Measured {
    const char* property;
    const char* profile;
    double seconds;
  };
  static const Measured kMeasured[] = {
      {"cann.nd_to_nz.matches_oracle", "ascend310b", 135},
      {"rknn.b_norm_to_native.matches_oracle", "rk3576", 39},
      {"rknn.b_norm_to_native.matches_oracle", "rk3588", 35},
      {"rknn.b_norm_to_native.matches_oracle", "rk3588_sdk1_6", 29},
      {"cann.trans_matmul_weight.matches_oracle", "ascend310b", 18},
      {"rknn.b_norm_to_native.matches_oracle", "rk3566_rk3568", 12},
      {"rknn.b_norm_to_native.matches_oracle", "rk3562", 12},
      {"cann.trans_matmul_weight.matches_oracle", "ascend310p", 8},
  };
  if (!real_shapes) return 1.0;
  for (const Measured& m : kMeasured) {
    if (property == m.property && profile == m.profile) return m.seconds;
  }
  return 1.0;
}

}  // namespace npuconf
