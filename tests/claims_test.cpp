// Claims that mean something (conformance/ports/claims.h): the syntax of
// narrowed claims, their validation against the routine table and profiles,
// and the runner checking only what a port claims, with the reading it claims.
#include "conformance/ports/claims.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include "cli/families.h"
#include "conformance/harness/materialize.h"
#include "conformance/harness/runner.h"
#include "reports/matrix.h"

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
           {{"choice:cann.size.negative_dims=whatever"}, "no reading 'whatever'"},
           // A case writes FLOAT16 and INT8: another spelling would never match.
           {{"cann.nd_to_nz:*:dtype=FLOAT16|int8"}, "dtype 'int8' is written 'INT8'"},
           {{"cann.nd_to_nz:*:dtype=FP16"}, "dtype 'FP16' is written 'FLOAT16'"},
           // The data a case is fed is not what a port accepts.
           {{"cann.nd_to_nz:*:seed<=1000"}, "'seed' picks the input data of cann.nd_to_nz"},
           {{"*:*:seed%2==0"}, "'seed' picks the input data"},
           {{"rknn.int4_pack:*:rank(values)=4"}, "'values' picks the input data"},
           {{"cann.antiquant:*:scales=mixed"}, "'scales' picks the input data"}}) {
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

// ---- claims narrow, never weaken (issue 15 item 0) ---------------------------------

TEST(Claims, RankConditionsBoundTheLengthOfAnIntList) {
  EXPECT_EQ(Validate({"cann.nd_to_nz:*:rank(shape)=2", "cann.nz_to_nd:*:rank(shape)<=4"}), "");
  EXPECT_NE(Validate({"cann.nd_to_nz:*:rank(dtype)=2"}).find("needs an int-list param"),
            std::string::npos);
  std::string error;
  PortClaims::Parse({"cann.nd_to_nz:*:rank(shape)%2==0"}, &error);
  EXPECT_NE(error.find("rank(KEY)=R1|R2"), std::string::npos) << error;
  const PortClaims two_d = PortClaims::Parse({"cann.nd_to_nz:*:rank(shape)=2"});
  const RoutineSpec& spec = Spec("cann.nd_to_nz");
  auto nd = [](Shape shape) {
    return Case("cann.nd_to_nz").Set("dtype", DType::kFloat16).Set("shape", shape);
  };
  EXPECT_TRUE(two_d.Covers(nd({3, 5}), "ascend910b", spec));
  EXPECT_FALSE(two_d.Covers(nd({2, 3, 5}), "ascend910b", spec));
  EXPECT_FALSE(two_d.Covers(nd({5}), "ascend910b", spec));
}

// Found by fuzz/claims_fuzz.cpp: the greatest multiple of 15 at most
// INT64_MIN + 1 lies below INT64_MIN, and Fit computed it with a signed overflow.
TEST(Claims, FitNearInt64MinHasNoAdmittedValueInsteadOfOverflowing) {
  const PortClaims claims =
      PortClaims::Parse({"cann.nd_to_nz:*:shape<=-9223372036854775807,shape%15==0"});
  const auto domains = claims.Domains(Spec("cann.nd_to_nz"), "ascend910b");
  ASSERT_EQ(domains.size(), 1u);
  const ParamBounds* shape = domains[0].Find("shape");
  ASSERT_NE(shape, nullptr);
  EXPECT_EQ(shape->Fit(INT64_MIN), std::nullopt);
  EXPECT_EQ(shape->Fit(0), std::nullopt);
  EXPECT_EQ(RoundDownToMultiple(INT64_MIN + 1, 15), std::nullopt);
  EXPECT_EQ(RoundDownToMultiple(INT64_MIN + 8, 15), INT64_MIN + 8);
  EXPECT_EQ(RoundDownToMultiple(-1, 15), -15);
}

TEST(Claims, TwoReadingsOfOneChoiceAreRefused) {
  const std::string error =
      Validate({"cann.nd_to_nz:*", "choice:cann.nz.fp32_c0=16", "choice:cann.nz.fp32_c0=8"});
  EXPECT_NE(error.find("two readings of choice cann.nz.fp32_c0"), std::string::npos) << error;
  EXPECT_EQ(Validate({"choice:cann.nz.fp32_c0=16", "choice:cann.nz.fp32_c0=16"}), "");
}

TEST(Claims, DomainsBoundEachParamAsTheClaimSays) {
  const PortClaims claims =
      PortClaims::Parse({"rknn.b_norm_to_native:rk3588:type=1|4,K%32==0,N%16==0,K<=10240,K%64==0",
                         "rknn.b_norm_to_native:rk3576:type=2"});
  const auto domains = claims.Domains(Spec("rknn.b_norm_to_native"), "rk3588");
  ASSERT_EQ(domains.size(), 1u);
  const ParamBounds* k = domains[0].Find("K");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->multiple, 64);  // the lcm of 32 and 64
  EXPECT_EQ(k->max, 10240);
  EXPECT_EQ(k->Fit(1), 64);
  EXPECT_EQ(k->Fit(10241), 10240);
  EXPECT_EQ(k->Fit(65, 1, 100), 64);  // none >= 65 up to 100: the greatest below
  EXPECT_EQ(k->Fit(5, 65, 100), std::nullopt);
  EXPECT_EQ(domains[0].Find("type")->Fit(2), 4);
  EXPECT_TRUE(domains[0].AdmitsInt("type", 1));
  EXPECT_FALSE(domains[0].AdmitsInt("type", 2));
  EXPECT_TRUE(claims.Domains(Spec("rknn.b_norm_to_native"), "rk3562").empty());
  // A claim without conditions admits everything, whatever the others say.
  EXPECT_TRUE(PortClaims::Parse({"rknn.b_norm_to_native:*", "rknn.b_norm_to_native:*:K<=5"})
                  .Domains(Spec("rknn.b_norm_to_native"), "rk3588")
                  .front()
                  .Unbounded());
  // A param left out takes its literal default: B_layout=0 admits it, B_layout=1 does not.
  const RoutineSpec& create = Spec("rknn.matmul_create");
  EXPECT_TRUE(PortClaims::Parse({"rknn.matmul_create:*:B_layout=0"})
                  .Domains(create, "rk3588")
                  .front()
                  .AdmitsAbsent("B_layout"));
  EXPECT_FALSE(PortClaims::Parse({"rknn.matmul_create:*:B_layout=1"})
                   .Domains(create, "rk3588")
                   .front()
                   .AdmitsAbsent("B_layout"));
}

// What a unit of `port` checked: explicit cases (those over the budget
// included) and random ones.
struct Checked {
  int64_t explicit_cases = 0, random_cases = 0, outside = 0;
  report::Outcome outcome = report::Outcome::kPass;
  std::string message;
};
Checked RunUnit(const Port& port, const std::string& profile, const std::string& property,
                int cases, bool real_shapes) {
  RunOptions options;
  options.profiles = {profile};
  options.property_glob = property;
  options.cases = cases;
  options.real_shapes = real_shapes;
  const auto report = RunSuite(BuiltinSuite(), port, options);
  EXPECT_EQ(report.results.size(), 1u);
  if (report.results.empty()) return {};
  const auto& r = report.results[0];
  return {r.explicit_cases + r.too_large, r.random_cases, r.outside_claims, r.outcome, r.message};
}

TEST(Claims, AClaimedReadingKeepsEveryRealShapeCase) {
  // The real model shapes are weighed, not run: a small budget counts them as too large.
  const uint64_t budget = MaxCaseBytes();
  SetMaxCaseBytes(uint64_t{1} << 18);
  const auto plain = MakeReferencePort({"cann.nd_to_nz:*"});
  const auto reading =
      MakeReferencePort({"cann.nd_to_nz:*", "choice:cann.size.negative_dims=as_shipped"});
  const Checked a = RunUnit(*plain, "ascend310b", "cann.nd_to_nz.matches_oracle", 0, true);
  const Checked b = RunUnit(*reading, "ascend310b", "cann.nd_to_nz.matches_oracle", 0, true);
  const Checked edge = RunUnit(*plain, "ascend310b", "cann.nd_to_nz.matches_oracle", 0, false);
  SetMaxCaseBytes(budget);
  EXPECT_GT(a.explicit_cases, edge.explicit_cases) << "the real shapes are among the cases";
  EXPECT_EQ(a.explicit_cases, b.explicit_cases) << "a claimed reading dropped cases";
}

TEST(Claims, NarrowedDtypesStillGetTheirRealShapes) {
  // UINT8 shares INT8's layout class (8 bits, C0 32): a port claiming only UINT8
  // gets the class's real shapes as UINT8 cases.
  const uint64_t budget = MaxCaseBytes();
  SetMaxCaseBytes(uint64_t{1} << 18);
  const auto uint8_only = MakeReferencePort({"cann.nd_to_nz:ascend910b:dtype=UINT8"});
  const auto int8_only = MakeReferencePort({"cann.nd_to_nz:ascend910b:dtype=INT8"});
  const Checked u = RunUnit(*uint8_only, "ascend910b", "cann.nd_to_nz.matches_oracle", 0, true);
  const Checked i = RunUnit(*int8_only, "ascend910b", "cann.nd_to_nz.matches_oracle", 0, true);
  const Checked edge = RunUnit(*uint8_only, "ascend910b", "cann.nd_to_nz.matches_oracle", 0, false);
  SetMaxCaseBytes(budget);
  EXPECT_GT(u.explicit_cases, edge.explicit_cases);
  EXPECT_EQ(u.explicit_cases, i.explicit_cases);
}

// The reference answering FRACTAL_NZ of FLOAT/INT32 with C0 16, as GraphEngine's
// host converter does (spec cann.md §5.6): it asks the reference for c0=16.
class C016Port : public Port {
 public:
  explicit C016Port(std::vector<std::string> claims)
      : Port("c0-16", "1", std::move(claims)), reference_(MakeReferencePort()) {}
  Answer Call(const Invocation& inv) const override {
    const auto dtype = inv.c.DTypeParam("dtype");
    if ((inv.c.routine != "cann.nd_to_nz" && inv.c.routine != "cann.nz_to_nd") || !dtype ||
        (*dtype != DType::kFloat && *dtype != DType::kInt32) || inv.c.Find("c0")) {
      return reference_->Call(inv);
    }
    Invocation as_16 = inv;
    as_16.c.Set("c0", int64_t{16});
    return reference_->Call(as_16);
  }

 private:
  std::unique_ptr<Port> reference_;
};

TEST(Claims, AClaimedC0ReadingIsTheOneEveryCaseIsJudgedAgainst) {
  const Property& prop = *BuiltinSuite().FindProperty("cann.nd_to_nz.matches_oracle");
  const Profile& b910 = *FindProfile("ascend910b");
  Case fp32("cann.nd_to_nz", "ascend910b");
  fp32.Set("dtype", DType::kFloat).Set("seed", int64_t{1}).Set("shape", Shape{17, 33});
  const C016Port ge_like({"cann.nd_to_nz:*", "cann.nz_to_nd:*", "choice:cann.nz.fp32_c0=16"});
  const Verdict v = CheckOne(BuiltinSuite(), ge_like, prop, b910, fp32);
  EXPECT_EQ(v.kind, Verdict::Kind::kPass) << v.message;
  const C016Port unclaimed({"cann.nd_to_nz:*", "cann.nz_to_nd:*"});
  EXPECT_TRUE(CheckOne(BuiltinSuite(), unclaimed, prop, b910, fp32).failed());
  // The reference (C0 8) claiming 16 is judged against 16.
  const auto reference = MakeReferencePort({"cann.nd_to_nz:*", "choice:cann.nz.fp32_c0=16"});
  EXPECT_TRUE(CheckOne(BuiltinSuite(), *reference, prop, b910, fp32).failed());
  // Every property of the layout, edge and random cases alike.
  for (const char* p : {"cann.nd_to_nz.*", "cann.nz_to_nd.*"}) {
    RunOptions options;
    options.profiles = {"ascend910b"};
    options.property_glob = p;
    options.real_shapes = false;
    options.cases = 40;
    for (const auto& r : RunSuite(BuiltinSuite(), ge_like, options).results) {
      EXPECT_EQ(r.outcome, report::Outcome::kPass) << r.property << ": " << r.message;
      for (const auto& c : r.choices) {
        if (c.name == "cann.nz.fp32_c0") {
          EXPECT_EQ(c.value, "16");
          EXPECT_EQ(c.profile_default, "8");
        }
      }
    }
  }
}

TEST(Claims, AClaimedEmptyTensorReadingIsApplied) {
  const Property& prop = *BuiltinSuite().FindProperty("cann.trans_matmul_weight.rejects_invalid");
  const Profile& b910 = *FindProfile("ascend910b");
  Case empty("cann.trans_matmul_weight", "ascend910b");
  empty.Set("shape", Shape{16, 0}).Set("dtype", DType::kFloat16).Set("seed", int64_t{1});
  const auto shipped = MakeReferencePort({"cann.trans_matmul_weight:*"});
  EXPECT_EQ(CheckOne(BuiltinSuite(), *shipped, prop, b910, empty).kind, Verdict::Kind::kPass);
  // The reference returns SUCCESS for it, as shipped: judged as documented, that fails.
  const auto documented = MakeReferencePort(
      {"cann.trans_matmul_weight:*", "choice:cann.trans.empty_tensor=as_documented"});
  const Verdict v = CheckOne(BuiltinSuite(), *documented, prop, b910, empty);
  EXPECT_TRUE(v.failed());
  EXPECT_NE(v.message.find("161002"), std::string::npos) << v.message;
}

TEST(Claims, ANarrowedPortGetsEveryRandomCaseInsideItsClaims) {
  const auto narrow =
      MakeReferencePort({"rknn.b_tp_norm_to_native:rk3588:type=1|4,K%32==0,N%16==0,K<=10240",
                         "rknn.b_native_to_tp_norm:rk3588:type=1|4,K%32==0,N%16==0,K<=10240"});
  const Checked c =
      RunUnit(*narrow, "rk3588", "rknn.b_tp_norm_to_native.matches_oracle", 100, false);
  EXPECT_EQ(c.outcome, report::Outcome::kPass) << c.message;
  EXPECT_EQ(c.random_cases, 100);
}

TEST(Claims, ARandomPhaseEmptiedByClaimsTheGeneratorsCannotDrawInsideGivesUp) {
  // The generators do not bound the seed (a claim may not: ValidateClaims),
  // so nearly every draw lies outside; the one or two inside check too little
  // for a pass, even on a correct port (a tester's false green: a buggy port
  // CONFORMANT on 1 random case).
  const auto narrow = MakeReferencePort({"cann.nd_to_nz:ascend910b:seed<=1000"});
  const Checked c =
      RunUnit(*narrow, "ascend910b", "cann.nd_to_nz.matches_oracle", kDefaultCases, false);
  EXPECT_LT(c.random_cases, kDefaultCases / 10);
  EXPECT_EQ(c.outcome, report::Outcome::kGaveUp) << c.message;
  EXPECT_NE(c.message.find("a pass needs"), std::string::npos) << c.message;
}

TEST(Claims, AFaultInsideNarrowedClaimsThatFewCasesReachIsCaught) {
  // No K segmentation shows only for K > 8192 on RK3588 (spec rknn.md §3.3): a
  // few percent of the whole domain, and no explicit case of these claims.
  const auto narrow =
      MakeMutantPort(*FindMutant("rknn-no-k-segmentation"),
                     {"rknn.b_tp_norm_to_native:rk3588:type=1|4,K%32==0,N%16==0,K<=10240",
                      "rknn.b_native_to_tp_norm:rk3588:type=1|4,K%32==0,N%16==0,K<=10240"});
  const Checked c =
      RunUnit(*narrow, "rk3588", "rknn.b_tp_norm_to_native.matches_oracle", kDefaultCases, false);
  EXPECT_EQ(c.outcome, report::Outcome::kFail) << c.message;
}

// Numbers in claims (issue 41): one spelling each, compared as numbers. A
// claim `rank(shape)=1|2|03` once matched rank-3 cases as the text "3" against
// "03", so a port wrong at rank 3 passed.
TEST(Claims, ANumberWrittenAnotherWayIsRefusedNamingItsCanonicalSpelling) {
  for (const auto& [claim, says] : std::vector<std::pair<std::string, std::string>>{
           {"cann.nd_to_nz:ascend910b:rank(shape)=1|2|03", "rank '03' is written '3'"},
           {"cann.nd_to_nz:ascend910b:c0=032", "'032' is written '32'"},
           {"cann.nd_to_nz:ascend910b:shape=[064]", "'[064]' is written '[64]'"},
           {"cann.nd_to_nz:ascend910b:shape=64", "'64' is not a list"},
           {"rknn.b_norm_to_native:rk3588:K<=08192", "'08192' is written '8192'"},
           {"rknn.b_norm_to_native:rk3588:K%+32==0", "'+32' is not an integer"}}) {
    const std::string error = Validate({claim});
    EXPECT_NE(error.find(says), std::string::npos) << claim << ": " << error;
    EXPECT_NE(error.find(claim), std::string::npos) << claim << ": " << error;
  }
  const PortClaims claims =
      PortClaims::Parse({"cann.nd_to_nz:ascend910b:rank(shape)=1|2|3,c0=16|32"});
  const PortClaims one_shape = PortClaims::Parse({"cann.nd_to_nz:ascend910b:shape=[64]|[65]"});
  const RoutineSpec& spec = Spec("cann.nd_to_nz");
  auto nz = [](Shape shape, int64_t c0) {
    return Case("cann.nd_to_nz", "ascend910b")
        .Set("dtype", DType::kInt8)
        .Set("shape", shape)
        .Set("c0", c0);
  };
  EXPECT_TRUE(claims.Covers(nz({2, 3, 64}, 32), "ascend910b", spec));
  EXPECT_TRUE(claims.Covers(nz({64}, 16), "ascend910b", spec));
  EXPECT_FALSE(claims.Covers(nz({2, 64}, 8), "ascend910b", spec));
  EXPECT_FALSE(claims.Covers(nz({1, 2, 3, 64}, 32), "ascend910b", spec));
  EXPECT_TRUE(one_shape.Covers(nz({64}, 32), "ascend910b", spec));
  EXPECT_FALSE(one_shape.Covers(nz({2, 64}, 32), "ascend910b", spec));
}

// A param a case leaves to its default is judged by the value the routine
// then takes on the profile as claimed (Suite::Effective): `c0=16|32` admits
// an INT8 case without c0 where INT8's C0 is 32.
TEST(Claims, ADefaultedParamIsJudgedByItsEffectiveValue) {
  const Suite& suite = BuiltinSuite();
  const Profile& ascend = *FindProfile("ascend910b");
  const PortClaims claims = PortClaims::Parse({"cann.nd_to_nz:ascend910b:c0=16|32"});
  const RoutineSpec& spec = Spec("cann.nd_to_nz");
  for (const auto& [dtype, c0] : ascend.cann->nz_c0) {
    const Case c =
        Case("cann.nd_to_nz", "ascend910b").Set("dtype", dtype).Set("shape", Shape{2, 2});
    const Case effective = suite.Effective(c, ascend);
    EXPECT_EQ(effective.Int("c0"), c0) << Name(dtype);
    EXPECT_EQ(claims.Covers(effective, "ascend910b", spec), c0 == 16 || c0 == 32) << Name(dtype);
  }
  // The claimed reading decides: FLOAT's C0 under choice cann.nz.fp32_c0=16.
  const Profile fp32_16 =
      *ProfileAsClaimed(ascend, PortClaims::Parse({"choice:cann.nz.fp32_c0=16"}));
  const Case fp32 =
      Case("cann.nd_to_nz", "ascend910b").Set("dtype", DType::kFloat).Set("shape", Shape{2, 2});
  EXPECT_EQ(suite.Effective(fp32, fp32_16).Int("c0"), 16);
  EXPECT_NE(suite.Effective(fp32, ascend).Int("c0"), 16);

  // RKNN: the platform's segment length and the type's NATIVE sub-blocks.
  const Profile& rk3588 = *FindProfile("rk3588");
  const Case b = Case("rknn.b_norm_to_native", "rk3588")
                     .Set("type", int64_t{1})
                     .Set("K", int64_t{64})
                     .Set("N", int64_t{64});
  const Case eff = suite.Effective(b, rk3588);
  EXPECT_EQ(eff.Int("seg_len"), rk3588.rknn->k_segment);
  EXPECT_GT(eff.Int("sub_n").value_or(0), 0);
  EXPECT_GT(eff.Int("sub_k").value_or(0), 0);
  EXPECT_EQ(eff.String("native_nibble"), rk3588.FindChoice("rknn.int4.native_b_nibble")->value);
  const std::string seg = std::to_string(rk3588.rknn->k_segment);
  EXPECT_TRUE(PortClaims::Parse({"rknn.b_norm_to_native:rk3588:seg_len=" + seg})
                  .Covers(eff, "rk3588", Spec("rknn.b_norm_to_native")));
  EXPECT_FALSE(PortClaims::Parse({"rknn.b_norm_to_native:rk3588:seg_len=0"})
                   .Covers(eff, "rk3588", Spec("rknn.b_norm_to_native")));
}

// The false greens of issue 41: a wrong port whose claims condition a
// defaulted param once had every defaulted case dropped, and passed.
TEST(Claims, AWrongPortNarrowedOnADefaultedParamIsRed) {
  const auto c0 = MakeMutantPort(*FindMutant("int8-c0-16"), {"cann.nd_to_nz:ascend910b:c0=16|32",
                                                             "cann.nz_to_nd:ascend910b:c0=16|32"});
  const Checked nz = RunUnit(*c0, "ascend910b", "cann.nd_to_nz.matches_oracle", 100, false);
  EXPECT_EQ(nz.outcome, report::Outcome::kFail) << nz.message;

  const std::string seg = std::to_string(FindProfile("rk3588")->rknn->k_segment);
  for (const std::string& cond : {"seg_len=" + seg, std::string("seg_len>=1")}) {
    const auto no_seg =
        MakeMutantPort(*FindMutant("rknn-no-k-segmentation"),
                       {"rknn.b_norm_to_native:rk3588:" + cond, "rknn.b_native_to_norm:rk3588"});
    const Checked b = RunUnit(*no_seg, "rk3588", "rknn.b_norm_to_native.segmentation", 100, false);
    EXPECT_EQ(b.outcome, report::Outcome::kFail) << cond << ": " << b.message;
  }
}

// A correct port claiming a defaulted param's value gets its random cases by
// construction (generators draw the dtypes whose C0 the claim admits).
TEST(Claims, ACorrectPortNarrowedOnADefaultedParamGetsItsRandomCases) {
  const auto port = MakeMutantPort(*FindMutant("int8-c0-16"), {"cann.nd_to_nz:ascend910b:c0=16",
                                                               "cann.nz_to_nd:ascend910b:c0=16"});
  // int8-c0-16 is right wherever C0 is 16 (INT8's C0 is 32 on ascend910b,
  // spec cann.md §2.5 and profiles/cann/ascend910b.json fractal_nz.c0).
  ASSERT_EQ(FindProfile("ascend910b")->cann->nz_c0.at(DType::kInt8), 32);
  const Checked c = RunUnit(*port, "ascend910b", "cann.nd_to_nz.matches_oracle", 100, false);
  EXPECT_EQ(c.outcome, report::Outcome::kPass) << c.message;
  EXPECT_GE(c.random_cases, 100);
}

// GraphEngine's host NZ converter: C0 from the dtype (16 for FLOAT and INT32),
// never from the caller (spec layouts.md §A.0.1).
class GeNzPort : public Port {
 public:
  explicit GeNzPort(std::vector<std::string> claims)
      : Port("ge-nz", "1", std::move(claims)), reference_(MakeReferencePort()) {}
  Answer Call(const Invocation& inv) const override {
    const auto dtype = inv.c.DTypeParam("dtype");
    Invocation as_ge = inv;
    if (dtype == DType::kFloat || dtype == DType::kInt32) as_ge.c.Set("c0", int64_t{16});
    return reference_->Call(as_ge);
  }

 private:
  std::unique_ptr<Port> reference_;
};

// A caller-supplied value of a param the profile decides is a capability a
// port claims (honours:ROUTINE:KEY): GE's host NZ converter takes C0 from the
// dtype (16 for FLOAT) and no c0 from the caller; claiming that reading and
// no capability, it is judged at C0 16 only.
TEST(Claims, AnExplicitC0OtherThanTheProfilesIsInsideOnlyForAPortHonouringIt) {
  const Suite& suite = BuiltinSuite();
  const PortClaims ge =
      PortClaims::Parse({"cann.nd_to_nz:ascend910b", "choice:cann.nz.fp32_c0=16"});
  const PortClaims honouring = PortClaims::Parse(
      {"cann.nd_to_nz:ascend910b", "choice:cann.nz.fp32_c0=16", "honours:cann.nd_to_nz:c0"});
  const Profile claimed = *ProfileAsClaimed(*FindProfile("ascend910b"), ge);
  auto fp32 = [](std::optional<int64_t> c0) {
    Case c("cann.nd_to_nz", "ascend910b");
    c.Set("dtype", DType::kFloat).Set("shape", Shape{1});
    if (c0) c.Set("c0", *c0);
    return c;
  };
  std::string why;
  EXPECT_FALSE(InsideClaims(suite, ge, fp32(8), claimed, &why));
  EXPECT_NE(why.find("honours:cann.nd_to_nz:c0"), std::string::npos) << why;
  EXPECT_TRUE(InsideClaims(suite, honouring, fp32(8), claimed));
  EXPECT_TRUE(InsideClaims(suite, ge, fp32(16), claimed)) << "the default, written out";
  EXPECT_TRUE(InsideClaims(suite, ge, fp32(std::nullopt), claimed));
  // The whole property: GE's converter (C0 16 for FLOAT, whatever the caller
  // says) is conformant on its claims.
  const GeNzPort ge_port(
      {"cann.nd_to_nz:ascend910b", "cann.nz_to_nd:ascend910b", "choice:cann.nz.fp32_c0=16"});
  const Checked c = RunUnit(ge_port, "ascend910b", "cann.nd_to_nz.matches_oracle", 100, false);
  EXPECT_EQ(c.outcome, report::Outcome::kPass) << c.message;
  EXPECT_GT(c.outside, 0);
  for (const std::string bad :
       {"honours:cann.nd_to_nz:shape", "honours:cann.nd_to_nz", "honours:cann.no_such:c0"}) {
    EXPECT_NE(Validate({"cann.nd_to_nz:*", bad}), "") << bad;
  }
  EXPECT_EQ(Validate({"cann.nd_to_nz:*", "honours:*:c0", "honours:rknn.b_norm_to_native:seg_len"}),
            "");
}

// KEY[I]: a condition on one axis of a shape (a batch-1 client).
TEST(Claims, AnAxisConditionBoundsOneElementOfAShape) {
  const PortClaims claims =
      PortClaims::Parse({"rknn.nc1hwc2_int8_to_nchw_float:rk3588:shape[0]<=1"});
  const RoutineSpec& spec = Spec("rknn.nc1hwc2_int8_to_nchw_float");
  auto nchw = [](Shape shape) {
    return Case("rknn.nc1hwc2_int8_to_nchw_float", "rk3588").Set("shape", shape);
  };
  EXPECT_TRUE(claims.Covers(nchw({1, 17, 3, 3}), "rk3588", spec));
  EXPECT_FALSE(claims.Covers(nchw({2, 17, 3, 3}), "rk3588", spec));
  EXPECT_FALSE(claims.Covers(nchw({}), "rk3588", spec));
  EXPECT_EQ(Validate({"rknn.nc1hwc2_int8_to_nchw_float:rk3588:shape[0]<=1"}), "");
  for (const std::string bad : {"rknn.nc1hwc2_int8_to_nchw_float:rk3588:shape[01]<=1",
                                "rknn.nc1hwc2_int8_to_nchw_float:rk3588:shape[-1]<=1",
                                "rknn.nc1hwc2_int8_to_nchw_float:rk3588:zp[0]=1",
                                "rknn.nc1hwc2_int8_to_nchw_float:rk3588:shape[0]=01"}) {
    EXPECT_NE(Validate({bad}), "") << bad;
  }
  // A batch-1 port with the demo's cumulative batch pointer (wrong from N = 3) is
  // right on every case its claim admits.
  const auto batch1 = MakeMutantPort(*FindMutant("nc1hwc2-dequant-cumulative-batch"),
                                     {"rknn.nc1hwc2_int8_to_nchw_float:rk3588:shape[0]<=1"});
  const Checked c =
      RunUnit(*batch1, "rk3588", "rknn.nc1hwc2_int8_to_nchw_float.matches_oracle", 100, false);
  EXPECT_EQ(c.outcome, report::Outcome::kPass) << c.message;
  EXPECT_GT(c.outside, 0);
}

// A correct ND -> NZ port on cann.trans_data claiming INT8 rank 2 only (issue
// 41: it once gave up on 8 properties, 0 of 100 random cases inside its
// claims in 1,495 draws): every property draws inside the claims, and a
// planted bug inside them is red.
TEST(Claims, ATransDataPortNarrowedToNdToNzIsJudgedOnItsDomain) {
  const std::vector<std::string> claims = {"cann.trans_data:ascend910b:dtype=INT8,rank(shape)=2"};
  RunOptions options;
  options.profiles = {"ascend910b"};
  options.property_glob = "cann.trans_data.*";
  options.cases = 100;
  options.real_shapes = false;
  const auto port = MakeReferencePort(claims);
  const auto report = RunSuite(BuiltinSuite(), *port, options);
  int checked = 0;
  for (const auto& r : report.results) {
    EXPECT_TRUE(r.outcome == report::Outcome::kPass || r.outcome == report::Outcome::kNotClaimed)
        << r.property << ": " << report::ToString(r.outcome) << ": " << r.message;
    const Property* property = BuiltinSuite().FindProperty(r.property);
    if (r.outcome == report::Outcome::kPass && property->generator) {
      ++checked;
      EXPECT_GE(r.random_cases, 100) << r.property << ": " << r.message;
    }
  }
  EXPECT_GE(checked, 3);
  const auto wrong = MakeMutantPort(*FindMutant("transdata-padding-unwritten"), claims);
  const Checked c = RunUnit(*wrong, "ascend910b", "cann.trans_data.padding_is_zero", 100, false);
  EXPECT_EQ(c.outcome, report::Outcome::kFail) << c.message;
}

// What generators test a case against (CaseDomain::Admits) is what the runner
// checks (PortClaims::Covers), on every property's cases.
TEST(Claims, ADomainAdmitsExactlyTheCasesItsClaimCovers) {
  const std::vector<std::string> claims = {
      "cann.nd_to_nz:*:dtype=FLOAT16|INT8,shape%16==0,rank(shape)<=3",
      "cann.calculate_matmul_weight_size_v2:*:dtype=FLOAT16,shape<=65536",
      "cann.trans_matmul_weight:*:format=ND,rank(shape)=2|3",
      "rknn.b_norm_to_native:*:type=1|4|2,K%32==0,N<=64",
      "rknn.matmul_create:*:type=1,B_layout=0,K>=64",
      "rknn.int4_pack:*:count%2==0,nibble=low_first",
      "cann.antiquant:*:weight_dtype=INT8,k%64==0,offset=0"};
  const PortClaims parsed = PortClaims::Parse(claims);
  const auto port = MakeReferencePort(ReferenceClaims());
  int compared = 0;
  for (const char* profile_name : {"ascend910b", "rk3588"}) {
    const Profile& profile = *FindProfile(profile_name);
    const std::vector<const Profile*> profiles = {&profile};
    const PropertyContext ctx{BuiltinSuite(), *port, profile, profiles, false};
    for (const Property& p : BuiltinSuite().properties()) {
      if (!p.generator || BuiltinSuite().FindRoutine(p.routine)->spec->vendor != profile.family)
        continue;
      const RoutineSpec& spec = *BuiltinSuite().FindRoutine(p.routine)->spec;
      const auto domains = parsed.Domains(spec, profile.name);
      if (domains.empty()) continue;
      const auto gen = p.generator(ctx);
      for (int i = 0; i < 40; ++i) {
        const Case c = gen(rc::Random(static_cast<uint64_t>(i) * 7919 + 1), i % 60).value();
        if (c.routine != spec.id) continue;
        bool any = false;
        for (const CaseDomain& d : domains) any |= d.Admits(c);
        // The runner judges effective values (Suite::Effective); a domain cannot
        // know a profile's default, so it admits a case leaving such a param out
        // and the runner decides. Everywhere else the two agree exactly.
        const bool covered =
            parsed.Covers(BuiltinSuite().Effective(c, profile), profile.name, spec);
        bool leaves_profile_default = false;
        for (const ParamSpec& param : spec.params)
          leaves_profile_default |= param.profile_default && !c.Find(param.key);
        if (leaves_profile_default) {
          EXPECT_TRUE(any || !covered) << c.ToText();
        } else {
          EXPECT_EQ(any, covered) << c.ToText();
        }
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 500);
}

// Claims narrowing dtypes, types and dims as real clients do, per routine: every
// property with a random phase gets its full --cases inside them, and passes.
TEST(Claims, NarrowedClaimsOfEveryFamilyGetTheirRandomCases) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> narrowed = {
      {"ascend910b",
       {"cann.nd_to_nz:ascend910b:dtype=FLOAT16|INT8,shape%16==0,rank(shape)<=3",
        "cann.nz_to_nd:ascend910b:dtype=FLOAT16|INT8,shape%16==0,rank(shape)<=3",
        "cann.trans_matmul_weight:ascend910b:dtype=INT8,rank(shape)=2",
        "cann.calculate_matmul_weight_size_v2:ascend910b:dtype=FLOAT16|BF16,shape<=65536",
        "cann.calculate_matmul_weight_size:ascend910b:shape%2==0",
        "cann.gather_dequant_int8:ascend910b:embed%64==0,vocab<=1000",
        "cann.gather_dequant_int8_quantize:ascend910b:embed%32==0",
        "cann.antiquant:ascend910b:weight_dtype=INT8,x_dtype=FLOAT16,k%64==0"}},
      {"rk3588",
       {"rknn.b_norm_to_native:rk3588:type=1|4|2,K%32==0,N%32==0",
        "rknn.b_native_to_norm:rk3588:type=1|4|2,K%32==0,N%32==0",
        "rknn.a_norm_to_native:rk3588:type=2,K%16==0,M<=64",
        "rknn.a_native_to_norm:rk3588:type=2,K%16==0,M<=64",
        "rknn.c_norm_to_native:rk3588:type=1|2,N%4==0",
        "rknn.c_native_to_norm:rk3588:type=1|2,N%4==0",
        "rknn.int4_pack:rk3588:count%2==0,count<=1024",
        "rknn.int4_unpack:rk3588:count%2==0,count<=1024",
        "rknn.matmul_create:rk3588:type=1|4,K%64==0,N%32==0,K<=8192,B_layout=1",
        "rknn.matmul_create_dynamic:rk3588:type=2,B_layout=0|1",
        "rknn.dequant_b:rk3588:dtype=INT8,k<=1024"}},
  };
  for (const auto& [profile, claims] : narrowed) {
    ASSERT_EQ(Validate(claims), "");
    const auto port = MakeReferencePort(claims);
    RunOptions options;
    options.profiles = {profile};
    options.cases = 50;
    options.real_shapes = false;
    for (const auto& r : RunSuite(BuiltinSuite(), *port, options).results) {
      const Property* p = BuiltinSuite().FindProperty(r.property);
      if (r.outcome == report::Outcome::kNotClaimed ||
          r.outcome == report::Outcome::kNotApplicable || !p || !p->generator)
        continue;
      EXPECT_EQ(r.outcome, report::Outcome::kPass) << r.property << ": " << r.message;
      EXPECT_EQ(r.random_cases, 50) << r.property << "@" << profile << ": " << r.message;
    }
  }
}

// Breaker F3: NC1HWC2 has no C2 for FLOAT (spec rknn.md Table 4-6), so a port
// claiming dtype=FLOAT is only ever asked to reject. Its conversion never ran:
// one passing rejects_invalid does not make the run CONFORMANT.
report::RunReport RunNc1hwc2(const std::vector<std::string>& claims, const std::string& property) {
  const auto port = MakeReferencePort(claims);
  RunOptions options;
  options.profiles = {"rk3588"};
  options.routine_glob = "rknn.nchw_to_nc1hwc2";
  options.property_glob = property;
  options.real_shapes = false;
  options.cases = 20;
  return RunSuite(BuiltinSuite(), *port, options);
}

TEST(Claims, ClaimsAdmittingOnlyRejectedCallsCheckNothing) {
  const report::RunReport only_float = RunNc1hwc2({"rknn.nchw_to_nc1hwc2:rk3588:dtype=FLOAT"}, "*");
  EXPECT_EQ(report::VerdictOf(only_float), report::Verdict::kNothingChecked);
  bool seen = false;
  for (const auto& r : only_float.results) {
    EXPECT_EQ(r.outcome, report::Outcome::kNotClaimed) << r.property << ": " << r.message;
    if (r.property != "rknn.nchw_to_nc1hwc2.rejects_invalid") continue;
    seen = true;
    EXPECT_GT(r.explicit_cases, 0) << "the rejections were still checked";
    EXPECT_NE(r.message.find("admit no valid case"), std::string::npos) << r.message;
  }
  EXPECT_TRUE(seen);
  // With a dtype that has a C2 beside it, the conversion is checked.
  const report::RunReport with_fp16 =
      RunNc1hwc2({"rknn.nchw_to_nc1hwc2:rk3588:dtype=FLOAT|FLOAT16"}, "*");
  EXPECT_EQ(report::VerdictOf(with_fp16), report::Verdict::kConformant);
  // Selecting rejects_invalid alone checks the rejections, on purpose.
  const report::RunReport selected =
      RunNc1hwc2({"rknn.nchw_to_nc1hwc2:rk3588:dtype=FLOAT"}, "*.rejects_invalid");
  EXPECT_EQ(report::VerdictOf(selected), report::Verdict::kConformant);
}

// Breaker, second round: other properties than rejects_invalid check rejected
// calls too: a documented rejected row (rank >= 7 of the V1 size API, spec
// cann.md §1), no_write_past_capacity of rejected explicit cases (--cases 0).
TEST(Claims, RejectedCallsOfAnyPropertyCheckNothing) {
  struct Run {
    const char* claim;
    const char* routine;
    int cases;
  };
  for (const Run& r :
       {Run{"cann.calculate_matmul_weight_size:ascend910b:rank(shape)>=7",
            "cann.calculate_matmul_weight_size", 20},
        Run{"cann.trans_matmul_weight:ascend910b:dtype=INT64", "cann.trans_matmul_weight", 0}}) {
    const auto port = MakeReferencePort({r.claim});
    RunOptions options;
    options.profiles = {"ascend910b"};
    options.routine_glob = r.routine;
    options.real_shapes = false;
    options.cases = r.cases;
    const report::RunReport run = RunSuite(BuiltinSuite(), *port, options);
    EXPECT_NE(report::VerdictOf(run), report::Verdict::kConformant) << r.claim;
    for (const auto& result : run.results) {
      EXPECT_NE(result.outcome, report::Outcome::kPass)
          << r.claim << ": " << result.property << " passed on rejected calls only";
    }
  }
}

}  // namespace
}  // namespace npuconf
