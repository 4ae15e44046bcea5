// Explicit cases of the CANN properties: the documented and unit-test cases of
// spec cann.md §1.7 and §2.4 with their expected answers, and the real model
// shapes of vectors/real/.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "conformance/harness/property.h"

namespace npuconf::cann_props {

// A row of spec cann.md §1.7 / §2.4: a case and the answer the spec gives.
struct DocumentedCase {
  Case c;
  int64_t status;
  std::optional<uint64_t> size_elems;  // size routines, on SUCCESS
  std::string source;                  // "spec cann.md §1.7 U3"
  std::string reading;                 // non-empty: holds only under this choice reading
  std::string choice;                  // the choice that reading belongs to
};

// Every documented row that applies to `profile`.
std::vector<DocumentedCase> DocumentedCases(const std::string& routine, const Profile& profile);
const DocumentedCase* FindDocumented(const Case& c, const Profile& profile);

// Documented rows as plain cases, for the oracle-based properties.
std::vector<Case> DocumentedAsCases(const std::string& routine, const Profile& profile);

// Real model shapes × dtypes as size cases (every profile).
std::vector<Case> RealSizeCases(const std::string& routine, const Profile& profile);
// Real model shapes as layout or TransMatmulWeight cases, once per (bits, C0)
// class: on the first profile of the run and dtype whose case the port's
// claims admit (the bytes are the same on all of them; RunHere).
std::vector<Case> RealLayoutCases(const std::string& routine, const PropertyContext& ctx);

}  // namespace npuconf::cann_props
