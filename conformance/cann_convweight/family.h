// The CANN conv-weight family's conformance side (spec layouts.md §A.9, §A.10,
// §A.4), as registered in cli/families.cpp.
#pragma once

#include <vector>

#include "conformance/harness/layout_properties.h"
#include "conformance/harness/suite.h"
#include "core/case.h"
#include "oracles/cann_convweight/conv_weight_oracle.h"

namespace npuconf {

Family CannConvWeightFamily();

namespace cann_convweight_props {

// The oracle's answer for `c` on the profile as the port claims it.
oracle::cann_convweight::Expect ExpectOf(const Profile& profile, const Case& c);

// A packing trans_convolution_weight case as a layout: the oracle's bytes and
// its FRACTAL_Z storage map (family.cpp). Throws CaseError for any other case.
LayoutInstance TransInstance(const Case& c, const Profile& profile);

// The explicit cases (cases.cpp), each citing its source; real_shapes adds the real
// conv weights (ctx.real_shapes, off with --no-real-shapes).
struct DocumentedSize {
  Case c;
  uint64_t size_elems;
  const char* source;
};
std::vector<DocumentedSize> DocumentedSizes(const Profile& profile);
std::vector<Case> SizeEdgeCases(const Profile& profile, bool real_shapes);
std::vector<Case> SizeInvalidCases(const Profile& profile);
std::vector<Case> TransEdgeCases(const Profile& profile, bool real_shapes);
std::vector<Case> TransInvalidCases(const Profile& profile);
std::vector<Case> TransEmptyCases(const Profile& profile);
std::vector<Case> CastEdgeCases(const Profile& profile);
std::vector<Case> CastInvalidCases(const Profile& profile);

// The properties (properties.cpp) and the coverage classes (coverage.cpp).
void AddProperties(std::vector<Property>* out);
void AddCoverage(std::vector<RoutineCoverage>* out);

}  // namespace cann_convweight_props

}  // namespace npuconf
