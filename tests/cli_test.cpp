// The command line is an interface: exit codes, messages that name the bad
// value, reports on disk, ports loaded from shared libraries.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "core/buffer.h"
#include "core/codec.h"
#include "reference/simd/isa.h"
#include "test_util.h"

namespace npuconf {
namespace {

using testing::ReadJson;
using testing::RunNpuconf;
using testing::RunShell;
using testing::TempDir;

void ExpectExit(const std::string& args, int code, const std::string& says) {
  const auto run = RunNpuconf(args);
  EXPECT_EQ(run.exit_code, code) << args << "\n" << run.output;
  EXPECT_NE(run.output.find(says), std::string::npos) << args << "\n" << run.output;
}

TEST(Cli, UnknownRoutineIsBadUsage) {
  ExpectExit("case cann.no_such_routine profile=ascend910b", 2, "cann.no_such_routine");
}

TEST(Cli, UnknownProfileIsBadUsage) {
  ExpectExit("case cann.nd_to_nz profile=ascend999 dtype=FLOAT16 'shape=[2,2]'", 2, "ascend999");
  ExpectExit("run --profile ascend999", 2, "ascend999");
}

TEST(Cli, UnknownOptionIsBadUsage) { ExpectExit("run --no-such-option", 2, "--no-such-option"); }

TEST(Cli, UnknownPropertyIsBadUsage) {
  ExpectExit("check cann.nd_to_nz.no_such_property cann.nd_to_nz profile=ascend910b", 2,
             "cann.nd_to_nz.no_such_property");
  ExpectExit("run --property 'nothing.matches.*'", 2, "nothing.matches.*");
}

TEST(Cli, MalformedCaseValueNamesIt) {
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[2,x]'", 2, "shape=[2,x]");
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=FLOAT99 'shape=[2,2]'", 2, "FLOAT99");
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 justaword", 2, "justaword");
}

TEST(Cli, DuplicateKeysBadSeedsAndBadC0AreBadInput) {
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 dtype=INT8 'shape=[2,2]'", 2,
             "'dtype' is given twice");
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[2,2]' seed=abc", 2,
             "seed=abc");
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[2,2]' c0=0", 2, "c0=0");
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=INT4 'shape=[2,2]' c0=3", 2, "c0=3");
}

TEST(Cli, StorageRankPastTheAbiLimitIsBadInput) {
  ExpectExit(
      "case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 "
      "'shape=[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,2,2]'",
      2, "NPUCONF_MAX_RANK");
}

TEST(Cli, UndocumentedKeyIsBadInput) {
  // The routine table (core/routines/) documents every key; a typo is an error.
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[2,2]' sed=5", 2,
             "'sed' is not a param of cann.nd_to_nz");
}

TEST(Cli, ParamOfTheWrongTypeIsBadInput) {
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 shape=5", 2,
             "shape must be an int list");
  ExpectExit(
      "case cann.trans_matmul_weight profile=ascend910b dtype=FLOAT16 'shape=[2,2]' format=NZ", 2,
      "format must be one of ND, FRACTAL_NZ");
  ExpectExit("case cann.nd_to_nz profile=ascend910b 'shape=[2,2]'", 2, "cann.nd_to_nz needs dtype");
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 shape=null", 2,
             "shape cannot be null");
}

TEST(Cli, CaseThePortDoesNotAnswerIsNotSuccess) {
  ExpectExit(std::string("case --port ") + NPUCONF_TEMPLATE_PORT +
                 " cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[2,2]'",
             2, "does not claim this case");
}

// Breaker F2: run through PATH, the reproduce line named a bare "npuconf".
TEST(Cli, ReproduceNamesTheBinaryAbsolutelyWhenRunThroughPath) {
  TempDir out("through-path");
  const std::string dir = std::filesystem::path(NPUCONF_BINARY).parent_path().string();
  const auto run = RunShell("PATH='" + dir +
                            "':\"$PATH\" npuconf run --port mutant:nz-padding-unwritten "
                            "--routine cann.nd_to_nz --profile ascend910b --no-real-shapes "
                            "--cases 20 --quiet --out " +
                            out.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  int failures = 0;
  for (const auto& r : report["results"]) {
    if (r["result"] != "fail") continue;
    ++failures;
    EXPECT_EQ(r["reproduce"].get<std::string>().rfind(std::string(NPUCONF_BINARY) + " ", 0), 0u)
        << r["reproduce"];
  }
  EXPECT_GT(failures, 0);
}

TEST(Cli, UnwritableOutIsRefusedBeforeTheRun) {
  ExpectExit("run --out /proc/npuconf-cannot-write-here", 2, "/proc/npuconf-cannot-write-here");
}

TEST(Cli, OverflowingShapeIsRejectedNotAllocated) {
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[9223372036854775807,2]'",
             2, "[9223372036854775807,2]");
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[1048576,1048576]'", 2,
             "too large");
  ExpectExit("case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[99999999999999999999]'",
             2, "malformed list");
}

TEST(Cli, SizeOfAHugeShapeIsAnswered) {
  // The size routines take any int64 shape: nothing is allocated for it.
  const auto run = RunNpuconf(
      "case cann.calculate_matmul_weight_size_v2 profile=ascend910b dtype=FLOAT16 "
      "'shape=[9223372036854775807,2]'");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("161002"), std::string::npos) << run.output;
}

TEST(Cli, CaseAnswersTheQuickestQuestion) {
  // spec cann.md §1.2: V2 [17,33] fp16 = align(17,16) * align(33,16) = 32 * 48.
  const auto run = RunNpuconf(
      "case cann.calculate_matmul_weight_size_v2 profile=ascend910b dtype=FLOAT16 'shape=[17,33]'");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("status: 0 (ACLNN_SUCCESS)"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("1536 (ELEMENTS"), std::string::npos) << run.output;
}

TEST(Cli, CaseNamesGeStatusCodes) {
  // spec layouts.md §A.4 hazard 3: FRACTAL_Z with groups > N is rejected (the default reading of
  // choice cann.trans_data.groups_exceed_n) as 145021; `case` names it as ge_error_codes.h does.
  const auto run = RunNpuconf(
      "case cann.trans_data profile=ascend910b src_format=NCHW dst_format=FRACTAL_Z groups=4 "
      "dtype=FLOAT16 'shape=[2,8,1,1]'");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("status: 145021 (ACL_ERROR_GE_SHAPE_INVALID)"), std::string::npos)
      << run.output;
}

TEST(Cli, ListsAnswer) {
  for (const char* what : {"profiles", "routines", "properties", "ports"}) {
    const auto run = RunNpuconf(std::string("list ") + what);
    EXPECT_EQ(run.exit_code, 0) << what << run.output;
    EXPECT_FALSE(run.output.empty());
  }
  ExpectExit("list nothing", 2, "nothing");
}

TEST(Cli, MissingPortLibraryIsPortFailure) {
  ExpectExit("run --port /nonexistent/libport.so", 3, "/nonexistent/libport.so");
}

TEST(Cli, AFileThatIsNoSharedObjectIsExplained) {
  TempDir dir("not-a-library");
  const std::string path = dir.path() + "/libnot.so";
  std::ofstream(path) << "not an ELF file";
  ExpectExit("run --port " + path, 3, "not a shared object");
  ExpectExit("run --in-process --port " + path, 3, "not a shared object");
}

TEST(Cli, PortOfAnotherAbiVersionIsPortFailure) {
  ExpectExit(std::string("run --port ") + NPUCONF_WRONG_ABI_PORT, 3, "ABI version");
}

TEST(Cli, CrashingPortIsPortFailureAndNamesTheCase) {
  // In process there is no run to go on with (isolated: tests/isolation_test.cpp)
  // when the runner checks the units itself (--jobs 1); with worker processes
  // the crash ends the worker, and its unit fails (tests/jobs_test.cpp).
  ExpectExit(
      std::string("run --in-process --jobs 1 --profile ascend910b --port ") + NPUCONF_CRASH_PORT, 3,
      "the port crashed");
  ExpectExit(
      std::string("run --in-process --jobs 1 --profile ascend910b --port ") + NPUCONF_CRASH_PORT, 3,
      "cann.calculate_matmul_weight_size_v2");
  ExpectExit(
      std::string("run --in-process --jobs 2 --profile ascend910b --port ") + NPUCONF_CRASH_PORT, 1,
      "died: exit status 3 (the in-process port crashed");
}

TEST(Cli, TemplatePortPassesWhatItClaimsAndClaimsNothingElse) {
  TempDir out("template");
  const auto run = RunNpuconf(
      std::string("run --quiet --no-real-shapes --cases 40 --profile ascend910b --port ") +
      NPUCONF_TEMPLATE_PORT + " --out " + out.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  int passed = 0;
  for (const auto& result : report.at("results")) {
    const bool v2 = result.at("routine") == "cann.calculate_matmul_weight_size_v2";
    if (v2) {
      EXPECT_EQ(result.at("result"), "pass") << result.dump(2);
      passed += 1;
    } else {
      // A property with no case on the profile (the conv-weight APIs off 310P, spec
      // layouts.md §A.9) is not_applicable before the claims are asked (runner.cpp).
      EXPECT_TRUE(result.at("result") == "not_claimed" || result.at("result") == "not_applicable")
          << result.dump(2);
    }
  }
  EXPECT_GE(passed, 5);
}

TEST(Cli, RunWritesVersionedReports) {
  TempDir out("reports");
  const auto run = RunNpuconf(
      "run --quiet --no-real-shapes --cases 5 --profile ascend310p "
      "--routine 'cann.calculate*' --out " +
      out.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  EXPECT_EQ(report.at("schema"), "npuconf-report");
  EXPECT_EQ(report.at("schema_version"), 1);
  EXPECT_EQ(report.at("port").at("name"), "reference");
  ASSERT_FALSE(report.at("results").empty());
  for (const auto& result : report.at("results")) {
    EXPECT_EQ(result.at("profile"), "ascend310p");
    for (const char* key :
         {"property", "routine", "result", "seed", "explicit_cases", "random_cases", "choices"}) {
      EXPECT_TRUE(result.contains(key)) << key;
    }
  }
  std::ifstream junit(out.path() + "/junit.xml");
  std::stringstream xml;
  xml << junit.rdbuf();
  EXPECT_NE(xml.str().find("<testcase classname=\"ascend310p\""), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(out.path() + "/report.md"));
}

// NPUCONF_ISA: a forced path is named by --version and report.json; one the
// CPU lacks, or no path at all, stops every command with exit 2 and a message
// naming the value and what the CPU runs.
TEST(CliIsa, VersionNamesTheKernelPathAndWhatTheCpuRuns) {
  const auto run =
      testing::RunShell("NPUCONF_ISA=portable " + std::string(NPUCONF_BINARY) + " --version");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("reference kernels: portable"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("this CPU runs " + simd::SupportedIsaNames()), std::string::npos)
      << run.output;
}

TEST(CliIsa, AnUnknownOrMissingPathIsRefusedNamingTheValue) {
  const auto unknown =
      testing::RunShell("NPUCONF_ISA=sse9 " + std::string(NPUCONF_BINARY) + " --version");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("NPUCONF_ISA=sse9 names no kernel path"), std::string::npos)
      << unknown.output;
  EXPECT_NE(unknown.output.find("this CPU runs: " + simd::SupportedIsaNames()), std::string::npos)
      << unknown.output;
  for (simd::Isa isa : {simd::Isa::kNeon, simd::Isa::kAvx512, simd::Isa::kAvx2}) {
    if (simd::IsSupported(isa)) continue;
    const std::string name = simd::IsaName(isa);
    const auto missing = testing::RunShell("NPUCONF_ISA=" + name + " " +
                                           std::string(NPUCONF_BINARY) + " run --quiet");
    EXPECT_EQ(missing.exit_code, 2) << missing.output;
    EXPECT_NE(missing.output.find("NPUCONF_ISA=" + name + ": this CPU or build has no " + name),
              std::string::npos)
        << missing.output;
  }
  const auto contradiction =
      testing::RunShell("NPUCONF_ISA=" + std::string(simd::IsaName(simd::DetectedIsa())) +
                        " NPUCONF_FORCE_PORTABLE=1 " + std::string(NPUCONF_BINARY) + " --version");
  if (simd::DetectedIsa() != simd::Isa::kPortable) {
    EXPECT_EQ(contradiction.exit_code, 2) << contradiction.output;
    EXPECT_NE(contradiction.output.find("contradicts NPUCONF_FORCE_PORTABLE=1"), std::string::npos)
        << contradiction.output;
  }
}

TEST(CliIsa, TheReportNamesTheForcedPath) {
  for (simd::Isa isa : simd::SupportedIsas()) {
    TempDir out("isa");
    const std::string name = simd::IsaName(isa);
    const auto run = testing::RunShell(
        "NPUCONF_ISA=" + name + " " + std::string(NPUCONF_BINARY) +
        " run --quiet --no-real-shapes --cases 3 --profile ascend910b --routine cann.nd_to_nz "
        "--out " +
        out.path());
    ASSERT_EQ(run.exit_code, 0) << run.output;
    EXPECT_EQ(ReadJson(out.path() + "/report.json").at("isa"), name);
    std::ifstream md(out.path() + "/report.md");
    std::stringstream text;
    text << md.rdbuf();
    EXPECT_NE(text.str().find("reference kernels: " + name), std::string::npos);
  }
}

TEST(Cli, ReportPrintsTheChoiceNextToDependentResults) {
  TempDir out("choices");
  ASSERT_EQ(RunNpuconf("run --quiet --no-real-shapes --cases 2 --profile ascend910b "
                       "--property 'cann.nd_to_nz.matches_oracle' --out " +
                       out.path())
                .exit_code,
            0);
  const auto report = ReadJson(out.path() + "/report.json");
  const auto& choices = report.at("results").at(0).at("choices");
  bool fp32 = false;
  for (const auto& c : choices) fp32 |= c.at("name") == "cann.nz.fp32_c0" && c.at("value") == "8";
  EXPECT_TRUE(fp32) << choices.dump(2);
}

}  // namespace
}  // namespace npuconf

namespace npuconf {
namespace {

// Issue 15 item 6: the tables a port must follow, each with its source, from
// the suite itself.
TEST(ListFacts, PrintsEveryTableOfAProfileWithItsSource) {
  const auto run = testing::RunNpuconf("list facts --profile rk3588");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  for (const char* says :
       {"native.b_sub_n_k = {\"FLOAT16\":[16,32],\"INT4\":[64,32],\"INT8\":[32,32]}",
        "native.a_sub_k =", "native.c_sub_n =", "k_segment = 8192", "matmul_types =",
        "\"name\":\"RKNN_INT8_MM_INT8_TO_INT32\",\"type\":2", "source: spec rknn.md §3.3",
        "read by: rknn.matmul_create", "choice rknn.limits.align_unit = header_elements"}) {
    EXPECT_NE(run.output.find(says), std::string::npos) << says << "\n" << run.output;
  }
  const auto cann = testing::RunNpuconf("list facts --profile ascend910b");
  EXPECT_NE(cann.output.find("fractal_nz.c0 = {"), std::string::npos) << cann.output;
  EXPECT_NE(cann.output.find("calculate_matmul_weight_size_v2.soc_supported = true"),
            std::string::npos);
  EXPECT_EQ(testing::RunNpuconf("list facts --profile nosuch").exit_code, 2);
}

TEST(ListFacts, EveryFactIsReadByARoutineAndEveryNamedFactExists) {
  const auto run = testing::RunNpuconf("list facts --json");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto doc = nlohmann::json::parse(run.output);
  std::set<std::string> paths;
  for (const auto& p : doc["profiles"]) {
    for (const auto& f : p["facts"]) {
      EXPECT_FALSE(f["source"].get<std::string>().empty()) << f.dump();
      EXPECT_FALSE(f["read_by"].empty()) << p["name"] << " " << f["path"] << ": read by nothing";
      const std::string path = f["path"];
      paths.insert(path);
      paths.insert(path.substr(0, path.find('.')) + ".*");
    }
  }
  const auto routines = nlohmann::json::parse(testing::RunNpuconf("list routines --json").output);
  for (const auto& r : routines["routines"]) {
    for (const auto& f : r["facts"]) EXPECT_TRUE(paths.count(f)) << r["id"] << " names " << f;
  }
}

}  // namespace
}  // namespace npuconf

namespace npuconf {
namespace {

// Issue 15 item 8: small faults seen by a new user, each pinned.
TEST(CliSmall, ADtypeByAnotherNameBecomesItsNpuconfName) {
  const auto run = testing::RunNpuconf(
      "case cann.calculate_matmul_weight_size_v2 profile=ascend910b dtype=fp16 'shape=[32,16]'");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("dtype=FLOAT16"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("dtype=fp16"), std::string::npos) << run.output;
}

TEST(CliSmall, AListEntryPastInt64SaysSo) {
  const auto run = testing::RunNpuconf(
      "case cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[99999999999999999999,2]'");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("'99999999999999999999' is out of the int64 range"), std::string::npos)
      << run.output;
}

TEST(CliSmall, AWrittenValueEqualToTheFillIsShownAsTheValue) {
  // INT8 -51 is the runner's fill byte 0xCD: in an output the port wrote, it
  // is a value (element 9 of this ND, an input element the reference copies
  // out), not "unwritten"; a line under the output names it.
  const std::string c = "case cann.nz_to_nd profile=ascend910b dtype=INT8 'shape=[4,8]' seed=15";
  const auto json = testing::RunNpuconf(std::string(c).insert(4, " --json"));
  ASSERT_EQ(json.exit_code, 0) << json.output;
  const auto answer = nlohmann::json::parse(json.output);
  const auto nd = Base64Decode(answer.at("outputs").at(0).at("data").get<std::string>());
  ASSERT_TRUE(nd.has_value());
  ASSERT_EQ(nd->size(), 32u);
  ASSERT_EQ(std::count(nd->begin(), nd->end(), kSentinelByte), 1) << "the case no longer has it";
  ASSERT_EQ((*nd)[9], kSentinelByte);
  const auto run = testing::RunNpuconf(c);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output.find("unwritten"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("[114, -51, -106,"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("1 element holds the runner's fill, bytes cd: left by the port, or "
                            "written with that value; flat index 9)"),
            std::string::npos)
      << run.output;
}

TEST(CliSmall, AnUnwrittenOutputIsShownAsUnwritten) {
  // V2 rejects a zero dim (spec cann.md §1.4 step 5) and leaves its output as it was.
  const auto run = testing::RunNpuconf(
      "case cann.calculate_matmul_weight_size_v2 profile=ascend910b dtype=FLOAT16 'shape=[0,2]'");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("[unwritten]"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("-9223372036854775808"), std::string::npos) << run.output;
  // A written UINT64 prints exactly: 512 for [32, 16] FLOAT16 (§1.7).
  const auto ok = testing::RunNpuconf(
      "case cann.calculate_matmul_weight_size_v2 profile=ascend910b dtype=FLOAT16 'shape=[32,16]'");
  EXPECT_NE(ok.output.find("  512 (ELEMENTS"), std::string::npos) << ok.output;
}

TEST(CliSmall, TheSizeRoutinesDocumentTheirOverflowRule) {
  const auto run = testing::RunNpuconf("list routines");
  EXPECT_NE(run.output.find("the running product of the dims in order"), std::string::npos)
      << run.output;
}

TEST(CliSmall, QuietStillPrintsTheVerdict) {
  testing::TempDir dir("quiet");
  const auto run = testing::RunNpuconf(
      "run --quiet --profile ascend910b --routine cann.nd_to_nz --no-real-shapes --out " +
      dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("verdict: CONFORMANT"), std::string::npos) << run.output;
  EXPECT_EQ(run.output.find("cann.nd_to_nz.matches_oracle"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace npuconf
