// Claims that mean something (conformance/ports/claims.h): the syntax of
// narrowed claims, their validation against the routine table and profiles,
// and the runner checking only what a port claims, with the reading it claims.
#include "conformance/ports/claims.h"

#include <gtest/gtest.h>

#include "cli/families.h"
#include "conformance/harness/runner.h"

namespace npuconf {
namespace {

std::string Validate(const std::vector<std::string>& claims) {
  return ValidateClaims(claims, BuiltinSuite().specs(), BuiltinProfiles());
}

const RoutineSpec& Spec(const std::string& id) { return *BuiltinSuite().FindRoutine(id)->spec; }

TEST(Claims, ParsesRoutineProfileAndConditions) {
  std::string error;
  const PortClaims claims = PortClaims::Parse(
      {"rknn.b_norm_to_native:rk3588:K%32==0,N%32==0,K<=8192", "choice:cann.nz.fp32_c0=16"},
      &error);
  EXPECT_EQ(error, "");
  ASSERT_EQ(claims.routines().size(), 1u);
  const RoutineClaim& claim = claims.routines()[0];
  EXPECT_EQ(claim.routine, "rknn.b_norm_to_native");
  EXPECT_EQ(claim.profile, "rk3588");
  ASSERT_EQ(claim.conditions.size(), 3u);
  EXPECT_EQ(claim.conditions[0].kind, ClaimCondition::Kind::kMultipleOf);
  EXPECT_EQ(claim.conditions[0].number, 32);
  EXPECT_EQ(claim.conditions[2].kind, ClaimCondition::Kind::kAtMost);
  EXPECT_EQ(claim.conditions[2].number, 8192);
  EXPECT_EQ(claims.Choice("cann.nz.fp32_c0"), "16");
  EXPECT_EQ(claims.Choice("cann.nz.int4_c0"), std::nullopt);
}

TEST(Claims, MalformedConditionsAreNamed) {
  for (const auto& [claim, says] : std::vector<std::pair<std::string, std::string>>{
           {"rknn.b_norm_to_native:rk3588:K%0==0", "modulus must be positive"},
           {"rknn.b_norm_to_native:rk3588:K%32", "KEY%M==0"},
           {"rknn.b_norm_to_native:rk3588:K<=big", "'big' is not an integer"},
           {"rknn.b_norm_to_native:rk3588:K", "none of"},
           {"cann.nd_to_nz:ascend910b:dtype=FLOAT16|", "empty value"},
           {"cann.nd_to_nz", "ROUTINE:PROFILE"},
           {"cann.nd_to_nz:", "no profile"},
           {"choice:cann.nz.fp32_c0", "choice:NAME=VALUE"}}) {
    std::string error;
    PortClaims::Parse({claim}, &error);
    EXPECT_NE(error.find(says), std::string::npos) << claim << ": " << error;
    EXPECT_NE(error.find(claim), std::string::npos) << claim << ": " << error;
  }
}

TEST(Claims, CoversOnlyCasesWhereEveryConditionHolds) {
  const PortClaims claims =
      PortClaims::Parse({"rknn.b_norm_to_native:rk3588:K%32==0,N%32==0,K<=8192"});
  const RoutineSpec& spec = Spec("rknn.b_norm_to_native");
  auto b = [](int64_t k, int64_t n) {
    return Case("rknn.b_norm_to_native", "rk3588").Set("type", 1).Set("K", k).Set("N", n);
  };
  EXPECT_TRUE(claims.Covers(b(64, 32), "rk3588", spec));
  EXPECT_TRUE(claims.Covers(b(8192, 32), "rk3588", spec));
  EXPECT_FALSE(claims.Covers(b(8224, 32), "rk3588", spec));  // K > 8192
  EXPECT_FALSE(claims.Covers(b(33, 32), "rk3588", spec));    // K % 32 != 0
  EXPECT_FALSE(claims.Covers(b(64, 48), "rk3588", spec));    // N % 32 != 0
  EXPECT_FALSE(claims.Covers(b(64, 32), "rk3576", spec));    // another profile
}

TEST(Claims, SetConditionsReadTheCaseTextAndIntListsElementWise) {
  const PortClaims claims = PortClaims::Parse({"cann.nd_to_nz:ascend910b:dtype=FLOAT16|INT8"});
  const RoutineSpec& spec = Spec("cann.nd_to_nz");
  const Case fp16 =
      Case("cann.nd_to_nz", "ascend910b").Set("dtype", DType::kFloat16).Set("shape", Shape{2, 2});
  const Case fp32 =
      Case("cann.nd_to_nz", "ascend910b").Set("dtype", DType::kFloat).Set("shape", Shape{2, 2});
  EXPECT_TRUE(claims.Covers(fp16, "ascend910b", spec));
  EXPECT_FALSE(claims.Covers(fp32, "ascend910b", spec));

  const PortClaims aligned = PortClaims::Parse({"cann.nd_to_nz:*:shape%16==0"});
  EXPECT_TRUE(aligned.Covers(
      Case("cann.nd_to_nz").Set("dtype", DType::kFloat16).Set("shape", Shape{32, 16}), "x", spec));
  EXPECT_FALSE(aligned.Covers(
      Case("cann.nd_to_nz").Set("dtype", DType::kFloat16).Set("shape", Shape{32, 17}), "x", spec));
  // A param left out takes its literal default (format defaults to ND).
  const PortClaims nd_only = PortClaims::Parse({"cann.trans_matmul_weight:*:format=ND"});
  const RoutineSpec& trans = Spec("cann.trans_matmul_weight");
  EXPECT_TRUE(
      nd_only.Covers(Case("cann.trans_matmul_weight").Set("shape", Shape{2, 2}), "x", trans));
  EXPECT_FALSE(nd_only.Covers(
      Case("cann.trans_matmul_weight").Set("shape", Shape{2, 2}).Set("format", "FRACTAL_NZ"), "x",
      trans));
}

TEST(Claims, ValidationNamesTheClaimAndTheOffendingValue) {
  EXPECT_EQ(Validate({"cann.nd_to_nz:*", "rknn.b_norm_to_native:rk3588:K%32==0,N%32==0,K<=8192",
                      "cann.nd_to_nz:ascend910b:dtype=FLOAT16|INT8", "*:*",
                      "choice:cann.size.negative_dims=as_shipped"}),
            "");
  for (const auto& [claims, says] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"cann.no_such:*"}, "unknown routine 'cann.no_such'"},
           {{"cann.nd_to_nz:ascend999"}, "unknown profile 'ascend999'"},
           {{"cann.nd_to_nz:rk3588"}, "runs on cann profiles"},
           {{"cann.nd_to_nz:*:K%32==0"}, "'K' is not a param of cann.nd_to_nz"},
           {{"cann.nd_to_nz:*:dtype=FLOAT99"}, "unknown dtype 'FLOAT99'"},
           {{"cann.nd_to_nz:*:dtype%2==0"}, "needs an integer param"},
           {{"cann.trans_matmul_weight:*:format=NZ"}, "'NZ' is not a value of format"},
           {{"choice:cann.no_such_choice=x"}, "unknown choice 'cann.no_such_choice'"},
           {{"choice:cann.size.negative_dims=whatever"}, "no reading 'whatever'"}}) {
    const std::string error = Validate(claims);
    EXPECT_NE(error.find(says), std::string::npos) << claims[0] << ": " << error;
    EXPECT_NE(error.find(claims[0]), std::string::npos) << claims[0] << ": " << error;
  }
}

TEST(Claims, ProfileAsClaimedCarriesTheClaimedReading) {
  const Profile* rk3588 = FindProfile("rk3588");
  ASSERT_NE(rk3588, nullptr);
  const Choice* nibble = rk3588->FindChoice("rknn.int4.native_b_nibble");
  ASSERT_NE(nibble, nullptr);
  const std::string other = nibble->value == "high_first" ? "low_first" : "high_first";
  EXPECT_EQ(ProfileAsClaimed(
                *rk3588, PortClaims::Parse({"choice:rknn.int4.native_b_nibble=" + nibble->value})),
            std::nullopt);
  const auto claimed =
      ProfileAsClaimed(*rk3588, PortClaims::Parse({"choice:rknn.int4.native_b_nibble=" + other}));
  ASSERT_TRUE(claimed.has_value());
  EXPECT_EQ(claimed->FindChoice("rknn.int4.native_b_nibble")->value, other);
  EXPECT_EQ(NibbleOrderName(claimed->rknn->native_b_nibble), other);
}

// The reference port under other claims.
class ClaimingPort : public Port {
 public:
  explicit ClaimingPort(std::vector<std::string> claims)
      : Port("claiming", "1", std::move(claims)), reference_(MakeReferencePort()) {}
  Answer Call(const Invocation& inv) const override {
    ++calls;
    if (inv.c.Int("K").value_or(0) % 32 != 0 || inv.c.Int("N").value_or(0) % 32 != 0) ++outside;
    return reference_->Call(inv);
  }
  mutable int calls = 0;
  mutable int outside = 0;

 private:
  std::unique_ptr<Port> reference_;
};

RunOptions Options(const std::string& property) {
  RunOptions options;
  options.profiles = {"rk3588"};
  options.property_glob = property;
  options.cases = 30;
  options.real_shapes = false;
  return options;
}

TEST(Claims, RunnerChecksOnlyCasesInsideNarrowedClaims) {
  ClaimingPort port({"rknn.b_norm_to_native:rk3588:K%32==0,N%32==0",
                     "rknn.b_native_to_norm:rk3588:K%32==0,N%32==0"});
  const auto report =
      RunSuite(BuiltinSuite(), port, Options("rknn.b_norm_to_native.matches_oracle"));
  ASSERT_EQ(report.results.size(), 1u);
  const auto& r = report.results[0];
  EXPECT_GT(port.calls, 0);
  EXPECT_EQ(port.outside, 0) << "a case outside the claims reached the port";
  EXPECT_GT(r.outside_claims, 0);
  // Checked and passed, or (when the generator rarely hits the claim) not claimed; never fail.
  EXPECT_TRUE(r.outcome == report::Outcome::kPass || r.outcome == report::Outcome::kNotClaimed)
      << report::ToString(r.outcome) << ": " << r.message;
  EXPECT_EQ(report.port_claims.size(), 2u);
}

TEST(Claims, ClaimsNoCaseSatisfiesAreNotClaimedNotFailedNorPassed) {
  ClaimingPort port({"rknn.b_norm_to_native:rk3588:K>=1000000000"});
  const auto report =
      RunSuite(BuiltinSuite(), port, Options("rknn.b_norm_to_native.padding_is_zero"));
  ASSERT_EQ(report.results.size(), 1u);
  EXPECT_EQ(report.results[0].outcome, report::Outcome::kNotClaimed) << report.results[0].message;
  EXPECT_EQ(port.calls, 0);
  EXPECT_NE(report.results[0].message.find("outside the port's claims"), std::string::npos);
}

TEST(Claims, ReportPrintsTheClaimedReadingBesideTheProfileDefault) {
  const Profile* rk3588 = FindProfile("rk3588");
  const std::string profile_default = rk3588->FindChoice("rknn.int4.native_b_nibble")->value;
  const std::string other = profile_default == "high_first" ? "low_first" : "high_first";
  ClaimingPort port({"*:rk3588", "choice:rknn.int4.native_b_nibble=" + other});
  RunOptions options = Options("rknn.b_norm_to_native.matches_oracle");
  options.cases = 5;
  const auto report = RunSuite(BuiltinSuite(), port, options);
  ASSERT_EQ(report.results.size(), 1u);
  bool found = false;
  for (const auto& c : report.results[0].choices) {
    if (c.name != "rknn.int4.native_b_nibble") continue;
    found = true;
    EXPECT_EQ(c.value, other);
    EXPECT_EQ(c.profile_default, profile_default);
    EXPECT_TRUE(c.claimed);
  }
  ASSERT_TRUE(found);
  // The reference implements the profile's reading, so under the other claimed
  // reading it may fail; what matters here is which reading is reported.
  const std::string md = report::ToMarkdown(report);
  EXPECT_NE(md.find("(claimed reading "), std::string::npos) << md;
  EXPECT_NE(md.find("; profile default "), std::string::npos) << md;
  bool in_json = false;
  const nlohmann::json doc = report::ToJson(report);
  for (const auto& c : doc["results"][0]["choices"]) {
    in_json |= c["name"] == "rknn.int4.native_b_nibble" && c["value"] == other &&
               c["profile_default"] == profile_default && c["claimed"] == true;
  }
  EXPECT_TRUE(in_json);
}

}  // namespace
}  // namespace npuconf
