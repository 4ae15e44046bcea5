// The conv-weight family's deliberately wrong ports (mutants/mutants.h).
#pragma once

#include <vector>

#include "mutants/mutants.h"

namespace npuconf {

void AddCannConvWeightMutants(std::vector<Mutant>* out);

}  // namespace npuconf
