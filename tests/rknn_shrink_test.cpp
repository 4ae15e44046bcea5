// The counterexample a run reports for an RKNN mutant is minimal after
// shrinking: the case fails, and taking one block (subK, subN, the K-segment
// length, whichever applies to the dim) off any dim gives a case that passes.
// That is what dependent generation buys (generators/rknn.h): shrinking stays
// inside the domain and moves by whole blocks and segments. Driven through the
// CLI as a user would: `npuconf run` finds and shrinks, `npuconf check --from`
// replays one case.
#include <gtest/gtest.h>

#include <fstream>

#include "core/case_json.h"
#include "core/profile.h"
#include "oracles/rknn/sub_block_oracle.h"
#include "test_util.h"

namespace npuconf {
namespace {

using testing::ReadJson;
using testing::RunNpuconf;
using testing::TempDir;

// matmul_consistent has no explicit cases, so the runner reaches its random
// phase (and shrinks) for every mutant it catches.
constexpr char kMatmul[] = "rknn.b_norm_to_native.matmul_consistent";

struct ShrinkRun {
  const char* mutant;
  const char* profile;
  const char* property;
  // What the bug needs to show, for the message (the test checks only that one
  // block less passes; with the default seed the runs shrink to exactly this).
  const char* needs;
};

const ShrinkRun kRuns[] = {
    // Unsegmented and segmented NATIVE B differ once K crosses L = 8192 and N
    // spans two subN = 32 blocks: K = 8193, N = 33 (INT8 -> INT32).
    {"rknn-no-k-segmentation", "rk3588", kMatmul, "K = L + 1 and N = subN + 1"},
    {"rknn-segments-padded-together", "rk3588", kMatmul, "K = L + 1 and N = subN + 1"},
    // [64, 32] tiles instead of [32, 32] move B[k][n] once K spans two subK
    // blocks: K = 33, N = 1 (INT8 x INT4 -> INT32).
    {"rknn-mixed-b-own-dtype-row", "rk3576", kMatmul, "K = subK + 1"},
};

int Check(const ShrinkRun& run, const nlohmann::json& c, const std::string& dir,
          const std::string& tag) {
  const std::string path = dir + "/" + tag + ".json";
  std::ofstream(path) << c.dump(2);
  return RunNpuconf(std::string("check --port mutant:") + run.mutant + " " + run.property +
                    " --from " + path)
      .exit_code;
}

// GoogleTest prints parameters through this.
void PrintTo(const ShrinkRun& run, std::ostream* os) {
  *os << "mutant:" << run.mutant << " @ " << run.profile;
}

class RknnShrinkTest : public ::testing::TestWithParam<ShrinkRun> {};

TEST_P(RknnShrinkTest, CounterexampleIsMinimalByWholeBlocks) {
  const ShrinkRun& run = GetParam();
  TempDir out("shrink");
  const auto result =
      RunNpuconf(std::string("run --port mutant:") + run.mutant + " --profile " + run.profile +
                 " --property " + run.property + " --no-real-shapes --quiet --out " + out.path());
  ASSERT_EQ(result.exit_code, 1) << result.output;
  const auto report = ReadJson(out.path() + "/report.json");
  const nlohmann::json* failed = nullptr;
  for (const auto& r : report.at("results")) {
    if (r.at("property") == run.property && r.at("profile") == run.profile) failed = &r;
  }
  ASSERT_NE(failed, nullptr);
  ASSERT_EQ(failed->at("result"), "fail") << failed->dump(2);
  ASSERT_GT(failed->at("random_cases").get<int>(), 0)
      << "failed on an explicit case: nothing was shrunk";
  const nlohmann::json counterexample = failed->at("counterexample_case");
  ASSERT_EQ(Check(run, counterexample, out.path(), "counterexample"), 1) << counterexample.dump();

  // The blocks each dim of a B case moves by: subK and the segment length for
  // K, subN for N (the oracle's sub-blocks of the case's type).
  Case c;
  ASSERT_EQ(CaseFromJson(counterexample, &c), "") << counterexample.dump();
  const RknnFacts& facts = *FindProfile(run.profile)->rknn;
  const auto sub = oracle::rknn::SubBlocksOf(facts, static_cast<int32_t>(*c.Int("type")));
  ASSERT_TRUE(sub);
  const std::vector<std::pair<std::string, int64_t>> steps = {
      {"K", sub->b_sub_k}, {"K", facts.k_segment}, {"N", sub->b_sub_n}};
  int tried = 0;
  for (const auto& [dim, block] : steps) {
    const int64_t value = *c.Int(dim);
    if (block <= 0 || value - block < 1) continue;
    Case smaller = c;
    smaller.Set(dim, value - block);
    ++tried;
    EXPECT_EQ(Check(run, ToJson(smaller), out.path(), dim + std::to_string(block)), 0)
        << run.mutant << ": " << c.ToText() << " with " << dim << " - " << block
        << " still fails, so the reported "
        << "counterexample is not minimal (it needs " << run.needs << ")";
  }
  EXPECT_GT(tried, 0)
      << c.ToText() << ": no dim is larger than one block; the case shows nothing about shrinking";
  std::cout << "[ counterexample ] " << run.mutant << ": " << c.ToText() << "\n";
}

INSTANTIATE_TEST_SUITE_P(Mutants, RknnShrinkTest, ::testing::ValuesIn(kRuns),
                         [](const ::testing::TestParamInfo<ShrinkRun>& info) {
                           std::string name = info.param.mutant;
                           for (char& ch : name) {
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace npuconf
