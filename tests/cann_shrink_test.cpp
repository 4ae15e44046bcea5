// Shrinking stays in the domain and reaches the smallest failing case: for
// CANN mutants, no dim of the counterexample the runner reports can be reduced
// by one block (16 rows, C0 columns, one batch) and still fail.
#include <gtest/gtest.h>

#include <fstream>

#include "core/profile.h"
#include "generators/cann.h"
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

// Two faults of a TransMatmulWeight call compose in either order: a first fault
// that leaves rank 1 ([k], one row) is followed by one that keeps the rows.
// Every dim of the result is one of the valid call's, 1 or 0 (an emptied dim);
// the rows were once read 8 bytes before a rank-1 shape (ASan, `make
// sanitize`), a stray value without the sanitizers.
TEST(InvalidTransCase, FaultsComposeInEitherOrderFromEveryRank) {
  using gen::cann::TransFault;
  const Profile* profile = FindProfile("ascend910b");
  ASSERT_NE(profile, nullptr);
  const std::vector<DType> unsupported = {DType::kInt4};
  const std::vector<TransFault> faults = {TransFault::kNullTensor, TransFault::kUnsupportedDtype,
                                          TransFault::kNotNd,      TransFault::kRankOverEight,
                                          TransFault::kEmpty,      TransFault::kRankOutsideRule};
  for (const Shape& valid : {Shape{3, 17}, Shape{2, 3, 17}, Shape{17}}) {
    Case c(routines::cann::kTransMatmulWeight, profile->name);
    c.Set("shape", valid).Set("dtype", DType::kFloat16).Set("format", "ND");
    for (TransFault first : faults) {
      for (TransFault second : faults) {
        for (int64_t pick = 0; pick < 4; ++pick) {
          const Case once = gen::cann::ApplyTransFault(*profile->cann, unsupported, c, first, pick);
          const Case twice =
              gen::cann::ApplyTransFault(*profile->cann, unsupported, once, second, pick / 2);
          const Shape shape = *twice.IntList("shape");
          ASSERT_FALSE(shape.empty());
          for (size_t axis = 0; axis < shape.size(); ++axis) {
            const int64_t d = shape[axis];
            const bool known = d == 0 || d == 1 || std::count(valid.begin(), valid.end(), d) > 0;
            EXPECT_TRUE(known) << "faults " << static_cast<int>(first) << " then "
                               << static_cast<int>(second) << " (pick " << pick << ") of shape "
                               << ::testing::PrintToString(valid) << " give dim " << d
                               << " at axis " << axis << " of " << ::testing::PrintToString(shape);
          }
          // A rank-1 [k] holds one row: after a change of rank the rows are 1 or n.
          const int64_t valid_rows = valid.size() >= 2 ? valid[valid.size() - 2] : 1;
          if (shape.size() >= 2) {
            const int64_t rows = shape[shape.size() - 2];
            EXPECT_TRUE(rows == 0 || rows == 1 || rows == valid_rows)
                << "rows " << rows << " of " << ::testing::PrintToString(shape);
          }
        }
      }
    }
  }
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
