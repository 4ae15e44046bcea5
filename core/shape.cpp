#include "core/shape.h"

#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace npuconf {

std::optional<int64_t> CheckedMul(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

std::optional<int64_t> CheckedAdd(int64_t a, int64_t b) {
  int64_t out = 0;
  if (__builtin_add_overflow(a, b, &out)) return std::nullopt;
  return out;
}

std::optional<uint64_t> CheckedMulU(uint64_t a, uint64_t b) {
  uint64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out)) return std::nullopt;
  return out;
}

std::optional<int64_t> CheckedRoundUp(int64_t x, int64_t a) {
  if (x < 0 || a <= 0) return std::nullopt;
  return CheckedMul(CeilDiv(x, a), a);
}

std::optional<int64_t> ProductOf(const Shape& shape, size_t begin, size_t end) {
  int64_t product = 1;
  for (size_t i = begin; i < end && i < shape.size(); ++i) {
    if (shape[i] < 0) return std::nullopt;
    auto next = CheckedMul(product, shape[i]);
    if (!next) return std::nullopt;
    product = *next;
  }
  return product;
}

std::optional<int64_t> NumElements(const Shape& shape) { return ProductOf(shape, 0, shape.size()); }

std::string ToString(const Shape& shape) {
  std::ostringstream out;
  out << '[';
  for (size_t i = 0; i < shape.size(); ++i) out << (i ? "," : "") << shape[i];
  out << ']';
  return out.str();
}

std::optional<Shape> ParseShape(const std::string& text, std::string* why) {
  auto fail = [why](std::string what) -> std::optional<Shape> {
    if (why) *why = std::move(what);
    return std::nullopt;
  };
  std::string body = text;
  if (!body.empty() && body.front() == '[') {
    if (body.back() != ']') return fail("no closing ']'");
    body = body.substr(1, body.size() - 2);
  }
  Shape shape;
  if (body.empty()) return shape;  // "[]" is rank 0
  size_t pos = 0;
  while (pos <= body.size()) {
    size_t end = body.find_first_of(",x", pos);
    if (end == std::string::npos) end = body.size();
    const std::string item = body.substr(pos, end - pos);
    if (item.empty()) return fail("an empty entry");
    char* stop = nullptr;
    errno = 0;
    const long long value = std::strtoll(item.c_str(), &stop, 10);
    if (stop != item.c_str() + item.size()) return fail("'" + item + "' is not an integer");
    if (errno == ERANGE) return fail("'" + item + "' is out of the int64 range");
    shape.push_back(static_cast<int64_t>(value));
    pos = end + 1;
  }
  return shape;
}

}  // namespace npuconf
