// The runner's bookkeeping: a property that checks nothing is not a pass, a
// failing explicit case is reported beside RapidCheck's shrunk counterexample,
// and the suite refuses a property that names an unknown choice.
#include "conformance/harness/runner.h"

#include <gtest/gtest.h>

#include "conformance/harness/suite.h"

namespace npuconf {
namespace {

const RoutineSpec& ToySpec() {
  static const RoutineSpec spec = {
      .id = "cann.toy",
      .vendor = "cann",
      .source = "tests/runner_test.cpp",
      .summary = "a routine of the test",
      .params = {{.key = "n", .type = ParamType::kInt, .doc = "a number"}},
      .outputs = {{.name = "y", .dtype = "UINT8", .shape = "[1]"}}};
  return spec;
}

Invocation ToyCase(const Case& c, const Profile&) {
  Invocation inv{c, {}, {}};
  inv.outputs.push_back({.name = "y", .dtype = DType::kUint8, .capacity_bytes = 1});
  return inv;
}

std::vector<Property> g_properties;
void AddToyProperties(std::vector<Property>* out) { *out = g_properties; }

Suite ToySuite(std::vector<Property> properties) {
  g_properties = std::move(properties);
  return Suite(
      {{.name = "toy", .routines = {{&ToySpec(), ToyCase}}, .add_properties = AddToyProperties}});
}

InProcessPort ToyPort() {
  return InProcessPort("toy", "1", {"cann.toy:*"},
                       [](const npuconf_case*, int64_t* status, char*, uint64_t) {
                         *status = 0;
                         return int32_t{NPUCONF_CALL_ANSWERED};
                       });
}

Case Toy(int64_t n) { return Case("cann.toy", "ascend910b").Set("n", n); }

RunOptions Options() {
  RunOptions options;
  options.profiles = {"ascend910b"};
  options.cases = 50;
  return options;
}

TEST(Runner, APropertyThatChecksNothingIsVacuousAndFailsTheRun) {
  const Suite suite = ToySuite(
      {{.name = "cann.toy.skips_everything",
        .routine = "cann.toy",
        .explicit_cases = [](const PropertyContext&) { return std::vector<Case>{Toy(1)}; },
        .check = [](const PropertyContext&, const Case&) { return Verdict::Skip("no"); }}});
  const InProcessPort port = ToyPort();
  const report::RunReport run = RunSuite(suite, port, Options());
  ASSERT_EQ(run.results.size(), 1u);
  EXPECT_EQ(run.results[0].outcome, report::Outcome::kVacuous);
  EXPECT_EQ(run.results[0].explicit_skipped, 1);
  EXPECT_TRUE(report::AnyFailure(run));
}

TEST(Runner, AFailingExplicitCaseIsReportedBesideTheShrunkOne) {
  // Fails for every n >= 5: the explicit case is 9, RapidCheck shrinks to 5.
  const Suite suite =
      ToySuite({{.name = "cann.toy.small",
                 .routine = "cann.toy",
                 .explicit_cases =
                     [](const PropertyContext&) {
                       return std::vector<Case>{Toy(2), Toy(9)};
                     },
                 .generator =
                     [](const PropertyContext&) {
                       return rc::gen::map(rc::gen::inRange<int64_t>(0, 1000),
                                           [](int64_t n) { return Toy(n); });
                     },
                 .check =
                     [](const PropertyContext&, const Case& c) {
                       return *c.Int("n") >= 5 ? Verdict::Fail("too big") : Verdict::Pass();
                     }}});
  const InProcessPort port = ToyPort();
  const report::RunReport run = RunSuite(suite, port, Options());
  ASSERT_EQ(run.results.size(), 1u);
  const auto& r = run.results[0];
  EXPECT_EQ(r.outcome, report::Outcome::kFail);
  EXPECT_EQ(r.counterexample, "cann.toy profile=ascend910b n=5");
  EXPECT_EQ(r.first_explicit_failure, "cann.toy profile=ascend910b n=9");
  EXPECT_EQ(r.counterexample_case["params"]["n"], 5);
  EXPECT_FALSE(r.rapidcheck_reproduce.empty());
}

TEST(Runner, AnExplicitFailureStandsWhenNoRandomCaseFails) {
  const Suite suite =
      ToySuite({{.name = "cann.toy.nine",
                 .routine = "cann.toy",
                 .explicit_cases = [](const PropertyContext&) { return std::vector<Case>{Toy(9)}; },
                 .generator =
                     [](const PropertyContext&) {
                       return rc::gen::map(rc::gen::inRange<int64_t>(0, 5),
                                           [](int64_t n) { return Toy(n); });
                     },
                 .check =
                     [](const PropertyContext&, const Case& c) {
                       return *c.Int("n") == 9 ? Verdict::Fail("nine") : Verdict::Pass();
                     }}});
  const InProcessPort port = ToyPort();
  const report::RunReport run = RunSuite(suite, port, Options());
  const auto& r = run.results.at(0);
  EXPECT_EQ(r.outcome, report::Outcome::kFail);
  EXPECT_EQ(r.counterexample, "cann.toy profile=ascend910b n=9");
  EXPECT_TRUE(r.first_explicit_failure.empty());
}

TEST(Suite, RefusesUnknownChoicesRoutinesAndDuplicates) {
  auto check = [](const PropertyContext&, const Case&) { return Verdict::Pass(); };
  EXPECT_THROW(ToySuite({{.name = "cann.toy.a",
                          .routine = "cann.toy",
                          .choices = {"cann.no.such_choice"},
                          .check = check}}),
               std::logic_error);
  EXPECT_THROW(ToySuite({{.name = "cann.toy.a", .routine = "cann.nope", .check = check}}),
               std::logic_error);
  EXPECT_THROW(ToySuite({{.name = "cann.toy.a", .routine = "cann.toy", .check = check},
                         {.name = "cann.toy.a", .routine = "cann.toy", .check = check}}),
               std::logic_error);
  EXPECT_NO_THROW(ToySuite({{.name = "cann.toy.a",
                             .routine = "cann.toy",
                             .choices = {"cann.nz.fp32_c0"},
                             .check = check}}));
}

}  // namespace
}  // namespace npuconf
