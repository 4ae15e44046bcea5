// The CANN family (spec cann.md §1–2: matmul-weight size, TransMatmulWeight,
// ND <-> FRACTAL_NZ) as the conformance side registers it.
#pragma once

#include "conformance/harness/suite.h"

namespace npuconf {

Family CannFamily();
// Its coverage classes (conformance/cann/coverage.cpp).
void AddCannCoverage(std::vector<RoutineCoverage>* out);

}  // namespace npuconf
