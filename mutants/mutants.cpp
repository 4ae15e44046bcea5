#include "mutants/mutants.h"

namespace npuconf {

const std::vector<Mutant>& Mutants() {
  static const std::vector<Mutant> mutants = [] {
    std::vector<Mutant> out;
    AddCannMutants(&out);
    AddRknnMutants(&out);
    AddQuantMutants(&out);
    return out;
  }();
  return mutants;
}

const Mutant* FindMutant(const std::string& name) {
  for (const auto& mutant : Mutants()) {
    if (mutant.name == name) return &mutant;
  }
  return nullptr;
}

}  // namespace npuconf
