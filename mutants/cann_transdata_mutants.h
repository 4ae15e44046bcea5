// The cann.trans_data family's deliberately wrong ports (mutants/mutants.h).
#pragma once

#include <vector>

#include "mutants/mutants.h"

namespace npuconf {

void AddCannTransDataMutants(std::vector<Mutant>* out);

}  // namespace npuconf
