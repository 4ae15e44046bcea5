// Every routine family of npuconf, listed once (cli/families.cpp): its
// conformance side (routine specs, materializers, properties), its reference
// routines and its mutants. The built-in ports and the suite are assembled from
// this list; adding a family adds one line there.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "conformance/harness/suite.h"
#include "conformance/ports/port.h"
#include "mutants/mutants.h"
#include "reference/reference_port.h"

namespace npuconf {

struct FamilyRegistration {
  Family (*conformance)();                    // conformance/<family>/family.h
  const ReferenceFamily& (*reference)();      // reference/<family>/<family>_port.h
  void (*add_mutants)(std::vector<Mutant>*);  // mutants/<family>_mutants.cpp
};

const std::vector<FamilyRegistration>& Families();

// The suite of every registered family (built once).
const Suite& BuiltinSuite();

// The reference port: every reference routine, claimed on every profile, plus
// the readings the reference defines (choice claims).
std::unique_ptr<Port> MakeReferencePort();
// What the reference port claims: every routine on every profile, and the
// readings it defines.
std::vector<std::string> ReferenceClaims();
// The reference port making `claims` instead (narrowed, or other readings):
// how the suite's own tests stand in for a port that narrows its claims.
std::unique_ptr<Port> MakeReferencePort(std::vector<std::string> claims);

const std::vector<Mutant>& Mutants();
const Mutant* FindMutant(const std::string& name);
// Whether `routine` is among the routines the mutant's bug is in (Mutant::routines).
bool MutantChanges(const Mutant& mutant, const std::string& routine);
// The reference port with the mutant answering the routines its bug is in
// (MutantChanges) and the reference every other routine.
std::unique_ptr<Port> MakeMutantPort(const Mutant& mutant);
// The same, making `claims` instead of the reference's.
std::unique_ptr<Port> MakeMutantPort(const Mutant& mutant, std::vector<std::string> claims);

}  // namespace npuconf
