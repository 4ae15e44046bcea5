// The reference port's answers to cann.transfer_shape cases (reference/cann_transfer_shape/).
#pragma once

#include "reference/reference_port.h"

namespace npuconf::cann_transfer_shape {

const ReferenceFamily& CannTransferShapeReference();

}  // namespace npuconf::cann_transfer_shape
