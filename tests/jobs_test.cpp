// The parallel runner (`run --jobs N`, conformance/harness/parallel.h): a result
// crosses the process boundary with every field, the report is the same for
// any N, and a worker that dies fails its own unit only.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <csignal>
#include <iostream>
#include <sstream>

#include "conformance/harness/parallel.h"
#include "conformance/harness/runner.h"
#include "conformance/harness/suite.h"
#include "conformance/ports/port.h"
#include "reports/result_json.h"
#include "test_util.h"

namespace npuconf {
namespace {

// The number of fields of an aggregate (C++20: the longest brace list that
// initialises it from values convertible to anything).
struct AnyField {
  template <typename T>
  operator T() const;
};
template <typename T, typename... Fields>
constexpr size_t FieldCount() {
  if constexpr (requires { T{Fields{}..., AnyField{}}; }) {
    return FieldCount<T, Fields..., AnyField>();
  } else {
    return sizeof...(Fields);
  }
}

report::PropertyResult EveryFieldSet() {
  report::PropertyResult r;
  r.property = "cann.nd_to_nz.matches_oracle";
  r.routine = "cann.nd_to_nz";
  r.profile = "ascend910b";
  r.description = "a description";
  r.outcome = report::Outcome::kGaveUp;
  r.explicit_cases = 3;
  r.explicit_skipped = 4;
  r.random_cases = 5;
  r.outside_claims = 6;
  r.too_large = 7;
  r.too_large_cases = {"cann.nd_to_nz profile=ascend310b shape=[128256,4096] dtype=FLOAT"};
  r.seed = 0xFEDCBA9876543210ull;
  r.message = "a message with bytes that are not UTF-8: \xff\xfe";
  r.counterexample = "cann.nd_to_nz profile=ascend910b shape=[1,2]";
  r.counterexample_case = {{"routine", "cann.nd_to_nz"}, {"params", {{"n", 5}}}};
  r.evidence = {{"mismatches", 7}, {"first", nlohmann::json::array({1, 2})}};
  r.reproduce = "npuconf check ...";
  r.first_explicit_failure = "cann.nd_to_nz shape=[9,9]";
  r.rapidcheck_reproduce = "reproduce=abc";
  r.choices = {{.name = "cann.nz.fp32_c0",
                .value = "16",
                .profile_default = "8",
                .claimed = true,
                .readings = {"8", "16"},
                .source = "s"}};
  r.coverage_hits = {{"cann.nd_to_nz", {{"k.block_exact", 3}, {"zero.n", 1}}}};
  r.coverage_admitted = {{"cann.nd_to_nz", {"k.block_exact", "zero.n", "dim.past_2_16"}}};
  r.coverage_unchecked = {{"cann.calculate_matmul_weight_size_v2", {"size.overflows_int64"}}};
  r.coverage_witnesses = 9;
  r.unit = 41;
  r.basis = "device logs";
  r.non_deterministic = true;
  r.timed_out = true;
  r.successful_calls = 5;
  r.waiver = {.property = "cann.*",
              .profile = "*",
              .when = "dtype=INT8",
              .reason = "r",
              .tracking = "t",
              .expires = "2999-01-01"};
  r.failing_cases = {{.kind = "explicit",
                      .text = "cann.nd_to_nz profile=ascend910b dtype=INT8",
                      .case_json = {{"routine", "cann.nd_to_nz"}}},
                     {.kind = "crash", .text = "cann.nd_to_nz profile=ascend910b dtype=FLOAT16"}};
  r.unwaived_case = "crash: cann.nd_to_nz profile=ascend910b dtype=FLOAT16";
  r.unwaived = report::Unwaived{.outcome = report::Outcome::kFail, .message = "the raw message"};
  r.seconds = 0.1 + 0.2;  // not exactly representable in decimal: must survive unchanged
  return r;
}

TEST(ResultJson, RoundTripsEveryField) {
  // A field added to PropertyResult must be carried by ResultFromJson (and set
  // above and compared below); this count makes the test fail until it is.
  static_assert(FieldCount<report::ChoiceUsed>() == 6);
  EXPECT_EQ(FieldCount<report::PropertyResult>(), 34u)
      << "PropertyResult gained or lost a field: carry it in reports/result_json.cpp and "
         "set and compare it here";
  const report::PropertyResult a = EveryFieldSet();
  const auto wire = nlohmann::json::to_cbor(report::ResultToJson(a));
  const report::PropertyResult b = report::ResultFromJson(nlohmann::json::from_cbor(wire));
  EXPECT_EQ(b.property, a.property);
  EXPECT_EQ(b.routine, a.routine);
  EXPECT_EQ(b.profile, a.profile);
  EXPECT_EQ(b.description, a.description);
  EXPECT_EQ(b.outcome, a.outcome);
  EXPECT_EQ(b.explicit_cases, a.explicit_cases);
  EXPECT_EQ(b.explicit_skipped, a.explicit_skipped);
  EXPECT_EQ(b.random_cases, a.random_cases);
  EXPECT_EQ(b.seed, a.seed);
  EXPECT_EQ(b.message, a.message);
  EXPECT_EQ(b.counterexample, a.counterexample);
  EXPECT_EQ(b.counterexample_case, a.counterexample_case);
  EXPECT_EQ(b.evidence, a.evidence);
  EXPECT_EQ(b.reproduce, a.reproduce);
  EXPECT_EQ(b.first_explicit_failure, a.first_explicit_failure);
  EXPECT_EQ(b.rapidcheck_reproduce, a.rapidcheck_reproduce);
  EXPECT_EQ(b.coverage_hits, a.coverage_hits);
  EXPECT_EQ(b.coverage_admitted, a.coverage_admitted);
  EXPECT_EQ(b.coverage_unchecked, a.coverage_unchecked);
  EXPECT_EQ(b.coverage_witnesses, a.coverage_witnesses);
  EXPECT_EQ(b.unit, a.unit);
  EXPECT_EQ(b.basis, a.basis);
  EXPECT_EQ(b.non_deterministic, a.non_deterministic);
  EXPECT_EQ(b.timed_out, a.timed_out);
  EXPECT_EQ(b.successful_calls, a.successful_calls);
  EXPECT_EQ(b.waiver, a.waiver);
  EXPECT_EQ(b.failing_cases, a.failing_cases);
  EXPECT_EQ(b.unwaived_case, a.unwaived_case);
  ASSERT_TRUE(b.unwaived.has_value());
  EXPECT_EQ(b.unwaived->outcome, a.unwaived->outcome);
  EXPECT_EQ(b.unwaived->message, a.unwaived->message);
  EXPECT_EQ(b.outside_claims, a.outside_claims);
  EXPECT_EQ(b.too_large, a.too_large);
  EXPECT_EQ(b.too_large_cases, a.too_large_cases);
  ASSERT_EQ(b.choices.size(), 1u);
  EXPECT_EQ(b.choices[0].name, a.choices[0].name);
  EXPECT_EQ(b.choices[0].value, a.choices[0].value);
  EXPECT_EQ(b.choices[0].profile_default, a.choices[0].profile_default);
  EXPECT_EQ(b.choices[0].claimed, a.choices[0].claimed);
  EXPECT_EQ(b.choices[0].readings, a.choices[0].readings);
  EXPECT_EQ(b.choices[0].source, a.choices[0].source);
  EXPECT_EQ(b.seconds, a.seconds);
  // Every outcome has a name that reads back.
  for (auto o : {report::Outcome::kPass, report::Outcome::kFail, report::Outcome::kNotClaimed,
                 report::Outcome::kNotCovered, report::Outcome::kNotApplicable,
                 report::Outcome::kVacuous, report::Outcome::kTooLarge, report::Outcome::kGaveUp}) {
    report::PropertyResult r = a;
    r.outcome = o;
    EXPECT_EQ(report::ResultFromJson(report::ResultToJson(r)).outcome, o);
  }
  EXPECT_THROW(report::ResultFromJson({{"property", "x"}}), std::runtime_error);
}

// Found by fuzz/result_cbor_fuzz.cpp and fuzz/report_json_fuzz.cpp: a float
// where the field is an integer (NaN, 1.9e19) was cast by nlohmann with
// undefined behaviour, in the runner reading a worker's frame and in `report
// merge`; a negative seed became 2^64 - 1.
TEST(ResultJson, ANumberThatIsNoIntegerOfTheFieldIsRefusedNamingTheField) {
  report::PropertyResult r;
  r.property = "p";
  r.coverage_hits["cann.nd_to_nz"]["aligned"] = 3;
  const nlohmann::json item = report::ResultToJson(r);
  auto error_of = [&](const char* key, nlohmann::json value) {
    nlohmann::json bad = item;
    bad[key] = std::move(value);
    try {
      report::ResultFromJson(bad);
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("read");
  };
  EXPECT_EQ(error_of("explicit_cases", NAN),
            "result item field 'explicit_cases': null holds a number that is no integer of the "
            "field's range");
  EXPECT_EQ(error_of("random_cases", 4294967296),
            "result item field 'random_cases': 4294967296 holds a number that is no integer of "
            "the field's range");
  EXPECT_EQ(error_of("seed", -1),
            "result item field 'seed': -1 holds a number that is no integer of the field's range");
  EXPECT_EQ(error_of("coverage_hits", {{"cann.nd_to_nz", {{"aligned", 1.92234e19}}}}),
            "result item field 'coverage_hits': {\"cann.nd_to_nz\":{\"aligned\":1.92234e+19}} "
            "holds a number that is no integer of the field's range");
  EXPECT_EQ(error_of("seconds", 2), "read");
  // CBOR strings are not checked for UTF-8: the message quoting one repairs it
  // (dumping it as it is threw nlohmann's type_error 316).
  nlohmann::json bad = item;
  bad["coverage_hits"] = {{"\xff", {{"a", 1.5}}}};
  try {
    report::ResultFromCbor(nlohmann::json::to_cbor(bad));
    ADD_FAILURE() << "read";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "result item field 'coverage_hits': {\"\xef\xbf\xbd\":{\"a\":1.5}} holds a number "
              "that is no integer of the field's range");
  }
}

// results[] of a report.json without the timing fields.
nlohmann::json ResultsWithoutTiming(const std::string& dir) {
  nlohmann::json results = testing::ReadJson(dir + "/report.json")["results"];
  for (auto& r : results) r.erase("seconds");
  return results;
}

TEST(Jobs, OneAndTwoWorkersWriteIdenticalResults) {
  testing::TempDir one("jobs1"), two("jobs2");
  const std::string args =
      "run --port mutant:int8-c0-16 --routine 'cann.nd_to_nz' --profile ascend910b "
      "--profile ascend310p --no-real-shapes --cases 30 --quiet --out ";
  const auto a = testing::RunNpuconf(args + one.path() + " --jobs 1");
  const auto b = testing::RunNpuconf(args + two.path() + " --jobs 2");
  ASSERT_EQ(a.exit_code, 1) << a.output;  // the mutant is caught
  ASSERT_EQ(b.exit_code, 1) << b.output;
  const nlohmann::json ra = ResultsWithoutTiming(one.path()), rb = ResultsWithoutTiming(two.path());
  int failures = 0;
  for (const auto& r : ra) failures += r["result"] == "fail";
  EXPECT_GT(failures, 0);
  ASSERT_GT(ra.size(), 2u);
  EXPECT_EQ(ra, rb);
}

TEST(Jobs, ZeroWorkersIsBadUsage) {
  const auto r = testing::RunNpuconf("run --jobs 0 --routine cann.nd_to_nz --quiet");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("--jobs"), std::string::npos) << r.output;
}

// A toy routine whose check crashes the process on n == 13.
const RoutineSpec& ToySpec() {
  static const RoutineSpec spec = {
      .id = "cann.toy",
      .vendor = "cann",
      .source = "tests/jobs_test.cpp",
      .summary = "a routine of the test",
      .params = {{.key = "n", .type = ParamType::kInt, .doc = "a number"}},
      .outputs = {{.name = "y", .dtype = "UINT8", .shape = "[1]"}}};
  return spec;
}
Invocation ToyCase(const Case& c, const Profile&) { return Invocation{c, {}, {}}; }
void AddToyProperties(std::vector<Property>* out) {
  for (int64_t n : {1, 13, 2, 3}) {
    out->push_back({.name = "cann.toy.n" + std::to_string(n),
                    .routine = "cann.toy",
                    .explicit_cases =
                        [n](const PropertyContext& ctx) {
                          return std::vector<Case>{Case("cann.toy", ctx.profile.name).Set("n", n)};
                        },
                    .check =
                        [](const PropertyContext&, const Case& c) {
                          if (*c.Int("n") == 13) std::raise(SIGSEGV);
                          return Verdict::Pass();
                        }});
  }
}

TEST(Jobs, AWorkerThatDiesFailsItsUnitAndTheOthersStillRun) {
  const Suite suite(
      {{.name = "toy", .routines = {{&ToySpec(), ToyCase}}, .add_properties = AddToyProperties}});
  const InProcessPort port("toy", "1", {"cann.toy:*"},
                           [](const npuconf_case*, int64_t* status, char*, uint64_t) {
                             *status = 0;
                             return int32_t{NPUCONF_CALL_ANSWERED};
                           });
  RunOptions options;
  options.profiles = {"ascend910b", "ascend310p"};
  options.cases = 0;
  options.jobs = 2;
  std::vector<size_t> seen;
  options.on_result = [&](const report::RunReport& so_far) {
    seen.push_back(so_far.results.size());
  };
  const report::RunReport run = RunSuite(suite, port, options);
  ASSERT_EQ(run.results.size(), 8u);
  EXPECT_EQ(seen, (std::vector<size_t>{1, 2, 3, 4, 5, 6, 7, 8}));
  for (const auto& r : run.results) {
    if (r.property == "cann.toy.n13") {
      EXPECT_EQ(r.outcome, report::Outcome::kFail);
      EXPECT_EQ(r.message,
                "the runner process checking cann.toy.n13@" + r.profile + " died: SIGSEGV");
    } else {
      EXPECT_EQ(r.outcome, report::Outcome::kPass) << r.property << ": " << r.message;
    }
  }
  // Report order is unit order: property by property, each on both profiles.
  EXPECT_EQ(run.results[2].property, "cann.toy.n13");
  EXPECT_EQ(run.results[2].profile, "ascend910b");
}

// What a worker writes on its result socket is taken frame by frame: a crash
// note that no crash follows does not swallow the result after it (the run
// used to hang), and a result for another unit fails the unit it arrived for.
TEST(Jobs, StrayFramesOnAWorkersSocketNeitherHangNorPass) {
  static int result_fd = -1;
  const std::vector<PoolUnit> units = {{.name = "a@p"}, {.name = "b@p"}, {.name = "c@p"}};
  auto write_frame = [](uint64_t header, const std::vector<uint8_t>& payload) {
    ASSERT_EQ(write(result_fd, &header, sizeof header), static_cast<ssize_t>(sizeof header));
    ASSERT_EQ(write(result_fd, payload.data(), payload.size()),
              static_cast<ssize_t>(payload.size()));
  };
  auto run = [&](size_t i) {
    report::PropertyResult r;
    r.property = std::string(1, static_cast<char>('a' + i));
    r.profile = "p";
    if (i == 1) write_frame(kCrashNoteFlag | 2, {'{', '}'});  // a note, then no crash
    if (i == 2) {
      report::PropertyResult other = r;
      other.property = "zzz";
      const auto bytes = nlohmann::json::to_cbor(report::ResultToJson(other));
      write_frame(bytes.size(), bytes);
      usleep(100000);
    }
    return r;
  };
  auto died = [](size_t, const std::string& why, const std::string&) {
    report::PropertyResult r;
    r.outcome = report::Outcome::kFail;
    r.message = why;
    return r;
  };
  std::vector<report::PropertyResult> got(3);
  size_t delivered = 0;
  RunUnitsInWorkers(units, {.jobs = 2, .on_worker_start = [](int fd) { result_fd = fd; }}, run,
                    died, [&](size_t i, report::PropertyResult r) {
                      ++delivered;
                      got.at(i) = std::move(r);
                    });
  ASSERT_EQ(delivered, 3u);
  EXPECT_EQ(got[0].outcome, report::Outcome::kPass);
  EXPECT_EQ(got[1].outcome, report::Outcome::kPass) << got[1].message;
  EXPECT_EQ(got[2].outcome, report::Outcome::kFail);
  EXPECT_EQ(got[2].message, "sent a result for another unit (zzz@p)");
}

}  // namespace
}  // namespace npuconf

namespace npuconf {
namespace {

// The ETA counts what the running units have left (issue 15 item 8: it sat at
// 0:09 for two minutes while the real-shape unit ran at the end).
TEST(Progress, TheEtaCountsWhatALongRunningUnitHasLeft) {
  // The 135 s unit, 20 s in, alone at the end on two workers.
  EXPECT_DOUBLE_EQ(EtaSeconds(0, {{135, 20}}, 2, 1.0), 115);
  // Past its estimate it still has something left until it ends.
  EXPECT_DOUBLE_EQ(EtaSeconds(0, {{135, 200}}, 2, 1.0), 13.5);
  // Ten unstarted units of cost 1 on two workers, at 2 s per cost unit.
  EXPECT_DOUBLE_EQ(EtaSeconds(10, {}, 2, 2.0), 10);
  // The longest running unit bounds it from below.
  EXPECT_DOUBLE_EQ(EtaSeconds(2, {{100, 10}, {1, 0}}, 2, 1.0), 90);
}

// The pool's progress line estimates from the seconds its finished units
// took (issue 42: every line of `make run` said ETA 0:00, the finished
// units' seconds being looked up on workers that had already let them go).
TEST(Progress, ThePoolsEtaEstimatesFromTheUnitsDone) {
  std::vector<PoolUnit> units;
  for (int i = 0; i < 6; ++i) units.push_back({.name = "u" + std::to_string(i) + "@p", .cost = 1});
  auto run = [&](size_t i) {
    usleep(1000000);  // 1 s a unit: 6 units on 2 workers take 3 s
    report::PropertyResult r;
    r.property = "u" + std::to_string(i);
    r.profile = "p";
    return r;
  };
  auto died = [](size_t, const std::string&, const std::string&) {
    return report::PropertyResult{};
  };
  std::stringstream captured;
  std::streambuf* old = std::cerr.rdbuf(captured.rdbuf());
  RunUnitsInWorkers(units, {.jobs = 2, .progress = true}, run, died,
                    [](size_t, report::PropertyResult) {});
  std::cerr.rdbuf(old);
  // The first line, two units done and four to go at 1 s each on two workers.
  const std::string text = captured.str();
  const std::string first = text.substr(0, text.find('\n'));
  EXPECT_NE(first.find("] 0 failing, ETA 0:0"), std::string::npos) << text;
  EXPECT_EQ(first.find("ETA 0:00"), std::string::npos) << text;
}

}  // namespace
}  // namespace npuconf
