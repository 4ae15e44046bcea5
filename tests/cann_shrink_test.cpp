// Shrinking stays in the domain and reaches the smallest failing case: for
// CANN mutants, no dim of the counterexample the runner reports can be reduced
// by one block (16 rows, C0 columns, one batch) and still fail.
#include <gtest/gtest.h>

#include <fstream>

#include "core/profile.h"
#include "test_util.h"

namespace npuconf {
namespace {

using testing::ReadJson;
using testing::RunNpuconf;
using testing::TempDir;

struct ShrinkCase {
  const char* mutant;
  const char* property;
  const char* profile;
};

// The block each axis of a CANN shape comes in, counted from the end: k by C0
// (the case's or the profile's), n by 16, batch dims by 1.
int64_t BlockOf(const nlohmann::json& c, size_t axis_from_end) {
  if (axis_from_end >= 2) return 1;
  if (axis_from_end == 1) return 16;
  const std::string routine = c["routine"];
  if (routine.find("size") != std::string::npos) return 16;
  if (c["params"].contains("c0")) return c["params"]["c0"].get<int64_t>();
  const Profile* profile = FindProfile(c["profile"]);
  return profile->cann->nz_c0.at(*ParseDType(c["params"]["dtype"].get<std::string>()));
}

class CannShrink : public ::testing::TestWithParam<ShrinkCase> {};

TEST_P(CannShrink, NoDimOfTheCounterexampleCanLoseABlockAndStillFail) {
  const ShrinkCase& p = GetParam();
  TempDir dir("shrink");
  const auto run =
      RunNpuconf(std::string("run --port mutant:") + p.mutant + " --profile " + p.profile +
                 " --property " + p.property + " --no-real-shapes --quiet --out " + dir.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto report = ReadJson(dir.path() + "/report.json");
  const auto& result = report["results"].at(0);
  ASSERT_EQ(result["result"], "fail");
  const nlohmann::json counterexample = result["counterexample_case"];
  const std::vector<int64_t> shape = counterexample["params"]["shape"];
  ASSERT_FALSE(shape.empty());
  int reductions = 0;
  for (size_t i = 0; i < shape.size(); ++i) {
    const int64_t block = BlockOf(counterexample, shape.size() - 1 - i);
    if (shape[i] - block < 1) continue;
    nlohmann::json smaller = counterexample;
    smaller["params"]["shape"][i] = shape[i] - block;
    const std::string file = dir.path() + "/smaller" + std::to_string(i) + ".json";
    std::ofstream(file) << smaller.dump();
    const auto check = RunNpuconf(std::string("check --port mutant:") + p.mutant + " " +
                                  p.property + " --from " + file);
    EXPECT_EQ(check.exit_code, 0) << "the counterexample " << counterexample.dump()
                                  << " is not minimal: axis " << i << " reduced by " << block
                                  << " still fails\n"
                                  << check.output;
    ++reductions;
  }
  // The counterexample itself still fails through `check`.
  const std::string file = dir.path() + "/counterexample.json";
  std::ofstream(file) << counterexample.dump();
  EXPECT_EQ(RunNpuconf(std::string("check --port mutant:") + p.mutant + " " + p.property +
                       " --from " + file)
                .exit_code,
            1);
  RecordProperty("reductions_tried", reductions);
}

INSTANTIATE_TEST_SUITE_P(
    Mutants, CannShrink,
    ::testing::Values(
        ShrinkCase{"int8-c0-16", "cann.nd_to_nz.matches_oracle", "ascend910b"},
        ShrinkCase{"unpack-blocks-transposed", "cann.nz_to_nd.matches_oracle", "ascend910b"},
        ShrinkCase{"batch-dims-aligned", "cann.calculate_matmul_weight_size.matches_oracle",
                   "ascend910b"},
        ShrinkCase{"v2-legacy-rule", "cann.calculate_matmul_weight_size_v2.matches_oracle",
                   "ascend910b"}),
    [](const ::testing::TestParamInfo<ShrinkCase>& info) {
      std::string name = info.param.mutant;
      for (char& ch : name) {
        if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
      }
      return name;
    });

}  // namespace
}  // namespace npuconf
