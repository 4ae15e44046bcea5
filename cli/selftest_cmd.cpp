#include "cli/selftest_cmd.h"

#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>

#include "cli/families.h"
#include "cli/open_port.h"
#include "cli/options.h"
#include "conformance/harness/runner.h"
#include "conformance/ports/claims.h"
#include "core/status.h"
#include "reports/report_writer.h"

namespace npuconf {
namespace {

using nlohmann::json;

// Kills under fewer than this share of the seeds are "thin" (issue 17 item 3's goal: 90 %).
constexpr double kRobustShare = 0.9;

std::string Join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : sep) + item;
  return out;
}

// The family a mutant was registered by (cli/families.cpp), for grouping.
std::string FamilyOf(const Mutant& mutant) {
  for (const auto& f : Families()) {
    if (&f.reference() == mutant.family) return f.conformance().name;
  }
  return "?";
}

// The properties that call a routine the mutant's bug is in (Property::AllRoutines).
std::vector<std::string> PropertiesReaching(const Mutant& mutant) {
  std::vector<std::string> out;
  for (const auto& property : BuiltinSuite().properties()) {
    for (const std::string& routine : property.AllRoutines()) {
      if (MutantChanges(mutant, routine)) {
        out.push_back(property.name);
        break;
      }
    }
  }
  return out;
}

struct MutantRun {
  const Mutant* mutant = nullptr;
  std::string family;
  std::vector<std::string> properties;
  std::vector<std::string> profiles;
  std::map<std::string, std::vector<uint64_t>> killed_by;
  std::vector<uint64_t> killed_seeds, survived_seeds;
  // Seeds under which the mutant's run died (SeedOutcome::crash): a built-in
  // mutant that crashes is buggy beyond its bug, and fails the selftest.
  std::map<uint64_t, std::string> crashed;
  bool outside_claims = false;  // --claims-of: the port claims none of its routines
};

json CrashesJson(const MutantRun& run) {
  json out = json::array();
  for (const auto& [seed, how] : run.crashed) out.push_back({{"seed", seed}, {"how", how}});
  return out;
}

json ToJson(const MutantRun& run) {
  return {{"name", run.mutant->name},         {"family", run.family},
          {"bug", run.mutant->bug},           {"caught_by", run.mutant->caught_by},
          {"routines", run.mutant->routines}, {"profiles", run.profiles},
          {"properties", run.properties},     {"killed_by", run.killed_by},
          {"killed_seeds", run.killed_seeds}, {"survived_seeds", run.survived_seeds},
          {"crashed", CrashesJson(run)},      {"outside_claims", run.outside_claims}};
}

}  // namespace

int RunSelftestCli(int argc, char** argv, std::ostream& out, std::ostream& err) {
  CLI::App app{
      "npuconf selftest: run every built-in mutant (a port with one known bug) against the "
      "properties that call its routines, and show which properties kill which mutants"};
  app.name("npuconf selftest");
  app.footer(
      "Exit codes:\n"
      "  0  every selected mutant was killed at the first seed\n"
      "  1  a mutant survived the first seed (the gate would have let that bug through), or\n"
      "     a mutant's run crashed (killed by a signal, threw, aborted: CRASHED, its seed and "
      "how)\n"
      "  2  bad usage (option, unknown mutant, property or profile, --out, --claims-of claims)\n"
      "  3  the port of --claims-of could not be loaded\n"
      "  4  no mutant ran: --claims-of's port claims none of their routines\n"
      "Kills are a lower bound: more --cases or --real-shapes only add kills.\n"
      "Quote the result in a run's reports: npuconf run --selftest DIR/selftest.json");
  int seeds = 1, cases = kDefaultCases, jobs = 1;
  uint64_t seed = kDefaultSeed;
  std::vector<std::string> profile_globs, property_globs, mutant_globs;
  bool real_shapes = false, as_json = false, quiet = false;
  std::string out_dir;
  app.add_option("--seeds", seeds, "Seeds per mutant: --seed, --seed+1, ... (30 for robustness)")
      ->check(IntegerIn(1, 10000))
      ->capture_default_str();
  app.add_option("--seed", seed, "The first seed")->check(Unsigned64())->capture_default_str();
  app.add_option("--cases", cases, "Random cases per property and profile")
      ->check(IntegerIn(0, 1000000))
      ->capture_default_str();
  app.add_option("--profile", profile_globs,
                 "Run every mutant on these profiles (glob; repeatable; default: the profile "
                 "each mutant names in `npuconf list ports`)");
  app.add_option("--property", property_globs,
                 "Only these properties (glob; repeatable): which mutants survive them");
  app.add_option("--mutant", mutant_globs, "Only mutants matching this glob; repeatable");
  std::string claims_of;
  app.add_option("--claims-of", claims_of,
                 "Make every mutant claim what this port claims (as --port takes it), so the "
                 "kills are within its claims; mutants in routines it does not claim are left out");
  app.add_flag("--real-shapes", real_shapes,
               "Also the real model shapes among the explicit cases (off: they only add kills)");
  app.add_option("--jobs", jobs, "Worker processes of each mutant's run")
      ->check(IntegerIn(1, 1024))
      ->capture_default_str();
  app.add_flag("--json", as_json, "Print selftest.json's document instead of the text");
  app.add_option("--out", out_dir, "Also write DIR/selftest.json and DIR/selftest.txt");
  app.add_flag("--quiet", quiet, "Only the verdict line");
  if (const int code = ParseSubcommand(app, argc, argv, "npuconf selftest", out, err); code >= 0)
    return code;
  const std::string mutant_glob = mutant_globs.empty() ? "*" : Join(mutant_globs, ",");
  const std::string property_glob = property_globs.empty() ? "*" : Join(property_globs, ",");
  for (const auto& glob : property_globs) {
    bool any = false;
    for (const auto& p : BuiltinSuite().properties()) any = any || GlobMatch(glob, p.name);
    if (!any) {
      err << "npuconf selftest: --property '" << glob << "' matches no property\n";
      return kExitBadUsage;
    }
  }
  std::vector<std::string> profiles;
  if (!profile_globs.empty()) {
    std::string error;
    for (const Profile* p : SelectProfiles(profile_globs, &error)) profiles.push_back(p->name);
    if (!error.empty()) {
      err << "npuconf selftest: " << error << "\n";
      return kExitBadUsage;
    }
  }

  // The claims the mutants make: the reference's, or those of --claims-of.
  std::vector<std::string> claims = ReferenceClaims();
  std::unique_ptr<Port> claimant;
  if (!claims_of.empty()) {
    PortChoice choice = OpenPort(claims_of, PortOptions{});
    if (!choice.port) {
      err << "npuconf selftest: --claims-of: " << choice.error << "\n";
      return choice.exit_code;
    }
    if (std::string error =
            ValidateClaims(choice.port->claims(), BuiltinSuite().specs(), BuiltinProfiles());
        !error.empty()) {
      err << "npuconf selftest: --claims-of: port " << choice.port->name() << ": " << error << "\n";
      return kExitBadUsage;
    }
    claims = choice.port->claims();
    claimant = std::move(choice.port);
  }

  std::vector<MutantRun> runs;
  for (const Mutant& mutant : Mutants()) {
    if (!GlobMatch(mutant_glob, mutant.name)) continue;
    MutantRun run;
    run.mutant = &mutant;
    run.family = FamilyOf(mutant);
    for (const auto& name : PropertiesReaching(mutant)) {
      if (GlobMatch(property_glob, name)) run.properties.push_back(name);
    }
    run.profiles = profiles.empty() ? std::vector<std::string>{mutant.profile} : profiles;
    if (claimant) {
      run.outside_claims = true;
      for (const auto& spec : BuiltinSuite().specs()) {
        if (!MutantChanges(mutant, spec->id)) continue;
        for (const auto& profile : run.profiles)
          run.outside_claims = run.outside_claims && !claimant->Claims(spec->id, profile);
      }
    }
    runs.push_back(std::move(run));
  }
  if (runs.empty()) {
    err << "npuconf selftest: --mutant '" << mutant_glob
        << "' matches no mutant (npuconf list ports)\n";
    return kExitBadUsage;
  }

  for (MutantRun& run : runs) {
    if (run.outside_claims) continue;
    const auto port = MakeMutantPort(*run.mutant, claims);
    for (int i = 0; i < seeds; ++i) {
      const uint64_t s = seed + static_cast<uint64_t>(i);
      bool killed = false;
      if (!run.properties.empty()) {
        RunOptions options;
        options.seed = s;
        options.cases = cases;
        options.property_glob = Join(run.properties, ",");
        options.profiles = run.profiles;
        options.real_shapes = real_shapes;
        options.port_arg = "mutant:" + run.mutant->name;
        options.jobs = jobs;
        const SeedOutcome outcome = RunSeedIsolated([&] {
          std::vector<std::string> failed;
          for (const auto& r : RunSuite(BuiltinSuite(), *port, options).results) {
            if (r.outcome == report::Outcome::kFail) failed.push_back(r.property);
          }
          return failed;
        });
        if (!outcome.crash.empty()) {
          run.crashed[s] = outcome.crash;
          if (!quiet && !as_json) {
            err << "selftest: " << run.mutant->name << " crashed under seed " << s << ": "
                << outcome.crash << "\n";
          }
          continue;
        }
        for (const std::string& property : outcome.failed) {
          auto& seeds_of = run.killed_by[property];
          if (seeds_of.empty() || seeds_of.back() != s) seeds_of.push_back(s);
          killed = true;
        }
      }
      (killed ? run.killed_seeds : run.survived_seeds).push_back(s);
    }
    if (!quiet && !as_json) {
      err << "selftest: " << run.mutant->name << " killed under " << run.killed_seeds.size() << "/"
          << seeds << " seeds\n";
    }
  }

  // The document, then the text drawn from it.
  json doc = {{"schema", "npuconf-selftest"},
              {"schema_version", 1},
              {"suite_version", NPUCONF_SUITE_VERSION},
              {"seeds", json::array()},
              {"cases", cases},
              {"real_shapes", real_shapes},
              {"profiles", profiles},
              {"property_globs", property_globs},
              {"claims_of", claims_of.empty() ? "reference" : claims_of},
              {"claims", claims},
              {"mutants", json::array()}};
  for (int i = 0; i < seeds; ++i) doc["seeds"].push_back(seed + static_cast<uint64_t>(i));
  for (const auto& run : runs) doc["mutants"].push_back(ToJson(run));

  std::ostringstream text;
  int survivors_first = 0, thin = 0, outside = 0, crashed_count = 0, crashed_first = 0;
  std::map<std::string, std::vector<const MutantRun*>> by_family;
  for (const auto& run : runs) by_family[run.family].push_back(&run);
  text << "npuconf selftest: " << runs.size() << " mutants, seeds " << seed << ".."
       << seed + static_cast<uint64_t>(seeds - 1) << " (" << seeds << "), " << cases
       << " cases, real shapes " << (real_shapes ? "on" : "off")
       << (property_globs.empty() ? "" : ", properties " + property_glob)
       << (claims_of.empty() ? "" : ", claims of " + claims_of) << "\n";
  for (const auto& [family, members] : by_family) {
    text << "\n" << family << " (" << members.size() << " mutants)\n";
    for (const MutantRun* run : members) {
      if (run->outside_claims) {
        ++outside;
        text << "  " << std::left << std::setw(34) << run->mutant->name
             << " not run: the port claims none of its routines\n";
        continue;
      }
      const size_t k = run->killed_seeds.size();
      const bool first_survived = std::find(run->survived_seeds.begin(), run->survived_seeds.end(),
                                            seed) != run->survived_seeds.end();
      survivors_first += first_survived;
      crashed_count += !run->crashed.empty();
      const bool first_crashed = run->crashed.count(seed) > 0;
      crashed_first += first_crashed;
      const bool is_thin = k < kRobustShare * seeds && !first_crashed;
      thin += is_thin;
      text << "  " << std::left << std::setw(34) << run->mutant->name << " killed " << k << "/"
           << seeds
           << (first_survived ? "  SURVIVES"
               : is_thin      ? "  thin"
                              : "");
      if (run->properties.empty()) text << "  (no selected property calls its routines)";
      std::vector<std::string> by;
      for (const auto& [property, s] : run->killed_by)
        by.push_back(property + " (" + std::to_string(s.size()) + ")");
      if (!by.empty()) text << "  by " << Join(by, ", ");
      for (const auto& [s, how] : run->crashed) text << "  CRASHED under seed " << s << ": " << how;
      text << "\n";
    }
  }
  std::map<std::string, std::vector<std::string>> kills_of;
  for (const auto& run : runs) {
    for (const auto& name : run.properties) kills_of[name];
    for (const auto& [property, s] : run.killed_by)
      kills_of[property].push_back(run.mutant->name + " (" + std::to_string(s.size()) + "/" +
                                   std::to_string(seeds) + ")");
  }
  text << "\nper property (mutants it kills, of those whose routines it calls):\n";
  for (const auto& [property, killed] : kills_of) {
    text << "  " << std::left << std::setw(58) << property << " "
         << (killed.empty() ? "-" : Join(killed, ", ")) << "\n";
  }
  const int run_count = static_cast<int>(runs.size()) - outside;
  const int killed_first = run_count - survivors_first - crashed_first;
  text << "\n" << killed_first << " of " << run_count << " mutants killed at seed " << seed;
  if (outside > 0) text << " (" << outside << " outside the claims of " << claims_of << ")";
  if (seeds > 1) text << "; " << thin << " killed under fewer than 90% of " << seeds << " seeds";
  if (crashed_count > 0)
    text << "; " << crashed_count << " crashed (a built-in mutant buggy beyond its bug)";
  text << "\n";

  if (!out_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(out_dir, ec);
    if (ec) {
      err << "npuconf selftest: cannot create --out '" << out_dir << "': " << ec.message() << "\n";
      return kExitBadUsage;
    }
    for (const auto& [name, body] :
         {std::pair<std::string, std::string>{"selftest.json", doc.dump(2) + "\n"},
          {"selftest.txt", text.str()}}) {
      if (std::string error = report::WriteFileAtomically(out_dir + "/" + name, body);
          !error.empty()) {
        err << "npuconf selftest: --out: " << error << "\n";
        return kExitBadUsage;
      }
    }
  }
  if (as_json) {
    out << doc.dump(2) << "\n";
  } else if (quiet) {
    out << killed_first << " of " << run_count << " mutants killed at seed " << seed << "\n";
  } else {
    out << text.str();
  }
  if (run_count == 0) {
    err << "npuconf selftest: no mutant ran: the port of --claims-of claims none of their routines"
        << " (exit " << kExitNothingChecked << ")\n";
    return kExitNothingChecked;
  }
  return survivors_first == 0 && crashed_count == 0 ? kExitConformant : kExitNonConformant;
}

SeedOutcome RunSeedIsolated(const std::function<std::vector<std::string>()>& run) {
  SeedOutcome outcome;
  int fds[2];
  if (pipe(fds) != 0) {
    outcome.crash =
        std::string("cannot create a pipe for the mutant's run: ") + std::strerror(errno);
    return outcome;
  }
  // Output buffered here must not be written twice by the child.
  std::fflush(nullptr);
  std::cout.flush();
  std::cerr.flush();
  const pid_t pid = fork();
  if (pid < 0) {
    outcome.crash = std::string("cannot fork the mutant's run: ") + std::strerror(errno);
    close(fds[0]);
    close(fds[1]);
    return outcome;
  }
  if (pid == 0) {
    close(fds[0]);
    // One line per failed property; a line starting with '!' is an exception.
    std::string lines;
    try {
      for (const std::string& name : run()) lines += name + "\n";
    } catch (const std::exception& e) {
      lines = std::string("!threw a C++ exception: ") + e.what() + "\n";
    } catch (...) {
      lines = "!threw a C++ exception that is not a std::exception\n";
    }
    std::fflush(nullptr);
    for (size_t at = 0; at < lines.size();) {
      const ssize_t n = write(fds[1], lines.data() + at, lines.size() - at);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) _exit(125);
      at += static_cast<size_t>(n);
    }
    _exit(0);
  }
  close(fds[1]);
  std::string text;
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buffer, static_cast<size_t>(n));
  }
  close(fds[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = sigabbrev_np(sig);
    outcome.crash = "killed by SIG" + std::string(name ? name : std::to_string(sig)) + " (" +
                    strsignal(sig) + ")";
    return outcome;
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    outcome.crash =
        "exited with status " + std::to_string(WEXITSTATUS(status)) +
        (WEXITSTATUS(status) == kExitPortFailure ? " (the port crashed the runner)" : "");
    return outcome;
  }
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] == '!') {
      outcome.crash = line.substr(1);
      outcome.failed.clear();
      return outcome;
    }
    outcome.failed.push_back(line);
  }
  return outcome;
}

std::string ReadSelftest(const std::string& path, Selftest* out) {
  std::ifstream file(path);
  if (!file) return "cannot read '" + path + "'";
  std::stringstream buffer;
  buffer << file.rdbuf();
  const json doc = json::parse(buffer.str(), nullptr, false);
  if (!doc.is_object() || doc.value("schema", json()) != "npuconf-selftest")
    return "'" + path + "' is not a selftest.json (npuconf selftest --out DIR)";
  try {
    out->file = path;
    out->suite_version = doc.at("suite_version").get<std::string>();
    out->seeds = doc.at("seeds").get<std::vector<uint64_t>>();
    out->cases = doc.at("cases").get<int>();
    out->claims_of = doc.value("claims_of", "reference");
    out->claims = doc.value("claims", std::vector<std::string>{});
    out->mutants.clear();
    for (const auto& m : doc.at("mutants")) {
      SelftestMutant mutant;
      mutant.name = m.at("name").get<std::string>();
      mutant.routines = m.at("routines").get<std::vector<std::string>>();
      mutant.killed_by = m.at("killed_by").get<std::map<std::string, std::vector<uint64_t>>>();
      mutant.outside_claims = m.value("outside_claims", false);
      out->mutants.push_back(std::move(mutant));
    }
  } catch (const json::exception& e) {
    return "'" + path + "': " + e.what();
  }
  return "";
}

report::KillRate QuoteKillRate(const Selftest& selftest, const report::RunReport& run) {
  report::KillRate rate;
  rate.measured = true;
  rate.file = selftest.file;
  std::set<std::string> claimed, properties;
  for (const auto& r : run.results) {
    properties.insert(r.property);
    if (r.outcome != report::Outcome::kNotClaimed && r.outcome != report::Outcome::kNotCovered &&
        r.outcome != report::Outcome::kNotApplicable)
      claimed.insert(r.routine);
  }
  const bool seed_measured =
      std::find(selftest.seeds.begin(), selftest.seeds.end(), run.seed) != selftest.seeds.end();
  // Kills at the run's seed; a file measured at other seeds is quoted at its first one.
  const uint64_t at = seed_measured || selftest.seeds.empty() ? run.seed : selftest.seeds.front();
  for (const auto& m : selftest.mutants) {
    if (m.outside_claims) continue;
    bool relevant = false;
    for (const auto& routine : claimed) {
      for (const auto& glob : m.routines) relevant = relevant || GlobMatch(glob, routine);
    }
    if (!relevant) continue;
    ++rate.known;
    bool killed = false;
    for (const auto& [property, seeds] : m.killed_by) {
      killed = killed || (properties.count(property) &&
                          std::find(seeds.begin(), seeds.end(), at) != seeds.end());
    }
    if (killed) {
      ++rate.killed;
    } else {
      rate.survivors.push_back(m.name);
    }
  }
  rate.basis = "npuconf selftest " + selftest.suite_version + ", seed " + std::to_string(at) +
               ", " + std::to_string(selftest.cases) + " cases, " + selftest.file;
  // Kills measured with other claims than the run's port makes are not its gate's.
  std::vector<std::string> a = selftest.claims, b = run.port_claims;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  if (a != b) {
    rate.basis += "; measured with the claims of " + selftest.claims_of +
                  ", not this port's: npuconf selftest --claims-of PORT measures within them";
  }
  if (!seed_measured)
    rate.basis += " (measured at other seeds than this run's " + std::to_string(run.seed) + ")";
  return rate;
}

}  // namespace npuconf
