// The reference port's conv-weight and format-cast size routines
// (reference/cann_convweight/), each answering a case read through the port ABI.
#pragma once

#include <cstdint>

#include "core/abi_view.h"
#include "reference/cann_convweight/conv_weight.h"
#include "reference/reference_port.h"

namespace npuconf::cann_convweight {

// The aclnnTransConvolutionWeight arguments of a cann.trans_convolution_weight
// case (spec layouts.md §A.9): weightIn null where `shape` is null, weightOut
// null where its data is; absent optional params at their defaults. The caller
// has checked that `groups`, `dtype` and output `weight_out` are there.
TransConvolutionWeightArgs TransConvolutionWeightArgsOf(const CaseView& view);

const ReferenceFamily& CannConvWeightReference();

// AnswerWith(CannConvWeightReference(), …): what mutants/ delegate to.
int32_t CannConvWeightReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                                    uint64_t message_bytes);

}  // namespace npuconf::cann_convweight
