#include "core/json_text.h"

namespace npuconf {
namespace {

using nlohmann::json;

// nlohmann's own DOM builder, stopped at the first container past kMaxJsonDepth
// (a SAX callback returning false ends the parse, so the recursive CBOR reader
// never goes deeper either) and keeping the parse error's text.
class DepthLimitedDom : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  explicit DepthLimitedDom(json& root) : json_sax_dom_parser(root, /*allow_exceptions=*/false) {}

  bool start_object(size_t elements) {
    return Enter("an object") && json_sax_dom_parser::start_object(elements);
  }
  bool end_object() {
    --depth_;
    return json_sax_dom_parser::end_object();
  }
  bool start_array(size_t elements) {
    return Enter("an array") && json_sax_dom_parser::start_array(elements);
  }
  bool end_array() {
    --depth_;
    return json_sax_dom_parser::end_array();
  }
  template <class Exception>
  bool parse_error(size_t /*position*/, const std::string& /*token*/, const Exception& e) {
    error_ = e.what();
    return false;
  }

  const std::string& error() const { return error_; }

 private:
  bool Enter(const char* what) {
    if (++depth_ <= kMaxJsonDepth) return true;
    error_ = std::string(what) + " nested " + std::to_string(depth_) +
             " levels deep, beyond kMaxJsonDepth (" + std::to_string(kMaxJsonDepth) + ")";
    return false;
  }

  size_t depth_ = 0;
  std::string error_;
};

template <typename Input>
std::optional<json> Parse(Input&& input, json::input_format_t format, std::string* error) {
  json doc;
  DepthLimitedDom sax(doc);
  bool ok = false;
  try {
    ok = json::sax_parse(std::forward<Input>(input), &sax, format, /*strict=*/true);
  } catch (const json::exception& e) {
    // The DOM builder throws on a CBOR container announcing more elements
    // than a vector can hold.
    if (error) *error = e.what();
    return std::nullopt;
  }
  if (!ok) {
    if (error) *error = sax.error().empty() ? "not JSON" : sax.error();
    return std::nullopt;
  }
  return doc;
}

}  // namespace

std::optional<json> ParseJsonText(std::string_view text, std::string* error) {
  // nlohmann's lexer takes a NUL byte for the end of the input (for C strings),
  // so "{...}\0anything" would read as "{...}". JSON text never holds one: a
  // string escapes it, and it is no whitespace.
  if (const size_t nul = text.find('\0'); nul != std::string_view::npos) {
    if (error) *error = "a NUL byte at byte " + std::to_string(nul) + " (JSON text holds none)";
    return std::nullopt;
  }
  return Parse(text, json::input_format_t::json, error);
}

std::optional<json> ParseCbor(std::span<const uint8_t> bytes, std::string* error) {
  return Parse(bytes, json::input_format_t::cbor, error);
}

}  // namespace npuconf
