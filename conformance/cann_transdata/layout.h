// A cann.trans_data case made concrete from the oracle: the call, its expected
// status and layout, and where each dst element sits (for messages).
#pragma once

#include <memory>

#include "conformance/harness/layout_properties.h"
#include "core/case.h"
#include "core/profile.h"
#include "oracles/cann_transdata/trans_data_oracle.h"

namespace npuconf::cann_transdata_props {

oracle::cann_transdata::TransDataCall CallOf(const Case& c);
// The layout of a valid call (throws CaseError for a rejected one).
LayoutInstance TransDataInstance(const Case& c, const Profile& profile);
// The element count of the plain side's batch axis N of element `index`.
int64_t NOfPlainIndex(const oracle::cann_transdata::TransDataCall& call, int64_t index);

}  // namespace npuconf::cann_transdata_props
