/* The properties of npuconf as units a test framework can run one by one: the
 * library behind npuconf/gtest.h (npuconf::gtest, libnpuconf_gtest.so), with
 * no GoogleTest type in it. C++17 or later; the same libstdc++ as npuconf's. */
#ifndef NPUCONF_CONFORMANCE_UNITS_H
#define NPUCONF_CONFORMANCE_UNITS_H

#include <npuconf/port.h>

#include <cstdint>
#include <string>
#include <vector>

#define NPUCONF_UNITS_API

namespace npuconf::gtest {

/* Which port, and what of it to check. Globs are fnmatch-style ('*', '?'); an
 * empty list selects everything. */
struct Options {
  /* The port: its entry function linked into the test program (checked in a
   * forked process) ... */
  npuconf_port_entry_fn entry = nullptr;
  /* ... or the path of a shared library port (checked in an isolated worker). */
  std::string library;
  std::vector<std::string> profiles;    // profile globs (npuconf list profiles)
  std::vector<std::string> routines;    // routine globs (npuconf list routines)
  std::vector<std::string> properties;  // property globs (npuconf list properties)
  int cases = 100;                      // random cases per test
  uint64_t seed = 20261129;             // npuconf run's default seed
  bool real_shapes = false;             // the real model shapes among the explicit cases
  /* What the reproducer's --port names; default: `library`, else "PORT.so" (a
   * .so build of the same port). */
  std::string reproduce_port;
  int64_t timeout_ms = 10000;        // per case, a `library` port (npuconf's --timeout-ms)
  int64_t unit_timeout_ms = 600000;  // a whole test; past it the test fails as a hang
  std::string suite_name = "NpuconfConformance";
};

/* One property on one profile, inside the port's claims. */
struct Unit {
  std::string property;     // cann.nd_to_nz.matches_oracle
  std::string profile;      // ascend910b
  std::string routine;      // cann.nd_to_nz
  std::string description;  // what the property checks
};

struct UnitOutcome {
  bool passed = false;
  bool skipped = false;  // no valid case on the profile, or none inside the claims
  std::string text;      // why it failed or was skipped: message, counterexample, reproducer
};

/* The units of `options`' port, in npuconf's order; empty and *error set when
 * the port cannot be had, its claims are rejected or nothing is selected. */
NPUCONF_UNITS_API std::vector<Unit> ListUnits(const Options& options, std::string* error);

/* Checks one unit in a forked process (its crash, exit or hang is the unit's
 * failure). */
NPUCONF_UNITS_API UnitOutcome RunUnit(const Options& options, const Unit& unit);

}  // namespace npuconf::gtest

#endif /* NPUCONF_CONFORMANCE_UNITS_H */
