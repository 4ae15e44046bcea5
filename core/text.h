// Text a port hands us (name, version, claims, messages) is untrusted bytes:
// made valid UTF-8 before it reaches a report, a terminal or a JSON writer.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace npuconf {

// `text` with every byte sequence that is not well-formed UTF-8 (RFC 3629:
// overlong forms, surrogates, code points above U+10FFFF, truncated
// sequences) replaced by U+FFFD, one replacement per maximal ill-formed
// subpart (Unicode 15, section 3.9, "U+FFFD Substitution of Maximal Subparts").
std::string SanitizeUtf8(std::string_view text);

// The NUL-terminated string in buf[0, capacity): bounded (never reads past
// `capacity`), sanitised. When there is no NUL inside `capacity`, the whole
// buffer is taken and `*terminated` (if given) is set to false.
std::string BoundedCString(const char* buf, size_t capacity, bool* terminated = nullptr);

}  // namespace npuconf
