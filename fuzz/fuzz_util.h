// What the fuzz targets of fuzz/ share: the input as text or lines, and a check
// that ends the run with the rule it broke (an abort, which libFuzzer and the
// corpus replay both report as a crash).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace npuconf::fuzz {

inline std::string_view Text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// The input split at '\n' (a last line without one included).
inline std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// A property every input must keep; `rule` says which, `detail` what broke it.
inline void Require(bool holds, const char* rule, const std::string& detail = "") {
  if (holds) return;
  std::fprintf(stderr, "fuzz: broken rule: %s%s%s\n", rule, detail.empty() ? "" : ": ",
               detail.c_str());
  std::abort();
}

}  // namespace npuconf::fuzz
