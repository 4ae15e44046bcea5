// A port whose claims narrow dtypes and ranks, through the command line as a
// user runs it (issue 15 items 0-2): correct, it is conformant in `run` (the
// coverage gate enforced, the classes it does not claim reported outside its
// claims) and in `vectors check` (vectors outside its claims counted, not
// failed); with one fault inside its claims it is not, in either.
#include <gtest/gtest.h>

#include <fstream>

#include "test_util.h"

namespace npuconf {
namespace {

using testing::ReadJson;
using testing::RunNpuconf;
using testing::RunShell;
using testing::TempDir;

const std::string kPort = std::string("--port ") + NPUCONF_NARROW_PORT;

TEST(NarrowClaimsCli, ACorrectNarrowPortIsConformantInRun) {
  TempDir dir("narrow-run");
  const auto run =
      RunNpuconf("run " + kPort + " --profile ascend910b --no-real-shapes --out " + dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto report = ReadJson(dir.path() + "/report.json");
  EXPECT_EQ(report["coverage_gate"], "enforced");
  int outside = 0, hit = 0;
  for (const auto& row : report["coverage"]) {
    EXPECT_NE(row["status"], "missing") << row.dump();
    outside += row["status"] == "outside_claims";
    hit += row["status"] == "hit";
    // A dtype the port does not claim is outside its claims, never missing.
    if (row["class"] == "dtype.FLOAT") {
      EXPECT_EQ(row["status"], "outside_claims") << row.dump();
    }
  }
  EXPECT_GT(outside, 0);
  EXPECT_GT(hit, 10);
  for (const auto& r : report["results"]) {
    if (r["result"] == "pass" && r["routine"] == "cann.nd_to_nz" &&
        r["property"] != "cann.nd_to_nz.coverage") {
      EXPECT_EQ(r["random_cases"], 100) << r["property"];
    }
  }
}

// Shards balance the claimed units: every shard of a narrowed port checks
// something and exits 0, and their merge is conformant (a tester's shards of
// a narrow port exited 4, nothing checked, beside one that held everything).
TEST(NarrowClaimsCli, EveryShardOfANarrowedPortChecksSomething) {
  TempDir dir("narrow-shards");
  const std::string run = "run " + kPort + " --profile 'ascend910*' --no-real-shapes --quiet";
  for (const char* k : {"1", "2", "3"}) {
    const auto shard = RunNpuconf(run + " --shard " + k + "/3 --out " + dir.path() + "/" + k);
    EXPECT_EQ(shard.exit_code, 0) << "shard " << k << "\n" << shard.output;
  }
  const auto merge = RunNpuconf("report merge --out " + dir.path() + "/m " + dir.path() + "/1 " +
                                dir.path() + "/2 " + dir.path() + "/3");
  EXPECT_EQ(merge.exit_code, 0) << merge.output;
}

// junit.xml has one test case per result of the run's selection (issue 42
// item 9: it left the not_claimed ones out, 13 test cases for 66 results,
// while not_applicable ones were skipped test cases): the routines the port
// does not claim are skipped test cases saying so, and still counted.
TEST(NarrowClaimsCli, JunitSkipsTheRoutinesThePortDoesNotClaimWithTheReason) {
  TempDir dir("narrow-junit");
  ASSERT_EQ(
      RunNpuconf("run " + kPort + " --profile ascend910b --no-real-shapes --out " + dir.path())
          .exit_code,
      0);
  const auto xml = RunShell("cat " + dir.path() + "/junit.xml").output;
  const auto report = ReadJson(dir.path() + "/report.json");
  size_t testcases = 0;
  for (size_t at = xml.find("<testcase "); at != std::string::npos;
       at = xml.find("<testcase ", at + 1))
    ++testcases;
  EXPECT_EQ(testcases, report["results"].size()) << xml;
  EXPECT_NE(xml.find("<skipped message=\"not_claimed: port does not claim cann.antiquant on "
                     "ascend910b\"/>"),
            std::string::npos)
      << xml;
  // 33 properties of the other routines on ascend910b, the 11 of cann.trans_data, the 4 of
  // the conv-weight family that apply there (the rest are not_applicable off 310P) and the 5
  // of cann.transfer_shape.
  EXPECT_NE(xml.find("<property name=\"not_claimed\" value=\"53\"/>"), std::string::npos) << xml;
  EXPECT_NE(xml.find("name=\"cann.nd_to_nz.matches_oracle\""), std::string::npos) << xml;
}

TEST(NarrowClaimsCli, AFaultInsideTheClaimsFailsRun) {
  TempDir dir("narrow-bug");
  const auto run = RunShell("NPUCONF_NARROW_BUG=1 " + std::string(NPUCONF_BINARY) + " run " +
                            kPort + " --profile ascend910b --no-real-shapes --out " + dir.path());
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("INT8"), std::string::npos) << run.output;
}

TEST(NarrowClaimsCli, VectorsCheckHonoursTheClaims) {
  TempDir out("narrow-vectors");
  const auto run = RunNpuconf("vectors check " + std::string(NPUCONF_SOURCE_DIR) +
                              "/vectors/corpus " + kPort + " --out " + out.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  EXPECT_FALSE(report["port"]["claims"].empty()) << report["port"].dump();
  int outside = 0, checked = 0;
  for (const auto& r : report["results"]) {
    EXPECT_NE(r["result"], "fail") << r.dump();
    outside += r["outside_claims"].get<int>();
    if (r["routine"] == "cann.nd_to_nz") checked += r["explicit_cases"].get<int>();
  }
  EXPECT_GT(outside, 0) << "the corpus holds FLOAT, INT4 and rank-4 NZ cases";
  EXPECT_GT(checked, 0);
}

TEST(NarrowClaimsCli, VectorsCheckFailsAFaultInsideTheClaims) {
  TempDir vectors("narrow-gen"), out("narrow-gen-out");
  const auto gen = RunNpuconf("vectors generate --out " + vectors.path() +
                              " --routine cann.nd_to_nz --profile ascend910b --count 40");
  ASSERT_EQ(gen.exit_code, 0) << gen.output;
  const auto run =
      RunShell("NPUCONF_NARROW_BUG=1 " + std::string(NPUCONF_BINARY) + " vectors check " +
               vectors.path() + " " + kPort + " --out " + out.path());
  EXPECT_EQ(run.exit_code, 1) << run.output;
}

// A port claiming the other reading of cann.nz.fp32_c0 (16, where the profile
// says 8: spec cann.md §5.6) is gated by vectors derived under the default:
// those whose answer does not depend on the reading (FLOAT16, INT8) are checked,
// the FLOAT ones skipped with the reason (breaker F6: every vector was skipped,
// NOTHING CHECKED).
TEST(NarrowClaimsCli, VectorsOfAnotherReadingAreCheckedWhereTheAnswerIsTheSame) {
  TempDir vectors("reading-gen"), out("reading-out");
  const auto gen = RunNpuconf("vectors generate --out " + vectors.path() +
                              " --routine 'cann.n*' --profile ascend910b --count 40");
  ASSERT_EQ(gen.exit_code, 0) << gen.output;
  const auto run =
      RunShell("NPUCONF_NARROW_FP32_C0=16 " + std::string(NPUCONF_BINARY) + " vectors check " +
               vectors.path() + " " + kPort + " --out " + out.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  int checked = 0, skipped = 0;
  const auto report = ReadJson(out.path() + "/report.json");
  for (const auto& r : report["results"]) {
    checked += r["explicit_cases"].get<int>();
    skipped += r["explicit_skipped"].get<int>();
  }
  EXPECT_GT(checked, 10);
  EXPECT_GT(skipped, 0) << "FLOAT vectors derived with C0 8";
}

// The failure vectors of a run under a claimed reading replay under it, every
// file reported (breaker F5: a FRACTAL_NZ input of C0 16 was checked against
// the profile default's C0 8, and `vectors check` stopped at exit 2 naming no file).
TEST(NarrowClaimsCli, FailureVectorsOfAClaimedReadingReplay) {
  TempDir run_out("reading-run"), replay("reading-replay"), fixed("reading-fixed");
  const std::string lying = "NPUCONF_NARROW_FP32_C0=16 NPUCONF_NARROW_FP32_IMPL=8 ";
  const auto run =
      RunShell(lying + NPUCONF_BINARY + " run " + kPort +
               " --profile ascend910b --no-real-shapes --quiet --out " + run_out.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const std::string failures = run_out.path() + "/failures";
  const auto again = RunShell(lying + NPUCONF_BINARY + " vectors check " + failures + " " + kPort +
                              " --out " + replay.path());
  EXPECT_EQ(again.exit_code, 1) << again.output;
  int failed = 0;
  const auto report = ReadJson(replay.path() + "/report.json");
  for (const auto& r : report["results"]) failed += r["result"] == "fail";
  EXPECT_GE(failed, 2) << "both nd_to_nz and nz_to_nd replay";
  // A port that implements the reading it claims passes them.
  const auto right =
      RunShell("NPUCONF_NARROW_FP32_C0=16 " + std::string(NPUCONF_BINARY) + " vectors check " +
               failures + " " + kPort + " --out " + fixed.path());
  EXPECT_EQ(right.exit_code, 0) << right.output;
}

// Breaker F14: `case --port P` sent a case outside P's claim conditions.
TEST(NarrowClaimsCli, CaseRefusesACaseOutsideTheClaimConditions) {
  const auto outside =
      RunNpuconf("case " + kPort + " cann.nd_to_nz profile=ascend910b dtype=FLOAT 'shape=[4,5]'");
  EXPECT_EQ(outside.exit_code, 2) << outside.output;
  EXPECT_NE(outside.output.find("does not claim this case"), std::string::npos) << outside.output;
  EXPECT_NE(outside.output.find("cann.nd_to_nz:*:dtype=FLOAT16|INT8"), std::string::npos)
      << outside.output;
  const auto inside =
      RunNpuconf("case " + kPort + " cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[4,5]'");
  EXPECT_EQ(inside.exit_code, 0) << inside.output;
}

// Breaker, second round: a vector whose `choices` lack a reading its answer
// depends on, or whose reading was edited, would be replayed under the port's
// reading against an answer of another; both are bad input, named by case.
TEST(NarrowClaimsCli, VectorsWithMissingOrEditedReadingsAreBadInput) {
  TempDir vectors("edited-gen"), out("edited-out");
  const auto gen = RunNpuconf("vectors generate --out " + vectors.path() +
                              " --routine cann.nd_to_nz --profile ascend910b --count 20");
  ASSERT_EQ(gen.exit_code, 0) << gen.output;
  const std::string file = vectors.path() + "/cann.nd_to_nz.json";
  auto doc = ReadJson(file);
  ASSERT_GE(doc["cases"].size(), 2u);
  doc["cases"][0]["choices"].erase("cann.nz.fp32_c0");
  doc["cases"][1]["choices"]["cann.nz.fp32_c0"] = "16";
  std::ofstream(file) << doc.dump(1);
  const auto verify = RunNpuconf("vectors verify " + vectors.path());
  EXPECT_EQ(verify.exit_code, 1) << verify.output;
  EXPECT_NE(verify.output.find("case 0: choices lack 'cann.nz.fp32_c0'"), std::string::npos)
      << verify.output;
  const auto check = RunShell("NPUCONF_NARROW_FP32_C0=16 NPUCONF_NARROW_FP32_IMPL=8 " +
                              std::string(NPUCONF_BINARY) + " vectors check " + vectors.path() +
                              " " + kPort + " --out " + out.path());
  EXPECT_EQ(check.exit_code, 2) << check.output;
  EXPECT_NE(check.output.find("choices lack"), std::string::npos) << check.output;
}

}  // namespace
}  // namespace npuconf
