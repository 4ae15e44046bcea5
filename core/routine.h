// The routine table's vocabulary: what one routine takes and gives, as data.
// Every routine id a case may name has one RoutineSpec (core/routines/*.cpp);
// listing, case validation, materialization and the reference port's claims
// all derive from it (DESIGN.md "One idea: the case").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/case.h"

namespace npuconf {

// How an output is compared with the oracle's (DESIGN.md "Compare modes", after
// TOSA's verify): bit for bit, bit for bit with every NaN equal to every NaN
// (payload free), or within n units in the last place of the output type.
struct CompareMode {
  enum class Kind { kExact, kExactNanAnyPayload, kUlp };
  Kind kind = Kind::kExact;
  int64_t ulps = 0;  // kUlp only

  static CompareMode Exact() { return {}; }
  static CompareMode ExactNanAnyPayload() { return {Kind::kExactNanAnyPayload, 0}; }
  static CompareMode Ulp(int64_t n) { return {Kind::kUlp, n}; }
  // "exact", "exact_nan_any_payload", "ulp(2)".
  std::string ToString() const;
  static std::optional<CompareMode> Parse(std::string_view text);
  bool operator==(const CompareMode&) const = default;
};

enum class ParamType {
  kInt,      // JSON integer
  kIntList,  // JSON array of integers
  kFloat,    // JSON number
  kString,   // any text
  kEnum,     // one of `values`
  kDType,    // an npuconf dtype name (core/dtype.h); any, so a routine may reject it
};
std::string_view ToString(ParamType type);

struct ParamSpec {
  std::string key;
  ParamType type = ParamType::kInt;
  std::string doc;   // what it means, with the spec section it comes from
  std::string unit;  // "elements", "bytes", "" (a count of nothing physical)
  bool required = false;
  bool nullable = false;                    // `null` allowed: the caller passes a null pointer
  std::vector<std::string> values;          // kEnum: the allowed values
  std::optional<int64_t> min, max;          // kInt: bounds of what the suite can materialize
  std::optional<ParamValue> default_value;  // a literal default
  std::string default_doc;                  // a default that depends (e.g. "the profile's C0")
  // The choice whose reading a case that leaves the param out takes
  // ("rknn.int4.native_b_nibble"); "" when none.
  std::string default_choice;
  // The profile decides the value a case leaves out (a dtype's C0, a
  // sub-block, a reading); a case that sets another asks the port for a
  // layout the profile does not give, which only a port claiming
  // `honours:ROUTINE:KEY` is judged on (include/npuconf/port.h).
  bool profile_default = false;
  // The param picks the case's input data (the seed, verbatim values, a value
  // distribution), not a shape or mode a port may refuse: claims cannot narrow it.
  bool data = false;
};

// A tensor the runner hands to the port. Shapes are in ELEMENTS; `value_unit`
// says what an output's values count when they are sizes.
struct TensorSpec {
  std::string name;
  std::string dtype;  // "the dtype param", "UINT64", …
  std::string shape;  // "[B…, C1, N1, 16, C0]"
  std::string doc;
  std::string value_unit;  // e.g. "ELEMENTS of the FRACTAL_NZ weight"; "" for data
  bool nullable = false;   // an output the case may pass as a null pointer (`NAME=null`)
  CompareMode compare;     // outputs: how they are compared
  // A small struct-like output: the names of the values along its last axis
  // (e.g. {"size", "rknn_tensor_type"}), for printing it to a person.
  std::vector<std::string> fields;
};

struct RoutineSpec {
  std::string id;          // "cann.nd_to_nz"
  std::string vendor;      // the profile family it runs on: "cann" or "rknn"
  std::string vendor_api;  // "aclnnCalculateMatmulWeightSizeV2", or "" for a layout alone
  std::string source;      // "spec cann.md §1.2, §1.4"
  std::string summary;     // one line
  std::vector<ParamSpec> params;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  // True only for a routine that forwards keys it does not know to the port.
  bool free_form_params = false;
  // The profile facts its rules read, as `npuconf list facts` names them
  // ("fractal_nz.c0", "limits.*" for a whole section).
  std::vector<std::string> facts;

  const ParamSpec* FindParam(std::string_view key) const;
  const TensorSpec* FindOutput(std::string_view name) const;
};

// Checks a case against its routine's spec: every key documented (unless free
// form), every value of its param's type (null only where nullable, enum values
// from the list, ints within the bounds the suite can materialize), every
// required key present. The text form cannot tell `4` the string from `4` the
// integer, so a value is first converted to its param's type where that is
// lossless (an int for a string, enum or float param). Returns "" or a message
// naming the key and the value. Whether the ROUTINE accepts the value is the
// routine's business (a rejected dtype is a test input), not this.
std::string ValidateCase(const RoutineSpec& spec, Case* c);

// The JSON form of a spec, as `npuconf list routines --json` prints it
// (docs/routines.schema.json).
nlohmann::json ToJson(const RoutineSpec& spec);

}  // namespace npuconf
