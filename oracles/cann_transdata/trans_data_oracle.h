// The TransData oracle (spec layouts.md §A.1, §A.3–A.8) as tensor algebra: the
// layout is a map of positions built by pad → reshape → shuffle of an index
// tensor (the grouped map as a block-diagonal tensor), and the checks as a list.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf::oracle::cann_transdata {

struct TransDataCall {
  std::string src_format, dst_format;
  int64_t groups = 1;
  Shape shape;
  DType dtype = DType::kFloat16;
  std::optional<int64_t> c0;
};

// The expected status and, for a valid call, the layout.
struct TransDataExpect {
  int64_t status = 0;
  std::string rule;  // the check that decided a rejection
  bool pack = true;
  int64_t c0 = 0, elem_bytes = 0, groups = 1, cout = 0;
  Shape dst_dims, storage;
  int64_t src_elems = 0, dst_elems = 0;
  // FRACTAL_NZ: the ND side as [batch, rows, cols].
  int64_t nz_batch = 1, nz_rows = 0, nz_cols = 0;
};

// `raw`: Profile::raw (its trans_data section, readings applied).
TransDataExpect ExpectTransData(const nlohmann::json& raw, const TransDataCall& call);

// For each dst element (row-major over dst_dims): 1 + the src element it
// holds, or 0 for a position that holds 0.
std::vector<int64_t> DstSources(const nlohmann::json& raw, const TransDataCall& call);

// The dst bytes of a valid call, from `src`.
std::vector<uint8_t> TransData(const nlohmann::json& raw, const TransDataCall& call,
                               const std::vector<uint8_t>& src);

// The ungrouped FRACTAL_Z positions (pad → reshape → shuffle only), for the
// law "groups = 1 equals the ungrouped map": 1 + the NCHW element index.
std::vector<int64_t> UngroupedFractalZ(const Shape& nchw, int64_t c0);

}  // namespace npuconf::oracle::cann_transdata
