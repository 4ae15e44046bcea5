// The routine catalogue: every routine id a case may name, its params, and how
// a case becomes concrete buffers (inputs from the case's seed; outputs sized
// from the oracle's layout, so a port cannot widen its own capacity).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "conformance/port_client.h"
#include "core/profile.h"

namespace npuconf {

struct RoutineInfo {
  std::string id;           // "cann.nd_to_nz"
  std::string family;       // "cann"
  std::string vendor_name;  // "aclnnCalculateMatmulWeightSizeV2", or "" for a layout
  std::string params;       // one line: the case params and their meaning
  std::string outputs;      // one line: outputs and their units
};

const std::vector<RoutineInfo>& Routines();
const RoutineInfo* FindRoutine(const std::string& id);

// A case that cannot be made concrete: unknown routine or profile, a missing or
// mistyped param, a shape too large to allocate. The CLI exits 2 on it.
class CaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Largest tensor (bytes) a case may ask the runner to allocate.
inline constexpr uint64_t kMaxCaseBytes = uint64_t{4} << 30;

// The C0 a cann layout case uses: its `c0` param, else the profile's C0 for the dtype.
int64_t CaseC0(const Case& c, const Profile& profile);

// Throws CaseError.
Invocation Materialize(const Case& c, const Profile& profile);

}  // namespace npuconf
