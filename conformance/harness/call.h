// Calling the port under test from a property: materialize, call, and turn "the
// port did not answer" or "it wrote outside its buffer" into a Verdict.
#pragma once

#include <optional>

#include "conformance/harness/property.h"
#include "conformance/ports/port.h"

namespace npuconf {

struct Called {
  Invocation inv;
  Answer answer;
  // True when output `name` differs from what was handed to the port (false
  // for an unknown name).
  bool Written(const std::string& name) const;
};

// Calls; a Fail when the port claims the routine but answered "unclaimed" or
// refused the case as malformed. The Case overload materializes first
// (CaseError propagates).
std::optional<Verdict> CallPort(const PropertyContext& ctx, Invocation inv, Called* out);
std::optional<Verdict> CallPort(const PropertyContext& ctx, const Case& c, Called* out);

// True when `after` holds what was handed to the port (spec.Before()), compared
// without building that copy (a rejected case's buffer may be a gigabyte).
bool Untouched(const OutputSpec& spec, std::span<const uint8_t> after);

// A Fail naming the first changed guard byte, when the port wrote outside `out`.
std::optional<Verdict> CheckGuards(const OutputResult& out);

}  // namespace npuconf
