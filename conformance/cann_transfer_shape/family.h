// The CANN framework storage-shape family's conformance side (spec layouts.md
// §A.0.2), as registered in cli/families.cpp.
#pragma once

#include <vector>

#include "conformance/harness/suite.h"
#include "core/case.h"

namespace npuconf {

Family CannTransferShapeFamily();

namespace cann_transfer_shape_props {
// Every kept TSU-UT row (ut_rows.h) as a case on `profile`, in UT line order.
std::vector<Case> UtCases(const Profile& profile);
}  // namespace cann_transfer_shape_props

}  // namespace npuconf
