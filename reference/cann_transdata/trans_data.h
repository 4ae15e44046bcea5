// The host TransData conversion (spec layouts.md §A.1, §A.3, §A.4): NCHW/NHWC <->
// NC1HWC0 and NCHW/HWCN/NHWC <-> FRACTAL_Z with groups, GE's checks and codes.
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
  kNc1hwc0C04
};
std::optional<Format> ParseFormat(std::string_view name);

// The profile's trans_data section (profiles/cann/*.json), readings applied.
struct TransDataFacts {
  std::map<DType, int64_t> c0;             // trans_data.c0
  bool three_way_min = false;              // trans_data.group_factor == "three_way_min"
  bool groups_exceed_n_ungrouped = false;  // trans_data.groups_exceed_n == "ungrouped"
  std::map<DType, int64_t> nz_c0;          // fractal_nz.c0 (FRACTAL_NZ without _C0_x)
  bool nz_1d_column = false;               // trans_data.nz_1d == "column"
};
// Reads `raw` (Profile::raw); throws std::runtime_error on a malformed section.
TransDataFacts ReadTransDataFacts(const nlohmann::json& raw);

struct TransDataArgs {
  Format src = Format::kNchw, dst = Format::kNc1hwc0;
  int64_t groups = 1;
  Shape shape;  // the plain side's shape, in its own axis order (4-D; ND: rank >= 1)
  DType dtype = DType::kFloat16;
  int64_t c0 = 0;  // 0: the facts' C0 for the dtype
};

// A validated conversion: both sides' geometry.
struct TransDataPlan {
  bool pack = true;  // plain -> blocked
  Format plain = Format::kNchw, blocked = Format::kNc1hwc0;
  int64_t n = 0, c = 0, h = 0, w = 0;  // the weight / feature map axes
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

// Validates in GE's order (§A.1 steps 1–2, §A.3, §A.4): an unregistered pair
// 145020; rank != 4, a negative dim, more than 2^40 elements, groups < 0,
// groups > 1 outside FRACTAL_Z or an empty grouped Cin 145021; a dtype
// without a C0 145022. N < groups: 145021 or the ungrouped map (the facts).
int64_t PlanTransData(const TransDataFacts& facts, const TransDataArgs& args, TransDataPlan* plan);

// Converts `src` (plan.src_bytes) into `dst` (plan.dst_bytes); padding 0.
void RunTransData(const TransDataPlan& plan, const uint8_t* src, uint8_t* dst);

}  // namespace npuconf::cann_transdata
