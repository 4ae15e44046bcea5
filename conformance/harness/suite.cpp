#include "conformance/harness/suite.h"

#include <set>
#include <stdexcept>

namespace npuconf {

Suite::Suite(std::vector<Family> families) : families_(std::move(families)) {
  std::set<std::string> ids, names;
  for (const Family& family : families_) {
    for (const Routine& routine : family.routines) {
      if (!routine.spec || !routine.materialize) {
        throw std::logic_error("family " + family.name +
                               ": a routine without spec or materializer");
      }
      if (!ids.insert(routine.spec->id).second) {
        throw std::logic_error("routine " + routine.spec->id + " registered twice");
      }
    }
  }
  for (const Family& family : families_) {
    if (family.add_properties) family.add_properties(&properties_);
  }
  for (const Family& family : families_) {
    if (family.add_coverage) family.add_coverage(&coverage_);
  }
  std::set<std::string> covered;
  for (const RoutineCoverage& routine : coverage_) {
    if (!ids.count(routine.routine) || !covered.insert(routine.routine).second) {
      throw std::logic_error("coverage of unknown or twice-listed routine " + routine.routine);
    }
    std::set<std::string> classes;
    for (const CoverageClass& cls : routine.classes) {
      if (!cls.hit || !classes.insert(cls.name).second) {
        throw std::logic_error("coverage class " + routine.routine + " " + cls.name +
                               " has no predicate or is listed twice");
      }
    }
  }
  for (const Property& property : properties_) {
    if (!names.insert(property.name).second) {
      throw std::logic_error("property " + property.name + " registered twice");
    }
    for (const std::string& routine : property.AllRoutines()) {
      if (!ids.count(routine)) {
        throw std::logic_error("property " + property.name + " names unknown routine " + routine);
      }
    }
    if (!property.check) throw std::logic_error("property " + property.name + " has no check");
    // A choice a property names must exist: a misspelt name would print nothing.
    for (const std::string& choice : property.choices) {
      bool known = false;
      for (const Profile& profile : BuiltinProfiles())
        known |= profile.FindChoice(choice) != nullptr;
      if (!known)
        throw std::logic_error("property " + property.name + " names unknown choice " + choice);
    }
  }
}

std::vector<const RoutineSpec*> Suite::specs() const {
  std::vector<const RoutineSpec*> out;
  for (const Family& family : families_) {
    for (const Routine& routine : family.routines) out.push_back(routine.spec);
  }
  return out;
}

const Routine* Suite::FindRoutine(std::string_view id) const {
  for (const Family& family : families_) {
    for (const Routine& routine : family.routines) {
      if (routine.spec->id == id) return &routine;
    }
  }
  return nullptr;
}

const RoutineCoverage* Suite::FindCoverage(std::string_view id) const {
  for (const RoutineCoverage& routine : coverage_) {
    if (routine.routine == id) return &routine;
  }
  return nullptr;
}

const Property* Suite::FindProperty(std::string_view name) const {
  for (const Property& property : properties_) {
    if (property.name == name) return &property;
  }
  return nullptr;
}

Case Suite::Effective(const Case& c, const Profile& profile) const {
  const Routine* routine = FindRoutine(c.routine);
  if (!routine) return c;
  Case out = c;
  for (const ParamSpec& param : routine->spec->params) {
    if (c.Find(param.key)) continue;
    if (param.default_value) {
      out.Set(param.key, *param.default_value);
    } else if (const Choice* choice = param.default_choice.empty()
                                          ? nullptr
                                          : profile.FindChoice(param.default_choice)) {
      out.Set(param.key, ParamValue::String(choice->value));
    } else if (routine->effective) {
      if (auto value = routine->effective(c, profile, param)) out.Set(param.key, *value);
    }
  }
  return out;
}

Invocation Suite::Materialize(const Case& c, const Profile& profile) const {
  const Routine* routine = FindRoutine(c.routine);
  if (!routine) throw CaseError("unknown routine '" + c.routine + "' (npuconf list routines)");
  Case checked = c;
  if (std::string error = ValidateCase(*routine->spec, &checked); !error.empty())
    throw CaseError(error);
  if (profile.family != routine->spec->vendor) {
    throw CaseError("routine " + c.routine + " runs on " + routine->spec->vendor +
                    " profiles, not on '" + profile.name + "' (" + profile.family + ")");
  }
  BeginCaseBytes();
  Invocation inv = routine->materialize(checked, profile);
  // Outputs are allocated by the port's Call, after this: refuse them now.
  for (const OutputSpec& out : inv.outputs) ChargeCaseBytes(out.capacity_bytes);
  // Explicit inputs replace the seeded ones of the same name and form (an
  // in-place output's initial content counts as an input).
  for (const InputTensor& given : checked.inputs) {
    if (InputTensor* seeded = inv.MutableInput(given.name)) {
      if (given.dtype != seeded->dtype || given.shape != seeded->shape ||
          given.bytes.size() != seeded->bytes.size()) {
        throw CaseError("input '" + given.name + "' is " + std::string(Name(given.dtype)) + " " +
                        ToString(given.shape) + " in " + std::to_string(given.bytes.size()) +
                        " bytes; this case needs " + std::string(Name(seeded->dtype)) + " " +
                        ToString(seeded->shape) + " in " + std::to_string(seeded->bytes.size()) +
                        " bytes");
      }
      seeded->bytes = given.bytes;
      continue;
    }
    OutputSpec* in_place = nullptr;
    for (auto& out : inv.outputs) {
      if (out.name == given.name && !out.initial.empty()) in_place = &out;
    }
    if (!in_place || given.bytes.size() != in_place->initial.size() ||
        given.dtype != in_place->dtype) {
      throw CaseError("input '" + given.name + "' is not an input of this " + c.routine + " case");
    }
    in_place->initial = given.bytes;
  }
  return inv;
}

}  // namespace npuconf
