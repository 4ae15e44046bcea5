// Text helpers shared by the human-readable reports: strings from a port are
// untrusted (any bytes), so they are made valid UTF-8 and escaped for the
// format they land in; and the structured evidence (verify/compare.h
// Mismatch::ToJson) is read back into short coordinates.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace npuconf::report {

// core/text.h's SanitizeUtf8 (every ill-formed UTF-8 subpart replaced by
// U+FFFD), and control characters other than \n and \t replaced by U+FFFD too.
std::string SanitizeUtf8(const std::string& text);
// Sanitized and with & < > " ' as entities: safe in HTML text and attributes.
std::string HtmlEscape(const std::string& text);
// Sanitized, one line, with | \ ` < > * _ [ ] escaped: safe in a Markdown table cell.
std::string MdEscape(const std::string& text);
// Sanitized and wrapped in a code span whose backtick run is longer than any in
// `text` (CommonMark), on one line.
std::string MdCode(const std::string& text);
// `text` cut to `max_chars` bytes (at a UTF-8 boundary) with "…" appended when cut.
std::string Shorten(const std::string& text, size_t max_chars);

// A Place's coordinate list (JSON array of {axis, index, extent}) as
// "n 3, k 21" or, with extents, "C1 block 1/3, N1 block 0/2".
std::string CoordsText(const nlohmann::json& coords, bool with_extent);
// Where a mismatch is in the logical tensor: "ND [n 3, k 21]", "padding", or
// "byte +12 (guard)".
std::string LogicalText(const nlohmann::json& mismatch);

}  // namespace npuconf::report
