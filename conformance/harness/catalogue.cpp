// The catalogue: every property of the suite, in the order the runner runs them.
#include "conformance/harness/property.h"

namespace npuconf {

const std::vector<Property>& Catalogue() {
  static const std::vector<Property> catalogue = [] {
    std::vector<Property> out;
    AddCannSizeProperties(&out);
    AddCannLayoutProperties(&out);
    AddRknnCreateProperties(&out);
    AddRknnLayoutProperties(&out);
    AddQuantProperties(&out);
    return out;
  }();
  return catalogue;
}

const Property* FindProperty(const std::string& name) {
  for (const auto& property : Catalogue()) {
    if (property.name == name) return &property;
  }
  return nullptr;
}

}  // namespace npuconf
