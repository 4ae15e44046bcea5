// The host TransData conversion (spec layouts.md §A.1–A.8): NCHW/NHWC <-> NC1HWC0,
// NCHW/HWCN/NHWC <-> FRACTAL_Z with groups, NCHW/HWCN <-> FRACTAL_Z_C04, NCDHW/NDHWC
// <-> NDC1HWC0, NCDHW/DHWCN/NDHWC <-> FRACTAL_Z_3D with groups; GE's checks and codes.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf::cann_transdata {

enum class Format {
  kNchw,
  kNhwc,
  kHwcn,
  kNc1hwc0,
  kFractalZ,
  kNd,
  kFractalNz,
  kFractalNz16,
  kFractalNz32,
  kNc1hwc0C04,
  kNcdhw,
  kNdhwc,
  kDhwcn,
  kNdc1hwc0,
  kFractalZ3d,
  kFractalZC04
};
std::optional<Format> ParseFormat(std::string_view name);

// The profile's trans_data section (profiles/cann/*.json), readings applied.
struct TransDataFacts {
  std::map<DType, int64_t> c0;  // trans_data.c0
  // cann.md §2.7's three-way min group factor, which no vendor component
  // implements (spec layouts.md §A.12 D3): never set from a profile; the
  // mutant transdata-three-way-min sets it.
  bool three_way_min = false;
  bool groups_exceed_n_ungrouped = false;  // trans_data.groups_exceed_n == "ungrouped"
  std::map<DType, int64_t> nz_c0;          // fractal_nz.c0 (FRACTAL_NZ without _C0_x)
  bool nz_1d_column = false;               // trans_data.nz_1d == "column"
  bool fz_c04_fixed_16 = false;            // trans_data.fz_c04_c0 == "fixed_16" (D7)
  bool fz_c04_accepts_c_over_4 = false;    // trans_data.fz_c04_c_over_4 == "accepted" (D8)
};
// Reads `raw` (Profile::raw); throws std::runtime_error on a malformed section.
TransDataFacts ReadTransDataFacts(const nlohmann::json& raw);

struct TransDataArgs {
  Format src = Format::kNchw, dst = Format::kNc1hwc0;
  int64_t groups = 1;
  Shape shape;  // the plain side's shape, in its own axis order (4-D, 5-D; ND: rank >= 1)
  DType dtype = DType::kFloat16;
  int64_t c0 = 0;  // 0: the facts' C0 for the dtype
};

// A validated conversion: both sides' geometry.
struct TransDataPlan {
  bool pack = true;  // plain -> blocked
  Format plain = Format::kNchw, blocked = Format::kNc1hwc0;
  int64_t n = 0, c = 0, h = 0, w = 0;  // the weight / feature map axes
  int64_t d = 1;                       // depth: 1 for the 4-D formats
  // FRACTAL_Z_C04: the blocks of 4 channels ahead of (h, w) in the flattened
  // axis, 1 for C <= 4 (ceil(C/4) under the reading accepted of D8, MS).
  int64_t c04_c1 = 1;
  // FRACTAL_NZ: [batch, rows, cols] of the ND side, C1 = c1, N1·16 = cout_padded.
  int64_t batch = 1, rows = 0, cols = 0;
  int64_t c0 = 0, elem_bytes = 0;
  // Grouped FRACTAL_Z (§A.4); g = 1 gives the ungrouped map.
  int64_t groups = 1, cout = 0, e = 1, c1 = 0, cout_padded = 0, g_blocks = 1;
  Shape storage;  // the blocked side's dims
  int64_t plain_elems = 0, storage_elems = 0;
  uint64_t src_bytes = 0, dst_bytes = 0;
  Shape dst_dims;  // what the output reports
};

// Validates in GE's order (§A.1 steps 1–2, §A.3–A.7): an unregistered pair
// 145020; a rank other than 4 (5 for NCDHW/NDHWC/DHWCN), a negative dim, more
// than 2^40 elements 145021; a dtype without a C0 145022; groups < 0, groups > 1
// outside FRACTAL_Z/FRACTAL_Z_3D, an empty grouped Cin, FRACTAL_Z_C04 with C > 4
// (unless the facts accept it) 145021. N < groups: 145021 or the ungrouped map.
int64_t PlanTransData(const TransDataFacts& facts, const TransDataArgs& args, TransDataPlan* plan);

// Converts `src` (plan.src_bytes) into `dst` (plan.dst_bytes); padding 0.
void RunTransData(const TransDataPlan& plan, const uint8_t* src, uint8_t* dst);

}  // namespace npuconf::cann_transdata
