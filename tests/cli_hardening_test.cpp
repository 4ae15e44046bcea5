// Every option value is validated with a short message naming it; repeated
// globs select any; the crash line of an in-process port replays on that port.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <vector>

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
  EXPECT_LT(run.output.size(), 400u) << "a short message, please:\n" << run.output;
}

TEST(CliHardening, NegativeSeedIsRefusedNotWrapped) {
  ExpectExit("run --seed -5", 2, "--seed: '-5' is not an integer");
  ExpectExit("run --seed 18446744073709551616", 2, "'18446744073709551616'");
}

TEST(CliHardening, CasesOutOfRangeGetAShortError) {
  ExpectExit("run --cases -1", 2, "--cases: '-1' is not an integer from 0 to 1000000");
  ExpectExit("run --cases 99999999999999", 2, "'99999999999999' is not an integer from 0");
  ExpectExit("run --cases many", 2, "'many'");
  ExpectExit("run --max-case-bytes 0", 2, "--max-case-bytes: '0'");
  ExpectExit("run --determinism-every -2", 2, "--determinism-every: '-2'");
}

TEST(CliHardening, GarbageRcReproduceIsNamed) {
  ExpectExit("run --rc-reproduce garbage", 2, "--rc-reproduce 'garbage'");
  ExpectExit("run --rc-reproduce reproduce=garbage", 2, "malformed");
}

TEST(CliHardening, UnknownSubcommandIsNamed) {
  ExpectExit("frobnicate", 2, "unknown subcommand 'frobnicate'");
}

TEST(CliHardening, OutFailuresSayWhy) {
  TempDir dir("out-file");
  const std::string file = dir.path() + "/a-file";
  std::ofstream(file) << "x";
  ExpectExit("run --routine cann.nd_to_nz --out " + file, 2, "Not a directory");
}

TEST(CliHardening, AGlobThatSelectsNothingIsNamedEvenBesideOneThatDoes) {
  TempDir dir("misspelt");
  const std::string out = " --profile ascend910b --quiet --out " + dir.path();
  ExpectExit("run --routine cann.nd_to_nz --routine cann.nd_to_nzz" + out, 2,
             "--routine 'cann.nd_to_nzz' matches no routine");
  ExpectExit("run --routine 'cann.nd_to_nz,cann.nz_to_ndd'" + out, 2,
             "--routine 'cann.nz_to_ndd' matches no routine");
  ExpectExit("run --property '*.matches_oracle' --property '*.round_trp'" + out, 2,
             "--property '*.round_trp' matches no property");
}

TEST(CliHardening, AnExecPortWithoutACommandIsUsage) {
  TempDir dir("exec-empty");
  ExpectExit("run --port exec: --quiet --out " + dir.path(), 2, "names no command");
  ExpectExit("run --port 'exec:   ' --quiet --out " + dir.path(), 2, "names no command");
}

TEST(CliHardening, RealShapesFileAndNoRealShapesContradictEachOther) {
  ExpectExit("run --no-real-shapes --real-shapes shapes.json", 2, "excludes");
}

TEST(CliHardening, RoutineAndPropertyAreRepeatableGlobs) {
  TempDir dir("globs");
  const auto run = RunNpuconf(
      "run --profile ascend910b --routine cann.nd_to_nz --routine 'cann.nz_to_*' "
      "--property '*.matches_oracle' --property '*.padding_is_zero' --cases 2 --no-real-shapes "
      "--quiet --out " +
      dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::set<std::string> properties;
  const auto doc = ReadJson(dir.path() + "/report.json");
  for (const auto& r : doc["results"]) properties.insert(r["property"].get<std::string>());
  EXPECT_TRUE(properties.count("cann.nd_to_nz.matches_oracle"));
  EXPECT_TRUE(properties.count("cann.nd_to_nz.padding_is_zero"));
  EXPECT_TRUE(properties.count("cann.nz_to_nd.matches_oracle"));
  for (const auto& p : properties) {
    EXPECT_TRUE(p.find("matches_oracle") != std::string::npos ||
                p.find("padding_is_zero") != std::string::npos)
        << p;
  }
}

// With --jobs 1 an in-process crash ends the runner itself (exit 3); with more
// jobs it ends one worker and fails that unit only (tests/jobs_test.cpp).
TEST(CliHardening, CrashLineNamesThePortAndReplaysTheCrash) {
  TempDir dir("crash");
  const auto run =
      RunNpuconf(std::string("run --jobs 1 --profile ascend910b --quiet --in-process --port ") +
                 NPUCONF_CRASH_PORT + " --out " + dir.path());
  EXPECT_EQ(run.exit_code, 3) << run.output;
  const size_t at = run.output.find("replay: ");
  ASSERT_NE(at, std::string::npos) << run.output;
  std::string replay = run.output.substr(at + 8);
  replay = replay.substr(0, replay.find('\n'));
  EXPECT_NE(replay.find(std::string("--port ") + NPUCONF_CRASH_PORT), std::string::npos) << replay;
  const auto again = RunShell(replay);
  EXPECT_EQ(again.exit_code, 3) << replay << "\n" << again.output;
  EXPECT_NE(again.output.find("the port crashed"), std::string::npos) << again.output;
  // The reports so far stay, marked incomplete.
  EXPECT_EQ(ReadJson(dir.path() + "/report.json")["complete"], false);
}

// Every routine's case is charged against --max-case-bytes before its buffers
// are made: a case far over the budget is refused (exit 2, "too large") under
// an address-space limit it could not be built in. Routines whose buffers do
// not grow with their params (sizes, io_attr) answer such a case instead. The
// table must name every routine of `list routines`, so a new one is walked too.
TEST(CliHardening, EveryRoutineChargesItsCaseBeforeAllocating) {
  struct Huge {
    const char* routine;
    const char* args;
    bool answers;                   // its buffers stay small: the case is answered
    const char* profile = nullptr;  // nullptr: ascend910b for CANN, rk3588 for RKNN
  };
  const std::vector<Huge> cases = {
      {"cann.calculate_matmul_weight_size", "shape=[100000,100000,100000]", true},
      {"cann.calculate_matmul_weight_size_v2", "shape=[100000,100000,100000] dtype=INT8", true},
      {"cann.trans_matmul_weight", "shape=[100000,100000] dtype=FLOAT16", false},
      {"cann.nd_to_nz", "shape=[100000,100000] dtype=FLOAT16", false},
      {"cann.nz_to_nd", "shape=[100000,100000] dtype=FLOAT16", false},
      {"rknn.matmul_create", "M=100000 K=100000 N=100000 type=1", true},
      {"rknn.matmul_create_dynamic", "shapes=[1,4096,4096,100000,100000,100000] type=1", true},
      {"rknn.int4_pack", "count=4000000000", false},
      {"rknn.int4_unpack", "count=4000000000", false},
      {"rknn.a_norm_to_native", "type=1 M=100000 K=100000", false},
      {"rknn.a_native_to_norm", "type=1 M=100000 K=100000", false},
      {"rknn.c_norm_to_native", "type=1 M=100000 N=100000", false},
      {"rknn.c_native_to_norm", "type=1 M=100000 N=100000", false},
      {"rknn.b_norm_to_native", "type=1 K=100000 N=100000", false},
      {"rknn.b_native_to_norm", "type=1 K=100000 N=100000", false},
      {"rknn.b_tp_norm_to_native", "type=1 K=100000 N=100000", false},
      {"rknn.b_native_to_tp_norm", "type=1 K=100000 N=100000", false},
      {"cann.gather_dequant_int8", "vocab=100000 embed=100000", false},
      {"cann.gather_dequant_int8", "vocab=16 embed=16 indices_shape=[100000,100000]", false},
      {"cann.gather_dequant_int8", "vocab=16 embed=16 scale_len=10000000000", false},
      {"cann.gather_dequant_int8_quantize", "vocab=20240 embed=68809 weights=normal seed=1", false},
      {"cann.gather_dequant_int8_quantize", "vocab=4000 embed=4000", false},
      {"cann.antiquant", "k=100000 n=100000 weight_dtype=INT8 x_dtype=FLOAT16", false},
      {"cann.antiquant", "k=32 n=16 weight_dtype=INT8 x_dtype=FLOAT16 scale_shape=[100000,100000]",
       false},
      {"rknn.dequant_b", "k=100000 n=100000 dtype=INT8 quant_type=0", false},
      {"rknn.dequant_b", "k=32 n=16 dtype=INT8 quant_type=2 scale_len=10000000000", false},
      {"rknn.dequant_b", "k=4096 n=4096 dtype=INT8 quant_type=0 b_fill=1", false},
      {"cann.trans_data",
       "src_format=NCHW dst_format=FRACTAL_Z dtype=FLOAT16 shape=[100000,10000,10,1]", false},
      {"rknn.nchw_to_nc1hwc2", "shape=[1,100000,100,100] dtype=INT8", false},
      {"rknn.nc1hwc2_to_nchw", "shape=[1,100000,100,100] dtype=INT8", false},
      {"rknn.nhwc_to_nc1hwc2", "shape=[1,100,100,100000] dtype=FLOAT16", false},
      {"rknn.nc1hwc2_to_nhwc", "shape=[1,100,100,100000] dtype=FLOAT16", false},
      {"rknn.nc1hwc2_int8_to_nchw_float", "shape=[1,100000,100,100]", false},
      {"rknn.nhwc_zero_copy_pack", "shape=[1,100000,100000,3] dtype=UINT8 w_stride=100000", false},
      {"rknn.nc1hwc2_size", "shape=[100000,100000,100000,100000] dtype=INT8", true},
      {"cann.calculate_convolution_weight_size",
       "shape=[100000,100000,100000,100000] groups=1 "
       "dtype=FLOAT16",
       true},
      // ascend910b has no conv-weight API (spec layouts.md §A.9): the call is rejected before
      // any buffer is made, so it is answered; on 310P, which has it, the case is too large.
      {"cann.trans_convolution_weight", "shape=[100000,10000,10,1] groups=1 dtype=FLOAT16", true},
      {"cann.trans_convolution_weight", "shape=[100000,10000,10,1] groups=1 dtype=FLOAT16", false,
       "ascend310p"},
      {"cann.npu_format_cast_calculate_size_and_format",
       "shape=[100000,100000,100000,100000] src_format=NCHW dst_format=FRACTAL_Z dtype=FLOAT16",
       true},
      {"cann.transfer_shape",
       "src_format=NCHW dst_format=FRACTAL_Z dtype=FLOAT16 shape=[100000,100000,100000,100000]",
       true},
  };
  std::set<std::string> walked;
  for (const Huge& h : cases) walked.insert(h.routine);
  const auto listed = RunNpuconf("list routines --json");
  ASSERT_EQ(listed.exit_code, 0) << listed.output;
  std::set<std::string> routines;
  const auto doc = nlohmann::json::parse(listed.output);
  for (const auto& r : doc.at("routines")) routines.insert(r.at("id").get<std::string>());
  EXPECT_EQ(walked, routines);
#if defined(__SANITIZE_ADDRESS__)
  const std::string limit;  // ASan reserves terabytes of address space up front
#else
  const std::string limit = "ulimit -v 1048576 && ";  // 1 GiB: far less than any case here
#endif
  for (const Huge& h : cases) {
    const std::string profile = h.profile                                       ? h.profile
                                : std::string(h.routine).rfind("cann.", 0) == 0 ? "ascend910b"
                                                                                : "rk3588";
    const std::string command = limit + NPUCONF_BINARY + std::string(" case ") + h.routine +
                                " profile=" + profile + " " + h.args + " --max-case-bytes 16777216";
    const auto run = RunShell(command);
    if (h.answers) {
      EXPECT_EQ(run.exit_code, 0) << command << "\n" << run.output;
      continue;
    }
    EXPECT_EQ(run.exit_code, 2) << command << "\n" << run.output;
    EXPECT_NE(run.output.find("is too large: it needs at least"), std::string::npos)
        << command << "\n"
        << run.output;
    EXPECT_NE(run.output.find("(--max-case-bytes)"), std::string::npos) << command;
  }
}

// A property's check charges the case before the oracle builds anything of
// its size: the FRACTAL_NZ panel list of a 4-D shape of 4096s once took 16 GB
// before the budget was asked (a claim like shape%4096==0 draws such cases).
TEST(CliHardening, ACheckChargesTheCaseBeforeItsOracleBuildsAnything) {
#if defined(__SANITIZE_ADDRESS__)
  const std::string limit;
#else
  const std::string limit = "ulimit -v 1048576 && ";
#endif
  for (const char* routine : {"cann.nd_to_nz", "cann.nz_to_nd", "cann.trans_matmul_weight"}) {
    const std::string command = limit + NPUCONF_BINARY + std::string(" check ") + routine +
                                ".matches_oracle " + routine +
                                " profile=ascend910b dtype=FLOAT16 'shape=[4096,4096,4096,4096]'";
    const auto run = RunShell(command);
    EXPECT_EQ(run.exit_code, 2) << command << "\n" << run.output;
    EXPECT_NE(run.output.find("is too large: it needs at least"), std::string::npos)
        << command << "\n"
        << run.output;
  }
}

}  // namespace
}  // namespace npuconf
