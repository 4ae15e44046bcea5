// The dequant family (GatherDequantInt8 and its quantizer, CANN weight
// antiquant, RKNN B dequant) as the conformance side registers it.
#pragma once

#include "conformance/harness/suite.h"

namespace npuconf {

Family QuantFamily();

}  // namespace npuconf
