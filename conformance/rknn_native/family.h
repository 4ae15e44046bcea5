// The RKNN native tensor family (spec layouts.md Part B: NCHW / NHWC <->
// NC1HWC2, the int8 dequant of zero-copy outputs, the attr sizes) as the
// conformance side registers it.
#pragma once

#include "conformance/harness/suite.h"

namespace npuconf {

Family RknnNativeFamily();

}  // namespace npuconf
