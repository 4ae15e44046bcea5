// report.html as a browser shows it: a run against a wrong port writes the
// page, headless Chromium (Debian's `chromium`) screenshots it, and the
// screenshot must hold the matrix (its FAIL and pass cell colours) and the
// failure's block picture (the differing-block red and the swapped-nibble
// purple); a passing run's page must hold no failure colour at all, so the
// check can fail. Skipped only when chromium is not installed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "reports/blocks.h"
#include "test_util.h"

namespace npuconf {
namespace {

using testing::RunNpuconf;
using testing::RunShell;
using testing::TempDir;

// The matrix cell colours of reports/html.cpp's style sheet (.o-fail, .o-pass).
constexpr const char* kMatrixFail = "#f4c7c3";
constexpr const char* kMatrixPass = "#bfe5c8";

std::string Chromium() {
  for (const char* path : {"/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
    if (std::filesystem::exists(path)) return path;
  }
  return "";
}

std::string ChromiumFlags() {
  return " --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,2000";
}

// Pixel counts per colour in a PNG (tests/tools/png_colours.py).
nlohmann::json Colours(const std::string& png) {
  const auto r =
      RunShell("/usr/bin/python3 " + std::string(NPUCONF_SOURCE_DIR) +
               "/tests/tools/png_colours.py " + png + " '" + kMatrixFail + "' '" + kMatrixPass +
               "' '" + report::kColourBlockDiffers + "' '" + report::kColourNibbleSwapped + "'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const auto start = r.output.rfind('{');
  if (start == std::string::npos) return nlohmann::json::object();
  return nlohmann::json::parse(r.output.substr(start));
}

TEST(ReportHtml, ChromiumRendersTheMatrixAndTheFailurePicture) {
  const std::string chromium = Chromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium is not installed (Debian package `chromium`)";
  TempDir dir("report-html");
  // nd_to_nz fails (even INT4 element in the high nibble), nz_to_nd passes.
  const auto run = RunNpuconf(
      "run --port mutant:int4-high-nibble --profile ascend910b --routine 'cann.n*' "
      "--cases 10 --no-real-shapes --quiet --out " +
      dir.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const std::string page = dir.path() + "/report.html";
  ASSERT_TRUE(std::filesystem::exists(page));

  // One DOM dump, opened with the filter #q=nz_to_nd: the page's script ran to
  // its end, the pictures are in the document, and the filter hid the other
  // routine's row.
  const auto dom =
      RunShell(chromium + ChromiumFlags() + " --dump-dom 'file://" + page + "#q=nz_to_nd'");
  ASSERT_EQ(dom.exit_code, 0) << dom.output;
  EXPECT_NE(dom.output.find("data-js=\"ready\""), std::string::npos);
  EXPECT_NE(dom.output.find("<svg class=\"blocks\""), std::string::npos);
  EXPECT_NE(dom.output.find("<svg class=\"cells\""), std::string::npos);
  EXPECT_NE(dom.output.find("<tr data-routine=\"cann.nd_to_nz\" class=\"hidden\">"),
            std::string::npos);
  EXPECT_NE(dom.output.find("<tr data-routine=\"cann.nz_to_nd\"><th>"), std::string::npos);

  const std::string shot = dir.path() + "/shot.png";
  const auto screenshot =
      RunShell(chromium + ChromiumFlags() + " --screenshot=" + shot + " file://" + page);
  ASSERT_TRUE(std::filesystem::exists(shot)) << screenshot.output;
  const nlohmann::json colours = Colours(shot);
  ASSERT_EQ(colours.value("width", 0), 1400) << colours.dump();
  // A matrix cell is about 100 x 25 px; a lone block of the picture 38 x 38 px
  // (the page uses this red nowhere else but in 11 x 11 px legend swatches).
  EXPECT_GT(colours.value(kMatrixFail, 0), 1500) << colours.dump();
  EXPECT_GT(colours.value(kMatrixPass, 0), 1500) << colours.dump();
  EXPECT_GT(colours.value(report::kColourBlockDiffers, 0), 1300) << colours.dump();
  // The two swapped nibbles of the first block drawn element by element (10 x 10
  // px each at 64 columns) besides the legend's 11 x 11 px swatch.
  EXPECT_GT(colours.value(report::kColourNibbleSwapped, 0), 200) << colours.dump();
}

// report.html#q=PROPERTY keeps the property's matrix cell, recounts the
// failures shown and filters the coverage table; #outcome=... sets the outcome
// boxes (issue 15 item 8).
TEST(ReportHtml, TheUrlFilterNamesAPropertyAndSetsTheOutcomes) {
  const std::string chromium = Chromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium is not installed (Debian package `chromium`)";
  TempDir dir("report-filter");
  const auto run = RunNpuconf(
      "run --port mutant:int4-high-nibble --profile ascend910b --routine 'cann.n*' "
      "--cases 10 --no-real-shapes --quiet --out " +
      dir.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const std::string page = "file://" + dir.path() + "/report.html";
  const auto dom = RunShell(chromium + ChromiumFlags() + " --dump-dom '" + page +
                            "#q=cann.nd_to_nz.matches_oracle'");
  ASSERT_EQ(dom.exit_code, 0) << dom.output;
  // The cell of the routine stays, the other routine's row goes.
  EXPECT_NE(dom.output.find("<tr data-routine=\"cann.nd_to_nz\"><th>"), std::string::npos);
  EXPECT_NE(dom.output.find("<tr data-routine=\"cann.nz_to_nd\" class=\"hidden\">"),
            std::string::npos);
  // One failure of the several is shown, and the header says so.
  EXPECT_NE(dom.output.find("<span data-count-of=\"section.failure\">1</span> shown of"),
            std::string::npos)
      << dom.output.substr(0, 3000);
  // Coverage rows of the other routine are hidden.
  EXPECT_NE(dom.output.find("class=\"coverage hidden\" data-text-filtered=\"\" "
                            "data-routine=\"cann.nz_to_nd\""),
            std::string::npos);
  const auto passes =
      RunShell(chromium + ChromiumFlags() + " --dump-dom '" + page + "#outcome=pass'");
  EXPECT_NE(passes.output.find("<span data-count-of=\"section.failure\">0</span> shown of"),
            std::string::npos);
}

TEST(ReportHtml, APassingRunShowsNoFailureColour) {
  const std::string chromium = Chromium();
  if (chromium.empty()) GTEST_SKIP() << "chromium is not installed (Debian package `chromium`)";
  TempDir dir("report-html-pass");
  const auto run = RunNpuconf(
      "run --port reference --profile ascend910b --routine 'cann.n*' --cases 10 "
      "--no-real-shapes --quiet --out " +
      dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const std::string shot = dir.path() + "/shot.png";
  const auto screenshot = RunShell(chromium + ChromiumFlags() + " --screenshot=" + shot +
                                   " file://" + dir.path() + "/report.html");
  ASSERT_TRUE(std::filesystem::exists(shot)) << screenshot.output;
  const nlohmann::json colours = Colours(shot);
  EXPECT_GT(colours.value(kMatrixPass, 0), 1500) << colours.dump();
  EXPECT_EQ(colours.value(kMatrixFail, -1), 0) << colours.dump();
  EXPECT_EQ(colours.value(report::kColourBlockDiffers, -1), 0) << colours.dump();
}

}  // namespace
}  // namespace npuconf
