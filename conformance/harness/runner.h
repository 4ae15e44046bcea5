// The runner: for every property × profile, explicit cases first, then
// RapidCheck through its programmatic API, so every outcome, counterexample,
// shrunk case and reproducer is data for the reports.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "conformance/harness/property.h"
#include "conformance/harness/suite.h"
#include "conformance/ports/port.h"
#include "reports/report.h"

namespace npuconf {

inline constexpr uint64_t kDefaultSeed = 20261129;
inline constexpr int kDefaultCases = 100;

struct RunOptions {
  uint64_t seed = kDefaultSeed;
  int cases = kDefaultCases;
  std::string routine_glob = "*";  // GlobMatch: ',' separates alternatives
  std::string property_glob = "*";
  std::vector<std::string> profiles;   // empty: every built-in profile
  bool real_shapes = true;             // real model shapes among the explicit cases
  bool progress = false;               // a progress line on stderr
  std::string port_arg = "reference";  // as given to --port, for reproduce commands
  std::string program = "npuconf";     // how the binary was invoked (argv[0])
  // Options of this run a reproducer must repeat to replay a failure (a
  // budget, determinism sampling, a time limit other than the default, …),
  // as command-line words after `check`.
  std::vector<std::string> replay_options;
  std::string rc_reproduce;  // replay a RapidCheck reproduce string
  // Worker processes (conformance/harness/parallel.h); 1 checks every unit in
  // this process. The report is the same for any value.
  int jobs = 1;
  // Called with the report so far each time a property × profile result is
  // added (in report order), so a death of the runner loses nothing written.
  std::function<void(const report::RunReport&)> on_result;
};

// fnmatch-style: '*' any run, '?' one character; ',' separates alternatives
// (a text matches when any matches: repeated --routine / --property).
bool GlobMatch(const std::string& pattern, const std::string& text);

// The profiles a run covers, in order; an unknown name is reported in *error.
std::vector<const Profile*> SelectProfiles(const std::vector<std::string>& names,
                                           std::string* error);

report::RunReport RunSuite(const Suite& suite, const Port& port, const RunOptions& options);

// One property on one case (`npuconf check`); CaseError propagates.
Verdict CheckOne(const Suite& suite, const Port& port, const Property& property,
                 const Profile& profile, const Case& c);

// `word` quoted for a POSIX shell when it holds more than safe characters.
std::string ShellWord(const std::string& word);

// The shell command that replays `property` on `c` through `port_arg`, with
// `replay_options` (RunOptions::replay_options) after `check`.
std::string ReproduceCommand(const std::string& program, const std::string& port_arg,
                             const std::string& property, const Case& c,
                             const std::vector<std::string>& replay_options = {});

}  // namespace npuconf
