// The suite: every routine family the conformance side knows, each with its
// routines (spec + materializer) and its properties. Families are listed once,
// in cli/families.cpp; everything here is built from that list.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "conformance/harness/coverage.h"
#include "conformance/harness/expected.h"
#include "conformance/harness/materialize.h"
#include "conformance/harness/property.h"
#include "core/routine.h"

namespace npuconf {

using Materializer = Invocation (*)(const Case& c, const Profile& profile);
// The value routine param `param` takes in `c`, which leaves it out, on
// `profile` (its claimed readings applied): what the routine then uses (the
// profile's C0 for the dtype, the platform's segment length). nullopt when the
// case decides none (the routine rejects it before the param matters).
using EffectiveFn = std::optional<ParamValue> (*)(const Case& c, const Profile& profile,
                                                  const ParamSpec& param);

// A routine as the runner uses it: its spec (core/routines/) and how its cases
// become buffers. Dispatch is by exact id.
struct Routine {
  const RoutineSpec* spec = nullptr;
  Materializer materialize = nullptr;
  ExpectFn expected = nullptr;  // the oracle's answer (vectors); null: none yet
  // Params whose default the profile decides (ParamSpec::default_doc); null:
  // only literal defaults and readings (ParamSpec::default_choice).
  EffectiveFn effective = nullptr;
};

// One family's conformance side (conformance/<family>/family.cpp).
struct Family {
  std::string name;  // "cann", "rknn", "quant"
  std::vector<Routine> routines;
  void (*add_properties)(std::vector<Property>* out) = nullptr;
  // The coverage classes of its routines (conformance/<family>/coverage.cpp).
  void (*add_coverage)(std::vector<RoutineCoverage>* out) = nullptr;
};

class Suite {
 public:
  // Throws std::logic_error on a duplicate routine id or property name, a
  // routine without spec or materializer, or a property naming an unknown
  // routine or choice-less profile family: the suite's own wiring, checked once.
  explicit Suite(std::vector<Family> families);

  const std::vector<Family>& families() const { return families_; }
  const std::vector<Property>& properties() const { return properties_; }
  std::vector<const RoutineSpec*> specs() const;
  const Routine* FindRoutine(std::string_view id) const;
  const Property* FindProperty(std::string_view name) const;
  const std::vector<RoutineCoverage>& coverage() const { return coverage_; }
  // The coverage classes of routine `id`, or nullptr.
  const RoutineCoverage* FindCoverage(std::string_view id) const;

  // Validates the case against its routine's spec (core/routine.h), checks the
  // profile is of the routine's vendor, then materializes. Throws CaseError
  // naming what is wrong.
  Invocation Materialize(const Case& c, const Profile& profile) const;

  // `c` with every param it leaves out set to its effective value on
  // `profile` (as claimed): the literal default, the profile's reading, or
  // what the routine's EffectiveFn resolves. Claims, waivers and coverage
  // classes look at this, never at the case as written (DESIGN.md "Claims
  // shape the run"): `c0=16|32` admits a case whose dtype's C0 is 32. Only for
  // matching; the port is handed the case as written.
  Case Effective(const Case& c, const Profile& profile) const;

 private:
  std::vector<Family> families_;
  std::vector<Property> properties_;
  std::vector<RoutineCoverage> coverage_;
};

}  // namespace npuconf
