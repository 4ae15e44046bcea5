// Every deliberately wrong port fails the runner the CLI uses: exit 1, with the
// property the mutant names among the failures, and its reproduce command
// replays that failure. The reference port passes the same runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <stdexcept>

#include "cli/families.h"
#include "cli/selftest_cmd.h"
#include "conformance/harness/runner.h"
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

// A mutant's routines (the only ones it answers wrongly) name routines of its own
// family, and include the routine its catching property checks: else the
// mutant is the reference there and cannot be caught, and `selftest` would run
// it against the wrong properties.
TEST(MutantCatalogue, EveryMutantsRoutinesAreItsFamilysAndReachItsProperty) {
  for (const auto& m : Mutants()) {
    ASSERT_FALSE(m.routines.empty()) << m.name;
    for (const auto& glob : m.routines) {
      bool in_family = false;
      for (const auto& routine : m.family->routines) in_family |= GlobMatch(glob, routine.id);
      EXPECT_TRUE(in_family) << m.name << ": routine glob " << glob
                             << " matches no routine of its family";
    }
    const Property* caught = BuiltinSuite().FindProperty(m.caught_by);
    ASSERT_NE(caught, nullptr) << m.name;
    bool reaches = false;
    for (const auto& routine : caught->AllRoutines()) reaches |= MutantChanges(m, routine);
    EXPECT_TRUE(reaches) << m.name << ": " << m.caught_by << " calls none of its routines";
  }
}

// The mutant port answers its routines with the bug and every other routine as
// the reference does: the mutant for nz-padding-unwritten passes nz_to_nd.
TEST(MutantPort, AnswersOnlyItsRoutinesWrongly) {
  TempDir out("mutant_other_routine");
  const auto other = RunNpuconf(
      "run --port mutant:nz-padding-unwritten --profile ascend910b --routine cann.nz_to_nd "
      "--no-real-shapes --quiet --out " +
      out.path());
  EXPECT_EQ(other.exit_code, 0) << other.output;
  const auto own = RunNpuconf(
      "run --port mutant:nz-padding-unwritten --profile ascend910b --routine cann.nd_to_nz "
      "--property cann.nd_to_nz.padding_is_zero --no-real-shapes --quiet --out " +
      out.path());
  EXPECT_EQ(own.exit_code, 1) << own.output;
}

TEST(Selftest, KillsAMutantAndSaysByWhich) {
  TempDir out("selftest_one");
  const auto run = RunNpuconf("selftest --mutant rank7-accepted --cases 20 --out " + out.path());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("1 of 1 mutants killed at seed"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("cann.calculate_matmul_weight_size.rejects_invalid (1)"),
            std::string::npos)
      << run.output;
  const auto doc = ReadJson(out.path() + "/selftest.json");
  ASSERT_EQ(doc.at("mutants").size(), 1u);
  const auto& m = doc.at("mutants").at(0);
  EXPECT_EQ(m.at("name"), "rank7-accepted");
  EXPECT_TRUE(m.at("survived_seeds").empty());
  EXPECT_TRUE(m.at("killed_by").contains("cann.calculate_matmul_weight_size.rejects_invalid"));
  // Only properties that call the size routines ran against it.
  for (const auto& property : m.at("properties"))
    EXPECT_NE(property.get<std::string>().find("calculate_matmul_weight_size"), std::string::npos)
        << property;
}

// The mutant once ran its unpack on a plan with C cut and C1 not, and the
// kernels wrote past its scratch: `selftest` died of std::bad_alloc, `run`
// printed "corrupted double-linked list". Its bug is only its bug now.
TEST(Selftest, TheUnpackThatDropsThePartialC1IsKilledByRoundTripWithoutCrashing) {
  TempDir out("selftest_partial_c1");
  const auto self = RunNpuconf(
      "selftest --mutant transdata-unpack-drops-partial-c1 --cases 30 --out " + out.path());
  ASSERT_EQ(self.exit_code, 0) << self.output;
  const auto doc = ReadJson(out.path() + "/selftest.json");
  const auto& m = doc.at("mutants").at(0);
  EXPECT_TRUE(m.at("killed_by").contains("cann.trans_data.round_trip")) << m.dump(2);
  EXPECT_TRUE(m.at("crashed").empty()) << m.dump(2);
  const auto run = RunNpuconf(
      "run --port mutant:transdata-unpack-drops-partial-c1 --routine cann.trans_data "
      "--profile ascend910b --no-real-shapes --quiet --out " +
      out.path() + "/run");
  ASSERT_EQ(run.exit_code, 1) << run.output;
  EXPECT_EQ(run.output.find("corrupted"), std::string::npos) << run.output;
  const auto report = ReadJson(out.path() + "/run/report.json");
  bool round_trip_failed = false;
  for (const auto& r : report.at("results"))
    round_trip_failed |=
        r.at("property") == "cann.trans_data.round_trip" && r.at("result") == "fail";
  EXPECT_TRUE(round_trip_failed) << report.dump(2);
}

// A mutant's run that dies (a signal, an abort, an exception, heap corruption)
// is a crashed seed, said how, and the selftest goes on to the next.
TEST(Selftest, ARunThatDiesIsACrashedSeedNotTheEndOfTheSelftest) {
  const SeedOutcome fine = RunSeedIsolated([] { return std::vector<std::string>{"a.b.c", "d.e"}; });
  EXPECT_TRUE(fine.crash.empty()) << fine.crash;
  EXPECT_EQ(fine.failed, (std::vector<std::string>{"a.b.c", "d.e"}));
  const SeedOutcome segv = RunSeedIsolated([]() -> std::vector<std::string> {
    raise(SIGSEGV);
    return {};
  });
  EXPECT_NE(segv.crash.find("killed by SIGSEGV"), std::string::npos) << segv.crash;
  const SeedOutcome aborted = RunSeedIsolated([]() -> std::vector<std::string> { abort(); });
  EXPECT_NE(aborted.crash.find("killed by SIGABRT"), std::string::npos) << aborted.crash;
  const SeedOutcome threw = RunSeedIsolated(
      []() -> std::vector<std::string> { throw std::length_error("basic_string::_M_create"); });
  EXPECT_EQ(threw.crash, "threw a C++ exception: basic_string::_M_create");
  EXPECT_TRUE(threw.failed.empty());
  const SeedOutcome exited = RunSeedIsolated([]() -> std::vector<std::string> { _exit(3); });
  EXPECT_NE(exited.crash.find("exited with status 3"), std::string::npos) << exited.crash;
}

// A selection of properties that cannot see the bug: the mutant survives, the
// exit is 1, and the text names it.
TEST(Selftest, ASurvivingMutantFailsTheSelftestAndIsNamed) {
  const auto run = RunNpuconf(
      "selftest --mutant nz-padding-unwritten --property cann.nd_to_nz.round_trip --cases 20");
  EXPECT_EQ(run.exit_code, 1) << run.output;
  EXPECT_NE(run.output.find("nz-padding-unwritten"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("SURVIVES"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("0 of 1 mutants killed"), std::string::npos) << run.output;
}

TEST(Selftest, BadSelectionsAreUsageErrors) {
  EXPECT_EQ(RunNpuconf("selftest --mutant no-such-mutant").exit_code, 2);
  EXPECT_EQ(RunNpuconf("selftest --property no.such.property").exit_code, 2);
  EXPECT_EQ(RunNpuconf("selftest --seeds 0").exit_code, 2);
  EXPECT_EQ(RunNpuconf("selftest --profile no-such-profile").exit_code, 2);
}

// `run --selftest` quotes the kill rate in every report: the mutants whose
// routines the run claims, killed by the run's properties; a run without it
// says the rate was not measured.
TEST(Selftest, ARunQuotesTheKillRateInEveryReport) {
  TempDir out("selftest_quote");
  const auto self =
      RunNpuconf("selftest --mutant 'nz-*,int8-c0-16,rank7-accepted' --cases 20 --out " +
                 out.path() + "/self");
  ASSERT_EQ(self.exit_code, 0) << self.output;
  // nd_to_nz claimed: its two mutants count, rank7-accepted (size routines) does not.
  const auto run = RunNpuconf(
      "run --profile ascend910b --routine cann.nd_to_nz --cases 20 "
      "--no-real-shapes --quiet --selftest " +
      out.path() + "/self/selftest.json --out " + out.path() + "/run");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto report = ReadJson(out.path() + "/run/report.json");
  const auto& rate = report.at("kill_rate");
  EXPECT_TRUE(rate.at("measured").get<bool>());
  EXPECT_EQ(rate.at("known"), 2);
  EXPECT_EQ(rate.at("killed"), 2);
  const std::string sentence = "properties kill 2 of 2 known faults";
  EXPECT_NE(testing::ReadFile(out.path() + "/run/report.md").find(sentence), std::string::npos);
  EXPECT_NE(testing::ReadFile(out.path() + "/run/report.html").find(sentence), std::string::npos);

  // Narrowed to a property that kills only one of them (round_trip does not see
  // the padding): 1 of 2, the other named.
  const auto narrow = RunNpuconf(
      "run --profile ascend910b --routine cann.nd_to_nz --property cann.nd_to_nz.round_trip "
      "--cases 20 --no-real-shapes --quiet --selftest " +
      out.path() + "/self/selftest.json --out " + out.path() + "/narrow");
  ASSERT_EQ(narrow.exit_code, 0) << narrow.output;
  const auto narrow_rate = ReadJson(out.path() + "/narrow/report.json").at("kill_rate");
  EXPECT_EQ(narrow_rate.at("killed"), 1);
  EXPECT_EQ(narrow_rate.at("survivors"), nlohmann::json::array({"nz-padding-unwritten"}));

  const auto plain = RunNpuconf(
      "run --profile ascend910b --routine cann.nd_to_nz --cases 5 "
      "--no-real-shapes --quiet --out " +
      out.path() + "/plain");
  ASSERT_EQ(plain.exit_code, 0) << plain.output;
  EXPECT_FALSE(ReadJson(out.path() + "/plain/report.json").at("kill_rate").at("measured"));
  EXPECT_NE(testing::ReadFile(out.path() + "/plain/report.md").find("Gate strength not measured"),
            std::string::npos);
  EXPECT_EQ(
      RunNpuconf("run --selftest /nonexistent/selftest.json --quiet --out " + out.path() + "/bad")
          .exit_code,
      2);
}

// --claims-of: the mutants make a narrowed port's claims (FLOAT16 and INT8 ND <-> NZ,
// tests/ports/narrow_port.c), so the kills are those of that port's gate: a C0 bug in
// INT8 is killed, the INT4 nibble bug lies outside its claims and survives, the size
// routines' mutant is not run. A run of that port quotes it without a note; a run
// quoting the reference's selftest says the claims differ.
TEST(Selftest, ClaimsOfANarrowedPortGiveItsOwnKillRate) {
  TempDir out("selftest_claims_of");
  const std::string port = std::string(NPUCONF_NARROW_PORT);
  const auto self = RunNpuconf("selftest --claims-of " + port +
                               " --mutant 'int8-c0-16,int4-high-nibble,rank7-accepted' --cases 30 "
                               "--out " +
                               out.path() + "/self");
  EXPECT_EQ(self.exit_code, 1) << self.output;
  EXPECT_NE(self.output.find("rank7-accepted                     not run"), std::string::npos)
      << self.output;
  EXPECT_NE(self.output.find("1 of 2 mutants killed"), std::string::npos) << self.output;
  const auto doc = ReadJson(out.path() + "/self/selftest.json");
  for (const auto& m : doc.at("mutants")) {
    if (m.at("name") == "int8-c0-16") {
      EXPECT_TRUE(m.at("survived_seeds").empty());
    }
    if (m.at("name") == "int4-high-nibble") {
      EXPECT_FALSE(m.at("survived_seeds").empty());
    }
    if (m.at("name") == "rank7-accepted") {
      EXPECT_TRUE(m.at("outside_claims").get<bool>());
    }
  }
  const auto run = RunNpuconf("run --port " + port +
                              " --profile ascend910b --cases 30 --no-real-shapes --quiet "
                              "--selftest " +
                              out.path() + "/self/selftest.json --out " + out.path() + "/run");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const auto rate = ReadJson(out.path() + "/run/report.json").at("kill_rate");
  EXPECT_EQ(rate.at("known"), 2);
  EXPECT_EQ(rate.at("killed"), 1);
  EXPECT_EQ(rate.at("basis").get<std::string>().find("measured with the claims of"),
            std::string::npos);
  // The reference's selftest quoted on this port: the sentence says whose claims it measured.
  const auto ref =
      RunNpuconf("selftest --mutant int8-c0-16 --cases 30 --out " + out.path() + "/ref");
  ASSERT_EQ(ref.exit_code, 0) << ref.output;
  const auto other = RunNpuconf("run --port " + port +
                                " --profile ascend910b --cases 30 --no-real-shapes --quiet "
                                "--selftest " +
                                out.path() + "/ref/selftest.json --out " + out.path() + "/other");
  ASSERT_EQ(other.exit_code, 0) << other.output;
  EXPECT_NE(ReadJson(out.path() + "/other/report.json")
                .at("kill_rate")
                .at("basis")
                .get<std::string>()
                .find("measured with the claims of reference, not this port's"),
            std::string::npos);
  EXPECT_EQ(RunNpuconf("selftest --claims-of " + port + " --mutant rank7-accepted").exit_code, 4);
}

// A port claiming one direction of cann.trans_data (NCHW -> FRACTAL_Z): the
// round trip's way back lies outside its claims, so a bug only in the unpack is
// not a kill of its gate (breaker F1: the unclaimed way back was called), and
// the pack bugs are still killed inside the claim (F13).
TEST(Selftest, ARoundTripsWayBackOutsideTheClaimsIsNotCalled) {
  const auto self = RunShell(
      "NPUCONF_TEST_CLAIMS='cann.trans_data:ascend910b:src_format=NCHW,dst_format=FRACTAL_Z' " +
      std::string(NPUCONF_BINARY) + " selftest --claims-of " + NPUCONF_SCRIPTED_PORT +
      " --mutant 'transdata-unpack-drops-partial-c1,transdata-n1-steps-of-four' --json");
  ASSERT_EQ(self.exit_code, 1) << self.output;
  const auto doc = nlohmann::json::parse(self.output);
  int seen = 0;
  for (const auto& m : doc.at("mutants")) {
    if (m.at("name") == "transdata-unpack-drops-partial-c1") {
      ++seen;
      EXPECT_FALSE(m.at("survived_seeds").empty()) << m.dump(2);
    }
    if (m.at("name") == "transdata-n1-steps-of-four") {
      ++seen;
      EXPECT_TRUE(m.at("survived_seeds").empty()) << m.dump(2);
    }
  }
  EXPECT_EQ(seen, 2) << self.output;
}

// Claims on a param a case leaves to its default (issue 41): c0=16|32 once
// dropped every INT8 case without c0 and seg_len=8192 every B case, so these
// mutants survived the claims of a port narrowed that way.
TEST(Selftest, MutantsSurviveNoClaimOnADefaultedParam) {
  for (const auto& [claims, mutant] : std::vector<std::pair<std::string, std::string>>{
           {"cann.nd_to_nz:ascend910b:c0=16|32;cann.nz_to_nd:ascend910b:c0=16|32", "int8-c0-16"},
           {"rknn.b_norm_to_native:rk3588:seg_len=8192;rknn.b_native_to_norm:rk3588",
            "rknn-no-k-segmentation"},
           {"rknn.b_norm_to_native:rk3588:seg_len>=1;rknn.b_native_to_norm:rk3588",
            "rknn-no-k-segmentation"}}) {
    const auto self = RunShell("NPUCONF_TEST_CLAIMS='" + claims + "' " +
                               std::string(NPUCONF_BINARY) + " selftest --claims-of " +
                               NPUCONF_SCRIPTED_PORT + " --mutant " + mutant + " --json");
    ASSERT_EQ(self.exit_code, 0) << claims << "\n" << self.output;
    const auto doc = nlohmann::json::parse(self.output);
    ASSERT_EQ(doc.at("mutants").size(), 1u) << self.output;
    EXPECT_TRUE(doc.at("mutants")[0].at("survived_seeds").empty()) << claims << "\n" << self.output;
  }
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
