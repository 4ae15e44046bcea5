// Bytes as text, for the JSON forms of cases and vectors: base64 (RFC 4648,
// padded) and SHA-256 as lower-case hex, both by OpenSSL's libcrypto.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "core/buffer.h"

namespace npuconf {

std::string Base64Encode(std::span<const uint8_t> bytes);
// nullopt for text that is not padded base64.
std::optional<Bytes> Base64Decode(const std::string& text);
std::string Sha256Hex(std::span<const uint8_t> bytes);

}  // namespace npuconf
