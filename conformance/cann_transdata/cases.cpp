// The explicit cases of cann.trans_data: the shapes of the GE unit tests and
// the derived rows of spec layouts.md §A.1, §A.3–A.7, padding edges, the
// invalid calls of each check, and the real conv weights of vectors/real/conv_shapes.json.
#include <map>
#include <set>

#include "conformance/cann_transdata/family.h"
#include "conformance/cann_transdata/layout.h"
#include "core/conv_shapes.h"
#include "core/routines/cann_transdata.h"
#include "generators/cann_transdata.h"

namespace npuconf::cann_transdata_props {
namespace {

using routines::cann_transdata::kTransData;

struct Row {
  const char* src;
  const char* dst;
  Shape shape;
  DType dtype;
  int64_t groups;
  const char* source;  // where the shape comes from (kept for the reader)
};

// hicann/ge tests/ge/ut/ge/common/format_transfer_*_unittest.cc@ffdcbc9f as
// spec layouts.md §A.1, §A.3, §A.4, §A.11 index them, and the spec's derived rows.
const std::vector<Row>& SpecRows() {
  static const std::vector<Row> rows = {
      {"NCHW", "NC1HWC0", {1, 1, 1, 1}, DType::kFloat16, 1, "nchw_5d nchw_to_5d_fp16_single"},
      {"NCHW", "NC1HWC0", {1, 17, 4, 4}, DType::kFloat16, 1, "nchw_5d nchw_to_5d_fp16_17c"},
      {"NCHW", "NC1HWC0", {1, 3, 4, 4}, DType::kUint8, 1, "nchw_5d nchw_to_5d_uint8"},
      {"NCHW", "NC1HWC0", {1, 8, 4, 4}, DType::kFloat, 1, "nchw_5d nchw_to_5d_float"},
      {"NCHW", "NC1HWC0", {0, 1, 1, 16}, DType::kFloat16, 1, "nchw_5d empty_tensor_success"},
      {"NCHW", "NC1HWC0", {1, 33, 2, 2}, DType::kInt8, 1, "§A.1 int8 example [derived]"},
      {"NHWC", "NC1HWC0", {1, 4, 4, 17}, DType::kFloat16, 1, "§A.1 NHWC map"},
      {"NCHW", "FRACTAL_Z", {31, 17, 4, 4}, DType::kFloat16, 1, "nchw_fractalz fp16_2c_2n_pad"},
      {"NCHW", "FRACTAL_Z", {37, 45, 2, 2}, DType::kFloat, 1, "nchw_fractalz fp32_3c_3n_pad"},
      {"NCHW", "FRACTAL_Z", {30, 40, 3, 3}, DType::kUint8, 1, "nchw_fractalz uint8_2c_2n_pad"},
      {"NCHW", "FRACTAL_Z", {1, 3, 8, 8}, DType::kFloat16, 1, "nchw_fractalz fp16_1c_1n"},
      {"NCHW", "FRACTAL_Z", {1, 1, 1, 1}, DType::kInt8, 1, "nchw_fractalz int8_1"},
      {"NCHW", "FRACTAL_Z", {32, 64, 3, 3}, DType::kUint8, 1, "nchw_fractalz uint8_2c_2n"},
      {"HWCN", "FRACTAL_Z", {8, 8, 3, 1}, DType::kFloat16, 1, "hwcn_fractalz fp16_1c_1n_pad_cn"},
      {"HWCN", "FRACTAL_Z", {4, 4, 33, 47}, DType::kFloat16, 1, "hwcn_fractalz fp16_3c_3n_pad_cn"},
      {"HWCN", "FRACTAL_Z", {4, 4, 32, 16}, DType::kFloat16, 1, "hwcn_fractalz fp16_2c_1n_no_pad"},
      {"HWCN", "FRACTAL_Z", {3, 3, 30, 20}, DType::kUint8, 1, "hwcn_fractalz uint8_1c_2n_pad_cn"},
      {"HWCN", "FRACTAL_Z", {5, 5, 31, 17}, DType::kFloat, 1, "hwcn_fractalz fp32_2c_2n_pad"},
      {"HWCN",
       "FRACTAL_Z",
       {1, 1, 1, 2},
       DType::kFloat16,
       2,
       "hwcn_fractalz fp16_1c_1n_with_groups"},
      {"HWCN",
       "FRACTAL_Z",
       {3, 3, 4, 8},
       DType::kFloat16,
       2,
       "hwcn_fractalz fp16_4c_8n_with_groups_02"},
      {"NCHW", "FRACTAL_Z", {128, 2, 3, 3}, DType::kFloat16, 8, "§A.0 item 1 [derived]"},
      {"NCHW", "FRACTAL_Z", {16, 8, 1, 1}, DType::kFloat16, 4, "§A.4 [derived]"},
      {"NCHW", "FRACTAL_Z", {32, 1, 1, 1}, DType::kInt8, 2, "§A.4 [derived]"},
      {"NHWC", "FRACTAL_Z", {17, 2, 2, 33}, DType::kFloat16, 1, "§A.3 NHWC map"},
      {"NHWC", "FRACTAL_Z", {10, 1, 1, 3}, DType::kFloat16, 3, "groups not dividing N"},
      // e = 2 (Cin 16, cout 8) and g = 3: G' = ceil(g / e) = 2 blocks, the last half empty.
      {"NCHW", "FRACTAL_Z", {24, 16, 2, 1}, DType::kFloat16, 3, "§A.4 G' = ceil(g/e) [derived]"},
      {"NCHW", "NC1HWC0_C04", {8, 512, 5, 5}, DType::kFloat16, 1, "§A.0.2 TSU-UT (C not checked)"},
      {"NHWC", "NC1HWC0_C04", {2, 3, 3, 3}, DType::kInt8, 1, "§A.2 first-layer input"},
      {"NCHW", "NC1HWC0_C04", {1, 5, 2, 2}, DType::kFloat, 1, "§A.2 C = 5: two C1 blocks"},
      // Valid only under the reading ungrouped of choice cann.trans_data.groups_exceed_n.
      {"NCHW", "FRACTAL_Z", {3, 2, 3, 4}, DType::kFloat16, 4, "§A.4 hazard 3 (TSU fallback)"},
      // FRACTAL_Z_C04 (§A.5): the GE-UT shapes, the AICPU pin (§A.11), TSU-UT (§A.0.2).
      {"HWCN", "FRACTAL_Z_C04", {8, 8, 3, 1}, DType::kFloat16, 1, "fzc04 UT -> (16,1,16,16)"},
      {"NCHW", "FRACTAL_Z_C04", {32, 4, 144, 1}, DType::kUint8, 1, "fzc04 UT -> (18,2,16,32)"},
      {"NCHW", "FRACTAL_Z_C04", {16, 2, 87, 1}, DType::kUint8, 1, "fzc04 UT -> (11,1,16,32)"},
      {"HWCN", "FRACTAL_Z_C04", {2, 2, 2, 2}, DType::kFloat, 1, "OPS AICPU UT -> (1,1,16,16)"},
      {"HWCN", "FRACTAL_Z_C04", {2, 2, 1, 2}, DType::kFloat16, 1, "hwcn_fzc04_hwcn_success_2"},
      {"NCHW", "FRACTAL_Z_C04", {48, 3, 5, 5}, DType::kInt8, 1, "TSU-UT -> (4,3,16,32)"},
      {"NCHW", "FRACTAL_Z_C04", {17, 1, 1, 1}, DType::kFloat16, 1, "C = 1, H = W = 1"},
      {"NCHW", "FRACTAL_Z_C04", {33, 4, 3, 3}, DType::kFloat, 1, "4·H·W = 36: an f tail"},
      // Valid only under the reading accepted of choice cann.trans_data.fz_c04_c_over_4 (D8).
      {"NCHW", "FRACTAL_Z_C04", {3, 7, 2, 2}, DType::kFloat16, 1, "§A.5 C > 4 (MS)"},
      // NDC1HWC0 (§A.6) and FRACTAL_Z_3D (§A.7, grouped §A.4).
      {"NCDHW", "NDC1HWC0", {1, 17, 2, 3, 3}, DType::kFloat16, 1, "§A.6 map"},
      {"NDHWC", "NDC1HWC0", {2, 2, 2, 2, 33}, DType::kInt8, 1, "§A.6 NDHWC"},
      {"NCDHW", "NDC1HWC0", {4, 33, 1, 7, 7}, DType::kFloat16, 1, "TSU-UT D = 1 (4,1,3,7,7,16)"},
      {"NCDHW", "FRACTAL_Z_3D", {17, 33, 2, 2, 2}, DType::kFloat16, 1, "§A.7 map"},
      {"DHWCN", "FRACTAL_Z_3D", {2, 1, 3, 17, 5}, DType::kUint8, 1, "§A.7 DHWCN"},
      {"NDHWC", "FRACTAL_Z_3D", {17, 2, 2, 1, 15}, DType::kFloat, 1, "§A.7 NDHWC"},
      {"NCDHW", "FRACTAL_Z_3D", {16, 8, 2, 1, 1}, DType::kFloat16, 4, "§A.4 e = 4, in 3-D"},
      {"NCDHW", "FRACTAL_Z_3D", {24, 16, 2, 2, 1}, DType::kFloat16, 3, "§A.4 G' = 2, in 3-D"},
      {"DHWCN", "FRACTAL_Z_3D", {2, 1, 1, 3, 10}, DType::kFloat16, 3, "groups not dividing N"},
      {"NDHWC", "FRACTAL_Z_3D", {32, 3, 1, 1, 1}, DType::kInt8, 2, "§A.4 int8, in 3-D"},
      // N1 past a step of four blocks (N1 = 6, 7): a kernel that packs four N1 blocks at a
      // time and drops the rest shows here without the real shapes.
      {"NCHW", "FRACTAL_Z", {81, 17, 1, 1}, DType::kFloat16, 1, "N1 = 6"},
      {"HWCN", "FRACTAL_Z", {1, 2, 3, 100}, DType::kInt8, 1, "N1 = 7"},
      // Rows of W (and H) a multiple of 8 and past it: a vector row loop that drops its
      // last 8-pixel chunk when W % 8 == 0, or its tail, shows only on these.
      {"NCHW", "NC1HWC0", {1, 17, 1, 8}, DType::kFloat16, 1, "W = 8: one 8-pixel chunk"},
      {"NCHW", "NC1HWC0", {2, 33, 3, 16}, DType::kFloat16, 1, "W = 16"},
      {"NHWC", "NC1HWC0", {1, 8, 24, 5}, DType::kFloat16, 1, "H = 8, W = 24"},
      {"NCHW", "NC1HWC0", {1, 31, 9, 17}, DType::kInt8, 1, "W = 17: a chunk and a tail"},
      {"NHWC", "NC1HWC0", {1, 2, 16, 7}, DType::kFloat, 1, "W = 16, FLOAT"},
      {"NCHW", "NC1HWC0_C04", {1, 3, 8, 16}, DType::kFloat16, 1, "5HD C04, W = 16"},
      {"NHWC", "NC1HWC0_C04", {2, 8, 8, 3}, DType::kInt8, 1, "5HD C04, H = W = 8"},
      {"NCDHW", "NDC1HWC0", {1, 17, 2, 8, 8}, DType::kFloat16, 1, "6HD, H = W = 8"},
      {"NDHWC", "NDC1HWC0", {1, 1, 3, 16, 33}, DType::kInt8, 1, "6HD, W = 16"},
  };
  return rows;
}

Case MakeCase(const Profile& profile, const Row& row, bool pack, int64_t seed) {
  Case c(kTransData, profile.name);
  c.Set("src_format", pack ? row.src : row.dst)
      .Set("dst_format", pack ? row.dst : row.src)
      .Set("shape", row.shape)
      .Set("dtype", row.dtype)
      .Set("seed", seed);
  if (row.groups != 1) c.Set("groups", row.groups);
  return c;
}

}  // namespace

std::vector<Case> EdgeCases(const Profile& profile) {
  std::vector<Case> out;
  int64_t seed = 1;
  for (const Row& row : SpecRows()) {
    for (bool pack : {true, false}) {
      Case c = MakeCase(profile, row, pack, seed++);
      // A row the profile's readings reject belongs to rejects_invalid.
      if (oracle::cann_transdata::ExpectTransData(profile.raw, CallOf(c)).status == 0)
        out.push_back(c);
    }
  }
  // Every dtype of the C0 table at the C0 edges, H = W = 1, N at the 16 edges.
  for (const auto& [dtype, c0] : gen::cann_transdata::C0Table(profile)) {
    for (const auto& pair : gen::cann_transdata::Pairs()) {
      const int64_t block = pair.blocked == "NC1HWC0_C04" ? 4 : c0;
      // FRACTAL_Z_C04: C in 1..4 (§A.5).
      const std::vector<int64_t> cs = pair.blocked == "FRACTAL_Z_C04"
                                          ? std::vector<int64_t>{4, 1, 3}
                                          : std::vector<int64_t>{block, block + 1, block - 1};
      for (int64_t cc : cs) {
        const Row row{pair.plain.c_str(),
                      pair.blocked.c_str(),
                      gen::cann_transdata::InOrder(pair.plain, 17, cc, 1, 1),
                      dtype,
                      1,
                      "edge"};
        out.push_back(MakeCase(profile, row, true, seed++));
      }
    }
  }
  // ND <-> FRACTAL_NZ (§A.8, cann.md §2.5): rank 1 (choice cann.trans_data.nz_1d), block
  // edges, batch dims, empty tensors; every C0 variant.
  for (const char* nz : {"FRACTAL_NZ", "FRACTAL_NZ_C0_16", "FRACTAL_NZ_C0_32"}) {
    for (DType dtype : {DType::kFloat16, DType::kInt8, DType::kFloat}) {
      for (const Shape& shape : {Shape{1}, Shape{33}, Shape{17, 33}, Shape{16, 32}, Shape{31, 1},
                                 Shape{2, 3, 17, 65}, Shape{0, 5}, Shape{1, 18, 34}}) {
        for (bool pack : {true, false}) {
          Case c(kTransData, profile.name);
          c.Set("src_format", pack ? "ND" : nz).Set("dst_format", pack ? nz : "ND");
          c.Set("shape", shape).Set("dtype", dtype).Set("seed", seed++);
          out.push_back(c);
        }
      }
    }
  }
  // A caller's C0 (GE's format word C0 bits, spec layouts.md §A.0.1): aclnn's fp32 C0 8
  // (choice fp32_c0, D1) and an INT8 C0 16 asked for explicitly; FRACTAL_Z_C04 ignores
  // it (§A.5), so its case is the dtype's cube whatever c0 says.
  for (auto [dtype, c0] : {std::pair{DType::kFloat, 8}, std::pair{DType::kInt8, 16}}) {
    for (const char* dst : {"NC1HWC0", "FRACTAL_Z", "FRACTAL_Z_C04"}) {
      Case c(kTransData, profile.name);
      const bool c04 = std::string(dst) == "FRACTAL_Z_C04";
      c.Set("src_format", "NCHW").Set("dst_format", dst);
      c.Set("shape", c04 ? Shape{17, 3, 5, 5} : Shape{17, 33, 2, 2});
      c.Set("dtype", dtype).Set("c0", int64_t{c0}).Set("seed", seed++);
      out.push_back(c);
    }
  }
  return out;
}

std::vector<Case> RealCases(const Profile& profile) {
  // Every conv weight of vectors/real/conv_shapes.json (ConvShapes(): [Cout, Cin per group,
  // kH, kW] and groups, each model citing its definition file) to FRACTAL_Z, then the §A.4
  // TSU-UT shape: no model's, so not in that file, and kept with the real cases (one profile
  // per run) for its size: 12800 x 3 fractals of 16 x 16.
  std::vector<RealConvWeight> weights = ConvShapes().weights;
  weights.push_back({.model = "§A.4 TSU-UT", .tensor = "", .shape = {48, 512, 5, 5}, .groups = 16});
  std::vector<Case> out;
  int64_t seed = 1000;
  for (const RealConvWeight& w : weights) {
    Case c(kTransData, profile.name);
    c.Set("src_format", "NCHW").Set("dst_format", "FRACTAL_Z").Set("shape", w.shape);
    c.Set("dtype", DType::kFloat16).Set("seed", seed++);
    if (w.groups != 1) c.Set("groups", w.groups);
    out.push_back(c);
  }
  // The TSU-UT 3-D conv weight of spec layouts.md §A.7: NCDHW (48,512,3,5,5) fp16 ->
  // FRACTAL_Z_3D (2400,3,16,16).
  Case fz3d(kTransData, profile.name);
  fz3d.Set("src_format", "NCDHW").Set("dst_format", "FRACTAL_Z_3D");
  fz3d.Set("shape", Shape{48, 512, 3, 5, 5}).Set("dtype", DType::kFloat16).Set("seed", seed++);
  out.push_back(fz3d);
  // The first-layer conv weights of the file (ungrouped, Cin <= 4: RGB) to FRACTAL_Z_C04
  // (§A.5), e.g. torchvision ResNet-50's conv1 [64, 3, 7, 7].
  for (const RealConvWeight& w : ConvShapes().weights) {
    if (w.groups != 1 || w.shape[1] > 4) continue;
    Case c04(kTransData, profile.name);
    c04.Set("src_format", "NCHW").Set("dst_format", "FRACTAL_Z_C04");
    c04.Set("shape", w.shape).Set("dtype", DType::kFloat16).Set("seed", seed++);
    out.push_back(c04);
  }
  return out;
}

std::vector<Case> InvalidCases(const Profile& profile) {
  using gen::cann_transdata::Fault;
  std::vector<Case> out;
  int64_t seed = 1;
  const std::vector<Fault> faults = gen::cann_transdata::Faults(profile);
  // One 4-D row, and one row of each new blocked format (§A.5–A.7), per fault and direction.
  std::set<std::string> done;
  for (const Row& row : SpecRows()) {
    const std::string kind = gen::cann_transdata::IsThreeD(row.src)    ? row.dst
                             : std::string(row.dst) == "FRACTAL_Z_C04" ? row.dst
                                                                       : "4-D";
    if (row.groups != 1 || done.count(kind)) continue;
    if (oracle::cann_transdata::ExpectTransData(profile.raw,
                                                CallOf(MakeCase(profile, row, true, seed)))
            .status != 0)
      continue;
    done.insert(kind);
    for (Fault f : faults) {
      out.push_back(gen::cann_transdata::WithFault(MakeCase(profile, row, true, seed), f));
      out.push_back(gen::cann_transdata::WithFault(MakeCase(profile, row, false, seed++), f));
    }
  }
  // The order of the checks: two faults at once, the earlier check decides.
  auto two = [&](Fault a, Fault b) {
    out.push_back(gen::cann_transdata::WithFault(
        gen::cann_transdata::WithFault(MakeCase(profile, SpecRows()[7], true, seed++), a), b));
  };
  two(Fault::kUnregisteredPair, Fault::kRankThree);     // 145020 before 145021
  two(Fault::kRankThree, Fault::kDtypeWithoutC0);       // 145021 before 145022
  two(Fault::kNegativeGroups, Fault::kDtypeWithoutC0);  // 145022 before the groups
  // GE's empty-shape, C = -1 and rank-5 unit tests (nchw_5d invalid_src_shape2/3).
  Case unregistered(kTransData, profile.name);
  unregistered.Set("src_format", "HWCN").Set("dst_format", "NC1HWC0");
  unregistered.Set("shape", Shape{1, 1, 16, 1}).Set("dtype", DType::kFloat16);
  out.push_back(unregistered);
  Case blocked_to_blocked = unregistered;
  blocked_to_blocked.Set("src_format", "NC1HWC0").Set("dst_format", "FRACTAL_Z");
  out.push_back(blocked_to_blocked);
  Case int4 = unregistered;
  int4.Set("src_format", "NCHW").Set("dtype", DType::kInt4).Set("c0", int64_t{64});
  out.push_back(int4);
  // ND <-> FRACTAL_NZ: rank 0, a negative dim, INT4 (no byte size), groups, wrong pairs.
  auto nz = [&](const char* src, const char* dst, Shape shape, DType dtype, int64_t groups) {
    Case c(kTransData, profile.name);
    c.Set("src_format", src).Set("dst_format", dst).Set("shape", shape).Set("dtype", dtype);
    if (groups != 1) c.Set("groups", groups);
    out.push_back(c);
  };
  nz("ND", "FRACTAL_NZ", {}, DType::kFloat16, 1);
  nz("ND", "FRACTAL_NZ", {-1, 16}, DType::kFloat16, 1);
  nz("FRACTAL_NZ_C0_16", "ND", {16, -3}, DType::kInt8, 1);
  nz("ND", "FRACTAL_NZ", {16, 64}, DType::kInt4, 1);
  nz("ND", "FRACTAL_NZ_C0_32", {16, 64}, DType::kFloat16, 2);
  nz("ND", "NC1HWC0", {1, 16, 2, 2}, DType::kFloat16, 1);
  nz("NCHW", "FRACTAL_NZ", {1, 16, 2, 2}, DType::kFloat16, 1);
  nz("FRACTAL_NZ", "NCHW", {1, 16, 2, 2}, DType::kFloat16, 1);
  // The new formats (§A.5–A.7): pairs no one registers, the rank of the 3-D formats,
  // C > 4 and groups on FRACTAL_Z_C04 (GE-UT nchw_fzc04_c_invalid, hwcn_fzc04_c_invalid,
  // nchw_fzc04_groups_invalid), GE's order (the pair before the rank).
  nz("NHWC", "FRACTAL_Z_C04", {1, 2, 2, 3}, DType::kFloat16, 1);
  nz("NCDHW", "NC1HWC0", {1, 16, 2, 2, 2}, DType::kFloat16, 1);
  nz("NCHW", "NDC1HWC0", {1, 16, 2, 2}, DType::kFloat16, 1);
  nz("DHWCN", "NDC1HWC0", {1, 2, 2, 16, 1}, DType::kFloat16, 1);
  nz("NCHW", "FRACTAL_Z_3D", {1, 16, 2, 2}, DType::kFloat16, 1);
  nz("NDC1HWC0", "FRACTAL_Z_3D", {1, 16, 1, 2, 2}, DType::kFloat16, 1);
  nz("NCDHW", "NDC1HWC0", {1, 16, 2, 2}, DType::kFloat16, 1);
  nz("FRACTAL_Z_3D", "DHWCN", {1, 2, 2, 16}, DType::kFloat16, 1);
  nz("NCDHW", "FRACTAL_Z_3D", {1, 16, 2, 2, 2, 1}, DType::kFloat16, 1);
  nz("NCDHW", "NDC1HWC0", {1, 16, 2, 2, 2}, DType::kFloat16, 2);
  nz("NCHW", "FRACTAL_Z_C04", {1, 3, 2, 2}, DType::kFloat16, 2);
  if (profile.raw.at("trans_data").at("fz_c04_c_over_4").at("value") == "rejected") {
    nz("NCHW", "FRACTAL_Z_C04", {1, 5, 2, 2}, DType::kFloat16, 1);
    nz("FRACTAL_Z_C04", "HWCN", {2, 2, 16, 1}, DType::kFloat16, 1);
  }
  nz("NCHW", "FRACTAL_Z_C04", {1, 3, 2, 2}, DType::kInt16, 1);
  return out;
}

}  // namespace npuconf::cann_transdata_props
