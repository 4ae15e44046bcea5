// The coverage gate (issue #9 item 6): the classifier puts known cases into the
// classes the spec's rules give, a required class no checked case hits fails an
// unfiltered run with the class named and only reports on a filtered one, and
// the suite's fill params honour the profile's nibble order (item 7).
#include "conformance/harness/coverage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "cli/families.h"
#include "conformance/harness/materialize.h"
#include "conformance/harness/runner.h"
#include "conformance/harness/suite.h"
#include "conformance/ports/claims.h"
#include "conformance/ports/port.h"
#include "conformance/quant/family.h"
#include "oracles/quant/quant_oracle.h"
#include "reports/matrix.h"

namespace npuconf {
namespace {

std::set<std::string> Classes(const Case& c) {
  const Profile* profile = FindProfile(c.profile);
  EXPECT_NE(profile, nullptr) << c.profile;
  const auto names = ClassesOf(BuiltinSuite(), *profile, c);
  return {names.begin(), names.end()};
}

Case Nz(Shape shape, DType dtype) {
  return Case("cann.nd_to_nz", "ascend910b").Set("shape", shape).Set("dtype", dtype);
}

// spec cann.md §2.5: NZ blocks are 16 rows by C0 = 32 bytes / element size
// columns (FLOAT16: 16, INT8: 32); batch dims unpadded. n = 16m+r, k = C0·m+r.
TEST(CoverageClassifier, NzGeometryClassesFollowTheBlockRule) {
  // [17, 33] FLOAT16: 17 = 16+1, 33 = 2·16+1, two blocks each way.
  EXPECT_EQ(Classes(Nz({17, 33}, DType::kFloat16)),
            (std::set<std::string>{"n.block_plus_1", "k.block_plus_1",
                                   "n.several_blocks_k.several_blocks", "dtype.FLOAT16"}));
  // [15, 31] INT8: 15 = 16-1, 31 = 32-1 (C0 32), one block each way.
  EXPECT_EQ(Classes(Nz({15, 31}, DType::kInt8)),
            (std::set<std::string>{"n.block_minus_1", "k.block_minus_1", "dtype.INT8"}));
  // [2, 0, 16] FLOAT16: a batch dim, a zero n, k exactly one block.
  EXPECT_EQ(Classes(Nz({2, 0, 16}, DType::kFloat16)),
            (std::set<std::string>{"rank.batched", "zero.n", "k.block_exact", "dtype.FLOAT16"}));
  // [0, 2, 16]: the zero in the batch position.
  EXPECT_TRUE(Classes(Nz({0, 2, 16}, DType::kFloat16)).count("zero.batch"));
  // INT4 [3, 5]: 15 elements, odd (§4.4: the last byte half used); no dim near a block.
  EXPECT_EQ(Classes(Nz({3, 5}, DType::kInt4)),
            (std::set<std::string>{"int4.odd_elements", "dtype.INT4"}));
  // [1, 65537]: past 2^16, and 65537 = 4096·16+1.
  EXPECT_EQ(Classes(Nz({1, 65537}, DType::kFloat16)),
            (std::set<std::string>{"dim.past_2_16", "k.block_plus_1", "dtype.FLOAT16"}));
}

// spec cann.md §1.4: step 2 tensorShape == nullptr → 161001; step 5 a zero dim → 161002.
TEST(CoverageClassifier, SizeStatusClassesFollowTheCheckOrder) {
  Case null_shape("cann.calculate_matmul_weight_size_v2", "ascend910b");
  null_shape.SetNull("shape").Set("dtype", DType::kFloat16);
  EXPECT_EQ(Classes(null_shape), (std::set<std::string>{"status.161001_null_shape"}));
  Case zero("cann.calculate_matmul_weight_size_v2", "ascend910b");
  zero.Set("shape", Shape{0, 16}).Set("dtype", DType::kFloat16);
  EXPECT_EQ(Classes(zero), (std::set<std::string>{"status.161002_zero_dim"}));
  // §1.4 step 1: V2 off its SoC list is 361001 before anything else (ascend910 is off it).
  Case off("cann.calculate_matmul_weight_size_v2", "ascend910");
  off.Set("shape", Shape{16, 16}).Set("dtype", DType::kFloat16);
  EXPECT_EQ(Classes(off), (std::set<std::string>{"status.361001_soc"}));
  // §1.2: [65537, 40000] FLOAT16 pads to 65552 x 40000 = 2 622 080 000 > 2^31 elements.
  Case big("cann.calculate_matmul_weight_size_v2", "ascend910b");
  big.Set("shape", Shape{65537, 40000}).Set("dtype", DType::kFloat16);
  const auto classes = Classes(big);
  for (const char* name : {"status.success", "size.past_2_31_elements", "dim.past_2_16",
                           "n.block_plus_1", "k.block_exact", "dtype.FLOAT16"}) {
    EXPECT_TRUE(classes.count(name)) << name;
  }
}

// spec rknn.md §2.4: the even element in the nibble the profile's int4_nibble
// names (rk3588: low_first; rk3588_sdk1_6: high_first, the v1.6 demo).
TEST(CoverageClassifier, Int4PackClassesNameCountAndNibbleOrder) {
  EXPECT_EQ(Classes(Case("rknn.int4_pack", "rk3588").Set("count", int64_t{3})),
            (std::set<std::string>{"count.odd", "nibble.low_first"}));
  EXPECT_EQ(Classes(Case("rknn.int4_pack", "rk3588_sdk1_6").Set("count", int64_t{0})),
            (std::set<std::string>{"count.zero", "nibble.high_first"}));
  EXPECT_EQ(Classes(Case("rknn.int4_pack", "rk3588")
                        .Set("count", int64_t{4})
                        .Set("nibble", "high_first")
                        .Set("values", Shape{1, 2, 3, 4})),
            (std::set<std::string>{"count.even", "nibble.high_first", "verbatim"}));
}

// spec rknn.md §5.1, §5.3: per-group needs K a multiple of group_size; §1.2
// quant types 0..5.
TEST(CoverageClassifier, RknnDequantClassesNameTheDecidingRule) {
  Case grouped("rknn.dequant_b", "rk3588");
  grouped.Set("k", int64_t{96})
      .Set("n", int64_t{3})
      .Set("dtype", DType::kInt4)
      .Set("quant_type", int64_t{4})
      .Set("group_size", int64_t{32});
  // gs 32: the only group size seen (§5.3); 96 / 32 = 3 groups.
  EXPECT_EQ(Classes(grouped), (std::set<std::string>{"status.0", "quant_type.4", "dtype.INT4",
                                                     "group.several", "group_size.32"}));
  // gs 64 on rk3588, whose reading of rknn.quant.group_size is divides_k: another size.
  Case grouped64 = grouped;
  grouped64.Set("k", int64_t{128}).Set("group_size", int64_t{64});
  EXPECT_EQ(Classes(grouped64), (std::set<std::string>{"status.0", "quant_type.4", "dtype.INT4",
                                                       "group.several", "group_size.other"}));
  Case ragged = grouped;
  ragged.Set("k", int64_t{33}).Set("n", int64_t{1});  // 33 % 32 != 0, and 33 elements: odd
  EXPECT_EQ(Classes(ragged),
            (std::set<std::string>{"status.-5_k_align", "quant_type.4", "dtype.INT4",
                                   "int4.odd_elements", "group_size.32"}));
}

// ---- the gate on a toy routine -----------------------------------------------------

const RoutineSpec& ToySpec() {
  static const RoutineSpec spec = {.id = "cann.toy",
                                   .vendor = "cann",
                                   .source = "tests/coverage_test.cpp",
                                   .summary = "a routine of the test",
                                   .params = {{.key = "n", .type = ParamType::kInt, .doc = "n"}},
                                   .outputs = {{.name = "y", .dtype = "UINT8", .shape = "[1]"}}};
  return spec;
}

Invocation ToyCase(const Case& c, const Profile&) {
  Invocation inv{c, {}, {}};
  inv.outputs.push_back({.name = "y", .dtype = DType::kUint8, .capacity_bytes = 1});
  return inv;
}

void AddToyProperties(std::vector<Property>* out) {
  out->push_back(
      {.name = "cann.toy.holds",
       .routine = "cann.toy",
       .description = "n is drawn from [0, 10); the explicit n = -3 stands for a case past "
                      "--max-case-bytes, so the class it reaches is never hit",
       .explicit_cases =
           [](const PropertyContext& ctx) {
             return std::vector<Case>{Case("cann.toy", ctx.profile.name).Set("n", 4),
                                      Case("cann.toy", ctx.profile.name).Set("n", -3)};
           },
       .generator =
           [](const PropertyContext& ctx) {
             const std::string name = ctx.profile.name;
             return rc::gen::map(rc::gen::inRange<int64_t>(0, 10),
                                 [name](int64_t n) { return Case("cann.toy", name).Set("n", n); });
           },
       .check =
           [](const PropertyContext&, const Case& c) {
             if (c.Int("n").value() < 0) throw CaseTooLarge(2, 1);  // as if past --max-case-bytes
             return Verdict::Pass();
           }});
}

void AddToyCoverage(std::vector<RoutineCoverage>* out) {
  out->push_back(
      {"cann.toy",
       {{.name = "n.even",
         .doc = "an even n",
         .hit = [](const Case& c, const Profile&) { return c.Int("n").value() % 2 == 0; }},
        {.name = "n.negative",
         .doc = "a negative n: reached by an explicit case too large to check",
         .hit = [](const Case& c, const Profile&) { return c.Int("n").value() < 0; }},
        {.name = "n.big",
         .doc = "not required, never hit",
         .required = false,
         .hit = [](const Case& c, const Profile&) { return c.Int("n").value() > 99; }}}});
}

Suite ToySuite() {
  return Suite({{.name = "toy",
                 .routines = {{&ToySpec(), ToyCase}},
                 .add_properties = AddToyProperties,
                 .add_coverage = AddToyCoverage}});
}

InProcessPort ToyPort(std::vector<std::string> claims = {"cann.toy:*"}) {
  return InProcessPort("toy", "1", std::move(claims),
                       [](const npuconf_case*, int64_t* status, char*, uint64_t) {
                         *status = 0;
                         return int32_t{NPUCONF_CALL_ANSWERED};
                       });
}

const report::PropertyResult* Find(const report::RunReport& run, const std::string& property) {
  for (const auto& r : run.results) {
    if (r.property == property) return &r;
  }
  return nullptr;
}

TEST(CoverageGate, AReachableRequiredClassNoCheckedCaseHitsFailsTheRunNamingIt) {
  const Suite suite = ToySuite();
  const InProcessPort port = ToyPort();
  RunOptions options;
  options.profiles = {"ascend910b"};
  const report::RunReport run = RunSuite(suite, port, options);
  EXPECT_EQ(run.coverage_gate, "enforced");
  const report::PropertyResult* gate = Find(run, "cann.toy.coverage");
  ASSERT_NE(gate, nullptr);
  EXPECT_EQ(gate->outcome, report::Outcome::kFail);
  EXPECT_NE(gate->message.find("n.negative"), std::string::npos) << gate->message;
  EXPECT_EQ(gate->message.find("n.even"), std::string::npos) << gate->message;
  EXPECT_EQ(gate->message.find("n.big"), std::string::npos) << "not required: " << gate->message;
  EXPECT_TRUE(report::AnyFailure(run));
  // The table: every class with its hits; n.even hit by the explicit n = 4 at least.
  int64_t even = -1, negative = -1;
  for (const auto& row : run.coverage) {
    if (row.class_name == "n.even") even = row.hits;
    if (row.class_name == "n.negative") negative = row.hits;
  }
  EXPECT_GE(even, 1);
  EXPECT_EQ(negative, 0);
  const auto json = report::ToJson(run);
  ASSERT_TRUE(json.contains("coverage"));
  EXPECT_EQ(json.at("coverage").size(), 3u);
  EXPECT_NE(report::SummaryTable(run).find("n.negative"), std::string::npos);
  for (const auto& row : json.at("coverage")) {
    const std::string cls = row.at("class");
    EXPECT_EQ(row.at("status"), cls == "n.even" ? "hit" : cls == "n.big" ? "not_hit" : "missing");
  }
}

// A class no case inside the port's claims reaches is outside them: reported
// so, never missing, and the gate passes (issue 15 item 1).
TEST(CoverageGate, AClassOutsideTheClaimsIsReportedSoAndNeverFails) {
  const Suite suite = ToySuite();
  const InProcessPort port = ToyPort({"cann.toy:*:n>=0"});
  RunOptions options;
  options.profiles = {"ascend910b"};
  const report::RunReport run = RunSuite(suite, port, options);
  EXPECT_EQ(run.coverage_gate, "enforced");
  EXPECT_EQ(Find(run, "cann.toy.coverage"), nullptr);
  EXPECT_FALSE(report::AnyFailure(run));
  bool seen = false;
  for (const auto& row : run.coverage) {
    if (row.class_name != "n.negative") continue;
    seen = true;
    EXPECT_EQ(row.status, "outside_claims");
    EXPECT_FALSE(row.required);
  }
  EXPECT_TRUE(seen);
  EXPECT_EQ(report::SummaryTable(run).find("n.negative"), std::string::npos);
}

// --routine runs every property of the routines it names: the gate holds
// within them (issue 42 item 9: npuconf_add_port_test's ROUTINES, the
// README's own gate, made it "report only: filtered run").
TEST(CoverageGate, ARunOfNamedRoutinesEnforcesTheGateWithinThem) {
  const Suite suite = ToySuite();
  const InProcessPort port = ToyPort();
  RunOptions options;
  options.profiles = {"ascend910b"};
  options.routine_glob = "cann.toy";
  const report::RunReport run = RunSuite(suite, port, options);
  EXPECT_EQ(run.coverage_gate, "enforced");
  const report::PropertyResult* gate = Find(run, "cann.toy.coverage");
  ASSERT_NE(gate, nullptr);
  EXPECT_EQ(gate->outcome, report::Outcome::kFail);
  EXPECT_NE(gate->message.find("n.negative"), std::string::npos) << gate->message;
}

TEST(CoverageGate, AFilteredRunReportsMissingClassesWithoutFailing) {
  const Suite suite = ToySuite();
  const InProcessPort port = ToyPort();
  RunOptions options;
  options.profiles = {"ascend910b"};
  options.cases = 10;  // fewer than the default: filtered
  const report::RunReport run = RunSuite(suite, port, options);
  EXPECT_EQ(Find(run, "cann.toy.coverage"), nullptr);
  EXPECT_FALSE(report::AnyFailure(run));
  EXPECT_NE(run.coverage_gate.find("report only"), std::string::npos) << run.coverage_gate;
  EXPECT_NE(report::SummaryTable(run).find("n.negative"), std::string::npos);
}

// Issue #9 item 7: b_fill and b=[..] are packed in the profile's NORM B nibble
// order (spec rknn.md §2.4). On rk3588_sdk1_6 (high_first) an odd count's last
// element lives in the HIGH nibble of the last byte; read back in that order
// every element is the fill value.
TEST(FillParams, HonourTheProfilesNibbleOrder) {
  for (const char* profile_name : {"rk3588", "rk3588_sdk1_6"}) {
    const Profile& profile = *FindProfile(profile_name);
    const bool even_high = profile.rknn->norm_nibble == NibbleOrder::kHighFirst;
    Case c("rknn.dequant_b", profile_name);
    c.Set("k", int64_t{3}).Set("n", int64_t{1}).Set("dtype", DType::kInt4);
    c.Set("quant_type", int64_t{0}).Set("b_fill", int64_t{5});
    const Invocation inv = MaterializeQuantCase(c, profile);
    const auto q = oracle::quant::DecodeQ(inv.Input("b")->bytes, DType::kInt4, 3, even_high);
    EXPECT_EQ(q, (std::vector<int32_t>{5, 5, 5})) << profile_name;
  }
}

}  // namespace
}  // namespace npuconf

namespace npuconf {
namespace {

// Every required class that applies is reached by a case inside the claims
// (an explicit case or a coverage witness) on every verified profile, and hit:
// the reference is conformant without real shapes, whatever the seed (the
// witnesses are drawn with a fixed seed; issue 15 item 1).
TEST(CoverageWitnesses, TheReferenceReachesEveryRequiredClassWithoutRealShapes) {
  const auto port = MakeReferencePort();
  for (const uint64_t seed : {kDefaultSeed, uint64_t{1}}) {
    RunOptions options;
    options.real_shapes = false;
    options.seed = seed;
    options.jobs = 2;
    const auto report = RunSuite(BuiltinSuite(), *port, options);
    EXPECT_EQ(report::VerdictOf(report), report::Verdict::kConformant) << "seed " << seed;
    for (const auto& row : report.coverage) {
      EXPECT_EQ(row.status, "hit") << row.routine << " @ " << row.profile << ": " << row.class_name
                                   << " (seed " << seed << ")";
    }
  }
}

// A port claiming the reading under which a behaviour is undefined (or not
// claiming the suite's checked reading) gets those cases unchecked: their
// classes are the claims' consequence, never "missing" (a tester's correct
// port claiming choice:cann.size.overflow=unspecified was red on coverage).
TEST(CoverageGate, AClassOnlyUncheckedCasesReachIsOutsideTheClaims) {
  const auto status_of = [](const std::vector<std::string>& claims, const std::string& routine,
                            const std::string& cls) {
    const auto port = MakeReferencePort(claims);
    RunOptions options;
    options.profiles = {"ascend910b"};
    options.routine_glob = routine;
    options.real_shapes = false;
    options.cases = 20;
    const auto run = RunSuite(BuiltinSuite(), *port, options);
    for (const auto& row : run.coverage) {
      if (row.routine == routine && row.class_name == cls) return row.status;
    }
    return std::string("(no row)");
  };
  const std::string v2 = "cann.calculate_matmul_weight_size_v2";
  std::vector<std::string> claims = ReferenceClaims();
  EXPECT_EQ(status_of(claims, v2, "size.overflows_int64"), "hit");
  std::erase(claims, std::string("choice:cann.size.overflow=param_invalid"));
  EXPECT_EQ(status_of(claims, v2, "size.overflows_int64"), "outside_claims");
  claims.push_back("choice:cann.size.overflow=unspecified");
  EXPECT_EQ(status_of(claims, v2, "size.overflows_int64"), "outside_claims");
  // Other classes of the routine are still required and hit.
  EXPECT_EQ(status_of(claims, v2, "status.161002_rank"), "hit");
}

}  // namespace
}  // namespace npuconf
