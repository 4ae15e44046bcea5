// The oracle's answer to one concrete case, as data: the status and the bytes
// of every output the routine writes. Each family gives one `ExpectFn` per
// routine beside its materializer (conformance/<family>/family.cpp); vector
// files (vectors/, `npuconf vectors`) store it as a case's expected answer.
// Built only from oracles/ and the profile's facts, never from reference/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "conformance/harness/layout_properties.h"
#include "conformance/harness/property.h"
#include "core/invocation.h"

namespace npuconf {

struct ExpectedOutput {
  std::string name;
  DType dtype = DType::kUint8;
  Shape dims;   // storage dims in ELEMENTS (the layout's padded shape; [] for a scalar)
  Bytes bytes;  // little-endian, INT4 two per byte; padding 0
  // The dims the port must report for this output (npuconf_tensor rank and
  // dims), when the routine reports any: the layouts do, the sizes do not.
  std::optional<Shape> reported_dims;
};

struct Expected {
  // False outside the vendor's defined domain (or under a reading the port
  // does not claim): no expected answer exists; `rule` says why.
  bool defined = true;
  std::string rule;  // the rule that decided, with its spec section
  int64_t status = 0;
  std::vector<ExpectedOutput> outputs;  // what the routine writes on this status
  // Outputs the routine must leave exactly as handed over (a rejection).
  std::vector<std::string> untouched;

  static Expected Undefined(std::string why) {
    Expected e;
    e.defined = false;
    e.rule = std::move(why);
    return e;
  }
};

// The oracle's answer for `inv` (made by the routine's materializer from
// inv.c) on ctx.profile, under the readings ctx.port claims. Throws CaseError
// for a case the routine cannot make concrete.
using ExpectFn = Expected (*)(const PropertyContext& ctx, const Invocation& inv);

// A layout routine's answer: `success` and the oracle's output for the
// invocation's input (`instance.input`, an input tensor or an in-place
// output's initial content).
Expected ExpectLayout(const LayoutInstance& instance, int64_t success, const Invocation& inv,
                      const std::string& rule);

}  // namespace npuconf
