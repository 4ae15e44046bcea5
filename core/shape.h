// Shapes (dims in elements, outermost first) and the checked arithmetic that
// everything computed from a caller's shape must use.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace npuconf {

using Shape = std::vector<int64_t>;

// a * b, a + b without overflow; nullopt when the exact result does not fit.
std::optional<int64_t> CheckedMul(int64_t a, int64_t b);
std::optional<int64_t> CheckedAdd(int64_t a, int64_t b);
std::optional<uint64_t> CheckedMulU(uint64_t a, uint64_t b);

// ceil(x / a) * a for x >= 0, a > 0; nullopt on overflow.
std::optional<int64_t> CheckedRoundUp(int64_t x, int64_t a);
// ceil(x / a) for x >= 0, a > 0.
inline int64_t CeilDiv(int64_t x, int64_t a) { return x / a + (x % a != 0 ? 1 : 0); }

// Product of all dims (1 for rank 0). nullopt if any dim is negative or the
// product overflows int64.
std::optional<int64_t> NumElements(const Shape& shape);
// Product of dims [0, end). Same rules.
std::optional<int64_t> ProductOf(const Shape& shape, size_t begin, size_t end);

// "[17,33]" — the form used in case strings and reports.
std::string ToString(const Shape& shape);
// Parses "[17,33]", "17,33" or "17x33"; nullopt on any malformed entry, with
// what is wrong in *why when given ("'99999999999999999999' is out of the
// int64 range").
std::optional<Shape> ParseShape(const std::string& text, std::string* why = nullptr);

}  // namespace npuconf
