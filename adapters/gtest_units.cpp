// libnpuconf_gtest.so (include/npuconf/conformance_units.h): npuconf's runner
// one property × profile at a time, each in a forked process, for the
// GoogleTest adapter (include/npuconf/gtest.h). It is the runner of `npuconf
// run`, not a second one: RunSuite on one unit, results read back from the
// report item the child writes.
#include <fcntl.h>
#include <npuconf/conformance_units.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <string>

#include "cli/families.h"
#include "cli/open_port.h"
#include "conformance/harness/determinism.h"
#include "conformance/harness/materialize.h"
#include "conformance/harness/runner.h"
#include "conformance/ports/claims.h"
#include "core/status.h"
#include "reports/result_json.h"
#include "reports/text.h"

namespace npuconf::gtest {
namespace {

// The most a child may write back (one report item; a failure's evidence is bounded).
constexpr size_t kMaxResultBytes = size_t{64} << 20;

std::string JoinGlobs(const std::vector<std::string>& globs) {
  if (globs.empty()) return "*";
  std::string out;
  for (const auto& g : globs) out += (out.empty() ? "" : ",") + g;
  return out;
}

// The port of `options`, or nullptr and *error.
std::unique_ptr<Port> MakePort(const Options& options, std::string* error) {
  if (options.entry && !options.library.empty()) {
    *error = "npuconf::gtest::Options: give `entry` or `library`, not both";
    return nullptr;
  }
  if (options.entry) {
    const npuconf_port* table = options.entry(NPUCONF_PORT_ABI_VERSION);
    if (!table || table->abi_version != NPUCONF_PORT_ABI_VERSION || !table->call || !table->name) {
      *error = "the port's entry function does not speak port ABI version " +
               std::to_string(NPUCONF_PORT_ABI_VERSION) + " (npuconf/port.h)";
      return nullptr;
    }
    std::vector<std::string> claims;
    for (const char* const* claim = table->claims; claim && *claim; ++claim)
      claims.emplace_back(*claim);
    return std::make_unique<InProcessPort>(table->name, table->version ? table->version : "",
                                           std::move(claims), table->call);
  }
  if (options.library.empty()) {
    *error = "npuconf::gtest::Options: no port (set `entry` or `library`)";
    return nullptr;
  }
  PortOptions port_options;
  port_options.timeout_ms = options.timeout_ms;
  port_options.memory_limit_bytes = MaxCaseBytes();  // as `npuconf run` bounds the worker
  PortChoice choice = OpenPort(options.library, port_options);
  if (!choice.port) *error = choice.error;
  return std::move(choice.port);
}

std::string ReproducePort(const Options& options) {
  if (!options.reproduce_port.empty()) return options.reproduce_port;
  return options.library.empty() ? "PORT.so" : options.library;
}

// What a child writes back: the unit's result as a report item.
std::string RunInChild(const Options& options, const Unit& unit) {
  std::string error;
  const std::unique_ptr<Port> port = MakePort(options, &error);
  if (!port) return "error:" + error;
  const AskTwicePort asking_twice(*port, kDefaultDeterminismEvery);
  RunOptions run;
  run.seed = options.seed;
  run.cases = options.cases;
  run.property_glob = unit.property;
  run.profiles = {unit.profile};
  run.real_shapes = options.real_shapes;
  run.port_arg = ReproducePort(options);
  run.jobs = 1;
  const report::RunReport result = RunSuite(BuiltinSuite(), asking_twice, run);
  for (const auto& r : result.results) {
    if (r.property == unit.property && r.profile == unit.profile)
      return report::ResultToJson(r).dump();
  }
  return "error:npuconf ran no result for " + unit.property + "@" + unit.profile;
}

}  // namespace

std::vector<Unit> ListUnits(const Options& options, std::string* error) {
  std::vector<Unit> units;
  std::string why;
  const std::unique_ptr<Port> port = MakePort(options, &why);
  if (!port) {
    *error = why;
    return units;
  }
  if (std::string bad = ValidateClaims(port->claims(), BuiltinSuite().specs(), BuiltinProfiles());
      !bad.empty()) {
    *error = "port " + port->name() + ": " + bad;
    return units;
  }
  std::vector<const Profile*> profiles = SelectProfiles(options.profiles, &why);
  if (!why.empty()) {
    *error = why;
    return units;
  }
  const std::string routine_glob = JoinGlobs(options.routines);
  const std::string property_glob = JoinGlobs(options.properties);
  for (const Property& property : BuiltinSuite().properties()) {
    if (!GlobMatch(property_glob, property.name) || !GlobMatch(routine_glob, property.routine))
      continue;
    const Routine* routine = BuiltinSuite().FindRoutine(property.routine);
    const RoutineSpec* spec = routine ? routine->spec : nullptr;
    for (const Profile* profile : profiles) {
      if (spec && profile->family != spec->vendor) continue;
      if (!port->Claims(property.routine, profile->name)) continue;
      units.push_back({property.name, profile->name, property.routine, property.description});
    }
  }
  if (units.empty()) {
    *error = "nothing to check: port " + port->name() +
             " claims no selected property on the selected profiles (its claims:";
    for (const auto& c : port->claims()) *error += " " + c;
    *error += ")";
  }
  return units;
}

UnitOutcome RunUnit(const Options& options, const Unit& unit) {
  UnitOutcome outcome;
  int result_pipe[2], err_pipe[2];
  if (pipe2(result_pipe, O_CLOEXEC) != 0 || pipe2(err_pipe, O_CLOEXEC) != 0) {
    outcome.text = std::string("npuconf: cannot make a pipe: ") + std::strerror(errno);
    return outcome;
  }
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) {
    outcome.text = std::string("npuconf: cannot fork: ") + std::strerror(errno);
    return outcome;
  }
  if (pid == 0) {
    close(result_pipe[0]);
    close(err_pipe[0]);
    dup2(err_pipe[1], STDERR_FILENO);
    std::string text;
    try {
      text = RunInChild(options, unit);
    } catch (const std::exception& e) {
      text = std::string("error:") + e.what();
    }
    for (size_t done = 0; done < text.size();) {
      const ssize_t n = write(result_pipe[1], text.data() + done, text.size() - done);
      if (n <= 0) break;
      done += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(result_pipe[1]);
  close(err_pipe[1]);
  // Both pipes to their end, within the unit's time.
  std::string result, stderr_text;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::milliseconds(options.unit_timeout_ms);
  bool timed_out = false;
  pollfd fds[2] = {{result_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}};
  int open_fds = 2;
  while (open_fds > 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    if (poll(fds, 2, static_cast<int>(std::min<int64_t>(left, 1000))) < 0 && errno != EINTR) break;
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buffer[65536];
      const ssize_t n = read(fds[i].fd, buffer, sizeof(buffer));
      if (n <= 0) {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
        continue;
      }
      std::string& into = i == 0 ? result : stderr_text;
      if (into.size() < kMaxResultBytes) into.append(buffer, static_cast<size_t>(n));
    }
  }
  for (auto& f : fds) {
    if (f.fd >= 0) close(f.fd);
  }
  if (timed_out) kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  const std::string where = unit.property + " on " + unit.profile;
  const std::string replay = "npuconf run --port " + ShellWord(ReproducePort(options)) +
                             " --profile " + unit.profile + " --property " + unit.property;
  if (timed_out) {
    outcome.text = where + ": the check did not end within " +
                   std::to_string(options.unit_timeout_ms) +
                   " ms (a hanging port?); replay: " + replay;
    return outcome;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || result.empty()) {
    std::string how = WIFSIGNALED(status)
                          ? std::string("killed by signal ") + std::to_string(WTERMSIG(status)) +
                                " (" + strsignal(WTERMSIG(status)) + ")"
                          : "exit status " + std::to_string(WEXITSTATUS(status));
    outcome.text = where + ": the port ended the process checking it: " + how + "\n" +
                   report::Shorten(report::SanitizeUtf8(stderr_text), 4000) + "replay: " + replay;
    return outcome;
  }
  if (result.rfind("error:", 0) == 0) {
    outcome.text = where + ": " + result.substr(6);
    return outcome;
  }
  report::PropertyResult r;
  try {
    r = report::ResultFromJson(nlohmann::json::parse(result));
  } catch (const std::exception& e) {
    outcome.text = where + ": unreadable result from the checking process: " + e.what();
    return outcome;
  }
  switch (r.outcome) {
    case report::Outcome::kPass:
      outcome.passed = true;
      outcome.text = std::to_string(r.explicit_cases) + " explicit + " +
                     std::to_string(r.random_cases) + " random cases held";
      return outcome;
    case report::Outcome::kNotClaimed:
    case report::Outcome::kNotCovered:
    case report::Outcome::kNotApplicable:
      outcome.passed = true;
      outcome.skipped = true;
      outcome.text = report::ToString(r.outcome) + ": " + r.message;
      return outcome;
    default:
      break;
  }
  std::string text = where + ": " + report::ToString(r.outcome) + ": " + r.message;
  if (!r.counterexample.empty()) text += "\nminimal case: " + r.counterexample;
  if (!r.first_explicit_failure.empty())
    text += "\nfirst explicit case that failed: " + r.first_explicit_failure;
  if (!r.evidence.is_null()) text += "\nevidence: " + report::Shorten(r.evidence.dump(), 2000);
  if (!r.reproduce.empty()) text += "\nreproduce: " + r.reproduce;
  outcome.text = report::SanitizeUtf8(text);
  return outcome;
}

}  // namespace npuconf::gtest
