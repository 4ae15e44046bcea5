#include "core/text.h"

#include <cstdint>
#include <cstring>

namespace npuconf {

std::string SanitizeUtf8(std::string_view text) {
  static constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD
  std::string out;
  out.reserve(text.size());
  const auto* s = reinterpret_cast<const uint8_t*>(text.data());
  const size_t n = text.size();
  size_t i = 0;
  while (i < n) {
    const uint8_t b = s[i];
    if (b < 0x80) {
      out.push_back(static_cast<char>(b));
      ++i;
      continue;
    }
    // Table 3-7 of the Unicode standard: well-formed UTF-8 byte sequences.
    size_t length = 0;
    uint8_t lo = 0x80, hi = 0xBF;  // range of the second byte
    if (b >= 0xC2 && b <= 0xDF) {
      length = 2;
    } else if (b >= 0xE0 && b <= 0xEF) {
      length = 3;
      if (b == 0xE0) lo = 0xA0;
      if (b == 0xED) hi = 0x9F;  // no surrogates
    } else if (b >= 0xF0 && b <= 0xF4) {
      length = 4;
      if (b == 0xF0) lo = 0x90;
      if (b == 0xF4) hi = 0x8F;  // nothing above U+10FFFF
    } else {
      out += kReplacement;
      ++i;
      continue;
    }
    size_t good = 1;
    while (good < length && i + good < n) {
      const uint8_t c = s[i + good];
      const bool ok = good == 1 ? (c >= lo && c <= hi) : (c >= 0x80 && c <= 0xBF);
      if (!ok) break;
      ++good;
    }
    if (good == length) {
      out.append(text.substr(i, length));
    } else {
      out += kReplacement;
    }
    i += good;
  }
  return out;
}

std::string BoundedCString(const char* buf, size_t capacity, bool* terminated) {
  if (!buf || capacity == 0) {
    if (terminated) *terminated = buf != nullptr && capacity > 0;
    return {};
  }
  const void* nul = std::memchr(buf, 0, capacity);
  const size_t length = nul ? static_cast<size_t>(static_cast<const char*>(nul) - buf) : capacity;
  if (terminated) *terminated = nul != nullptr;
  return SanitizeUtf8(std::string_view(buf, length));
}

}  // namespace npuconf
