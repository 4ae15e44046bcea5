// Shared pieces of the CANN properties: calling the port on a case, the
// oracle's expectations for a case, and the reading of a choice a port claims.
#pragma once

#include <optional>
#include <string>

#include "conformance/harness/call.h"
#include "conformance/ports/port_client.h"
#include "conformance/harness/property.h"
#include "oracles/cann/validation_oracle.h"

namespace npuconf::cann_props {

inline constexpr char kLegacy[] = "cann.calculate_matmul_weight_size";
inline constexpr char kV2[] = "cann.calculate_matmul_weight_size_v2";
inline constexpr char kTrans[] = "cann.trans_matmul_weight";
inline constexpr char kPack[] = "cann.nd_to_nz";
inline constexpr char kUnpack[] = "cann.nz_to_nd";

// The port's claimed reading of a named choice, or "" when unclaimed.
std::string Reading(const PropertyContext& ctx, const std::string& choice);

oracle::cann::Expectation ExpectSize(const PropertyContext& ctx, const Case& c);
oracle::cann::TransExpectation ExpectTrans(const PropertyContext& ctx, const Case& c);

std::string StatusText(int64_t status);

}  // namespace npuconf::cann_props
