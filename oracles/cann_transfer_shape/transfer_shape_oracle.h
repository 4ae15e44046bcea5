// The framework storage shape (spec layouts.md §A.0.2) as axis algebra: each
// target format is a row of dim terms over the named axes N, C, H, W, D, G.
// Written apart from reference/cann_transfer_shape/; shares no rule with it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "core/shape.h"

namespace npuconf::oracle::cann_transfer_shape {

struct TransferShapeQuery {
  std::string src_format, dst_format, dtype;
  Shape shape;
  int64_t groups = 1;
  int64_t m0 = 0;  // 0: the profile's transfer_shape.m0
};

struct TransferShapeAnswer {
  int64_t status = 0;  // routines::cann_transfer_shape::kTrue / kFalse / kNotModelled
  Shape storage;       // on kTrue
  std::string rule;    // the §A.0.2 rule that decided
};

// `profile_raw` is Profile::raw (its transfer_shape section).
TransferShapeAnswer ExpectTransferShape(const nlohmann::json& profile_raw,
                                        const TransferShapeQuery& q);

// C0 of the query as §A.0.1 reads it (the target's _C0_x / _C04 suffix, else
// the dtype's K0), for the cross-routine law.
int64_t C0OfQuery(const nlohmann::json& profile_raw, const TransferShapeQuery& q);

}  // namespace npuconf::oracle::cann_transfer_shape
