// Shared pieces of the CANN properties: calling the port on a case, the
// oracle's expectations for a case, and the reading of a choice a port claims.
#pragma once

#include <optional>
#include <string>

#include "conformance/harness/call.h"
#include "conformance/harness/expected.h"
#include "conformance/harness/property.h"
#include "conformance/ports/port.h"
#include "core/routines/cann.h"
#include "oracles/cann/validation_oracle.h"

namespace npuconf::cann_props {

inline constexpr const char* kLegacy = routines::cann::kCalculateMatmulWeightSize;
inline constexpr const char* kV2 = routines::cann::kCalculateMatmulWeightSizeV2;
inline constexpr const char* kTrans = routines::cann::kTransMatmulWeight;
inline constexpr const char* kPack = routines::cann::kNdToNz;
inline constexpr const char* kUnpack = routines::cann::kNzToNd;

// The C0 a cann layout case uses: its `c0` param, else the profile's C0 for the dtype.
int64_t CaseC0(const Case& c, const Profile& profile);

// Registration of the family's properties (size_properties.cpp, layout_properties.cpp).
void AddSizeProperties(std::vector<Property>* out);
void AddLayoutProperties(std::vector<Property>* out);

// The port's claimed reading of a named choice, or "" when unclaimed.
std::string Reading(const PropertyContext& ctx, const std::string& choice);

oracle::cann::Expectation ExpectSize(const PropertyContext& ctx, const Case& c);
oracle::cann::TransExpectation ExpectTrans(const PropertyContext& ctx, const Case& c);

std::string StatusText(int64_t status);

// The layout of an nd_to_nz, nz_to_nd or (converting) TransMatmulWeight case,
// with the oracle's answer (layout_properties.cpp).
LayoutInstance NzLayoutInstance(const Case& c, const Profile& profile, const std::string& routine);

// The oracle's answer of each routine, for vector files (expected.cpp).
Expected ExpectSizeAnswer(const PropertyContext& ctx, const Invocation& inv);
Expected ExpectTransAnswer(const PropertyContext& ctx, const Invocation& inv);
Expected ExpectNzAnswer(const PropertyContext& ctx, const Invocation& inv);

}  // namespace npuconf::cann_props
