// Deliberately wrong ports: each is the reference port with one realistic bug,
// built in and selectable as `--port mutant:NAME`. The suite's own tests
// require every one of them to fail the runner on the property that names it.
#pragma once

#include <string>
#include <vector>

#include "npuconf/port.h"
#include "reference/reference_port.h"

namespace npuconf {

struct Mutant {
  std::string name;         // "nz-padding-unwritten"
  std::string bug;          // what is wrong, in a sentence
  std::string caught_by;    // the property expected to catch it
  std::string profile;      // a profile on which it shows
  const npuconf_port* port;
};

// The port table of one mutant: the reference port's claims, answered by `kCall`.
template <int32_t (*kCall)(const npuconf_case*, int64_t*, char*, uint64_t)>
const npuconf_port* MutantPort(const char* name) {
  static const npuconf_port port = {NPUCONF_PORT_ABI_VERSION, name, "0.1.0-mutant",
                                    ReferencePort()->claims, kCall};
  return &port;
}

const std::vector<Mutant>& Mutants();
const Mutant* FindMutant(const std::string& name);

// Families register their mutants here (mutants/cann_mutants.cpp, …).
void AddCannMutants(std::vector<Mutant>* out);
void AddRknnMutants(std::vector<Mutant>* out);  // mutants/rknn_mutants.cpp
void AddQuantMutants(std::vector<Mutant>* out);  // mutants/quant_mutants.cpp

}  // namespace npuconf
