// Every deliberately wrong port fails the runner the CLI uses: exit 1, with the
// property the mutant names among the failures, and its reproduce command
// replays that failure. The reference port passes the same runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include "cli/families.h"
#include "test_util.h"

namespace npuconf {
namespace {

using testing::ReadJson;
using testing::RunNpuconf;
using testing::RunShell;
using testing::TempDir;

std::string RoutineOf(const std::string& property_name) {
  const Property* property = BuiltinSuite().FindProperty(property_name);
  return property ? property->routine : "?";
}

}  // namespace

// GoogleTest prints parameters through this.
void PrintTo(const Mutant& mutant, std::ostream* os) { *os << "mutant:" << mutant.name; }

namespace {

class MutantTest : public ::testing::TestWithParam<Mutant> {};

TEST_P(MutantTest, FailsTheRunnerOnItsProperty) {
  const Mutant& mutant = GetParam();
  ASSERT_NE(BuiltinSuite().FindProperty(mutant.caught_by), nullptr)
      << "unknown property " << mutant.caught_by;
  TempDir out("mutant");
  const auto run = RunNpuconf("run --port mutant:" + mutant.name + " --profile " + mutant.profile +
                              " --routine '" + RoutineOf(mutant.caught_by) +
                              "' --no-real-shapes --quiet --out " + out.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  EXPECT_FALSE(report.at("conformant").get<bool>());
  const nlohmann::json* caught = nullptr;
  for (const auto& result : report.at("results")) {
    if (result.at("property") == mutant.caught_by && result.at("profile") == mutant.profile) {
      caught = &result;
    }
  }
  ASSERT_NE(caught, nullptr) << mutant.caught_by << " did not run";
  ASSERT_EQ(caught->at("result"), "fail") << mutant.name << " not caught by " << mutant.caught_by;
  EXPECT_FALSE(caught->at("counterexample").get<std::string>().empty());

  // The reproduce command, pasted into a shell, replays exactly that failure.
  const std::string reproduce = caught->at("reproduce").get<std::string>();
  const auto replay = RunShell(reproduce);
  EXPECT_EQ(replay.exit_code, 1) << reproduce << "\n" << replay.output;
  EXPECT_NE(replay.output.find("FAIL: " + mutant.caught_by), std::string::npos) << replay.output;
}

INSTANTIATE_TEST_SUITE_P(All, MutantTest, ::testing::ValuesIn(Mutants()),
                         [](const ::testing::TestParamInfo<Mutant>& info) {
                           std::string name = info.param.name;
                           for (char& ch : name) {
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

TEST(MutantCatalogue, HoldsAtLeastEightCannMutantsWithDistinctNames) {
  int cann = 0;
  for (const auto& m : Mutants()) {
    cann += m.caught_by.rfind("cann.", 0) == 0;
    EXPECT_EQ(FindMutant(m.name), &m) << "duplicate mutant name " << m.name;
  }
  EXPECT_GE(cann, 8);
}

TEST(ReferencePort, PassesEveryPropertyOnEveryProfile) {
  TempDir out("reference");
  const auto run = RunNpuconf("run --no-real-shapes --quiet --cases 30 --out " + out.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto report = ReadJson(out.path() + "/report.json");
  EXPECT_TRUE(report.at("conformant").get<bool>());
  int passed = 0;
  for (const auto& result : report.at("results")) {
    EXPECT_NE(result.at("result"), "fail") << result.dump(2);
    passed += result.at("result") == "pass";
  }
  EXPECT_GT(passed, 0);
}

}  // namespace
}  // namespace npuconf
