// Param specs several routine tables share (the data seed, a shape).
#pragma once

#include "core/routine.h"

namespace npuconf::routines {

// `seed`: the case's bulk input data is SplitMix64(seed) (core/prng.h), so a
// case replays from its params alone.
inline ParamSpec SeedParam() {
  return {.key = "seed",
          .type = ParamType::kInt,
          .doc = "input data from SplitMix64(seed)",
          .min = 0,
          .default_value = ParamValue::Int(0),
          .data = true};
}

}  // namespace npuconf::routines
