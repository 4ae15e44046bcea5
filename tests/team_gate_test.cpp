// A gate a team can keep (issue 15 items 3-5), through the command line:
// waivers keep a known failure from turning the gate red while they last,
// shards of one run merge into the unsharded report, and two runs compare.
#include <gtest/gtest.h>

#include <fstream>

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

TEST(Waivers, WhenConditionsNarrowAWaiverToTheFailingCase) {
  TempDir dir("when");
  ASSERT_EQ(RunNpuconf(kMutantRun + dir.path() + "/plain").exit_code, 1);
  const auto plain = ReadJson(dir.path() + "/plain/report.json");
  const std::string dtype = plain["results"][0]["counterexample_case"]["params"]["dtype"];
  const std::string other = dtype == "INT8" ? "FLOAT16" : "INT8";
  const std::string match = WriteWaivers(dir, Entry("cann.nd_to_nz.padding_is_zero", "2999-12-31",
                                                    ", \"when\": \"dtype=" + dtype + "\""));
  EXPECT_EQ(RunNpuconf(kMutantRun + dir.path() + "/a --waivers " + match).exit_code, 0);
  const std::string miss = WriteWaivers(dir, Entry("cann.nd_to_nz.padding_is_zero", "2999-12-31",
                                                   ", \"when\": \"dtype=" + other + "\""));
  const auto run = RunNpuconf(kMutantRun + dir.path() + "/b --waivers " + miss);
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("stale waiver"), std::string::npos) << run.output;
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
  std::ofstream(dir.path() + "/cut/report.json") << cut.dump();
  const auto unfinished = RunNpuconf("report diff " + dir.path() + "/good " + dir.path() + "/cut");
  EXPECT_EQ(unfinished.exit_code, 1) << unfinished.output;
  EXPECT_NE(unfinished.output.find("The new run did not finish"), std::string::npos)
      << unfinished.output;
}

}  // namespace
}  // namespace npuconf
