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

// A case whose buffers (inputs + output capacities, and the expected output
// when a check builds it whole) exceed the whole-case memory budget
// (--max-case-bytes): refused before the buffer that would cross it is
// allocated. `case`/`check` exit 2 on it; `run` counts the case as
// skipped-too-large, never as a port failure.
class CaseTooLarge : public CaseError {
 public:
  CaseTooLarge(uint64_t needed_bytes, uint64_t budget_bytes);
  uint64_t needed_bytes;  // at least this many (accounting stops at the first excess)
  uint64_t budget_bytes;
};

// Default whole-case budget and largest single tensor, in bytes. 1.5 GiB keeps
// the default run under 2 GiB of peak RSS (issue 10): a case's buffers are
// held once (an in-process port reads the inputs in place) beside about
// 70 MB of the suite's own. It leaves out the largest real model shapes in
// 16- and 32-bit (Llama-3-8B's [128256, 4096] needs 2.0 / 3.9 GiB), which the
// reports name; `--max-case-bytes` raises it.
inline constexpr uint64_t kMaxCaseBytes = uint64_t{3} << 29;

// The whole-case budget in bytes (process-wide; default kMaxCaseBytes).
uint64_t MaxCaseBytes();
void SetMaxCaseBytes(uint64_t bytes);

// Accounts the buffers of one case: Begin resets the count, Charge adds
// `bytes` before they are allocated and throws CaseTooLarge when the total
// passes the budget. Suite::Materialize begins, charges output capacities;
// RandomBytes charges every input it makes.
void BeginCaseBytes();
void ChargeCaseBytes(uint64_t bytes);

Shape RequireShape(const Case& c, const char* key);
DType RequireDType(const Case& c, const char* key);
int64_t RequireInt(const Case& c, const char* key);
uint64_t Seed(const Case& c);                      // the `seed` param, 0 if absent
Bytes RandomBytes(uint64_t seed, uint64_t count);  // SplitMix64(seed) bytes
uint64_t ElemBytes(DType dtype, int64_t elems, const Shape& shape);  // checked, ≤ MaxCaseBytes()
bool OutputIsNull(const Case& c, const std::string& name);           // `name=null` in the case

}  // namespace npuconf
