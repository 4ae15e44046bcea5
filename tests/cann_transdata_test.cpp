// reference/cann_transdata and oracles/cann_transdata against the storage shapes
// and GE unit-test arrays spec layouts.md §A.1, §A.3–A.7, §A.11 gives, against
// each other on many shapes both ways, and the check order of §A.1–A.7.
#include "core/routines/cann_transdata.h"

#include <gtest/gtest.h>

#include <cstring>

#include "cli/families.h"
#include "conformance/cann_transdata/ge_gold.h"
#include "conformance/harness/runner.h"
#include "conformance/ports/claims.h"
#include "core/prng.h"
#include "core/profile.h"
#include "oracles/cann_transdata/trans_data_oracle.h"
#include "reference/cann_transdata/trans_data.h"
#include "test_util.h"

namespace npuconf::cann_transdata {
namespace {

namespace orc = oracle::cann_transdata;
using namespace routines::cann_transdata;

const nlohmann::json& Raw(const char* profile = "ascend910b") { return FindProfile(profile)->raw; }

struct Call {
  std::string src, dst;
  Shape shape;
  DType dtype;
  int64_t groups = 1;
  int64_t c0 = 0;
};

int64_t RefPlan(const Call& c, TransDataPlan* plan, const nlohmann::json& raw = Raw()) {
  TransDataArgs args{.src = ParseFormat(c.src).value_or(Format::kNchw),
                     .dst = ParseFormat(c.dst).value_or(Format::kNchw),
                     .groups = c.groups,
                     .shape = c.shape,
                     .dtype = c.dtype,
                     .c0 = c.c0};
  return PlanTransData(ReadTransDataFacts(raw), args, plan);
}

orc::TransDataCall OrcCall(const Call& c) {
  orc::TransDataCall call{c.src, c.dst, c.groups, c.shape, c.dtype, std::nullopt};
  if (c.c0) call.c0 = c.c0;
  return call;
}

Shape RefDims(const Call& c, const nlohmann::json& raw = Raw()) {
  TransDataPlan plan;
  EXPECT_EQ(RefPlan(c, &plan, raw), kGeSuccess);
  return plan.dst_dims;
}

Shape OracleDims(const Call& c, const nlohmann::json& raw = Raw()) {
  const auto x = orc::ExpectTransData(raw, OrcCall(c));
  EXPECT_EQ(x.status, kGeSuccess) << x.rule;
  return x.dst_dims;
}

std::vector<uint8_t> RefRun(const Call& c, const std::vector<uint8_t>& src) {
  TransDataPlan plan;
  EXPECT_EQ(RefPlan(c, &plan), kGeSuccess);
  EXPECT_EQ(src.size(), plan.src_bytes);
  std::vector<uint8_t> dst(plan.dst_bytes, 0xCD);
  RunTransData(plan, src.data(), dst.data());
  return dst;
}

// One call on random bytes (from `seed`): the reference's output and storage dims
// equal the oracle's.
void ExpectReferenceEqualsOracle(const Call& c, uint64_t seed) {
  const std::string what = c.src + "->" + c.dst + " " + ToString(c.shape) +
                           " g=" + std::to_string(c.groups) + " " + std::string(Name(c.dtype));
  TransDataPlan plan;
  ASSERT_EQ(RefPlan(c, &plan), kGeSuccess) << what;
  std::vector<uint8_t> src(plan.src_bytes);
  SplitMix64 rng(seed);
  for (auto& b : src) b = static_cast<uint8_t>(rng.Next());
  EXPECT_EQ(RefRun(c, src), orc::TransData(Raw(), OrcCall(c), src)) << what;
  EXPECT_EQ(plan.dst_dims, orc::ExpectTransData(Raw(), OrcCall(c)).dst_dims) << what;
}

template <typename T, size_t N>
std::vector<uint8_t> Bytes(const T (&a)[N]) {
  std::vector<uint8_t> out(sizeof(a));
  std::memcpy(out.data(), a, sizeof(a));
  return out;
}

// spec layouts.md §A.1, §A.3, §A.4 (GE-UT and TSU-UT shapes, and the derived rows).
TEST(TransDataShape, StorageDimsOfTheSpecRows) {
  struct Row {
    Call call;
    Shape dims;
  };
  const std::vector<Row> rows = {
      {{"NCHW", "FRACTAL_Z", {31, 17, 4, 4}, DType::kFloat16}, {32, 2, 16, 16}},
      {{"NCHW", "FRACTAL_Z", {37, 45, 2, 2}, DType::kFloat}, {12, 3, 16, 16}},
      {{"NCHW", "FRACTAL_Z", {30, 40, 3, 3}, DType::kUint8}, {18, 2, 16, 32}},
      {{"NCHW", "FRACTAL_Z", {1, 3, 8, 8}, DType::kFloat16}, {64, 1, 16, 16}},
      {{"NCHW", "FRACTAL_Z", {1, 1, 1, 1}, DType::kInt8}, {1, 1, 16, 32}},
      {{"NCHW", "FRACTAL_Z", {32, 64, 3, 3}, DType::kUint8}, {18, 2, 16, 32}},
      {{"HWCN", "FRACTAL_Z", {8, 8, 3, 1}, DType::kFloat16}, {64, 1, 16, 16}},
      {{"HWCN", "FRACTAL_Z", {4, 4, 33, 47}, DType::kFloat16}, {48, 3, 16, 16}},
      {{"HWCN", "FRACTAL_Z", {4, 4, 32, 16}, DType::kFloat16}, {32, 1, 16, 16}},
      {{"HWCN", "FRACTAL_Z", {3, 3, 30, 20}, DType::kUint8}, {9, 2, 16, 32}},
      {{"HWCN", "FRACTAL_Z", {5, 5, 31, 17}, DType::kFloat}, {50, 2, 16, 16}},
      {{"HWCN", "FRACTAL_Z", {1, 1, 1, 2}, DType::kFloat16, 2}, {1, 1, 16, 16}},
      {{"HWCN", "FRACTAL_Z", {3, 3, 4, 8}, DType::kFloat16, 2}, {9, 1, 16, 16}},
      {{"NCHW", "FRACTAL_Z", {128, 2, 3, 3}, DType::kFloat16, 8}, {9, 8, 16, 16}},
      {{"NCHW", "FRACTAL_Z", {48, 512, 5, 5}, DType::kFloat16, 16}, {12800, 3, 16, 16}},
      {{"HWCN", "FRACTAL_Z", {5, 5, 512, 48}, DType::kFloat, 16}, {12800, 3, 16, 16}},
      {{"NCHW", "FRACTAL_Z", {48, 512, 5, 5}, DType::kInt8, 16}, {6400, 3, 16, 32}},
      {{"NCHW", "FRACTAL_Z", {16, 8, 1, 1}, DType::kFloat16, 4}, {2, 1, 16, 16}},
      {{"NCHW", "FRACTAL_Z", {32, 1, 1, 1}, DType::kInt8, 2}, {1, 2, 16, 32}},
      {{"NCHW", "NC1HWC0", {1, 17, 4, 4}, DType::kFloat16}, {1, 2, 4, 4, 16}},
      {{"NCHW", "NC1HWC0", {1, 3, 4, 4}, DType::kUint8}, {1, 1, 4, 4, 32}},
      {{"NCHW", "NC1HWC0", {1, 8, 4, 4}, DType::kFloat}, {1, 1, 4, 4, 16}},
      {{"NCHW", "NC1HWC0", {1, 33, 2, 2}, DType::kInt8}, {1, 2, 2, 2, 32}},
      {{"NCHW", "NC1HWC0", {0, 1, 1, 16}, DType::kFloat16}, {0, 1, 1, 16, 16}},
      // §A.0.2 (TSU-UT): NC1HWC0_C04 is C0 4 for any dtype, C not checked.
      {{"NCHW", "NC1HWC0_C04", {8, 512, 5, 5}, DType::kFloat16}, {8, 128, 5, 5, 4}},
      {{"NCHW", "NC1HWC0_C04", {8, 512, 5, 5}, DType::kInt8}, {8, 128, 5, 5, 4}},
      {{"NHWC", "NC1HWC0_C04", {1, 2, 2, 3}, DType::kFloat}, {1, 1, 2, 2, 4}},
      // §A.8 (TSU-UT): _C0_x fixes C0 for every dtype.
      {{"ND", "FRACTAL_NZ_C0_16", {1, 18, 34}, DType::kInt8}, {1, 3, 2, 16, 16}},
      {{"ND", "FRACTAL_NZ_C0_32", {1, 18, 34}, DType::kFloat16}, {1, 2, 2, 16, 32}},
      {{"ND", "FRACTAL_NZ_C0_32", {18, 34}, DType::kFloat}, {2, 2, 16, 32}},
      // §A.0 item 3: [34] fp16 is the row (AICPU): {3, 1, 16, 16}.
      {{"ND", "FRACTAL_NZ", {34}, DType::kFloat16}, {3, 1, 16, 16}},
      // §A.7 and §A.4 (TSU-UT): FRACTAL_Z_3D of NCDHW (48,512,3,5,5).
      {{"NCDHW", "FRACTAL_Z_3D", {48, 512, 3, 5, 5}, DType::kFloat16}, {2400, 3, 16, 16}},
      {{"NCDHW", "FRACTAL_Z_3D", {48, 512, 3, 5, 5}, DType::kInt8}, {1200, 3, 16, 32}},
      {{"NCDHW", "FRACTAL_Z_3D", {48, 512, 3, 5, 5}, DType::kFloat16, 16}, {38400, 3, 16, 16}},
      {{"DHWCN", "FRACTAL_Z_3D", {3, 5, 5, 512, 48}, DType::kFloat16}, {2400, 3, 16, 16}},
      {{"NDHWC", "FRACTAL_Z_3D", {48, 3, 5, 5, 512}, DType::kFloat, 16}, {38400, 3, 16, 16}},
      // §A.6: NDC1HWC0; TSU-UT NCHW (4,33,7,7) fp16 -> (4,1,3,7,7,16) is D = 1.
      {{"NCDHW", "NDC1HWC0", {4, 33, 1, 7, 7}, DType::kFloat16}, {4, 1, 3, 7, 7, 16}},
      {{"NDHWC", "NDC1HWC0", {2, 3, 4, 5, 33}, DType::kInt8}, {2, 3, 2, 4, 5, 32}},
      // §A.5: FRACTAL_Z_C04 (GE-UT, TSU-UT) and the AICPU pin of §A.11.
      {{"HWCN", "FRACTAL_Z_C04", {8, 8, 3, 1}, DType::kFloat16}, {16, 1, 16, 16}},
      {{"NCHW", "FRACTAL_Z_C04", {32, 4, 144, 1}, DType::kUint8}, {18, 2, 16, 32}},
      {{"NCHW", "FRACTAL_Z_C04", {16, 2, 87, 1}, DType::kUint8}, {11, 1, 16, 32}},
      {{"NCHW", "FRACTAL_Z_C04", {48, 3, 5, 5}, DType::kFloat16}, {7, 3, 16, 16}},
      {{"NCHW", "FRACTAL_Z_C04", {48, 3, 5, 5}, DType::kInt8}, {4, 3, 16, 32}},
      {{"HWCN", "FRACTAL_Z_C04", {2, 2, 2, 2}, DType::kFloat}, {1, 1, 16, 16}},
      {{"HWCN", "FRACTAL_Z_C04", {2, 2, 1, 2}, DType::kFloat16}, {1, 1, 16, 16}},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(RefDims(row.call), row.dims) << ToString(row.call.shape);
    EXPECT_EQ(OracleDims(row.call), row.dims) << ToString(row.call.shape);
  }
}

// What no vendor component implements is not a reading (issue 41, layouts.md
// §A.12 D2, D3): a port cannot claim it, and a port computing it is red.
TEST(TransDataShape, NoVendorImplementsTheThreeWayMinNorInt8C0Sixteen) {
  for (const std::string claim :
       {"choice:cann.trans_data.group_factor=three_way_min", "choice:cann.trans_data.int8_c0=16"}) {
    const std::string error =
        ValidateClaims({"cann.trans_data:*", claim}, BuiltinSuite().specs(), BuiltinProfiles());
    EXPECT_NE(error.find("lists no reading"), std::string::npos) << claim << ": " << error;
  }
  for (const char* name : {"transdata-three-way-min", "transdata-int8-c0-16"}) {
    const Mutant* mutant = FindMutant(name);
    ASSERT_NE(mutant, nullptr) << name;
    const auto port = MakeMutantPort(*mutant, {"cann.trans_data:ascend910b"});
    RunOptions options;
    options.profiles = {"ascend910b"};
    options.property_glob = "cann.trans_data.matches_oracle";
    options.cases = 100;
    options.real_shapes = false;
    const auto report = RunSuite(BuiltinSuite(), *port, options);
    ASSERT_EQ(report.results.size(), 1u);
    EXPECT_EQ(report.results[0].outcome, report::Outcome::kFail)
        << name << ": " << report.results[0].message;
  }
}

// The other readings of the ledger (§A.12 D1, D7, D8, D9) change the dims as the spec says.
TEST(TransDataShape, ReadingsOfTheLedger) {
  const Profile* p = FindProfile("ascend910b");
  // D3: lcm then min in every vendor component (the example of layouts.md §A.0 item 1).
  const Call grouped{"NCHW", "FRACTAL_Z", {128, 2, 3, 3}, DType::kFloat16, 8};
  EXPECT_EQ(RefDims(grouped), (Shape{9, 8, 16, 16}));
  EXPECT_EQ(OracleDims(grouped), (Shape{9, 8, 16, 16}));
  // An explicit C0 (GE's format word C0 bits) and aclnn's fp32 C0 8 (D1), asked for through c0.
  EXPECT_EQ(RefDims({"NCHW", "NC1HWC0", {1, 33, 2, 2}, DType::kInt8, 1, 16}),
            (Shape{1, 3, 2, 2, 16}));
  EXPECT_EQ(OracleDims({"NCHW", "NC1HWC0", {1, 33, 2, 2}, DType::kInt8, 1, 16}),
            (Shape{1, 3, 2, 2, 16}));
  EXPECT_EQ(RefDims({"NCHW", "NC1HWC0", {1, 8, 4, 4}, DType::kFloat, 1, 8}),
            (Shape{1, 1, 4, 4, 8}));
  // D9: the column reading of a rank-1 [34] fp16 (TSU-UT {34} -> {1,3,16,16}).
  nlohmann::json column = p->raw;
  column["trans_data"]["nz_1d"]["value"] = "column";
  EXPECT_EQ(RefDims({"ND", "FRACTAL_NZ", {34}, DType::kFloat16}, column), (Shape{1, 3, 16, 16}));
  EXPECT_EQ(OracleDims({"ND", "FRACTAL_NZ", {34}, DType::kFloat16}, column), (Shape{1, 3, 16, 16}));
  // D7: FRACTAL_Z_C04 with MindSpore's fixed 16 (int8 (48,3,5,5) -> (7,3,16,16), not 32).
  nlohmann::json fixed = p->raw;
  fixed["trans_data"]["fz_c04_c0"]["value"] = "fixed_16";
  const Call c04{"NCHW", "FRACTAL_Z_C04", {48, 3, 5, 5}, DType::kInt8};
  EXPECT_EQ(RefDims(c04, fixed), (Shape{7, 3, 16, 16}));
  EXPECT_EQ(OracleDims(c04, fixed), (Shape{7, 3, 16, 16}));
  // D8: C > 4 accepted (MS: ceil(C/4) blocks of 4): (3,7,2,2) -> 4·2·2·2 = 32 -> (2,1,16,16).
  nlohmann::json accepted = p->raw;
  accepted["trans_data"]["fz_c04_c_over_4"]["value"] = "accepted";
  const Call wide{"NCHW", "FRACTAL_Z_C04", {3, 7, 2, 2}, DType::kFloat16};
  EXPECT_EQ(RefDims(wide, accepted), (Shape{2, 1, 16, 16}));
  EXPECT_EQ(OracleDims(wide, accepted), (Shape{2, 1, 16, 16}));
  TransDataPlan plan;
  EXPECT_EQ(RefPlan(wide, &plan), kGeShapeInvalid);
}

// GE-UT arrays, byte for byte (hicann/ge tests/ge/ut/ge/common, tests/cann_transdata_gold.h).
TEST(TransDataGold, GeUnitTestArrays) {
  struct Gold {
    const char* test;
    Call call;
    std::vector<uint8_t> in, out;
  };
  const std::vector<Gold> golds = {
      {"hwcn_fractalz fp16_4c_8n_with_groups_02",
       {"HWCN", "FRACTAL_Z", {3, 3, 4, 8}, DType::kFloat16, 2},
       Bytes(gold::kHwcnFzGroups02In),
       Bytes(gold::kHwcnFzGroups02Out)},
      {"hwcn_fractalz fp16_1c_1n_with_groups",
       {"HWCN", "FRACTAL_Z", {1, 1, 1, 2}, DType::kFloat16, 2},
       Bytes(gold::kHwcnFzGroups01In),
       Bytes(gold::kHwcnFzGroups01Out)},
      {"nchw_5d nchw_to_5d_fp16_17c",
       {"NCHW", "NC1HWC0", {1, 17, 4, 4}, DType::kFloat16},
       Bytes(gold::kNchw5dFp16C17In),
       Bytes(gold::kNchw5dFp16C17Out)},
      {"nchw_5d nchw_to_5d_uint8",
       {"NCHW", "NC1HWC0", {1, 3, 4, 4}, DType::kUint8},
       Bytes(gold::kNchw5dUint8In),
       Bytes(gold::kNchw5dUint8Out)},
      // §A.5: GE's FZ_C04 input of hwcn_fzc04_hwcn_success_2 is this pack's output.
      {"fzc04 hwcn_fzc04_hwcn_success_2",
       {"HWCN", "FRACTAL_Z_C04", {2, 2, 1, 2}, DType::kFloat16},
       Bytes(gold::kFzC04Success2Hwcn),
       Bytes(gold::kFzC04Success2Fz)},
  };
  for (const Gold& g : golds) {
    EXPECT_EQ(RefRun(g.call, g.in), g.out) << g.test;
    EXPECT_EQ(orc::TransData(Raw(), OrcCall(g.call), g.in), g.out) << g.test;
    // And back: the reverse reads the same offsets (§A.1, §A.3).
    Call back = g.call;
    std::swap(back.src, back.dst);
    EXPECT_EQ(RefRun(back, g.out), g.in) << g.test;
    EXPECT_EQ(orc::TransData(Raw(), OrcCall(back), g.out), g.in) << g.test;
  }
  // nchw_to_5d_fp16_single: {13425} -> {13425, 0 x 15}.
  const uint16_t one = 13425;
  std::vector<uint8_t> in(2);
  std::memcpy(in.data(), &one, 2);
  std::vector<uint8_t> want(32, 0);
  std::memcpy(want.data(), &one, 2);
  EXPECT_EQ(RefRun({"NCHW", "NC1HWC0", {1, 1, 1, 1}, DType::kFloat16}, in), want);
}

// §A.4: the last element of NCHW (128,2,3,3) g=8 fp16 sits at 18431 (= size − 1).
TEST(TransDataGold, LastGroupedElement) {
  const Call c{"NCHW", "FRACTAL_Z", {128, 2, 3, 3}, DType::kFloat16, 8};
  const auto from = orc::DstSources(Raw(), OrcCall(c));
  ASSERT_EQ(from.size(), 18432u);
  EXPECT_EQ(from[18431], 128 * 2 * 3 * 3);  // 1 + the index of (127, 1, 2, 2)
  TransDataPlan plan;
  ASSERT_EQ(RefPlan(c, &plan), kGeSuccess);
  std::vector<uint8_t> src(plan.src_bytes, 0);
  src[plan.src_bytes - 2] = 0x34;
  src[plan.src_bytes - 1] = 0x12;
  const auto dst = RefRun(c, src);
  EXPECT_EQ(dst[dst.size() - 2], 0x34);
  EXPECT_EQ(dst[dst.size() - 1], 0x12);
}

// Reference == oracle on every pair both ways, at the padding edges, with groups.
TEST(TransDataCross, ReferenceEqualsOracle) {
  int checked = 0;
  uint64_t seed = 7;
  for (const char* plain : {"NCHW", "NHWC", "HWCN"}) {
    for (const char* blocked : {"NC1HWC0", "FRACTAL_Z", "NC1HWC0_C04"}) {
      if (std::string(plain) == "HWCN" && std::string(blocked) != "FRACTAL_Z") continue;
      for (DType dtype : {DType::kFloat16, DType::kInt8, DType::kFloat}) {
        for (Shape nchw : {Shape{17, 15, 2, 3}, Shape{16, 32, 1, 1}, Shape{3, 33, 3, 1},
                           Shape{20, 7, 2, 2}, Shape{9, 1, 1, 1}}) {
          for (int64_t groups : {1, 2, 3, 5}) {
            if (groups > 1 && (std::string(blocked) != "FRACTAL_Z" || nchw[0] < groups)) continue;
            const std::string p = plain;
            const Shape shape = p == "NHWC"   ? Shape{nchw[0], nchw[2], nchw[3], nchw[1]}
                                : p == "HWCN" ? Shape{nchw[2], nchw[3], nchw[1], nchw[0]}
                                              : nchw;
            for (bool pack : {true, false}) {
              Call c{pack ? plain : blocked, pack ? blocked : plain, shape, dtype, groups};
              ExpectReferenceEqualsOracle(c, seed++);
              ++checked;
            }
          }
        }
      }
    }
  }
  // ND <-> FRACTAL_NZ and its C0 variants.
  for (const char* nz : {"FRACTAL_NZ", "FRACTAL_NZ_C0_16", "FRACTAL_NZ_C0_32"}) {
    for (DType dtype : {DType::kFloat16, DType::kInt8, DType::kFloat}) {
      for (const Shape& shape : {Shape{33}, Shape{17, 33}, Shape{2, 3, 17, 65}, Shape{16, 64}}) {
        for (bool pack : {true, false}) {
          Call c{pack ? "ND" : nz, pack ? nz : "ND", shape, dtype};
          ExpectReferenceEqualsOracle(c, seed++);
          ++checked;
        }
      }
    }
  }
  // The 3-D formats (§A.6, §A.7, grouped §A.4) and FRACTAL_Z_C04 (§A.5), both ways.
  struct Pair {
    const char* plain;
    const char* blocked;
  };
  for (const Pair& pair :
       {Pair{"NCDHW", "NDC1HWC0"}, Pair{"NDHWC", "NDC1HWC0"}, Pair{"NCDHW", "FRACTAL_Z_3D"},
        Pair{"DHWCN", "FRACTAL_Z_3D"}, Pair{"NDHWC", "FRACTAL_Z_3D"}}) {
    for (DType dtype : {DType::kFloat16, DType::kInt8, DType::kFloat}) {
      // (N, C, D, H, W)
      for (Shape ncdhw : {Shape{17, 15, 2, 2, 3}, Shape{16, 32, 1, 1, 1}, Shape{3, 33, 3, 3, 1},
                          Shape{20, 7, 2, 2, 2}, Shape{9, 1, 1, 1, 1}}) {
        for (int64_t groups : {1, 2, 3, 5}) {
          const std::string p = pair.plain;
          if (groups > 1 && (std::string(pair.blocked) != "FRACTAL_Z_3D" || ncdhw[0] < groups))
            continue;
          const Shape shape = p == "NDHWC" ? Shape{ncdhw[0], ncdhw[2], ncdhw[3], ncdhw[4], ncdhw[1]}
                              : p == "DHWCN"
                                  ? Shape{ncdhw[2], ncdhw[3], ncdhw[4], ncdhw[1], ncdhw[0]}
                                  : ncdhw;
          for (bool pack : {true, false}) {
            Call c{pack ? pair.plain : pair.blocked, pack ? pair.blocked : pair.plain, shape, dtype,
                   groups};
            ExpectReferenceEqualsOracle(c, seed++);
            ++checked;
          }
        }
      }
    }
  }
  for (const char* plain : {"NCHW", "HWCN"}) {
    for (DType dtype : {DType::kFloat16, DType::kInt8, DType::kFloat}) {
      for (Shape nchw : {Shape{17, 3, 2, 3}, Shape{16, 4, 1, 1}, Shape{3, 1, 5, 5},
                         Shape{33, 2, 4, 4}, Shape{1, 4, 3, 3}}) {
        const Shape shape =
            std::string(plain) == "HWCN" ? Shape{nchw[2], nchw[3], nchw[1], nchw[0]} : nchw;
        for (bool pack : {true, false}) {
          Call c{pack ? plain : "FRACTAL_Z_C04", pack ? "FRACTAL_Z_C04" : plain, shape, dtype};
          ExpectReferenceEqualsOracle(c, seed++);
          ++checked;
        }
      }
    }
  }
  // FRACTAL_Z(_3D) with H·W of whole register tiles and more (16, 32 and 36
  // columns) and full C0 blocks, several chunks of n and a short last one
  // (trans_data.cpp, FractalZBlocks; the shapes above are too small for the
  // tiles).
  for (const Pair& pair : {Pair{"NCHW", "FRACTAL_Z"}, Pair{"NCDHW", "FRACTAL_Z_3D"}}) {
    const bool three_d = std::string(pair.blocked) == "FRACTAL_Z_3D";
    for (DType dtype : {DType::kFloat16, DType::kInt8, DType::kFloat}) {
      // [7801, 17, 4, 4]: a plain side over 8 MiB, streamed, and FRACTAL_Z_3D's
      // unpack through its stage, with a short C0 block and chunk. fp16 with
      // full C0 blocks and H·W a multiple of 16 goes straight to or from the
      // rows a pair of n at a time (blocks::C0RunPairs): odd N (the last n
      // alone), [8193, 32, 4, 4] streamed; [127, 16, 4, 4] has rows Np · C0 =
      // 4 KiB apart, whose cached pack goes through the scratch.
      for (const Shape& nchw :
           {Shape{37, 32, 4, 8}, Shape{20, 48, 6, 6}, Shape{35, 64, 4, 4}, Shape{127, 16, 4, 4},
            Shape{7801, 17, 4, 4}, Shape{8193, 32, 4, 4}}) {
        if (nchw[0] > 1000 && dtype != DType::kFloat16) continue;  // fp16 alone reaches 8 MiB
        const Shape shape = three_d ? Shape{nchw[0], nchw[1], 2, nchw[2], nchw[3]} : nchw;  // D = 2
        for (bool pack : {true, false}) {
          Call c{pack ? pair.plain : pair.blocked, pack ? pair.blocked : pair.plain, shape, dtype};
          ExpectReferenceEqualsOracle(c, seed++);
          ++checked;
        }
      }
    }
  }
  // FRACTAL_Z_C04 a chunk of n at a time (trans_data.cpp, C04Rows): several
  // chunks and a short last one; ≥ 8 MiB out, the size that streams (the
  // streamed stores themselves: FastPaths.RunsMatchTheirDefinitionOnEveryPath,
  // on aligned buffers).
  // fp16 with H·W a multiple of 16 goes straight to the rows (blocks::
  // PlanesToC04Runs), C = 3 and 1 with lanes to pad.
  for (const Shape& nchw : {Shape{200, 4, 4, 4}, Shape{131, 3, 5, 5}, Shape{65537, 4, 4, 4},
                            Shape{40, 3, 4, 8}, Shape{18, 1, 8, 8}}) {
    for (DType dtype : {DType::kFloat16, DType::kInt8}) {
      if (nchw[0] > 1000 && dtype == DType::kInt8) continue;  // fp16 alone reaches 8 MiB
      for (bool pack : {true, false}) {
        Call c{pack ? "NCHW" : "FRACTAL_Z_C04", pack ? "FRACTAL_Z_C04" : "NCHW", nchw, dtype};
        ExpectReferenceEqualsOracle(c, seed++);
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 600);
}

// §A.6, §A.7: a 3-D tensor with D = 1 lays out as its 4-D tensor: NDC1HWC0 as
// NC1HWC0 and FRACTAL_Z_3D as FRACTAL_Z (grouped alike), the same bytes.
TEST(TransDataLaw, DepthOneEqualsTheFourDMap) {
  uint64_t seed = 99;
  for (int64_t groups : {1, 3}) {
    const Call fz3d{"NCDHW", "FRACTAL_Z_3D", {20, 17, 1, 3, 2}, DType::kFloat16, groups};
    const Call fz{"NCHW", "FRACTAL_Z", {20, 17, 3, 2}, DType::kFloat16, groups};
    TransDataPlan plan;
    ASSERT_EQ(RefPlan(fz, &plan), kGeSuccess);
    std::vector<uint8_t> src(plan.src_bytes);
    SplitMix64 rng(seed++);
    for (auto& b : src) b = static_cast<uint8_t>(rng.Next());
    EXPECT_EQ(RefRun(fz3d, src), RefRun(fz, src)) << "g=" << groups;
    EXPECT_EQ(orc::TransData(Raw(), OrcCall(fz3d), src), orc::TransData(Raw(), OrcCall(fz), src));
  }
  const Call six{"NDHWC", "NDC1HWC0", {3, 1, 2, 2, 17}, DType::kInt8};
  const Call five{"NHWC", "NC1HWC0", {3, 2, 2, 17}, DType::kInt8};
  TransDataPlan plan;
  ASSERT_EQ(RefPlan(five, &plan), kGeSuccess);
  std::vector<uint8_t> src(plan.src_bytes);
  SplitMix64 rng(seed);
  for (auto& b : src) b = static_cast<uint8_t>(rng.Next());
  EXPECT_EQ(RefRun(six, src), RefRun(five, src));
  EXPECT_EQ(RefDims(six), (Shape{3, 1, 1, 2, 2, 32}));
}

// §A.1 steps 1–2, §A.3, §A.4: codes and their order.
TEST(TransDataValidation, CodesInGeOrder) {
  struct Row {
    Call call;
    int64_t status;
  };
  const std::vector<Row> rows = {
      {{"NCHW", "NHWC", {1, 2, 3, 4}, DType::kFloat16}, kGeFormatInvalid},
      {{"HWCN", "NC1HWC0", {1, 2, 3, 4}, DType::kFloat16}, kGeFormatInvalid},
      {{"NC1HWC0", "FRACTAL_Z", {1, 2, 3, 4}, DType::kFloat16}, kGeFormatInvalid},
      {{"NCHW", "NHWC", {1, 2, 3}, DType::kInt16}, kGeFormatInvalid},
      {{"NCHW", "NC1HWC0", {1, 2, 3}, DType::kInt16}, kGeShapeInvalid},
      {{"NCHW", "NC1HWC0", {1, 2, 3, 4, 5}, DType::kFloat16}, kGeShapeInvalid},
      {{"NCHW", "NC1HWC0", {1, -1, 3, 4}, DType::kFloat16}, kGeShapeInvalid},
      {{"NCHW", "NC1HWC0", {1 << 21, 1 << 20, 1, 1}, DType::kFloat16}, kGeShapeInvalid},
      {{"NCHW", "NC1HWC0", {1, 2, 3, 4}, DType::kInt16}, kGeDatatypeInvalid},
      {{"NCHW", "NC1HWC0", {1, 2, 3, 4}, DType::kInt4, 1, 64}, kGeDatatypeInvalid},
      {{"NCHW", "FRACTAL_Z", {1, 2, 3, 4}, DType::kInt16, -1}, kGeDatatypeInvalid},
      {{"NCHW", "FRACTAL_Z", {1, 2, 3, 4}, DType::kFloat16, -1}, kGeShapeInvalid},
      {{"NCHW", "NC1HWC0", {4, 2, 3, 4}, DType::kFloat16, 2}, kGeShapeInvalid},
      {{"NCHW", "FRACTAL_Z", {4, 0, 3, 4}, DType::kFloat16, 2}, kGeShapeInvalid},
      {{"NCHW", "FRACTAL_Z", {3, 2, 3, 4}, DType::kFloat16, 4}, kGeShapeInvalid},
      {{"NCHW", "FRACTAL_Z", {3, 2, 3, 4}, DType::kFloat16, 0}, kGeSuccess},
      {{"NCHW", "FRACTAL_Z", {0, 2, 3, 4}, DType::kFloat16, 1}, kGeSuccess},
      {{"ND", "FRACTAL_NZ", {}, DType::kFloat16}, kGeShapeInvalid},
      {{"ND", "FRACTAL_NZ", {16, 64}, DType::kInt4}, kGeDatatypeInvalid},
      {{"ND", "FRACTAL_NZ_C0_16", {16, 64}, DType::kFloat16, 2}, kGeShapeInvalid},
      {{"ND", "NC1HWC0", {1, 16, 2, 2}, DType::kFloat16}, kGeFormatInvalid},
      {{"HWCN", "NC1HWC0_C04", {1, 1, 3, 1}, DType::kFloat16}, kGeFormatInvalid},
      {{"NCHW", "NC1HWC0_C04", {4, 3, 1, 1}, DType::kFloat16, 2}, kGeShapeInvalid},
      {{"NCHW", "FRACTAL_NZ", {1, 16, 2, 2}, DType::kFloat16}, kGeFormatInvalid},
      // §A.5–A.7: the new pairs, the 3-D rank, C > 4 and groups on FRACTAL_Z_C04.
      {{"NHWC", "FRACTAL_Z_C04", {1, 2, 2, 3}, DType::kFloat16}, kGeFormatInvalid},
      {{"NCDHW", "NC1HWC0", {1, 16, 2, 2, 2}, DType::kFloat16}, kGeFormatInvalid},
      {{"DHWCN", "NDC1HWC0", {1, 2, 2, 16, 1}, DType::kFloat16}, kGeFormatInvalid},
      {{"NCHW", "FRACTAL_Z_3D", {1, 16, 2, 2}, DType::kFloat16}, kGeFormatInvalid},
      {{"NCDHW", "NDC1HWC0", {1, 16, 2, 2}, DType::kFloat16}, kGeShapeInvalid},
      {{"FRACTAL_Z_3D", "NCDHW", {1, 16, 2, 2, 2, 1}, DType::kFloat16}, kGeShapeInvalid},
      {{"NCDHW", "NDC1HWC0", {1, 16, 2, 2, 2}, DType::kInt16}, kGeDatatypeInvalid},
      {{"NCDHW", "NDC1HWC0", {1, 16, 2, 2, 2}, DType::kFloat16, 2}, kGeShapeInvalid},
      {{"NCDHW", "FRACTAL_Z_3D", {3, 2, 2, 3, 4}, DType::kFloat16, 4}, kGeShapeInvalid},
      {{"NCDHW", "FRACTAL_Z_3D", {4, 0, 2, 3, 4}, DType::kFloat16, 2}, kGeShapeInvalid},
      {{"NCDHW", "FRACTAL_Z_3D", {6, 2, 2, 3, 4}, DType::kFloat16, 3}, kGeSuccess},
      {{"NCHW", "FRACTAL_Z_C04", {1, 5, 2, 2}, DType::kFloat16}, kGeShapeInvalid},
      {{"FRACTAL_Z_C04", "HWCN", {2, 2, 5, 1}, DType::kFloat16}, kGeShapeInvalid},
      {{"NCHW", "FRACTAL_Z_C04", {4, 3, 2, 2}, DType::kFloat16, 2}, kGeShapeInvalid},
      {{"NCHW", "FRACTAL_Z_C04", {4, 3, 2, 2}, DType::kFloat16, 0}, kGeSuccess},
      {{"NCHW", "FRACTAL_Z_C04", {4, 5, 2, 2}, DType::kInt16}, kGeDatatypeInvalid},
  };
  for (const Row& row : rows) {
    TransDataPlan plan;
    EXPECT_EQ(RefPlan(row.call, &plan), row.status) << ToString(row.call.shape);
    EXPECT_EQ(orc::ExpectTransData(Raw(), OrcCall(row.call)).status, row.status)
        << ToString(row.call.shape);
  }
  // Under the reading ungrouped (TSU, D6) N < groups is the ungrouped map.
  nlohmann::json raw = Raw();
  raw["trans_data"]["groups_exceed_n"]["value"] = "ungrouped";
  const Call over{"NCHW", "FRACTAL_Z", {3, 2, 3, 4}, DType::kFloat16, 4};
  EXPECT_EQ(RefDims(over, raw), (Shape{12, 1, 16, 16}));
  EXPECT_EQ(OracleDims(over, raw), (Shape{12, 1, 16, 16}));
}

// The family's mutants: at least 12, each caught by a property of this routine.
TEST(TransDataMutants, AtLeastTwelveEachWithItsProperty) {
  int count = 0;
  for (const auto& m : Mutants()) {
    if (m.caught_by.rfind("cann.trans_data.", 0) != 0) continue;
    ++count;
    EXPECT_NE(BuiltinSuite().FindProperty(m.caught_by), nullptr) << m.name;
  }
  EXPECT_GE(count, 12);
}

// The done-when row of issue 18: the CLI writes dst with storage dims [32,2,16,16].
TEST(TransDataCli, DumpsFractalZOfTheIssueRow) {
  testing::TempDir dir("transdata_dump");
  const auto run = testing::RunNpuconf(
      "case cann.trans_data profile=ascend910b src_format=NCHW dst_format=FRACTAL_Z "
      "dtype=FLOAT16 'shape=[31,17,4,4]' --dump " +
      dir.path());
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("dims [32,2,16,16]"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace npuconf::cann_transdata
