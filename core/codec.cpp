#include "core/codec.h"

#include <openssl/evp.h>

namespace npuconf {

std::string Base64Encode(std::span<const uint8_t> bytes) {
  std::string text(4 * ((bytes.size() + 2) / 3), '\0');
  // EVP_EncodeBlock takes an int length: encode in chunks of a multiple of 3 bytes.
  constexpr size_t kChunk = size_t{3} << 28;
  size_t written = 0;
  for (size_t at = 0; at < bytes.size(); at += kChunk) {
    const size_t n = std::min(kChunk, bytes.size() - at);
    written +=
        static_cast<size_t>(EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text.data() + written),
                                            bytes.data() + at, static_cast<int>(n)));
  }
  text.resize(written);
  return text;
}

std::optional<Bytes> Base64Decode(const std::string& text) {
  if (text.size() % 4 != 0) return std::nullopt;
  Bytes bytes(text.size() / 4 * 3);
  constexpr size_t kChunk = size_t{4} << 28;
  size_t written = 0;
  for (size_t at = 0; at < text.size(); at += kChunk) {
    const size_t n = std::min(kChunk, text.size() - at);
    const int got = EVP_DecodeBlock(bytes.data() + written,
                                    reinterpret_cast<const unsigned char*>(text.data() + at),
                                    static_cast<int>(n));
    if (got < 0) return std::nullopt;
    written += static_cast<size_t>(got);
  }
  // EVP_DecodeBlock counts padding as zero bytes; drop them.
  size_t padding = 0;
  if (!text.empty() && text.back() == '=') padding = text[text.size() - 2] == '=' ? 2 : 1;
  bytes.resize(written - padding);
  return bytes;
}

std::string Sha256Hex(std::span<const uint8_t> bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr);
  static const char kHex[] = "0123456789abcdef";
  std::string hex;
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[digest[i] >> 4];
    hex += kHex[digest[i] & 0xF];
  }
  return hex;
}

}  // namespace npuconf
