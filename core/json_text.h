// JSON from outside (files a user names, a port's lines, a worker's result
// frames) into documents, within the limits every reader of npuconf applies.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace npuconf {

// The deepest nesting of arrays and objects a document may have. npuconf's own
// documents stay under 10 levels (a report's evidence included). nlohmann::json
// parses text without recursion, but copies, dumps, compares and reads CBOR
// recursively: an unbounded depth ends the process on a stack overflow.
inline constexpr size_t kMaxJsonDepth = 64;

// The document `text` holds, or nullopt and *error: nlohmann's parse error
// (naming the byte), "a NUL byte at byte 12 (JSON text holds none)", or "an
// array nested 65 levels deep, beyond kMaxJsonDepth (64)".
std::optional<nlohmann::json> ParseJsonText(std::string_view text, std::string* error);

// The same for CBOR (RFC 8949) bytes: the result frames of the runner's workers.
std::optional<nlohmann::json> ParseCbor(std::span<const uint8_t> bytes, std::string* error);

}  // namespace npuconf
