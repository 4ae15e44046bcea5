// A gate a team can keep (issue 15 items 3-5), through the command line:
// waivers keep a known failure from turning the gate red while they last,
// shards of one run merge into the unsharded report, and two runs compare.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli/families.h"
#include "conformance/harness/waivers.h"
#include "core/case_json.h"
#include "reports/result_json.h"
#include "test_util.h"

namespace npuconf {
namespace {

using testing::ReadJson;
using testing::RunNpuconf;
using testing::TempDir;

// The nz-padding mutant fails cann.nd_to_nz.padding_is_zero (and only it, of
// the properties run here) on ascend910b.
const std::string kMutantRun =
    "run --port mutant:nz-padding-unwritten --profile ascend910b --property "
    "cann.nd_to_nz.padding_is_zero --no-real-shapes --jobs 1 --out ";

std::string WriteWaivers(const TempDir& dir, const std::string& entries) {
  const std::string path = dir.path() + "/waivers.json";
  std::ofstream(path) << "{\"waivers\": [" << entries << "]}";
  return path;
}

std::string Entry(const std::string& property, const std::string& expires,
                  const std::string& extra = "") {
  return "{\"property\": \"" + property + "\", \"profile\": \"ascend910b\", \"reason\": " +
         "\"padding fix lands with #123\", \"tracking\": \"https://example.org/123\", " +
         "\"expires\": \"" + expires + "\"" + extra + "}";
}

TEST(Waivers, AnUnexpiredWaiverKeepsTheGateGreenAndShowsItsReasonEverywhere) {
  TempDir dir("waived");
  const std::string file = WriteWaivers(dir, Entry("cann.nd_to_nz.padding_*", "2999-12-31"));
  const auto plain = RunNpuconf(kMutantRun + dir.path() + "/plain");
  ASSERT_EQ(plain.exit_code, 1) << plain.output;
  const auto run = RunNpuconf(kMutantRun + dir.path() + "/out --waivers " + file);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("waived: padding fix lands with #123"), std::string::npos)
      << run.output;
  const auto report = ReadJson(dir.path() + "/out/report.json");
  ASSERT_EQ(report["results"].size(), 1u);
  EXPECT_EQ(report["results"][0]["result"], "waived");
  EXPECT_EQ(report["results"][0]["waiver"]["reason"], "padding fix lands with #123");
  EXPECT_EQ(report["verdict"], "CONFORMANT");
  for (const char* name : {"/out/report.md", "/out/report.html", "/out/junit.xml"}) {
    std::ifstream in(dir.path() + name);
    const std::string text((std::istreambuf_iterator<char>(in)), {});
    EXPECT_NE(text.find("padding fix lands with #123"), std::string::npos) << name;
  }
}

TEST(Waivers, AnExpiredWaiverNoLongerWaivesAndTheFailureSaysSo) {
  TempDir dir("expired");
  const std::string file = WriteWaivers(dir, Entry("cann.nd_to_nz.padding_is_zero", "2001-01-01"));
  const auto run = RunNpuconf(kMutantRun + dir.path() + "/out --waivers " + file);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("expired on 2001-01-01"), std::string::npos) << run.output;
}

// ApplyWaivers judges every failing case a result met, and a give-up beside
// waived cases is a failure with no case, which meets no `when`.
TEST(Waivers, EveryFailingCaseMustMeetAnUnexpiredEntry) {
  WaiverSet waivers;
  waivers.path = "w.json";
  ASSERT_EQ(
      ParseWaivers(
          "{\"waivers\": [" + Entry("cann.nd_to_nz.*", "2999-12-31", ", \"when\": \"dtype=INT8\"") +
              ", " + Entry("cann.nd_to_nz.*", "2020-01-01", ", \"when\": \"dtype=FLOAT16\"") + "]}",
          BuiltinSuite(), &waivers),
      "");
  auto failing = [](const std::string& kind, const std::string& dtype) {
    const Case c =
        Case("cann.nd_to_nz", "ascend910b").Set("shape", Shape{2, 3, 17}).Set("dtype", dtype);
    return report::FailingCase{.kind = kind, .text = c.ToText(), .case_json = ToJson(c)};
  };
  report::PropertyResult base;
  base.property = "cann.nd_to_nz.padding_is_zero";
  base.routine = "cann.nd_to_nz";
  base.profile = "ascend910b";
  base.outcome = report::Outcome::kFail;
  std::vector<bool> used(2, false);
  // Two INT8 cases: waived.
  report::PropertyResult both_int8 = base;
  both_int8.failing_cases = {failing("explicit", "INT8"), failing("shrunk", "INT8")};
  ApplyWaivers(waivers, "2026-12-07", BuiltinSuite(), &both_int8, &used);
  EXPECT_EQ(both_int8.outcome, report::Outcome::kWaived);
  // An INT8 and a BF16 case: the BF16 one keeps it failing and is named.
  report::PropertyResult mixed = base;
  mixed.failing_cases = {failing("shrunk", "INT8"), failing("explicit", "BF16")};
  ApplyWaivers(waivers, "2026-12-07", BuiltinSuite(), &mixed, &used);
  EXPECT_EQ(mixed.outcome, report::Outcome::kFail);
  EXPECT_EQ(mixed.unwaived_case.rfind("explicit: cann.nd_to_nz", 0), 0u) << mixed.unwaived_case;
  EXPECT_NE(mixed.unwaived_case.find("BF16"), std::string::npos) << mixed.unwaived_case;
  EXPECT_NE(mixed.message.find("names 1 of its 2 failing cases"), std::string::npos)
      << mixed.message;
  // A FLOAT16 case meets only the expired entry: failing, saying so.
  report::PropertyResult expired = base;
  expired.failing_cases = {failing("random", "INT8"), failing("crash", "FLOAT16")};
  ApplyWaivers(waivers, "2026-12-07", BuiltinSuite(), &expired, &used);
  EXPECT_EQ(expired.outcome, report::Outcome::kFail);
  EXPECT_NE(expired.message.find("expired on 2020-01-01"), std::string::npos) << expired.message;
  // A give-up beside an INT8 case: the give-up has no case.
  report::PropertyResult gave_up = base;
  gave_up.outcome = report::Outcome::kGaveUp;
  gave_up.failing_cases = {failing("random", "INT8")};
  ApplyWaivers(waivers, "2026-12-07", BuiltinSuite(), &gave_up, &used);
  EXPECT_EQ(gave_up.outcome, report::Outcome::kGaveUp);
  EXPECT_EQ(gave_up.unwaived_case, "gave_up: (no case)");
}

// The padding mutant fails for every dtype: a `when` naming the shrunk
// counterexample's dtype alone names some of the failing cases, not all, and
// waives nothing (issue 42 item 1: it used to waive every failure).
TEST(Waivers, WhenConditionsMustHoldForEveryFailingCase) {
  TempDir dir("when");
  ASSERT_EQ(RunNpuconf(kMutantRun + dir.path() + "/plain").exit_code, 1);
  const auto plain = ReadJson(dir.path() + "/plain/report.json");
  const std::string dtype = plain["results"][0]["counterexample_case"]["params"]["dtype"];
  EXPECT_GT(plain["results"][0]["failing_cases"].size(), 1u);
  const std::string all = WriteWaivers(
      dir, Entry("cann.nd_to_nz.padding_is_zero", "2999-12-31", ", \"when\": \"rank(shape)>=1\""));
  EXPECT_EQ(RunNpuconf(kMutantRun + dir.path() + "/a --waivers " + all).exit_code, 0);
  const std::string one = WriteWaivers(dir, Entry("cann.nd_to_nz.padding_is_zero", "2999-12-31",
                                                  ", \"when\": \"dtype=" + dtype + "\""));
  const auto run = RunNpuconf(kMutantRun + dir.path() + "/b --waivers " + one);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("not waived: "), std::string::npos) << run.output;
  const auto report = ReadJson(dir.path() + "/b/report.json");
  EXPECT_EQ(report["results"][0]["result"], "fail");
  const std::string unwaived = report["results"][0].value("unwaived_case", "");
  EXPECT_EQ(unwaived.find("dtype=" + dtype + " "), std::string::npos) << unwaived;
  EXPECT_NE(unwaived.find("dtype="), std::string::npos) << unwaived;
  EXPECT_EQ(report["waivers"]["stale"].size(), 0u);  // it named cases: not stale
}

// An attacker's port (issue 42 item 1): an INT8 padding bug and a FLOAT16 bug
// that zeroes every batch after the first, one waiver for one dtype.
// matches_oracle fails for both bugs. Before, the waiver's `when` was checked
// on the shrunk counterexample only, so whichever dtype matches_oracle shrank
// to, one of the two waivers below waived it. A property only one bug fails
// (padding_is_zero: INT8; round_trip: FLOAT16) is rightly waived by its
// bug's waiver.
const std::string kTwoBugs = std::string("NPUCONF_NARROW_INT8_PADDING=1 ") + NPUCONF_BINARY +
                             " run --port " + NPUCONF_NARROW_PORT +
                             " --profile ascend910b --routine cann.nd_to_nz --no-real-shapes "
                             "--jobs 1 --quiet --out ";

TEST(Waivers, APortWithTwoBugsAndAWaiverForOneStaysRed) {
  TempDir dir("two-bugs");
  for (const std::string dtype : {"INT8", "FLOAT16"}) {
    const std::string file = WriteWaivers(
        dir, Entry("cann.nd_to_nz.*", "2999-12-31", ", \"when\": \"dtype=" + dtype + "\""));
    const std::string out = dir.path() + "/" + dtype;
    const auto run = testing::RunShell("NPUCONF_NARROW_FP16_BATCHES=zero " + kTwoBugs + out +
                                       " --waivers " + file);
    EXPECT_EQ(run.exit_code, 1) << dtype << "\n" << run.output;
    const auto report = ReadJson(out + "/report.json");
    EXPECT_EQ(report["verdict"], "NON-CONFORMANT");
    const std::string other = dtype == "INT8" ? "FLOAT16" : "INT8";
    bool seen = false;
    for (const auto& r : report["results"]) {
      if (r["property"] != "cann.nd_to_nz.matches_oracle") continue;
      seen = true;
      EXPECT_EQ(r["result"], "fail") << dtype << " " << r.dump();
      // With the INT8 waiver the run meets FLOAT16 failures past the waived
      // INT8 ones (explicit cases go on; waived random failures do not stop
      // the draw), and names one. With the FLOAT16 waiver the INT8 failures
      // come first and shrink: no entry names any case, it just fails.
      if (dtype == "INT8") {
        const std::string unwaived = r.value("unwaived_case", "");
        EXPECT_NE(unwaived.find("dtype=FLOAT16"), std::string::npos) << r.dump();
      }
    }
    EXPECT_TRUE(seen);
    if (dtype == "INT8") {
      const std::string md = testing::ReadFile(out + "/report.md");
      EXPECT_NE(md.find("Not waived"), std::string::npos) << md;
      EXPECT_NE(md.find("dtype=" + other), std::string::npos) << md;
    }
  }
  // One waiver per bug: every failing case is named, the failures are waived.
  const std::string both = WriteWaivers(
      dir, Entry("cann.nd_to_nz.*", "2999-12-31", ", \"when\": \"dtype=INT8\"") + ", " +
               Entry("cann.nd_to_nz.*", "2999-12-31", ", \"when\": \"dtype=FLOAT16\""));
  const auto run = testing::RunShell("NPUCONF_NARROW_FP16_BATCHES=zero " + kTwoBugs + dir.path() +
                                     "/both --waivers " + both);
  EXPECT_EQ(run.exit_code, 0) << run.output;
  const auto report = ReadJson(dir.path() + "/both/report.json");
  int waived = 0;
  for (const auto& r : report["results"]) waived += r["result"] == "waived";
  EXPECT_EQ(waived, 3) << report.dump();
}

// The same with a crash for the second bug: a waiver for INT8 does not hide it.
TEST(Waivers, AWaiverForOneBugDoesNotHideACrash) {
  TempDir dir("two-bugs-crash");
  const std::string file =
      WriteWaivers(dir, Entry("cann.nd_to_nz.*", "2999-12-31", ", \"when\": \"dtype=INT8\""));
  const auto run = testing::RunShell("NPUCONF_NARROW_FP16_BATCHES=segv " + kTwoBugs + dir.path() +
                                     "/out --waivers " + file);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  const auto report = ReadJson(dir.path() + "/out/report.json");
  bool crash_named = false;
  for (const auto& r : report["results"]) {
    EXPECT_NE(r["result"], "waived") << r.dump();
    crash_named |= r.value("unwaived_case", "").rfind("crash: ", 0) == 0;
  }
  EXPECT_TRUE(crash_named) << report.dump();
}

// --today sets the date waivers expire by, for tests; every report shows it.
// NPUCONF_TODAY no longer does, silently (issue 42: it revived an expired
// waiver in a real run, recorded nowhere).
TEST(Waivers, TheExpiryDateIsTheClocksOrTodaysAndEveryReportSaysWhich) {
  TempDir dir("today");
  const std::string file = WriteWaivers(dir, Entry("cann.nd_to_nz.padding_is_zero", "2020-01-01"));
  const auto revived = testing::RunShell("NPUCONF_TODAY=2019-12-31 " + std::string(NPUCONF_BINARY) +
                                         " " + kMutantRun + dir.path() + "/env --waivers " + file);
  EXPECT_EQ(revived.exit_code, 1) << revived.output;
  EXPECT_NE(revived.output.find("NPUCONF_TODAY is not read"), std::string::npos);
  const auto clock = ReadJson(dir.path() + "/env/report.json");
  EXPECT_EQ(clock["today"]["set_by"], "clock");
  EXPECT_GT(clock["today"]["date"].get<std::string>(), "2026-01-01");

  const auto forced =
      RunNpuconf(kMutantRun + dir.path() + "/out --today 2019-12-31 --waivers " + file);
  EXPECT_EQ(forced.exit_code, 0) << forced.output;
  const auto report = ReadJson(dir.path() + "/out/report.json");
  EXPECT_EQ(report["today"]["date"], "2019-12-31");
  EXPECT_EQ(report["today"]["set_by"], "--today");
  for (const char* name : {"/out/report.md", "/out/report.html", "/out/junit.xml"}) {
    const std::string text = testing::ReadFile(dir.path() + name);
    EXPECT_NE(text.find("waivers judged on 2019-12-31 (set by --today, not the clock)"),
              std::string::npos)
        << name;
  }
  EXPECT_NE(forced.output.find("set by --today"), std::string::npos) << forced.output;
  const auto bad =
      RunNpuconf(kMutantRun + dir.path() + "/bad --today 2019-02-30 --waivers " + file);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--today '2019-02-30' is not a date"), std::string::npos) << bad.output;
}

// docs/waivers.md: the coverage gate's failures (ROUTINE.coverage) can be
// waived like any property (a waiver naming one was "matches no property").
TEST(Waivers, AWaiverMayNameACoverageGate) {
  TempDir dir("coverage-waiver");
  const std::string file = WriteWaivers(dir, Entry("cann.nd_to_nz.coverage", "2999-12-31"));
  const auto run = RunNpuconf(
      "run --profile ascend910b --routine cann.nd_to_nz --no-real-shapes --quiet --cases 5 --out " +
      dir.path() + "/out --waivers " + file);
  EXPECT_EQ(run.exit_code, 0) << run.output;  // the reference hits every class: stale
  EXPECT_EQ(ReadJson(dir.path() + "/out/report.json")["waivers"]["stale"].size(), 1u);
  // A `when` on a coverage gate could never hold: no case fails there.
  const std::string when = WriteWaivers(
      dir, Entry("cann.nd_to_nz.coverage", "2999-12-31", ", \"when\": \"dtype=INT8\""));
  const auto bad =
      RunNpuconf("run --profile ascend910b --quiet --out " + dir.path() + "/bad --waivers " + when);
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("a coverage gap has no failing case"), std::string::npos) << bad.output;
}

TEST(Waivers, AStaleWaiverIsListedAndFailsUnderStrict) {
  TempDir dir("stale");
  const std::string file = WriteWaivers(dir, Entry("cann.nd_to_nz.round_trip", "2999-12-31"));
  const std::string run_ok =
      "run --profile ascend910b --property cann.nd_to_nz.round_trip --no-real-shapes --out ";
  const auto lenient = RunNpuconf(run_ok + dir.path() + "/a --waivers " + file);
  EXPECT_EQ(lenient.exit_code, 0) << lenient.output;
  EXPECT_EQ(ReadJson(dir.path() + "/a/report.json")["waivers"]["stale"].size(), 1u);
  const auto strict = RunNpuconf(run_ok + dir.path() + "/b --strict-waivers --waivers " + file);
  EXPECT_EQ(strict.exit_code, 1) << strict.output;
  EXPECT_NE(strict.output.find("matched no failure"), std::string::npos) << strict.output;
}

TEST(Waivers, AMalformedFileIsBadInputNamingTheFault) {
  TempDir dir("bad-waivers");
  for (const auto& [entries, says] : std::vector<std::pair<std::string, std::string>>{
           {Entry("x", "2999-12-31", ", \"ticket\": \"1\""), "unknown key 'ticket'"},
           {"{\"property\": \"x\", \"profile\": \"*\", \"expires\": \"2999-01-01\"}",
            "'reason' is required"},
           {Entry("cann.nd_to_nz.*", "2999-02-30"), "expires '2999-02-30' is not a date"},
           {Entry("cann.nd_to_nz.matches_oracel", "2999-12-31"),
            "property 'cann.nd_to_nz.matches_oracel' matches no property"},
           {Entry("cann.nd_to_nz.*", "2999-12-31", ", \"when\": \"dtype=int8\""),
            "dtype 'int8' is written 'INT8'"},
           {Entry("cann.nd_to_nz.*", "2999-12-31", ", \"when\": \"K%0==0\""), "modulus"},
           {Entry("cann.nd_to_nz.*", "2999-12-31", ", \"when\": \"colour=red\""),
            "'colour' is not a param"}}) {
    const std::string file = WriteWaivers(dir, entries);
    const auto run =
        RunNpuconf("run --profile ascend910b --out " + dir.path() + "/o --waivers " + file);
    EXPECT_EQ(run.exit_code, 2) << entries << "\n" << run.output;
    EXPECT_NE(run.output.find(says), std::string::npos) << entries << "\n" << run.output;
  }
}

// Three shards and their merge equal one unsharded run, apart from seconds.
// docs/waivers.md's example is a file the runner takes, and docs/waivers.schema.json
// accepts it and rejects what the parser rejects (an unknown key, a bad date).
TEST(Waivers, TheDocumentedExampleAndSchemaAgreeWithTheParser) {
  const std::string doc = testing::ReadFile(std::string(NPUCONF_SOURCE_DIR) + "/docs/waivers.md");
  const size_t begin = doc.find("```json\n");
  ASSERT_NE(begin, std::string::npos);
  const size_t end = doc.find("```", begin + 8);
  TempDir dir("waiver_doc");
  const std::string example = dir.path() + "/example.json";
  std::ofstream(example) << doc.substr(begin + 8, end - begin - 8);
  const auto run = RunNpuconf("run --waivers " + example +
                              " --profile rk3576 --property rknn.b_norm_to_native.matches_oracle "
                              "--cases 5 --no-real-shapes --quiet --out " +
                              dir.path() + "/run");
  EXPECT_EQ(run.exit_code, 0) << run.output;  // the reference passes: the waiver is stale
  EXPECT_EQ(ReadJson(dir.path() + "/run/report.json").at("waivers").at("stale").size(), 1u);

  const std::string bad_key = WriteWaivers(dir, Entry("*", "2999-12-31", ", \"owner\": \"me\""));
  EXPECT_EQ(
      RunNpuconf("run --waivers " + bad_key + " --quiet --out " + dir.path() + "/bad").exit_code,
      2);
  const std::string schema = std::string(NPUCONF_SOURCE_DIR) + "/docs/waivers.schema.json";
  const std::string validate =
      "/usr/bin/python3 -c \"import json,sys,jsonschema; "
      "jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))\" ";
  if (testing::RunShell("/usr/bin/python3 -c 'import jsonschema'").exit_code != 0)
    GTEST_SKIP() << "python3-jsonschema is not installed";
  EXPECT_EQ(testing::RunShell(validate + example + " " + schema).exit_code, 0);
  EXPECT_NE(testing::RunShell(validate + bad_key + " " + schema).exit_code, 0);
  const std::string bad_date = WriteWaivers(dir, Entry("*", "31.12.2999"));
  EXPECT_NE(testing::RunShell(validate + bad_date + " " + schema).exit_code, 0);
  EXPECT_EQ(
      RunNpuconf("run --waivers " + bad_date + " --quiet --out " + dir.path() + "/bad").exit_code,
      2);
}

TEST(Shards, ThreeShardsMergeIntoTheUnshardedReport) {
  TempDir dir("shards");
  const std::string base =
      "run --profile ascend910b --profile rk3588 --no-real-shapes --quiet --out " + dir.path();
  ASSERT_EQ(RunNpuconf(base + "/full").exit_code, 0);
  for (int k = 1; k <= 3; ++k)
    ASSERT_EQ(RunNpuconf(base + "/" + std::to_string(k) + " --shard " + std::to_string(k) + "/3")
                  .exit_code,
              0);
  const auto merge = RunNpuconf("report merge --out " + dir.path() + "/merged " + dir.path() +
                                "/1 " + dir.path() + "/3 " + dir.path() + "/2");
  ASSERT_EQ(merge.exit_code, 0) << merge.output;
  auto strip = [](nlohmann::json doc) {
    for (auto& r : doc["results"]) r.erase("seconds");
    return doc;
  };
  const auto full = strip(ReadJson(dir.path() + "/full/report.json"));
  const auto merged = strip(ReadJson(dir.path() + "/merged/report.json"));
  EXPECT_EQ(merged["results"], full["results"]);
  EXPECT_EQ(merged["coverage"], full["coverage"]);
  EXPECT_EQ(merged["summary"], full["summary"]);
  EXPECT_EQ(merged["verdict"], full["verdict"]);
  EXPECT_EQ(merged["complete"], true);
  // Each unit ran in exactly one shard.
  size_t units = 0;
  for (int k = 1; k <= 3; ++k) {
    const auto shard = ReadJson(dir.path() + "/" + std::to_string(k) + "/report.json");
    EXPECT_EQ(shard["shard"]["index"], k);
    EXPECT_NE(shard["coverage_gate"].get<std::string>().find("deferred"), std::string::npos);
    units += shard["results"].size();
  }
  EXPECT_EQ(units, full["results"].size());
  // A missing shard, or one given twice, makes the merge incomplete and says which.
  const auto missing = RunNpuconf("report merge --out " + dir.path() + "/m2 " + dir.path() + "/1 " +
                                  dir.path() + "/2");
  EXPECT_EQ(missing.exit_code, 2) << missing.output;
  EXPECT_NE(missing.output.find("shard 3/3 is missing"), std::string::npos) << missing.output;
  EXPECT_EQ(ReadJson(dir.path() + "/m2/report.json")["complete"], false);
  const auto twice = RunNpuconf("report merge --out " + dir.path() + "/m3 " + dir.path() + "/1 " +
                                dir.path() + "/1 " + dir.path() + "/2 " + dir.path() + "/3");
  EXPECT_EQ(twice.exit_code, 2) << twice.output;
  EXPECT_NE(twice.output.find("shard 1/3 is given twice"), std::string::npos) << twice.output;
  const auto foreign = RunNpuconf("report merge --out " + dir.path() + "/m4 " + dir.path() + "/1 " +
                                  dir.path() + "/full");
  EXPECT_EQ(foreign.exit_code, 2) << foreign.output;
  EXPECT_NE(foreign.output.find("is not a shard"), std::string::npos) << foreign.output;
}

// More shards than claimed units (issue 42 item 9): the empty shards exit 0,
// saying so, and their merge is the unsharded run's verdict.
TEST(Shards, AnEmptyShardExitsZeroSayingItHoldsNoClaimedUnit) {
  TempDir dir("empty-shard");
  const std::string base =
      "run --profile ascend910b --property cann.nd_to_nz.round_trip --no-real-shapes --quiet "
      "--cases 5 --out " +
      dir.path();
  for (int k = 1; k <= 3; ++k) {
    const auto run =
        RunNpuconf(base + "/" + std::to_string(k) + " --shard " + std::to_string(k) + "/3");
    EXPECT_EQ(run.exit_code, 0) << k << "\n" << run.output;
    const auto report = ReadJson(dir.path() + "/" + std::to_string(k) + "/report.json");
    const bool empty = report["results"].empty();
    EXPECT_EQ(run.output.find("this shard holds no claimed unit") != std::string::npos, empty)
        << run.output;
    if (empty) {
      const std::string junit =
          testing::ReadFile(dir.path() + "/" + std::to_string(k) + "/junit.xml");
      EXPECT_EQ(junit.find("<failure"), std::string::npos) << junit;
    }
  }
  const auto merge = RunNpuconf("report merge --out " + dir.path() + "/merged " + dir.path() +
                                "/1 " + dir.path() + "/2 " + dir.path() + "/3");
  EXPECT_EQ(merge.exit_code, 0) << merge.output;
  EXPECT_EQ(ReadJson(dir.path() + "/merged/report.json")["verdict"], "CONFORMANT");
  // A port that claims nothing of the selection: every shard is empty, the
  // merge says nothing was checked (exit 4).
  for (int k = 1; k <= 2; ++k) {
    const auto run =
        testing::RunShell("NPUCONF_TEST_CLAIMS='cann.antiquant:*' " + std::string(NPUCONF_BINARY) +
                          " " + base + "/n" + std::to_string(k) + " --port " +
                          NPUCONF_SCRIPTED_PORT + " --shard " + std::to_string(k) + "/2");
    EXPECT_EQ(run.exit_code, 0) << run.output;
  }
  EXPECT_EQ(RunNpuconf("report merge --out " + dir.path() + "/nm " + dir.path() + "/n1 " +
                       dir.path() + "/n2")
                .exit_code,
            4);
}

TEST(Shards, AMalformedShardIsBadUsage) {
  TempDir dir("bad-shard");
  for (const char* bad : {"0/3", "4/3", "3", "1/0", "a/b", "1/3x", "''"}) {
    const auto run = RunNpuconf(std::string("run --shard ") + bad +
                                " --profile ascend910b --quiet --out " + dir.path());
    EXPECT_EQ(run.exit_code, 2) << bad << "\n" << run.output;
    EXPECT_NE(run.output.find("--shard"), std::string::npos) << run.output;
  }
}

// Found by fuzz/report_json_fuzz.cpp: a report.json saying it is shard 1 of
// 2000000000 made `report merge` list two billion missing shards (a hang, then
// out of memory). A shard count past kMaxShards is no report a run writes.
TEST(Shards, AShardCountPastKMaxShardsIsRefusedNamingIt) {
  TempDir dir("many-shards");
  ASSERT_EQ(RunNpuconf("run --profile rk3588 --routine rknn.int4_pack --no-real-shapes --quiet "
                       "--cases 2 --shard 1/2 --out " +
                       dir.path() + "/a")
                .exit_code,
            0);
  nlohmann::json report = ReadJson(dir.path() + "/a/report.json");
  report["shard"]["count"] = 2000000000;
  std::ofstream(dir.path() + "/a/report.json") << report.dump();
  const auto merge = RunNpuconf("report merge --out " + dir.path() + "/m " + dir.path() + "/a");
  EXPECT_EQ(merge.exit_code, 2) << merge.output;
  EXPECT_NE(
      merge.output.find("shard 1/2000000000 is not K/N with 1 <= K <= N <= kMaxShards (1000)"),
      std::string::npos)
      << merge.output;
}

TEST(Diff, ListsTheNewFailuresOfAMutantAndExitsOne) {
  TempDir dir("diff");
  const std::string run =
      "run --profile ascend910b --routine cann.nd_to_nz --no-real-shapes "
      "--quiet --out ";
  ASSERT_EQ(RunNpuconf(run + dir.path() + "/good").exit_code, 0);
  ASSERT_EQ(RunNpuconf(run + dir.path() + "/bad --port mutant:nz-padding-unwritten").exit_code, 1);
  const auto diff = RunNpuconf("report diff " + dir.path() + "/good " + dir.path() + "/bad --out " +
                               dir.path() + "/diff.md");
  EXPECT_EQ(diff.exit_code, 1) << diff.output;
  EXPECT_NE(diff.output.find("### New failures"), std::string::npos) << diff.output;
  EXPECT_NE(diff.output.find("cann.nd_to_nz.padding_is_zero"), std::string::npos) << diff.output;
  std::ifstream md(dir.path() + "/diff.md");
  EXPECT_NE(std::string((std::istreambuf_iterator<char>(md)), {}).find("New failures"),
            std::string::npos);
  const auto back = RunNpuconf("report diff " + dir.path() + "/bad " + dir.path() + "/good");
  EXPECT_EQ(back.exit_code, 0) << back.output;
  EXPECT_NE(back.output.find("### Fixed"), std::string::npos) << back.output;
  // Claims gained and lost: the narrow port claims less than the reference.
  ASSERT_EQ(RunNpuconf(run + dir.path() + "/narrow --port " + NPUCONF_NARROW_PORT).exit_code, 0);
  const auto claims = RunNpuconf("report diff " + dir.path() + "/good " + dir.path() + "/narrow");
  EXPECT_NE(claims.output.find("### Claims lost"), std::string::npos) << claims.output;
  EXPECT_NE(claims.output.find("### Claims gained"), std::string::npos) << claims.output;
  EXPECT_EQ(RunNpuconf("report diff " + dir.path() + "/nothing " + dir.path() + "/good").exit_code,
            2);
  // A new run that did not finish is no "nothing broke" (a tester's diff
  // against a run killed half-way said 0 new failures, exit 0).
  std::filesystem::create_directories(dir.path() + "/cut");
  auto cut = testing::ReadJson(dir.path() + "/good/report.json");
  cut["complete"] = false;
  cut["results"] = nlohmann::json::array({cut["results"][0]});
  cut["digest"] = report::ReportDigest(cut);  // not a signature: a tool may write one
  std::ofstream(dir.path() + "/cut/report.json") << cut.dump();
  const auto unfinished = RunNpuconf("report diff " + dir.path() + "/good " + dir.path() + "/cut");
  EXPECT_EQ(unfinished.exit_code, 1) << unfinished.output;
  EXPECT_NE(unfinished.output.find("The new run did not finish"), std::string::npos)
      << unfinished.output;
}

// Issue 42 items 2-5, as an attacker tries them.

// A cheap unit set: the nz-padding mutant fails padding_is_zero on ascend910b,
// round_trip passes; two shards of one unit each.
const std::string kShardRun =
    "run --port mutant:nz-padding-unwritten --profile ascend910b --property "
    "'cann.nd_to_nz.padding_is_zero,cann.nd_to_nz.round_trip' --cases 5 --jobs 1 --quiet ";

bool MentionsAVerdict(const std::string& output) {
  return output.find("verdict:") != std::string::npos ||
         output.find("CONFORMANT") != std::string::npos;
}

// The false green of issue 42: shard 1/2 without the real shapes, shard 2/2
// with them, merged CONFORMANT. Every option that decides what is checked is
// in the fingerprint, and a merge of shards that differ in one is refused,
// naming it, with no verdict and no report.
TEST(Shards, AMergeOfShardsRunWithOtherOptionsIsRefusedNamingTheOption) {
  TempDir dir("fingerprint");
  const std::string base = "run --profile rk3588 --routine rknn.int4_pack --cases 2 --quiet ";
  ASSERT_EQ(RunNpuconf(base + "--no-real-shapes --shard 1/2 --out " + dir.path() + "/1").exit_code,
            0);
  ASSERT_EQ(RunNpuconf(base + "--no-real-shapes --shard 2/2 --out " + dir.path() + "/2").exit_code,
            0);
  const auto same = RunNpuconf("report merge --out " + dir.path() + "/m " + dir.path() + "/1 " +
                               dir.path() + "/2");
  ASSERT_EQ(same.exit_code, 0) << same.output;
  // A merge clears its --out first, so --out may not be a shard's directory.
  const auto into_shard = RunNpuconf("report merge --out " + dir.path() + "/1 " + dir.path() +
                                     "/1 " + dir.path() + "/2");
  EXPECT_EQ(into_shard.exit_code, 2) << into_shard.output;
  EXPECT_NE(into_shard.output.find("holds the shard"), std::string::npos) << into_shard.output;
  ASSERT_TRUE(std::filesystem::exists(dir.path() + "/1/report.json"));
  const auto fingerprint = ReadJson(dir.path() + "/1/report.json")["fingerprint"];
  for (const char* option :
       {"suite_version", "port", "claims", "isa", "seed", "cases", "real_shapes", "max_case_bytes",
        "timeout_ms", "determinism_every", "in_process", "waivers"})
    EXPECT_TRUE(fingerprint.contains(option)) << option << " " << fingerprint.dump();
  EXPECT_EQ(fingerprint["real_shapes"], "off");
  const std::string shapes = dir.path() + "/shapes.json";
  std::ofstream(shapes) << testing::ReadFile(std::string(NPUCONF_SOURCE_DIR) +
                                             "/vectors/real/model_shapes.json");
  for (const auto& [options, option] : std::vector<std::pair<std::string, std::string>>{
           {"", "real_shapes"},
           {"--real-shapes " + shapes, "real_shapes"},
           {"--no-real-shapes --timeout-ms 999", "timeout_ms"},
           {"--no-real-shapes --determinism-every 3", "determinism_every"},
           {"--no-real-shapes --in-process", "in_process"},
           {"--no-real-shapes --max-case-bytes 100000000", "max_case_bytes"},
           {"--no-real-shapes --port mutant:rknn-int4-nibble-swapped", "port"}}) {
    const std::string other = dir.path() + "/other";
    ASSERT_LE(RunNpuconf(base + options + " --shard 2/2 --out " + other).exit_code, 1) << options;
    const auto merge =
        RunNpuconf("report merge --out " + dir.path() + "/m " + dir.path() + "/1 " + other);
    EXPECT_EQ(merge.exit_code, 2) << options << "\n" << merge.output;
    EXPECT_NE(merge.output.find("refused: " + other + " ran with other options than " + dir.path() +
                                "/1: "),
              std::string::npos)
        << options << "\n"
        << merge.output;
    EXPECT_NE(merge.output.find(option + " '"), std::string::npos) << options << "\n"
                                                                   << merge.output;
    EXPECT_FALSE(MentionsAVerdict(merge.output)) << merge.output;
    // The merged report of the matching pair, written before, is gone too.
    EXPECT_FALSE(std::filesystem::exists(dir.path() + "/m/report.json")) << options;
  }
}

// A shard's report.json edited fail -> pass merged as pass; a diff input so
// edited diffed as fixed. The digest each report carries refuses both.
TEST(Shards, AnEditedShardOrDiffInputIsRefused) {
  TempDir dir("edited");
  for (int k = 1; k <= 2; ++k)
    ASSERT_LE(RunNpuconf(kShardRun + "--shard " + std::to_string(k) + "/2 --out " + dir.path() +
                         "/" + std::to_string(k))
                  .exit_code,
              1);
  const auto honest = RunNpuconf("report merge --out " + dir.path() + "/m " + dir.path() + "/1 " +
                                 dir.path() + "/2");
  ASSERT_EQ(honest.exit_code, 1) << honest.output;
  int edited = 0;
  for (int k = 1; k <= 2; ++k) {
    const std::string path = dir.path() + "/" + std::to_string(k) + "/report.json";
    auto doc = ReadJson(path);
    for (auto& r : doc["results"]) {
      if (r["result"] != "fail") continue;
      r["result"] = "pass";
      ++edited;
    }
    std::ofstream(path) << doc.dump(2);
  }
  ASSERT_EQ(edited, 1);
  const auto merge = RunNpuconf("report merge --out " + dir.path() + "/m2 " + dir.path() + "/1 " +
                                dir.path() + "/2");
  EXPECT_EQ(merge.exit_code, 2) << merge.output;
  EXPECT_NE(merge.output.find("was changed after npuconf wrote it"), std::string::npos)
      << merge.output;
  EXPECT_FALSE(MentionsAVerdict(merge.output)) << merge.output;
  EXPECT_FALSE(std::filesystem::exists(dir.path() + "/m2/report.json"));
  const auto diff = RunNpuconf("report diff " + dir.path() + "/m " + dir.path() + "/1");
  EXPECT_EQ(diff.exit_code, 2) << diff.output;
  EXPECT_NE(diff.output.find("was changed after npuconf wrote it"), std::string::npos)
      << diff.output;
}

// Shards waived with a `*` file, merged with no --waivers, an empty file or an
// expired one, exited 0 with the failures waived. The merge judges the
// shards' raw results with its own waivers only.
TEST(Shards, TheMergeJudgesWithItsOwnWaiversOnly) {
  TempDir dir("merge-waivers");
  const std::string star = WriteWaivers(dir, Entry("*", "2999-12-31"));
  for (int k = 1; k <= 2; ++k)
    ASSERT_EQ(RunNpuconf(kShardRun + "--waivers " + star + " --shard " + std::to_string(k) +
                         "/2 --out " + dir.path() + "/" + std::to_string(k))
                  .exit_code,
              0);
  int waived = 0;
  for (int k = 1; k <= 2; ++k) {
    const auto doc = ReadJson(dir.path() + "/" + std::to_string(k) + "/report.json");
    for (const auto& r : doc["results"]) {
      if (r["result"] != "waived") continue;
      ++waived;
      EXPECT_EQ(r["unwaived"]["result"], "fail") << r.dump();
    }
  }
  ASSERT_EQ(waived, 1);
  const std::string shards = " " + dir.path() + "/1 " + dir.path() + "/2";
  const std::string empty = dir.path() + "/empty.json";
  std::ofstream(empty) << "{\"waivers\": []}";
  const std::string expired = dir.path() + "/expired.json";
  std::ofstream(expired) << "{\"waivers\": [" << Entry("*", "2001-01-01") << "]}";
  for (const std::string& waivers :
       {std::string(), " --waivers " + empty, " --waivers " + expired}) {
    const auto merge = RunNpuconf("report merge --out " + dir.path() + "/m" + waivers + shards);
    EXPECT_EQ(merge.exit_code, 1) << waivers << "\n" << merge.output;
    const auto doc = ReadJson(dir.path() + "/m/report.json");
    EXPECT_EQ(doc["verdict"], "NON-CONFORMANT") << waivers;
    EXPECT_EQ(doc["summary"].value("waived", 0), 0) << waivers;
    EXPECT_EQ(doc.contains("waivers"), !waivers.empty()) << waivers;
  }
  const auto same =
      RunNpuconf("report merge --out " + dir.path() + "/m --waivers " + star + shards);
  EXPECT_EQ(same.exit_code, 0) << same.output;
  EXPECT_EQ(ReadJson(dir.path() + "/m/report.json")["summary"]["waived"], 1);
}

// report diff exited 0 for pass -> waived, for a result no longer claimed, and
// when the new side is one shard of a regressed run.
TEST(Diff, ExitsOneForANewlyWaivedFailureALostClaimOrAShard) {
  TempDir dir("diff-42");
  const std::string run =
      "run --profile ascend910b --property "
      "'cann.nd_to_nz.padding_is_zero,cann.nd_to_nz.round_trip' "
      "--cases 5 --jobs 1 --quiet ";
  ASSERT_EQ(RunNpuconf(run + "--out " + dir.path() + "/good").exit_code, 0);
  const std::string star = WriteWaivers(dir, Entry("*", "2999-12-31"));
  ASSERT_EQ(RunNpuconf(run + "--port mutant:nz-padding-unwritten --waivers " + star + " --out " +
                       dir.path() + "/waived")
                .exit_code,
            0);
  const auto waived = RunNpuconf("report diff " + dir.path() + "/good " + dir.path() + "/waived");
  EXPECT_EQ(waived.exit_code, 1) << waived.output;
  EXPECT_NE(waived.output.find("### Newly waived"), std::string::npos) << waived.output;
  EXPECT_NE(waived.output.find("cann.nd_to_nz.padding_is_zero"), std::string::npos)
      << waived.output;
  // The two runs differ in port and waivers: the fingerprint section names both.
  EXPECT_NE(waived.output.find("### Run fingerprints differ"), std::string::npos) << waived.output;
  EXPECT_NE(waived.output.find("`port`: `reference"), std::string::npos) << waived.output;
  EXPECT_NE(waived.output.find("`waivers`: `none` → `xxh3-64:"), std::string::npos)
      << waived.output;
  // A result claimed before and not claimed now (the narrow port claims
  // cann.nd_to_nz and cann.nz_to_nd only) fails the diff.
  const std::string two =
      "run --profile ascend910b --profile rk3588 --routine 'cann.nd_to_nz,rknn.int4_pack' "
      "--no-real-shapes --cases 5 --jobs 1 --quiet --out " +
      dir.path();
  ASSERT_EQ(RunNpuconf(two + "/all").exit_code, 0);
  ASSERT_EQ(RunNpuconf(two + "/narrow --port " + std::string(NPUCONF_NARROW_PORT)).exit_code, 0);
  const auto lost = RunNpuconf("report diff " + dir.path() + "/all " + dir.path() + "/narrow");
  EXPECT_EQ(lost.exit_code, 1) << lost.output;
  EXPECT_NE(lost.output.find("### Claimed before, not claimed now"), std::string::npos)
      << lost.output;
  EXPECT_NE(lost.output.find("`rknn.int4_pack."), std::string::npos) << lost.output;
  // One shard of the regressed run is no "0 new failures".
  for (int k = 1; k <= 2; ++k)
    ASSERT_LE(RunNpuconf(run + "--port mutant:nz-padding-unwritten --shard " + std::to_string(k) +
                         "/2 --out " + dir.path() + "/s" + std::to_string(k))
                  .exit_code,
              1);
  for (int k = 1; k <= 2; ++k) {
    const auto shard =
        RunNpuconf("report diff " + dir.path() + "/good " + dir.path() + "/s" + std::to_string(k));
    EXPECT_EQ(shard.exit_code, 1) << shard.output;
    EXPECT_NE(shard.output.find("The new report is one shard"), std::string::npos) << shard.output;
  }
}

// A full disk at the final write left report.md and junit.xml CONFORMANT
// beside an INCOMPLETE report.json (exit 2), and the verdict was printed
// first. report.html is only written with the final set: its temporary on
// /dev/full is a disk that fills at the last write.
TEST(Reports, AFullDiskAtTheLastWriteLeavesNoConformantFileAndNoVerdict) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  TempDir dir("full-disk");
  const std::string out = dir.path() + "/out";
  std::filesystem::create_directories(out);
  std::filesystem::create_symlink("/dev/full", out + "/report.html.tmp");
  const auto run = RunNpuconf(
      "run --profile rk3588 --routine rknn.int4_pack --no-real-shapes --cases 2 --jobs 1 --out " +
      out);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("report.html.tmp"), std::string::npos) << run.output;
  EXPECT_FALSE(MentionsAVerdict(run.output)) << run.output;
  EXPECT_EQ(ReadJson(out + "/report.json")["verdict"], "INCOMPLETE");
  const std::string md = testing::ReadFile(out + "/report.md");
  EXPECT_EQ(md.find("✅ CONFORMANT"), std::string::npos) << md;
  EXPECT_NE(md.find("INCOMPLETE"), std::string::npos) << md;
  EXPECT_NE(testing::ReadFile(out + "/junit.xml").find("has not finished"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(out + "/report.html"));
}

// `vectors check` with every vector rejected exited 2 while report.json said
// "conformant": true and report.md CONFORMANT (result pass 0+0).
TEST(Reports, VectorsCheckWithEveryVectorRejectedWritesNothingChecked) {
  TempDir dir("rejected-vectors");
  const std::string v = dir.path() + "/v";
  ASSERT_EQ(RunNpuconf("vectors generate --routine cann.nd_to_nz --profile ascend910b --count 3 "
                       "--out " +
                       v)
                .exit_code,
            0);
  auto doc = ReadJson(v + "/cann.nd_to_nz.json");
  int stale = 0;
  for (auto& c : doc["cases"]) {
    // Stale: the file is well formed, the oracle disagrees (check rejects it).
    c["expected"]["status"] = c["expected"]["status"] == 0 ? 161002 : 0;
    ++stale;
  }
  ASSERT_GT(stale, 0);
  std::ofstream(v + "/cann.nd_to_nz.json") << doc.dump(2);
  const auto check = RunNpuconf("vectors check " + v + " --out " + dir.path() + "/r");
  EXPECT_EQ(check.exit_code, 2) << check.output;
  EXPECT_FALSE(MentionsAVerdict(check.output)) << check.output;
  const auto report = ReadJson(dir.path() + "/r/report.json");
  EXPECT_EQ(report["conformant"], false);
  EXPECT_EQ(report["complete"], false);
  EXPECT_EQ(report["verdict"], "NOTHING CHECKED") << report.dump(1);
  EXPECT_NE(report["incomplete_reason"].get<std::string>().find("bad input"), std::string::npos);
  EXPECT_EQ(testing::ReadFile(dir.path() + "/r/report.md").find("✅ CONFORMANT"), std::string::npos);
  EXPECT_NE(testing::ReadFile(dir.path() + "/r/junit.xml").find("bad input"), std::string::npos);
}

}  // namespace
}  // namespace npuconf
