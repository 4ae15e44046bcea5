// Helpers for the families' materializers, which turn a case into the buffers
// that travel to a port (core/invocation.h): inputs from the case's seed,
// output capacities from the ORACLE's layout, so a port cannot widen its own
// capacity. Each helper throws CaseError naming the offending param or value.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "core/case.h"
#include "core/invocation.h"
#include "core/profile.h"

namespace npuconf {

// A case that cannot be made concrete: unknown routine or profile, a missing or
// mistyped param, a shape too large to allocate. The CLI exits 2 on it.
class CaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Largest tensor (bytes) a case may ask the runner to allocate.
inline constexpr uint64_t kMaxCaseBytes = uint64_t{4} << 30;

Shape RequireShape(const Case& c, const char* key);
DType RequireDType(const Case& c, const char* key);
int64_t RequireInt(const Case& c, const char* key);
uint64_t Seed(const Case& c);                      // the `seed` param, 0 if absent
Bytes RandomBytes(uint64_t seed, uint64_t count);  // SplitMix64(seed) bytes
uint64_t ElemBytes(DType dtype, int64_t elems, const Shape& shape);  // checked, ≤ kMaxCaseBytes
bool OutputIsNull(const Case& c, const std::string& name);           // `name=null` in the case

}  // namespace npuconf
