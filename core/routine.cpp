#include "core/routine.h"

#include <charconv>

#include "core/case_json.h"

namespace npuconf {
namespace {

std::string KindName(ParamValue::Kind kind) {
  switch (kind) {
    case ParamValue::Kind::kNull:
      return "null";
    case ParamValue::Kind::kInt:
      return "an integer";
    case ParamValue::Kind::kFloat:
      return "a float";
    case ParamValue::Kind::kString:
      return "a string";
    case ParamValue::Kind::kIntList:
      return "an int list";
  }
  return "?";
}

std::string Joined(const std::vector<std::string>& words, const char* separator) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : separator) + w;
  return out;
}

std::string ParamKeys(const RoutineSpec& spec) {
  std::vector<std::string> keys;
  for (const auto& p : spec.params) keys.push_back(p.key);
  return Joined(keys, ", ");
}

// Converts `value` to the param's type where nothing is lost.
void Coerce(const ParamSpec& param, ParamValue* value) {
  const bool textual = param.type == ParamType::kString || param.type == ParamType::kEnum ||
                       param.type == ParamType::kDType;
  if (textual && value->kind == ParamValue::Kind::kInt) {
    *value = ParamValue::String(std::to_string(value->i));
  } else if (param.type == ParamType::kFloat && value->kind == ParamValue::Kind::kInt) {
    *value = ParamValue::Float(static_cast<double>(value->i));
  }
  // A dtype by another of its names (fp16, float16) becomes its npuconf name,
  // which is what a port receives, a claim condition compares and a case prints.
  if (param.type == ParamType::kDType && value->kind == ParamValue::Kind::kString) {
    if (const auto dtype = ParseDType(value->s)) value->s = std::string(Name(*dtype));
  }
}

std::string CheckValue(const RoutineSpec& spec, const ParamSpec& param, const ParamValue& value) {
  const std::string where = "'" + param.key + "=" + value.ToText() + "' (" + spec.id + ")";
  if (value.kind == ParamValue::Kind::kNull) {
    return param.nullable ? "" : where + ": " + param.key + " cannot be null";
  }
  auto expect = [&](ParamValue::Kind kind, const char* what) -> std::string {
    return value.kind == kind
               ? ""
               : where + ": " + param.key + " must be " + what + ", not " + KindName(value.kind);
  };
  switch (param.type) {
    case ParamType::kInt: {
      if (auto e = expect(ParamValue::Kind::kInt, "an integer"); !e.empty()) return e;
      if (param.min && value.i < *param.min)
        return where + ": must be >= " + std::to_string(*param.min);
      if (param.max && value.i > *param.max)
        return where + ": must be <= " + std::to_string(*param.max);
      return "";
    }
    case ParamType::kIntList:
      return expect(ParamValue::Kind::kIntList, "an int list [a,b,...]");
    case ParamType::kFloat:
      return expect(ParamValue::Kind::kFloat, "a number");
    case ParamType::kString:
      return expect(ParamValue::Kind::kString, "a string");
    case ParamType::kEnum: {
      if (auto e = expect(ParamValue::Kind::kString, "one of its values"); !e.empty()) return e;
      for (const auto& v : param.values) {
        if (v == value.s) return "";
      }
      return where + ": " + param.key + " must be one of " + Joined(param.values, ", ");
    }
    case ParamType::kDType: {
      if (auto e = expect(ParamValue::Kind::kString, "a dtype name"); !e.empty()) return e;
      return ParseDType(value.s) ? "" : where + ": unknown dtype '" + value.s + "'";
    }
  }
  return "";
}

nlohmann::json TensorToJson(const TensorSpec& t, bool output) {
  nlohmann::json j = {{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}, {"doc", t.doc}};
  if (!t.value_unit.empty()) j["value_unit"] = t.value_unit;
  if (!t.fields.empty()) j["fields"] = t.fields;
  if (output) {
    j["nullable"] = t.nullable;
    j["compare"] = t.compare.ToString();
  }
  return j;
}

}  // namespace

std::string CompareMode::ToString() const {
  switch (kind) {
    case Kind::kExact:
      return "exact";
    case Kind::kExactNanAnyPayload:
      return "exact_nan_any_payload";
    case Kind::kUlp:
      return "ulp(" + std::to_string(ulps) + ")";
  }
  return "?";
}

std::optional<CompareMode> CompareMode::Parse(std::string_view text) {
  if (text == "exact") return Exact();
  if (text == "exact_nan_any_payload") return ExactNanAnyPayload();
  if (text.size() > 5 && text.substr(0, 4) == "ulp(" && text.back() == ')') {
    int64_t n = -1;
    const auto digits = text.substr(4, text.size() - 5);
    auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
    if (error == std::errc() && end == digits.data() + digits.size() && n >= 0) return Ulp(n);
  }
  return std::nullopt;
}

std::string_view ToString(ParamType type) {
  switch (type) {
    case ParamType::kInt:
      return "int";
    case ParamType::kIntList:
      return "int_list";
    case ParamType::kFloat:
      return "float";
    case ParamType::kString:
      return "string";
    case ParamType::kEnum:
      return "enum";
    case ParamType::kDType:
      return "dtype";
  }
  return "?";
}

const ParamSpec* RoutineSpec::FindParam(std::string_view key) const {
  for (const auto& p : params) {
    if (p.key == key) return &p;
  }
  return nullptr;
}

const TensorSpec* RoutineSpec::FindOutput(std::string_view name) const {
  for (const auto& t : outputs) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::string ValidateCase(const RoutineSpec& spec, Case* c) {
  if (c->routine != spec.id) return "case of '" + c->routine + "' checked against " + spec.id;
  for (auto& [key, value] : c->params) {
    const ParamSpec* param = spec.FindParam(key);
    if (!param) {
      // `NAME=null` passes a null pointer for a nullable output.
      if (const TensorSpec* out = spec.FindOutput(key); out && out->nullable) {
        if (value.kind == ParamValue::Kind::kNull) continue;
        return "'" + key + "=" + value.ToText() + "' (" + spec.id +
               "): an output can only be given as null";
      }
      if (spec.free_form_params) continue;
      return "'" + key + "' is not a param of " + spec.id + " (its params: " + ParamKeys(spec) +
             "; npuconf list routines)";
    }
    Coerce(*param, &value);
    if (auto error = CheckValue(spec, *param, value); !error.empty()) return error;
  }
  for (const auto& param : spec.params) {
    if (param.required && !c->Find(param.key)) {
      return spec.id + " needs " + param.key + " (" + param.doc + ")";
    }
  }
  return "";
}

nlohmann::json ToJson(const RoutineSpec& spec) {
  nlohmann::json params = nlohmann::json::array();
  for (const auto& p : spec.params) {
    nlohmann::json j = {{"key", p.key},           {"type", std::string(ToString(p.type))},
                        {"doc", p.doc},           {"required", p.required},
                        {"nullable", p.nullable}, {"data", p.data}};
    if (!p.unit.empty()) j["unit"] = p.unit;
    if (!p.values.empty()) j["values"] = p.values;
    if (p.min) j["min"] = *p.min;
    if (p.max) j["max"] = *p.max;
    if (p.default_value) j["default"] = ToJson(*p.default_value);
    if (!p.default_doc.empty()) j["default_doc"] = p.default_doc;
    if (!p.default_choice.empty()) j["default_choice"] = p.default_choice;
    if (p.profile_default) j["profile_default"] = true;
    params.push_back(j);
  }
  nlohmann::json inputs = nlohmann::json::array(), outputs = nlohmann::json::array();
  for (const auto& t : spec.inputs) inputs.push_back(TensorToJson(t, false));
  for (const auto& t : spec.outputs) outputs.push_back(TensorToJson(t, true));
  return {{"id", spec.id},
          {"vendor", spec.vendor},
          {"vendor_api", spec.vendor_api},
          {"source", spec.source},
          {"summary", spec.summary},
          {"free_form_params", spec.free_form_params},
          {"facts", spec.facts},
          {"params", params},
          {"inputs", inputs},
          {"outputs", outputs}};
}

}  // namespace npuconf
