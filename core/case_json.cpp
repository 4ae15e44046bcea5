#include "core/case_json.h"

#include "core/codec.h"

namespace npuconf {
namespace {

std::string Describe(const nlohmann::json& value) {
  std::string text = value.dump();
  return text.size() > 80 ? text.substr(0, 77) + "..." : text;
}

std::string ShapeFromJson(const nlohmann::json& value, const std::string& path, Shape* out) {
  if (!value.is_array()) return path + ": " + Describe(value) + " is not a list of dims";
  out->clear();
  for (const auto& d : value) {
    if (!d.is_number_integer() || (d.is_number_unsigned() && d.get<uint64_t>() > INT64_MAX)) {
      return path + ": " + Describe(value) + " is not a list of integers";
    }
    out->push_back(d.get<int64_t>());
  }
  return "";
}

}  // namespace

nlohmann::json ToJson(const ParamValue& value) {
  switch (value.kind) {
    case ParamValue::Kind::kNull:
      return nullptr;
    case ParamValue::Kind::kInt:
      return value.i;
    case ParamValue::Kind::kFloat:
      return value.f;
    case ParamValue::Kind::kString:
      return value.s;
    case ParamValue::Kind::kIntList:
      return value.ints;
  }
  return nullptr;
}

nlohmann::json TensorToJson(const InputTensor& tensor) {
  return {{"dtype", std::string(Name(tensor.dtype))},
          {"shape", tensor.shape},
          {"bytes", tensor.bytes.size()},
          {"encoding", "base64"},
          {"data", Base64Encode(tensor.bytes)},
          {"sha256", Sha256Hex(tensor.bytes)}};
}

nlohmann::json ToJson(const Case& c) {
  nlohmann::json params = nlohmann::json::object();
  for (const auto& [key, value] : c.params) params[key] = ToJson(value);
  nlohmann::json doc = {{"schema", kCaseSchema},
                        {"schema_version", kCaseSchemaVersion},
                        {"routine", c.routine},
                        {"profile", c.profile},
                        {"params", params}};
  if (!c.inputs.empty()) {
    nlohmann::json inputs = nlohmann::json::object();
    for (const auto& t : c.inputs) inputs[t.name] = TensorToJson(t);
    doc["inputs"] = inputs;
  }
  return doc;
}

std::string ParamFromJson(const nlohmann::json& value, const std::string& path, ParamValue* out) {
  if (value.is_null()) {
    *out = ParamValue::Null();
  } else if (value.is_number_integer()) {
    if (value.is_number_unsigned() && value.get<uint64_t>() > INT64_MAX) {
      return path + ": " + Describe(value) + " does not fit int64";
    }
    *out = ParamValue::Int(value.get<int64_t>());
  } else if (value.is_number_float()) {
    *out = ParamValue::Float(value.get<double>());
  } else if (value.is_string()) {
    *out = ParamValue::String(value.get<std::string>());
  } else if (value.is_array()) {
    Shape ints;
    if (auto error = ShapeFromJson(value, path, &ints); !error.empty()) return error;
    *out = ParamValue::IntList(std::move(ints));
  } else {
    return path + ": " + Describe(value) +
           " is not null, an integer, a number, a string or an integer list";
  }
  return "";
}

std::string TensorFromJson(const nlohmann::json& value, const std::string& path, InputTensor* out) {
  if (!value.is_object()) return path + ": expected a tensor object, got " + Describe(value);
  for (const char* key : {"dtype", "shape", "data"}) {
    if (!value.contains(key)) return path + ": missing \"" + key + "\"";
  }
  if (!value["dtype"].is_string())
    return path + ".dtype: " + Describe(value["dtype"]) + " is not a dtype name";
  const auto dtype = ParseDType(value["dtype"].get<std::string>());
  if (!dtype) return path + ".dtype: unknown dtype " + Describe(value["dtype"]);
  out->dtype = *dtype;
  if (auto error = ShapeFromJson(value["shape"], path + ".shape", &out->shape); !error.empty())
    return error;
  if (value.contains("encoding") && value["encoding"] != "base64") {
    return path + ".encoding: " + Describe(value["encoding"]) + " (only \"base64\")";
  }
  if (!value["data"].is_string()) return path + ".data: not a base64 string";
  auto bytes = Base64Decode(value["data"].get<std::string>());
  if (!bytes) return path + ".data: not valid base64";
  out->bytes = std::move(*bytes);
  if (value.contains("bytes") && (!value["bytes"].is_number_unsigned() ||
                                  value["bytes"].get<uint64_t>() != out->bytes.size())) {
    return path + ".bytes: " + Describe(value["bytes"]) + ", but data holds " +
           std::to_string(out->bytes.size()) + " bytes";
  }
  if (value.contains("sha256")) {
    const std::string want = value["sha256"].is_string() ? value["sha256"].get<std::string>() : "";
    const std::string got = Sha256Hex(out->bytes);
    if (want != got)
      return path + ".sha256: " + Describe(value["sha256"]) + " does not match the data (" + got +
             ")";
  }
  return "";
}

std::string CaseFromJson(const nlohmann::json& doc, Case* out) {
  if (!doc.is_object()) return "a case must be a JSON object, got " + Describe(doc);
  if (!doc.contains("schema") || doc["schema"] != kCaseSchema)
    return "schema: expected \"" + std::string(kCaseSchema) + "\"";
  if (!doc.contains("schema_version") || !doc["schema_version"].is_number_integer() ||
      doc["schema_version"].get<int64_t>() != kCaseSchemaVersion) {
    return "schema_version: expected " + std::to_string(kCaseSchemaVersion) + ", got " +
           (doc.contains("schema_version") ? Describe(doc["schema_version"]) : "nothing");
  }
  for (const char* key : {"routine", "profile"}) {
    if (!doc.contains(key) || !doc[key].is_string())
      return std::string(key) + ": expected a string";
  }
  Case c(doc["routine"].get<std::string>(), doc["profile"].get<std::string>());
  if (doc.contains("params")) {
    if (!doc["params"].is_object()) return "params: expected an object";
    for (const auto& [key, value] : doc["params"].items()) {
      ParamValue param;
      if (auto error = ParamFromJson(value, "params." + key, &param); !error.empty()) return error;
      c.params[key] = std::move(param);
    }
  }
  if (doc.contains("inputs")) {
    if (!doc["inputs"].is_object()) return "inputs: expected an object of tensors by name";
    for (const auto& [name, value] : doc["inputs"].items()) {
      InputTensor t;
      t.name = name;
      if (auto error = TensorFromJson(value, "inputs." + name, &t); !error.empty()) return error;
      c.inputs.push_back(std::move(t));
    }
  }
  for (const auto& [key, value] : doc.items()) {
    if (key != "schema" && key != "schema_version" && key != "routine" && key != "profile" &&
        key != "params" && key != "inputs") {
      return "unknown key \"" + key + "\" in a case";
    }
  }
  *out = std::move(c);
  return "";
}

nlohmann::json ToJson(const Invocation& invocation) {
  Case listed = invocation.c;
  listed.inputs = invocation.inputs;
  nlohmann::json doc = ToJson(listed);
  if (!doc.contains("inputs")) doc["inputs"] = nlohmann::json::object();
  nlohmann::json outputs = nlohmann::json::array();
  for (const OutputSpec& o : invocation.outputs) {
    nlohmann::json j = {{"name", o.name},
                        {"dtype", std::string(Name(o.dtype))},
                        {"capacity_bytes", o.capacity_bytes},
                        {"null", o.null}};
    if (!o.initial.empty()) j["initial"] = TensorToJson({o.name, o.dtype, {}, o.initial});
    outputs.push_back(j);
  }
  doc["outputs"] = outputs;
  return doc;
}

std::string InvocationFromJson(const nlohmann::json& doc, Invocation* out) {
  if (!doc.is_object()) return "an invocation must be a JSON object, got " + Describe(doc);
  nlohmann::json case_doc = doc;
  case_doc.erase("outputs");
  Invocation inv;
  if (auto error = CaseFromJson(case_doc, &inv.c); !error.empty()) return error;
  inv.inputs = std::move(inv.c.inputs);
  inv.c.inputs.clear();
  if (!doc.contains("outputs") || !doc["outputs"].is_array()) return "outputs: expected an array";
  for (size_t i = 0; i < doc["outputs"].size(); ++i) {
    const auto& o = doc["outputs"][i];
    const std::string path = "outputs[" + std::to_string(i) + "]";
    if (!o.is_object() || !o.contains("name") || !o["name"].is_string() || !o.contains("dtype") ||
        !o["dtype"].is_string() || !o.contains("capacity_bytes") ||
        !o["capacity_bytes"].is_number_unsigned()) {
      return path + ": expected {\"name\", \"dtype\", \"capacity_bytes\"}";
    }
    OutputSpec spec;
    spec.name = o["name"].get<std::string>();
    const auto dtype = ParseDType(o["dtype"].get<std::string>());
    if (!dtype) return path + ".dtype: unknown dtype " + Describe(o["dtype"]);
    spec.dtype = *dtype;
    spec.capacity_bytes = o["capacity_bytes"].get<uint64_t>();
    if (o.contains("null") && !o["null"].is_boolean())
      return path + ".null: " + Describe(o["null"]) + " is not true or false";
    spec.null = o.contains("null") && o["null"].get<bool>();
    if (o.contains("initial")) {
      InputTensor initial;
      if (auto error = TensorFromJson(o["initial"], path + ".initial", &initial); !error.empty())
        return error;
      spec.initial = std::move(initial.bytes);
    }
    inv.outputs.push_back(std::move(spec));
  }
  *out = std::move(inv);
  return "";
}

}  // namespace npuconf
