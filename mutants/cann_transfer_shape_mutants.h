// Deliberately wrong cann.transfer_shape ports (mutants/cann_transfer_shape_mutants.cpp).
#pragma once

#include <vector>

#include "mutants/mutants.h"

namespace npuconf {

void AddCannTransferShapeMutants(std::vector<Mutant>* out);

}  // namespace npuconf
