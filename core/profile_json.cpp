#include "core/profile_json.h"

#include <stdexcept>

namespace npuconf {

const nlohmann::json& ProfileFact(const nlohmann::json& obj, const std::string& key,
                                  const std::string& where) {
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

}  // namespace npuconf
