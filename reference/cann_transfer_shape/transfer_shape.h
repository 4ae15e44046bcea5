// The framework storage-shape function (spec layouts.md §A.0.2; TSU
// TransferShapeUtils::TransferShape @0826cce6), in TSU's order of steps 1-5.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "core/shape.h"

namespace npuconf::cann_transfer_shape {

// The profile's transfer_shape section (profiles/cann/*.json): K0 and M0 per
// ge::DataType name ("default" for the rest), and N0.
struct TransferShapeFacts {
  std::map<std::string, int64_t> k0, m0;
  int64_t k0_default = 16, m0_default = 16, n0 = 16;
};
// Reads `raw` (Profile::raw); throws std::runtime_error when the section is
// missing or malformed.
TransferShapeFacts ReadTransferShapeFacts(const nlohmann::json& raw);

struct TransferShapeArgs {
  std::string origin_format, format;  // core/routines/cann_transfer_shape.h kFormats
  std::string dtype;                  // kDTypes
  Shape shape;                        // the origin shape, ELEMENTS; -1 unknown
  int64_t groups = 1;                 // the target's sub-format
  int64_t m0 = 0;                     // 0: the facts' M0 for the dtype
};

// Returns kTrue (0) with *out the storage shape, kFalse (1) for an invalid
// format or dtype (step 2), kNotModelled (2) outside the rules the TSU snapshot
// defines (routines::cann_transfer_shape). *out is set on kTrue only.
int64_t TransferShape(const TransferShapeFacts& facts, const TransferShapeArgs& args, Shape* out);

}  // namespace npuconf::cann_transfer_shape
