#include "reports/text.h"

#include <algorithm>

#include "core/text.h"

namespace npuconf::report {
namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

std::string JsonString(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key)) return "";
  const auto& v = j.at(key);
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

}  // namespace

// core/text.h makes the bytes valid UTF-8; a report also keeps control
// characters (other than \n and \t) out of terminals and tables.
std::string SanitizeUtf8(const std::string& text) {
  const std::string valid = npuconf::SanitizeUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (char ch : valid) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
      out += kReplacement;
    } else {
      out += ch;
    }
  }
  return out;
}

std::string HtmlEscape(const std::string& text) {
  std::string out;
  for (char ch : SanitizeUtf8(text)) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string MdEscape(const std::string& text) {
  std::string out;
  for (char ch : SanitizeUtf8(text)) {
    switch (ch) {
      case '\n':
      case '\t':
        out += ' ';
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '|':
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
        out += '\\';
        out += ch;
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string MdCode(const std::string& text) {
  std::string body = SanitizeUtf8(text);
  std::replace(body.begin(), body.end(), '\n', ' ');
  std::replace(body.begin(), body.end(), '\t', ' ');
  // Inside a table a | ends the cell even in a code span (GFM); \| is kept literal.
  std::string escaped;
  for (char ch : body) {
    if (ch == '|') escaped += '\\';
    escaped += ch;
  }
  size_t longest = 0, run = 0;
  for (char ch : escaped) {
    run = ch == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !escaped.empty() && (escaped.front() == '`' || escaped.back() == '`');
  return fence + (pad ? " " : "") + escaped + (pad ? " " : "") + fence;
}

std::string Shorten(const std::string& text, size_t max_chars) {
  if (text.size() <= max_chars) return text;
  size_t cut = max_chars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "\xE2\x80\xA6";
}

std::string CoordsText(const nlohmann::json& coords, bool with_extent) {
  std::string out;
  if (!coords.is_array()) return out;
  for (const auto& c : coords) {
    if (!out.empty()) out += ", ";
    out += JsonString(c, "axis");
    out += ' ';
    out += JsonString(c, "index");
    if (with_extent) {
      out += '/';
      out += JsonString(c, "extent");
    }
  }
  return out;
}

std::string LogicalText(const nlohmann::json& mismatch) {
  if (JsonString(mismatch, "region") == "guard") {
    return "byte " + JsonString(mismatch, "byte_offset") + " (guard)";
  }
  if (!mismatch.contains("place")) return "";
  const auto& place = mismatch.at("place");
  if (place.value("padding", false)) return "padding";
  const std::string coords = CoordsText(place.value("logical", nlohmann::json::array()), false);
  if (coords.empty()) return "element " + JsonString(mismatch, "storage_index");
  const std::string name = JsonString(mismatch, "logical_name");
  return (name.empty() ? "" : name + " ") + "[" + coords + "]";
}

}  // namespace npuconf::report
