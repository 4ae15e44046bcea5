// The RKNN Matmul family (spec rknn.md: rknn_matmul_create[_dynamic_shape], the
// NORM / NATIVE / TP_NORM layouts of A, B, C with K segmentation, int4 packing)
// as the conformance side registers it.
#pragma once

#include "conformance/harness/suite.h"

namespace npuconf {

Family RknnFamily();
// Its coverage classes (conformance/rknn/coverage.cpp).
void AddRknnCoverage(std::vector<RoutineCoverage>* out);

}  // namespace npuconf
