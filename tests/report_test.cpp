// report.md and report.html from hand-built runs: the matrix cells, the verdict
// line, the choices once per profile, the length of a passing default-sized
// run, failures in logical coordinates, and the escaping of port strings.
#include "reports/report.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/buffer.h"
#include "reports/blocks.h"
#include "reports/matrix.h"
#include "reports/report_writer.h"
#include "reports/result_json.h"
#include "reports/text.h"
#include "verify/compare.h"

namespace npuconf::report {
namespace {

PropertyResult Result(const std::string& property, const std::string& profile, Outcome outcome,
                      std::vector<ChoiceUsed> choices = {}) {
  PropertyResult r;
  r.property = property;
  r.routine = property.substr(0, property.rfind('.'));
  r.profile = profile;
  r.outcome = outcome;
  r.choices = std::move(choices);
  if (outcome == Outcome::kFail) {
    r.message = "it differs";
    r.counterexample = r.routine + " profile=" + profile + " shape=[2,3]";
    r.reproduce = "npuconf check --port p " + property + " " + r.counterexample;
  }
  return r;
}

RunReport MakeRun(std::vector<PropertyResult> results) {
  RunReport report;
  report.suite_version = "0.1.0";
  report.port_name = "test-port";
  for (const auto& r : results) {
    if (std::find(report.profiles.begin(), report.profiles.end(), r.profile) ==
        report.profiles.end()) {
      report.profiles.push_back(r.profile);
    }
  }
  report.results = std::move(results);
  return report;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

size_t Occurrences(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(ReportMarkdown, MatrixHasOneCellPerRoutineAndProfile) {
  const RunReport report = MakeRun({
      Result("cann.a.p1", "p1", Outcome::kPass),
      Result("cann.a.p2", "p1", Outcome::kPass),
      Result("cann.a.p1", "p2", Outcome::kFail),
      Result("cann.a.p2", "p2", Outcome::kPass),
      Result("cann.b.p1", "p1", Outcome::kNotClaimed),
      Result("cann.b.p1", "p2", Outcome::kNotApplicable),
  });
  const std::string md = ToMarkdown(report);
  EXPECT_NE(md.find("| cann routine | p1 | p2 |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| `cann.a` | ✅ | ❌ 1/2 |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| `cann.b` | — | n/a |\n"), std::string::npos) << md;
}

TEST(ReportMarkdown, VerdictLineComesFirst) {
  EXPECT_EQ(Lines(ToMarkdown(MakeRun({Result("cann.a.x", "p1", Outcome::kPass),
                                      Result("cann.a.x", "p2", Outcome::kFail)})))[0]
                .rfind("## ❌ NON-CONFORMANT: `test-port` — 2 results: 1 pass, 1 fail", 0),
            0u);
  EXPECT_EQ(Lines(ToMarkdown(MakeRun({Result("cann.a.x", "p1", Outcome::kPass)})))[0].rfind(
                "## ✅ CONFORMANT", 0),
            0u);
  // Nothing claimed is not a pass.
  EXPECT_EQ(Lines(ToMarkdown(MakeRun({Result("cann.a.x", "p1", Outcome::kNotClaimed)})))[0].rfind(
                "## ⚠️ NOTHING CHECKED", 0),
            0u);
}

TEST(ReportMarkdown, ChoicesAreListedOncePerProfile) {
  const ChoiceUsed c0_8{.name = "cann.nz.fp32_c0", .value = "8", .readings = {"8", "16"}};
  const ChoiceUsed c0_16{.name = "cann.nz.fp32_c0", .value = "16", .readings = {"8", "16"}};
  std::vector<PropertyResult> results;
  for (const char* property : {"cann.a.x", "cann.a.y", "cann.b.x"}) {
    results.push_back(Result(property, "p1", Outcome::kPass, {c0_8}));
    results.push_back(Result(property, "p2", Outcome::kPass, {c0_16}));
    results.push_back(Result(property, "p3", Outcome::kPass, {c0_8}));
  }
  const std::string md = ToMarkdown(MakeRun(results));
  EXPECT_EQ(Occurrences(md, "`cann.nz.fp32_c0=8`"), 1u) << md;
  EXPECT_EQ(Occurrences(md, "`cann.nz.fp32_c0=16`"), 1u) << md;
  // p1 and p3 read it alike and share a row.
  EXPECT_NE(md.find("| p1, p3 | `cann.nz.fp32_c0=8` |"), std::string::npos) << md;
  EXPECT_NE(md.find("| p2 | `cann.nz.fp32_c0=16` |"), std::string::npos) << md;
}

TEST(ReportMarkdown, APassingDefaultSizedRunFitsOnTwoScreens) {
  // The default run's shape: 8 CANN routines on 6 profiles, 13 RKNN routines on
  // 6 profiles, 4 properties each, every result naming its profile's 12 choices.
  std::vector<PropertyResult> results;
  auto add = [&](const std::string& family, int routines, const std::string& profile_prefix) {
    for (int p = 0; p < 6; ++p) {
      const std::string profile = profile_prefix + std::to_string(p);
      std::vector<ChoiceUsed> choices;
      for (int c = 0; c < 12; ++c) {
        choices.push_back({.name = family + ".choice" + std::to_string(c), .value = profile});
      }
      for (int r = 0; r < routines; ++r) {
        for (int k = 0; k < 4; ++k) {
          results.push_back(
              Result(family + ".routine" + std::to_string(r) + ".property" + std::to_string(k),
                     profile, k == 3 && p == 5 ? Outcome::kNotCovered : Outcome::kPass, choices));
        }
      }
    }
  };
  add("cann", 8, "ascend");
  add("rknn", 13, "rk");
  ASSERT_EQ(results.size(), 504u);
  const std::string md = ToMarkdown(MakeRun(results));
  EXPECT_LE(Lines(md).size(), 100u) << md;
  EXPECT_EQ(md.find("Failures"), std::string::npos);
}

TEST(ReportMarkdown, AFailureShowsItsCaseReproducerAndMismatchesInLogicalCoordinates) {
  // B [2, 3] row-major; element 4 (n 1, k 1) differs.
  const verify::RowMajorMap map({2, 3}, {"n", "k"}, "B");
  const Bytes want = {0, 1, 2, 3, 4, 5}, got = {0, 1, 2, 3, 9, 5};
  const verify::Comparison c = verify::Compare({.output = "b",
                                                .got = got,
                                                .want = want,
                                                .codec = {DType::kInt8, false},
                                                .count = 6,
                                                .map = &map});
  ASSERT_EQ(c.mismatches, 1);
  PropertyResult r = Result("rknn.b_norm_to_native.matches_oracle", "rk3588", Outcome::kFail);
  r.evidence = {{"output", "b"}, {"dtype", "INT8"}, {"logical_name", "B"},
                {"compared", 6}, {"mismatches", 1}, {"first", nlohmann::json::array()}};
  r.evidence["first"].push_back(c.first[0].ToJson(DType::kInt8, "B"));
  const std::string md = ToMarkdown(MakeRun({r}));
  EXPECT_NE(md.find("Minimal case: `rknn.b_norm_to_native profile=rk3588 shape=[2,3]`"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| B \\[n 1, k 1\\] |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 0x04 | 0x09 |"), std::string::npos) << md;
  EXPECT_NE(md.find("```sh\nnpuconf check --port p rknn.b_norm_to_native.matches_oracle"),
            std::string::npos)
      << md;
}

TEST(ReportText, SanitizeUtf8ReplacesEveryInvalidSequence) {
  const std::string fffd = "\xEF\xBF\xBD";
  EXPECT_EQ(SanitizeUtf8("ok é € 😀"), "ok é € 😀");
  EXPECT_EQ(SanitizeUtf8("a\xff"
                         "b"),
            "a" + fffd + "b");
  EXPECT_EQ(SanitizeUtf8("\xc0\xaf"), fffd + fffd);             // overlong '/'
  EXPECT_EQ(SanitizeUtf8("\xed\xa0\x80"), fffd + fffd + fffd);  // a surrogate
  // A truncated € is one maximal ill-formed subpart: one U+FFFD (Unicode 15 §3.9).
  EXPECT_EQ(SanitizeUtf8("\xe2\x82"), fffd);
  EXPECT_EQ(SanitizeUtf8("a\x01\n"), "a" + fffd + "\n");  // a control character
}

TEST(ReportText, MarkdownEscapesKeepACellOneCell) {
  EXPECT_EQ(MdEscape("a|b\nc<d>"), "a\\|b c&lt;d&gt;");
  EXPECT_EQ(MdCode("x`y"), "``x`y``");
  EXPECT_EQ(MdCode("a|b"), "`a\\|b`");
}

TEST(ReportHtml, EscapesEveryStringAPortCanTouch) {
  PropertyResult r = Result("cann.a.x", "p1", Outcome::kFail,
                            {{.name = "c", .value = "</td><script>alert(3)</script>"}});
  r.message = "\"quoted\" 'single' <b>bold</b> & \xff\xfe";
  r.counterexample_case = {{"routine", "cann.a"}, {"params", {{"name", "\xc0\xaf<x>"}}}};
  r.evidence = {{"output", "<out>"},
                {"first",
                 {{{"region", "data"},
                   {"meaning", "<img src=x onerror=alert(2)>"},
                   {"expected", "0x1"},
                   {"actual", "0x2"}}}}};
  RunReport report = MakeRun({r});
  report.port_name = "<script>alert(1)</script>";
  report.port_version = "\xff\xfe";
  report.command = "npuconf run --port '<script>'";
  const std::string html = ToHtml(report);
  EXPECT_EQ(Occurrences(html, "<script"), 1u);  // only the page's own
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<b>bold"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&quot;quoted&quot; &#39;single&#39; &lt;b&gt;bold&lt;/b&gt; &amp;"),
            std::string::npos);
  // Valid UTF-8 throughout: nlohmann::json refuses to dump anything else.
  EXPECT_NO_THROW(nlohmann::json(html).dump());
  EXPECT_NO_THROW(nlohmann::json(ToMarkdown(report)).dump());
  EXPECT_NO_THROW(ToJson(report).dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
}

// Found with fuzz/report_json_fuzz.cpp (on a hand-mutated seed): evidence read back for `report
// merge` with a field of another type made every renderer throw nlohmann's type_error, and the
// merge wrote no report at all.
TEST(ReportHtml, EvidenceOfAnotherShapeIsNotedAndTheReportStillRenders) {
  PropertyResult r = Result("cann.a.x", "p1", Outcome::kFail, {});
  r.evidence = {{"output", 5}, {"mismatches", 1}, {"compared", 2}, {"first", {{{"place", 1}}}}};
  const RunReport report = MakeRun({r});
  std::string html, md;
  ASSERT_NO_THROW(html = ToHtml(report));
  ASSERT_NO_THROW(md = ToMarkdown(report));
  EXPECT_NE(html.find("(evidence not shown: [json.exception.type_error.302] type must be string"),
            std::string::npos)
      << html;
  EXPECT_NE(
      md.find(R"((evidence not shown: \[json.exception.type\_error.302\] type must be string)"),
      std::string::npos)
      << md;
  EXPECT_NE(html.find("</html>"), std::string::npos);
}

TEST(ReportHtml, ShowsTheCoverageTableWhenReportJsonHasOne) {
  const RunReport report = MakeRun({Result("cann.a.x", "p1", Outcome::kPass)});
  nlohmann::json json = ToJson(report);
  EXPECT_EQ(ToHtml(report, json).find("id=\"coverage\""), std::string::npos);
  json["coverage"] = {{{"routine", "cann.nd_to_nz"}, {"class", "k = C0 - 1 <x>"}, {"hits", 0}}};
  const std::string html = ToHtml(report, json);
  EXPECT_NE(html.find("<h2 id=\"coverage\">"), std::string::npos);
  EXPECT_NE(html.find("<th>class</th>"), std::string::npos);
  EXPECT_NE(html.find("<td>k = C0 - 1 &lt;x&gt;</td>"), std::string::npos) << html;
}

TEST(ReportBlocks, AHugeOutputIsDrawnAsAWindowAroundTheFirstMismatch) {
  // 100 x 100 blocks of 256 elements; block 5050 differs, its value found in 5049.
  nlohmann::json evidence = {{"output", "nz"}, {"dtype", "FLOAT16"}, {"block_elements", 256}};
  std::vector<int64_t> counts(10000, 0);
  counts[5050] = 3;
  evidence["block_mismatches"] = counts;
  evidence["first"] = {{{"storage_index", 5050 * 256 + 7},
                        {"found_at", 5049 * 256 + 7},
                        {"place",
                         {{"block",
                           {{{"axis", "C1 block"}, {"index", 50}, {"extent", 100}},
                            {{"axis", "N1 block"}, {"index", 50}, {"extent", 100}}}}}}}};
  const std::string svg = BlockGridSvg(evidence);
  EXPECT_LE(Occurrences(svg, "<rect"),
            static_cast<size_t>(kMaxPictureBlockRows) * kMaxPictureBlockCols + 1);
  EXPECT_NE(svg.find("Window</b>: rows 38–61, columns 34–65"), std::string::npos) << svg;
  EXPECT_NE(svg.find("<title>block 5050 "), std::string::npos);
  EXPECT_EQ(Occurrences(svg, std::string("fill=\"") + kColourBlockDiffers), 1u);
  EXPECT_NE(svg.find("marker-end"), std::string::npos);  // the arrow from block 5049
  EXPECT_EQ(BlockGridSvg(nlohmann::json::object()), "");
  EXPECT_EQ(BlockCellsSvg(nlohmann::json::object()), "");
}

// Breaker F9: the report a run leaves before its first result (a crash of an
// in-process port ends it there) said NOTHING CHECKED, as for a port that
// claims nothing; it is INCOMPLETE until the run ends.
TEST(Report, AnUnfinishedRunIsIncompleteNotNothingChecked) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / "npuconf-report-incomplete").string();
  RunReport empty;
  ASSERT_EQ(WriteReportsAtomically(empty, dir, false), "");
  std::ifstream in(dir + "/report.json");
  const auto doc = nlohmann::json::parse(in);
  EXPECT_EQ(doc["verdict"], "INCOMPLETE");
  EXPECT_EQ(doc["complete"], false);
  ASSERT_EQ(WriteReportsAtomically(empty, dir, true), "");
  std::ifstream done(dir + "/report.json");
  EXPECT_EQ(nlohmann::json::parse(done)["verdict"], "NOTHING CHECKED");
  std::filesystem::remove_all(dir);
}

std::string FileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

RunReport OnePass() {
  RunReport run;
  run.port_name = "p";
  PropertyResult r;
  r.property = "cann.nd_to_nz.round_trip";
  r.routine = "cann.nd_to_nz";
  r.profile = "ascend910b";
  r.random_cases = 3;
  run.results = {r};
  return run;
}

// Issue 42 item 4: a full disk at the last write of the final set left
// report.json INCOMPLETE beside a report.md, junit.xml and report.html of the
// CONFORMANT run. Every file is written before any is renamed: a failed write
// leaves the set of the run so far, which says INCOMPLETE everywhere.
TEST(Report, AFailedLastWriteLeavesNoFileSayingConformant) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / "npuconf-report-full-disk").string();
  std::filesystem::remove_all(dir);
  const RunReport run = OnePass();
  ASSERT_EQ(WriteReportsAtomically(run, dir, false), "");  // the run so far
  FailNextReportWriteForTesting("report.json");
  const std::string error = WriteReportsAtomically(run, dir, true);
  EXPECT_NE(error.find("report.json.tmp"), std::string::npos) << error;
  EXPECT_NE(error.find(std::strerror(ENOSPC)), std::string::npos) << error;
  const auto doc = nlohmann::json::parse(FileText(dir + "/report.json"));
  EXPECT_EQ(doc["verdict"], "INCOMPLETE");
  EXPECT_EQ(doc["complete"], false);
  const std::string md = FileText(dir + "/report.md");
  EXPECT_EQ(md.find("✅ CONFORMANT"), std::string::npos) << md;
  EXPECT_EQ(md.rfind("> **INCOMPLETE**", 0), 0u) << md;
  const std::string junit = FileText(dir + "/junit.xml");
  EXPECT_NE(junit.find("has not finished"), std::string::npos) << junit;
  // Not even as a property: found by mounting a 60 KiB tmpfs as --out.
  EXPECT_EQ(junit.find("CONFORMANT"), std::string::npos) << junit;
  EXPECT_NE(junit.find("name=\"verdict\" value=\"INCOMPLETE\""), std::string::npos) << junit;
  EXPECT_FALSE(std::filesystem::exists(dir + "/report.html"));
  // No temporary is left behind, and the seam fired once: the next set is written whole.
  for (const auto& e : std::filesystem::directory_iterator(dir))
    EXPECT_NE(e.path().extension(), ".tmp") << e.path();
  ASSERT_EQ(WriteReportsAtomically(run, dir, true), "");
  EXPECT_EQ(nlohmann::json::parse(FileText(dir + "/report.json"))["verdict"], "CONFORMANT");
  EXPECT_NE(FileText(dir + "/report.md").find("✅ CONFORMANT"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir + "/report.html"));
  std::filesystem::remove_all(dir);
}

// Issue 42 item 3: report.json carries a digest of itself; an edit shows.
TEST(Report, TheDigestCatchesAnEditedResult) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / "npuconf-report-digest").string();
  RunReport run = OnePass();
  run.results[0].outcome = Outcome::kFail;
  run.results[0].message = "padding not zero";
  ASSERT_EQ(WriteReportsAtomically(run, dir, true), "");
  auto doc = nlohmann::json::parse(FileText(dir + "/report.json"));
  EXPECT_EQ(CheckReportDigest(doc), "");
  EXPECT_EQ(doc["digest"].get<std::string>().rfind("xxh3-64:", 0), 0u);
  doc["results"][0]["result"] = "pass";
  EXPECT_NE(CheckReportDigest(doc).find("was changed after npuconf wrote it"), std::string::npos);
  doc.erase("digest");
  EXPECT_NE(CheckReportDigest(doc).find("has no \"digest\""), std::string::npos);
  std::filesystem::remove_all(dir);
}

// A run that ended on bad input is incomplete, and says why in every file.
TEST(Report, BadInputMakesEveryFileIncompleteWithItsReason) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / "npuconf-report-bad-input").string();
  std::filesystem::remove_all(dir);
  ASSERT_EQ(WriteReportsAtomically(OnePass(), dir, true), "");  // an older, conformant set
  ASSERT_TRUE(std::filesystem::exists(dir + "/report.html"));
  RunReport nothing = OnePass();
  nothing.results[0].outcome = Outcome::kNotApplicable;
  ASSERT_EQ(WriteReportsAtomically(nothing, dir, false, "bad input: 2 vector(s) are stale"), "");
  const auto doc = nlohmann::json::parse(FileText(dir + "/report.json"));
  EXPECT_EQ(doc["verdict"], "NOTHING CHECKED");
  EXPECT_EQ(doc["conformant"], false);
  EXPECT_EQ(doc["complete"], false);
  EXPECT_EQ(doc["incomplete_reason"], "bad input: 2 vector(s) are stale");
  EXPECT_NE(FileText(dir + "/junit.xml").find("bad input: 2 vector(s) are stale"),
            std::string::npos);
  EXPECT_NE(FileText(dir + "/report.md").find("bad input: 2 vector(s) are stale"),
            std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir + "/report.html"));  // the older page is gone
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace npuconf::report
