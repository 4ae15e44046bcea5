// The CANN TransData family's conformance side (spec layouts.md Part A), as
// registered in cli/families.cpp.
#pragma once

#include <vector>

#include "conformance/harness/suite.h"
#include "core/case.h"

namespace npuconf {

Family CannTransDataFamily();

namespace cann_transdata_props {
// The explicit cases of every layout property (edge shapes, spec examples) and
// the real conv-weight shapes, on `profile` (conformance/cann_transdata/cases.cpp).
std::vector<Case> EdgeCases(const Profile& profile);
std::vector<Case> RealCases(const Profile& profile);
// Invalid calls, one per check of §A.1–A.4 (cases.cpp).
std::vector<Case> InvalidCases(const Profile& profile);
// GE's unit-test arrays as explicit cases (gold.cpp).
Property GoldProperty();
}  // namespace cann_transdata_props

}  // namespace npuconf
