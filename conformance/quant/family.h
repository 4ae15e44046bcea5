// The dequant family (GatherDequantInt8 and its quantizer, CANN weight
// antiquant, RKNN B dequant) as the conformance side registers it.
#pragma once

#include "conformance/harness/suite.h"

namespace npuconf {

Family QuantFamily();
// Its coverage classes (conformance/quant/coverage.cpp).
void AddQuantCoverage(std::vector<RoutineCoverage>* out);
// The family's materializer for any of its routines; throws CaseError.
Invocation MaterializeQuantCase(const Case& c, const Profile& profile);

}  // namespace npuconf
