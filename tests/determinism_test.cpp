// A port that answers one case two ways is caught and named: a failing case is
// answered again, and a sample of cases is answered twice
// (conformance/harness/determinism.h).
#include "conformance/harness/determinism.h"

#include <gtest/gtest.h>

#include <cstring>

#include "conformance/harness/call.h"
#include "conformance/harness/runner.h"
#include "conformance/harness/suite.h"

namespace npuconf {
namespace {

const RoutineSpec& ToySpec() {
  static const RoutineSpec spec = {
      .id = "cann.toy",
      .vendor = "cann",
      .source = "tests/determinism_test.cpp",
      .summary = "a routine of the test",
      .params = {{.key = "n", .type = ParamType::kInt, .doc = "a number"}},
      .outputs = {{.name = "y", .dtype = "UINT8", .shape = "[1]"}}};
  return spec;
}

Invocation ToyCase(const Case& c, const Profile&) {
  Invocation inv{c, {}, {}};
  inv.outputs.push_back({.name = "y", .dtype = DType::kUint8, .capacity_bytes = 1});
  return inv;
}

Case Toy(int64_t n) { return Case("cann.toy", "ascend910b").Set("n", n); }

// The port's vendor status must be 0; random cases n in [0, 1000).
Property StatusIsZero() {
  return {.name = "cann.toy.status_is_zero",
          .routine = "cann.toy",
          .explicit_cases = [](const PropertyContext&) { return std::vector<Case>{Toy(7)}; },
          .generator =
              [](const PropertyContext&) {
                return rc::gen::map(rc::gen::inRange<int64_t>(0, 1000),
                                    [](int64_t n) { return Toy(n); });
              },
          .check =
              [](const PropertyContext& ctx, const Case& c) {
                Called called;
                if (auto failed = CallPort(ctx, c, &called)) return *failed;
                return called.answer.status == 0
                           ? Verdict::Pass()
                           : Verdict::Fail("status " + std::to_string(called.answer.status));
              }};
}

std::vector<Property> g_properties;
void AddToyProperties(std::vector<Property>* out) { *out = g_properties; }

Suite ToySuite() {
  g_properties = {StatusIsZero()};
  return Suite(
      {{.name = "toy", .routines = {{&ToySpec(), ToyCase}}, .add_properties = AddToyProperties}});
}

// Vendor status from `status_of(call number)`; counts calls.
struct CountingPort {
  explicit CountingPort(std::function<int64_t(int)> status_of)
      : port("toy", "1", {"cann.toy:*"},
             [this, status_of](const npuconf_case*, int64_t* status, char*, uint64_t) {
               *status = status_of(++calls);
               return int32_t{NPUCONF_CALL_ANSWERED};
             }) {}
  int calls = 0;
  InProcessPort port;
};

RunOptions Options() {
  RunOptions options;
  options.profiles = {"ascend910b"};
  options.cases = 20;
  return options;
}

TEST(Determinism, AFailureThatPassesWhenAskedAgainSaysNonDeterministic) {
  const Suite suite = ToySuite();
  // Odd calls fail, even calls pass: the explicit case fails, then passes.
  CountingPort flaky([](int call) { return call % 2; });
  const AskTwicePort port(flaky.port, 0);
  const auto run = RunSuite(suite, port, Options());
  ASSERT_EQ(run.results.size(), 1u);
  const auto& r = run.results[0];
  EXPECT_EQ(r.outcome, report::Outcome::kFail);
  EXPECT_EQ(r.message.rfind("non-deterministic: the same case failed once and passed once", 0), 0u)
      << r.message;
  EXPECT_NE(r.reproduce.find("# non-deterministic"), std::string::npos) << r.reproduce;
}

TEST(Determinism, TwoDifferentFailuresOfOneCaseSayNonDeterministic) {
  const Suite suite = ToySuite();
  CountingPort drifting([](int call) { return call; });  // status 1, 2, 3, ...
  const AskTwicePort port(drifting.port, 0);
  const auto run = RunSuite(suite, port, Options());
  const auto& r = run.results.at(0);
  EXPECT_EQ(r.outcome, report::Outcome::kFail);
  EXPECT_EQ(r.message.rfind("non-deterministic: the same case gave two different failures", 0), 0u)
      << r.message;
}

TEST(Determinism, ADeterministicFailureIsNotCalledNonDeterministic) {
  const Suite suite = ToySuite();
  CountingPort wrong([](int) { return 5; });
  const AskTwicePort port(wrong.port, 1);
  const auto run = RunSuite(suite, port, Options());
  const auto& r = run.results.at(0);
  EXPECT_EQ(r.outcome, report::Outcome::kFail);
  EXPECT_EQ(r.message, "status 5");
  EXPECT_EQ(r.reproduce.find("non-deterministic"), std::string::npos) << r.reproduce;
}

TEST(Determinism, SampledCasesAreAnsweredTwiceAndDifferingAnswersFail) {
  const Suite suite = ToySuite();
  // Status 0 on odd calls, 1 on even ones: each case passes when asked once,
  // but asked twice (every == 1) its answers differ.
  CountingPort alternating([](int call) { return call % 2 == 0 ? 1 : 0; });
  const AskTwicePort port(alternating.port, 1);
  const auto run = RunSuite(suite, port, Options());
  const auto& r = run.results.at(0);
  EXPECT_EQ(r.outcome, report::Outcome::kFail);
  EXPECT_NE(r.message.find("non-deterministic: the same case answered twice gave different "
                           "answers (vendor status 0, then 1)"),
            std::string::npos)
      << r.message;
}

TEST(Determinism, ADeterministicPortPassesAndSampledCasesCostTwoCalls) {
  const Suite suite = ToySuite();
  CountingPort right([](int) { return 0; });
  const AskTwicePort port(right.port, 1);
  const auto run = RunSuite(suite, port, Options());
  const auto& r = run.results.at(0);
  EXPECT_EQ(r.outcome, report::Outcome::kPass) << r.message;
  EXPECT_EQ(right.calls, 2 * (r.explicit_cases + r.random_cases));
}

TEST(Determinism, SamplingDependsOnTheCaseAloneAtAboutOneInEvery) {
  int sampled = 0;
  for (int n = 0; n < 2000; ++n) {
    const bool once = AskTwicePort::Sampled(Toy(n), 10);
    EXPECT_EQ(once, AskTwicePort::Sampled(Toy(n), 10));  // the same case, the same choice
    sampled += once;
  }
  // Binomial(2000, 0.1): mean 200, sd ~13.4; 140..260 is beyond 4 sd.
  EXPECT_GT(sampled, 140);
  EXPECT_LT(sampled, 260);
  EXPECT_FALSE(AskTwicePort::Sampled(Toy(1), 0));
  EXPECT_TRUE(AskTwicePort::Sampled(Toy(1), 1));
}

TEST(Determinism, CompareAnswersNamesTheFirstDifferingOutputByte) {
  auto answer = [](uint8_t second_byte) {
    Answer a;
    a.call_result = NPUCONF_CALL_ANSWERED;
    auto buffer = std::make_shared<GuardedBuffer>(4);
    buffer->data()[1] = second_byte;
    a.outputs.push_back({.name = "nz", .buffer = buffer});
    return a;
  };
  EXPECT_EQ(CompareAnswers(answer(3), answer(3)), "");
  EXPECT_EQ(CompareAnswers(answer(3), answer(0)), "output 'nz' byte 1: 0x03, then 0x00");
}

// A port writing `fill_of(call number)` to every byte of output "y", of
// `capacity_bytes`; counts calls.
struct FillingPort {
  FillingPort(std::function<uint8_t(int)> fill_of)
      : port("filling", "1", {"cann.toy:*"},
             [this, fill_of](const npuconf_case* c, int64_t* status, char*, uint64_t) {
               const uint8_t fill = fill_of(++calls);
               std::memset(c->outputs[0].data, fill, c->outputs[0].bytes);
               if (calls == 2 && odd_byte_at >= 0)
                 static_cast<uint8_t*>(c->outputs[0].data)[odd_byte_at] ^= 1;
               *status = 0;
               return int32_t{NPUCONF_CALL_ANSWERED};
             }) {}
  int calls = 0;
  int64_t odd_byte_at = -1;  // on the second call, flip this byte
  InProcessPort port;
};

Invocation LargeToy(uint64_t capacity_bytes) {
  Invocation inv{Toy(1), {}, {}};
  inv.outputs.push_back({.name = "y", .dtype = DType::kUint8, .capacity_bytes = capacity_bytes});
  return inv;
}

TEST(Determinism, LargeAnswersAskedTwiceAreComparedByDigestAndOneIsKept) {
  const uint64_t large = kCompareWholeBytes + 4096;
  FillingPort same([](int) { return uint8_t{7}; });
  const Answer a = AskTwicePort(same.port, 1).Call(LargeToy(large));
  EXPECT_EQ(same.calls, 2);
  EXPECT_EQ(a.fault, "");
  ASSERT_TRUE(a.outputs.at(0).buffer);
  EXPECT_EQ(a.outputs[0].contents()[large - 1], 7);

  // One byte of the second answer differs: named to its 64 KiB chunk.
  FillingPort one_byte([](int) { return uint8_t{7}; });
  one_byte.odd_byte_at = 3 * int64_t{kDigestChunkBytes} + 5;
  const Answer b = AskTwicePort(one_byte.port, 1).Call(LargeToy(large));
  EXPECT_EQ(b.fault,
            "non-deterministic: the same case answered twice gave different answers (output 'y' "
            "bytes [" +
                std::to_string(3 * kDigestChunkBytes) + ", " +
                std::to_string(4 * kDigestChunkBytes) + ") differ)");
}

TEST(Determinism, SmallAnswersAskedTwiceKeepTheFirstAndNameTheByte) {
  FillingPort differs([](int call) { return uint8_t(call == 1 ? 7 : 8); });
  const Answer a = AskTwicePort(differs.port, 1).Call(LargeToy(16));
  EXPECT_EQ(a.fault,
            "non-deterministic: the same case answered twice gave different answers (output 'y' "
            "byte 0: 0x07, then 0x08)");
  EXPECT_EQ(a.outputs.at(0).contents()[0], 7);  // the first answer
}

TEST(InProcessPort, APortThatWritesToAnInputFailsNamingIt) {
  InProcessPort writer("writer", "1", {"cann.toy:*"},
                       [](const npuconf_case* c, int64_t* status, char*, uint64_t) {
                         static_cast<uint8_t*>(c->inputs[0].data)[70000] = 0xEE;
                         *status = 0;
                         return int32_t{NPUCONF_CALL_ANSWERED};
                       });
  auto with_input = [](uint64_t bytes) {
    Invocation inv{Toy(1), {}, {}};
    inv.inputs.push_back({.name = "x",
                          .dtype = DType::kUint8,
                          .shape = {static_cast<int64_t>(bytes)},
                          .bytes = Bytes(bytes, 0x11)});
    return inv;
  };
  // A copy: the byte is named, and the case's own input is untouched.
  const Invocation small = with_input(100000);
  EXPECT_EQ(writer.Call(small).fault, "wrote to its input 'x' (inputs are read-only), byte 70000");
  EXPECT_EQ(small.inputs[0].bytes[70000], 0x11);
  // In place (over kCopyInputsBytes): the chunk is named.
  const Invocation large = with_input(kCopyInputsBytes + 1);
  EXPECT_EQ(writer.Call(large).fault,
            "wrote to its input 'x' (inputs are read-only), within bytes [65536, 131072)");
}

}  // namespace
}  // namespace npuconf
