// `npuconf selftest` (issue 17 item 3): how strong the gate is. Runs every
// built-in mutant (mutants/, `npuconf list ports`) against the properties that
// call the routines its bug is in, under `--seeds N` seeds, and prints per
// family and per property which mutants are killed and under how many seeds.
// Its JSON (selftest.json) is what `npuconf run --selftest FILE` quotes in a
// run's reports: "this run's properties kill K of M known faults in the
// routines the port claims".
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reports/report.h"

namespace npuconf {

// argv[0] is the program, argv[1] "selftest". Exit 0 when every selected
// mutant is killed at the first seed, 1 when one survives it, 2 bad usage.
int RunSelftestCli(int argc, char** argv, std::ostream& out, std::ostream& err);

// What one mutant's run under one seed came to: the properties that failed, or
// `crash` saying how the run died ("killed by SIGSEGV", "threw std::bad_alloc:
// ...", "exited with status 3") when it did not come back.
struct SeedOutcome {
  std::vector<std::string> failed;
  std::string crash;
};

// Runs `run` (one mutant's RunSuite, returning the failed properties) in a
// forked child, so a mutant that crashes, aborts, throws or corrupts the heap
// becomes a crashed result of that seed, never the end of the selftest.
SeedOutcome RunSeedIsolated(const std::function<std::vector<std::string>()>& run);

// One mutant's row of a selftest.json, read back.
struct SelftestMutant {
  std::string name;
  std::vector<std::string> routines;  // globs of the routines its bug is in
  // property -> the seeds under which it failed on the mutant.
  std::map<std::string, std::vector<uint64_t>> killed_by;
  bool outside_claims = false;  // not run: --claims-of's port claims none of its routines
};

struct Selftest {
  std::string file;
  std::string suite_version;
  std::vector<uint64_t> seeds;
  int cases = 0;
  std::string claims_of;            // "reference" or the --claims-of port
  std::vector<std::string> claims;  // what the mutants claimed
  std::vector<SelftestMutant> mutants;
};

// Reads a selftest.json; "" or what is wrong with it (naming the value).
std::string ReadSelftest(const std::string& path, Selftest* out);

// What `run --selftest` states in the reports: of the mutants whose routines
// the run's results claim (any result on them other than not claimed / not
// covered / not applicable), how many a property of this run killed at this
// run's seed.
report::KillRate QuoteKillRate(const Selftest& selftest, const report::RunReport& run);

}  // namespace npuconf
