#include "core/case.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace npuconf {

std::string ParamValue::ToText() const {
  switch (kind) {
    case Kind::kNull:
      return "null";
    case Kind::kInt:
      return std::to_string(i);
    case Kind::kFloat: {
      std::ostringstream out;
      out.precision(17);
      out << f;
      std::string text = out.str();
      if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
      return text;
    }
    case Kind::kString:
      return s;
    case Kind::kIntList:
      return npuconf::ToString(ints);
  }
  return "?";
}

bool ParamValue::operator==(const ParamValue& other) const {
  if (kind != other.kind) return false;
  switch (kind) {
    case Kind::kNull:
      return true;
    case Kind::kInt:
      return i == other.i;
    case Kind::kFloat:
      return f == other.f;
    case Kind::kString:
      return s == other.s;
    case Kind::kIntList:
      return ints == other.ints;
  }
  return false;
}

const ParamValue* Case::Find(const std::string& key) const {
  auto it = params.find(key);
  return it == params.end() ? nullptr : &it->second;
}

std::optional<int64_t> Case::Int(const std::string& key) const {
  const ParamValue* p = Find(key);
  if (!p || p->kind != ParamValue::Kind::kInt) return std::nullopt;
  return p->i;
}

std::optional<std::string> Case::String(const std::string& key) const {
  const ParamValue* p = Find(key);
  if (!p || p->kind != ParamValue::Kind::kString) return std::nullopt;
  return p->s;
}

std::optional<Shape> Case::IntList(const std::string& key) const {
  const ParamValue* p = Find(key);
  if (!p || p->kind != ParamValue::Kind::kIntList) return std::nullopt;
  return p->ints;
}

std::optional<DType> Case::DTypeParam(const std::string& key) const {
  auto text = String(key);
  if (!text) return std::nullopt;
  return ParseDType(*text);
}

std::string Case::ToText() const {
  std::string text = routine;
  if (!profile.empty()) text += " profile=" + profile;
  for (const auto& [key, value] : params) text += " " + key + "=" + value.ToText();
  if (!inputs.empty()) {
    text += " inputs=";
    for (size_t i = 0; i < inputs.size(); ++i) text += (i ? "," : "") + inputs[i].name;
  }
  return text;
}

std::string ParseCaseArgs(const std::vector<std::string>& words, Case* out) {
  for (const auto& word : words) {
    const size_t eq = word.find('=');
    if (eq == std::string::npos || eq == 0) {
      return "expected key=value, got '" + word + "'";
    }
    const std::string key = word.substr(0, eq);
    const std::string value = word.substr(eq + 1);
    if ((key == "profile" && !out->profile.empty()) || out->params.count(key)) {
      return "'" + key + "' is given twice (at '" + word + "')";
    }
    if (key == "profile") {
      out->profile = value;
      continue;
    }
    if (value == "null") {
      out->params[key] = ParamValue::Null();
    } else if (!value.empty() && value.front() == '[') {
      std::string why;
      auto shape = ParseShape(value, &why);
      if (!shape) {
        return "malformed list in '" + word + "': " + why + " (expected [a,b,...] of int64 " +
               "integers)";
      }
      out->params[key] = ParamValue::IntList(*shape);
    } else {
      const char* begin = value.c_str();
      char* stop = nullptr;
      errno = 0;
      const long long as_int = std::strtoll(begin, &stop, 10);
      if (!value.empty() && stop == begin + value.size()) {
        if (errno == ERANGE) return "integer out of range in '" + word + "'";
        out->params[key] = ParamValue::Int(as_int);
        continue;
      }
      errno = 0;
      const double as_float = std::strtod(begin, &stop);
      if (!value.empty() && stop == begin + value.size() && errno == 0 &&
          value.find_first_of(".eE") != std::string::npos) {
        out->params[key] = ParamValue::Float(as_float);
        continue;
      }
      out->params[key] = ParamValue::String(value);
    }
  }
  return {};
}

void showValue(const Case& c, std::ostream& os) { os << c.ToText(); }

}  // namespace npuconf
