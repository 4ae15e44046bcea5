// The case: one call of one routine — routine id, profile, typed params, and
// optionally its input tensors. Bulk input data is normally not stored: it
// comes from a PRNG seeded by the `seed` param, so the text form
// `routine key=value …` replays a case exactly. A case may instead carry
// explicit input tensors (a stored vector, an input that was another call's
// output); those replace the seeded ones. Its one JSON form: core/case_json.h.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/shape.h"
#include "core/tensor.h"

namespace npuconf {

struct ParamValue {
  enum class Kind { kNull, kInt, kFloat, kString, kIntList };
  Kind kind = Kind::kNull;
  int64_t i = 0;
  double f = 0.0;
  std::string s;
  std::vector<int64_t> ints;

  static ParamValue Null() { return {}; }
  static ParamValue Int(int64_t v) {
    ParamValue p;
    p.kind = Kind::kInt;
    p.i = v;
    return p;
  }
  static ParamValue Float(double v) {
    ParamValue p;
    p.kind = Kind::kFloat;
    p.f = v;
    return p;
  }
  static ParamValue String(std::string v) {
    ParamValue p;
    p.kind = Kind::kString;
    p.s = std::move(v);
    return p;
  }
  static ParamValue IntList(std::vector<int64_t> v) {
    ParamValue p;
    p.kind = Kind::kIntList;
    p.ints = std::move(v);
    return p;
  }
  std::string ToText() const;
  bool operator==(const ParamValue& other) const;
};

struct Case {
  std::string routine;  // "cann.nd_to_nz"
  std::string profile;  // "ascend910b"
  std::map<std::string, ParamValue> params;
  // Explicit input tensors, replacing the seeded inputs of the same names.
  std::vector<InputTensor> inputs;

  // Fluent setters (XNNPACK-tester style): Case("cann.nd_to_nz").Set("dtype", …).
  Case() = default;
  explicit Case(std::string routine_id, std::string profile_name = {})
      : routine(std::move(routine_id)), profile(std::move(profile_name)) {}
  Case& Set(const std::string& key, ParamValue value) {
    params[key] = std::move(value);
    return *this;
  }
  Case& Set(const std::string& key, int64_t value) { return Set(key, ParamValue::Int(value)); }
  Case& Set(const std::string& key, const char* value) {
    return Set(key, ParamValue::String(value));
  }
  Case& Set(const std::string& key, const std::string& value) {
    return Set(key, ParamValue::String(value));
  }
  Case& Set(const std::string& key, DType value) {
    return Set(key, ParamValue::String(std::string(Name(value))));
  }
  Case& Set(const std::string& key, const Shape& value) {
    return Set(key, ParamValue::IntList(value));
  }
  Case& SetNull(const std::string& key) { return Set(key, ParamValue::Null()); }

  const ParamValue* Find(const std::string& key) const;
  std::optional<int64_t> Int(const std::string& key) const;
  std::optional<std::string> String(const std::string& key) const;
  // nullopt when absent or null; check Find() to tell the two apart.
  std::optional<Shape> IntList(const std::string& key) const;
  std::optional<DType> DTypeParam(const std::string& key) const;

  // "cann.nd_to_nz profile=ascend910b dtype=FLOAT16 seed=7 shape=[17,33]";
  // explicit inputs are named (`inputs=nd`), their bytes live in the JSON form.
  std::string ToText() const;
  bool operator==(const Case& other) const {
    return routine == other.routine && profile == other.profile && params == other.params &&
           inputs == other.inputs;
  }
};

// Parses the words after the routine: `key=value` each. Values: `null`, an
// integer, a float (has '.' or 'e'), `[a,b,…]`, else a string. Returns an error
// message naming the offending word, or empty on success.
std::string ParseCaseArgs(const std::vector<std::string>& words, Case* out);

// RapidCheck prints counterexamples through this.
void showValue(const Case& c, std::ostream& os);

}  // namespace npuconf
