#include "core/profile_json.h"

#include <stdexcept>

namespace npuconf {
namespace {

// A value as an error message shows it: its JSON, at most 80 bytes of it.
std::string Shown(const nlohmann::json& value) {
  std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (text.size() > 80) text = text.substr(0, 77) + "...";
  return text;
}

[[noreturn]] void Refuse(const std::string& where, const nlohmann::json& value,
                         const std::string& what) {
  throw std::runtime_error(where + ": " + Shown(value) + " is not " + what);
}

}  // namespace

const nlohmann::json& ProfileFact(const nlohmann::json& obj, const std::string& key,
                                  const std::string& where) {
  if (!obj.is_object()) Refuse(where, obj, "an object");
  if (!obj.contains(key)) throw std::runtime_error(where + ": missing key '" + key + "'");
  const auto& fact = obj.at(key);
  if (!fact.is_object() || !fact.contains("value") || !fact.contains("source") ||
      !fact.at("source").is_string() || fact.at("source").get<std::string>().empty()) {
    throw std::runtime_error(where + "." + key + ": expected {\"value\": …, \"source\": \"…\"}");
  }
  return fact.at("value");
}

DType ProfileDType(const std::string& text, const std::string& where) {
  auto dtype = ParseDType(text);
  if (!dtype) throw std::runtime_error(where + ": unknown dtype '" + text + "'");
  return *dtype;
}

const nlohmann::json& ProfileMember(const nlohmann::json& obj, const std::string& key,
                                    const std::string& where) {
  if (!obj.is_object()) Refuse(where, obj, "an object");
  const auto it = obj.find(key);
  if (it == obj.end()) throw std::runtime_error(where + ": missing key '" + key + "'");
  return *it;
}

const nlohmann::json& ProfileObject(const nlohmann::json& value, const std::string& where) {
  if (!value.is_object()) Refuse(where, value, "an object");
  return value;
}

const nlohmann::json& ProfileArray(const nlohmann::json& value, const std::string& where) {
  if (!value.is_array()) Refuse(where, value, "an array");
  return value;
}

std::string ProfileString(const nlohmann::json& value, const std::string& where) {
  if (!value.is_string()) Refuse(where, value, "a string");
  return value.get<std::string>();
}

bool ProfileBool(const nlohmann::json& value, const std::string& where) {
  if (!value.is_boolean()) Refuse(where, value, "true or false");
  return value.get<bool>();
}

int64_t ProfileInt(const nlohmann::json& value, const std::string& where, int64_t min,
                   int64_t max) {
  const std::string range =
      "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  if (!value.is_number_integer()) Refuse(where, value, range);
  if (value.is_number_unsigned() &&
      value.get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
    Refuse(where, value, range);
  const int64_t v = value.get<int64_t>();
  if (v < min || v > max) Refuse(where, value, range);
  return v;
}

}  // namespace npuconf
