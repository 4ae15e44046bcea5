// The reference port's answers to cann.trans_data cases (reference/cann_transdata/).
#pragma once

#include "reference/reference_port.h"

namespace npuconf::cann_transdata {

const ReferenceFamily& CannTransDataReference();

}  // namespace npuconf::cann_transdata
