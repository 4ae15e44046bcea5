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

struct WaiverSet;

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
  // --waivers: known failures that do not fail the run (waivers.h); null: none.
  // A failing case an unexpired entry names is recorded and the property goes
  // on: every explicit case runs, and the random phase draws on past it, so
  // that a failure no entry names is met and shrunk.
  const WaiverSet* waivers = nullptr;
  // The date waivers expire by (YYYY-MM-DD, UTC): `--today` (today_forced),
  // else "" for the clock's (TodayUtc). Recorded in the report.
  std::string today;
  bool today_forced = false;
  // --shard K/N: run only shard K (1-based) of N of the property × profile
  // units, balanced by their estimated cost; 0: every unit. The N shards run
  // each unit exactly once; `npuconf report merge` joins their reports.
  int shard_index = 0, shard_count = 0;
};

// The shard (0-based) of each of `costs`' units when split into `count`
// shards: the costliest first, each to the least loaded shard (ties: the
// lowest index). Deterministic.
std::vector<int> AssignShards(const std::vector<double>& costs, int count);

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
