// Deliberately wrong ports: each is the reference port with one realistic bug in
// some routines of one family (Mutant::routines), selectable as `--port
// mutant:NAME` (cli/ assembles the port: the mutant answers those routines, the
// reference answers the rest). The suite's own tests require every one of them
// to fail the run on the property that names it; `npuconf selftest` shows
// which properties kill each, under how many seeds.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "npuconf/port.h"
#include "reference/reference_port.h"

namespace npuconf {

// The `call` of a port table (include/npuconf/port.h).
using PortCallPtr = int32_t (*)(const npuconf_case* c, int64_t* status, char* message,
                                uint64_t message_bytes);

struct Mutant {
  std::string name;                         // "nz-padding-unwritten"
  std::string bug;                          // what is wrong, in a sentence
  std::string caught_by;                    // the property expected to catch it
  std::string profile;                      // a profile on which it shows
  const ReferenceFamily* family = nullptr;  // its family's reference
  PortCallPtr call = nullptr;
  // Globs of the routines the bug is in: `call` answers these, the reference
  // every other routine, so the mutant is wrong nowhere else and `npuconf
  // selftest` runs it against the properties that call these routines only.
  std::vector<std::string> routines;
};

// Each family's mutants (mutants/<family>_mutants.cpp), listed in cli/families.cpp.
void AddCannMutants(std::vector<Mutant>* out);
void AddRknnMutants(std::vector<Mutant>* out);
void AddQuantMutants(std::vector<Mutant>* out);
void AddRknnNativeMutants(std::vector<Mutant>* out);

}  // namespace npuconf
