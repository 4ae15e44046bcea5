/* npuconf's GoogleTest adapter: the properties of npuconf as GoogleTest tests of
 * a project's own test program (link npuconf::gtest and GTest).
 *
 *   #include <npuconf/gtest.h>
 *   extern "C" const npuconf_port* npuconf_port_entry(uint32_t);  // the port, linked in
 *
 *   NPUCONF_GTEST_CONFORMANCE(NdToNz, {.entry = npuconf_port_entry,
 *                                      .profiles = {"ascend910b"},
 *                                      .routines = {"cann.nd_to_nz"}});
 *
 * registers, at static initialisation, one test per property × profile inside
 * the port's claims, named `NpuconfConformance.PROPERTY@PROFILE` (e.g.
 * NpuconfConformance.cann.nd_to_nz.matches_oracle@ascend910b, suite_name to rename); link
 * GTest::gtest_main or call RUN_ALL_TESTS yourself. --gtest_filter,
 * GTEST_TOTAL_SHARDS / GTEST_SHARD_INDEX and --gtest_output=xml work on them
 * as on any test.
 *
 * Each test runs the property as `npuconf run --property PROPERTY --profile
 * PROFILE` does (explicit cases, then `cases` random ones from `seed`, shrunk on
 * failure), in a forked process: a port that crashes, exits or hangs (past
 * `unit_timeout_ms`) fails that test and the program goes on. A port given as
 * `library` (a .so path) is isolated further as the CLI isolates it (a worker
 * process with guard pages). A failure's message holds the shrunk
 * counterexample, the first mismatching elements and the `npuconf check`
 * reproducer (naming `reproduce_port`); a property the port does not claim on
 * the profile is not registered; one that has no valid case there is skipped.
 * A claim npuconf rejects registers one failing test `NpuconfConformance.claims`
 * naming it.
 *
 * Units: `cases` random cases per test; `unit_timeout_ms` milliseconds for a
 * whole test (per case the port has `timeout_ms`, for `library` ports).
 * Thread safety: register from one thread, before RUN_ALL_TESTS. */
#ifndef NPUCONF_GTEST_H
#define NPUCONF_GTEST_H

#include <gtest/gtest.h>
#include <npuconf/conformance_units.h>

#include <string>
#include <vector>

namespace npuconf::gtest {

namespace detail {

class UnitTest : public ::testing::Test {
 public:
  UnitTest(Options options, Unit unit) : options_(std::move(options)), unit_(std::move(unit)) {}
  void TestBody() override {
    const UnitOutcome outcome = RunUnit(options_, unit_);
    if (outcome.skipped) GTEST_SKIP() << outcome.text;
    if (!outcome.passed) ADD_FAILURE() << outcome.text;
  }

 private:
  Options options_;
  Unit unit_;
};

class ClaimsTest : public ::testing::Test {
 public:
  explicit ClaimsTest(std::string error) : error_(std::move(error)) {}
  void TestBody() override { ADD_FAILURE() << error_; }

 private:
  std::string error_;
};

}  // namespace detail

/* Registers the tests; returns how many (0 with one failing `claims` test when
 * the port cannot be had or its claims are rejected). */
inline int RegisterConformanceTests(const Options& options, const char* file = __FILE__,
                                    int line = __LINE__) {
  std::string error;
  const std::vector<Unit> units = ListUnits(options, &error);
  const std::string suite = options.suite_name.empty() ? "NpuconfConformance" : options.suite_name;
  if (!error.empty()) {
    ::testing::RegisterTest(
        suite.c_str(), "claims", nullptr, nullptr, file, line,
        [error]() -> ::testing::Test* { return new detail::ClaimsTest(error); });
    return 0;
  }
  for (const Unit& unit : units) {
    const std::string name = unit.property + "@" + unit.profile;
    ::testing::RegisterTest(
        suite.c_str(), name.c_str(), nullptr, nullptr, file, line,
        [options, unit]() -> ::testing::Test* { return new detail::UnitTest(options, unit); });
  }
  return static_cast<int>(units.size());
}

}  // namespace npuconf::gtest

/* Registers the conformance tests of `...` (an npuconf::gtest::Options
 * initializer) at static initialisation; `tag` names the registration. */
#define NPUCONF_GTEST_CONFORMANCE(tag, ...)                                                       \
  [[maybe_unused]] static const int npuconf_gtest_registered_##tag =                              \
      ::npuconf::gtest::RegisterConformanceTests(::npuconf::gtest::Options __VA_ARGS__, __FILE__, \
                                                 __LINE__)

#endif /* NPUCONF_GTEST_H */
