#include "reference/rknn/sub_blocks.h"

#include <algorithm>

namespace npuconf::rknn {
namespace {

// The B row a mixed type takes under reading "c_dtype_row" (§2.2 note to Table
// 3-5: "the same-type B layout for the dtype of C"): walking the profile's
// same-type B rows, the one row D for which the platform has a D x D matmul
// whose C is `c`. Two such rows would leave the rule undecided.
std::optional<DType> RowOfCsDtype(const RknnFacts& facts, DType c) {
  std::optional<DType> row;
  for (const auto& [dtype, sub_n_k] : facts.b_sub_n_k) {
    // dtype = dtype: clang 14 (the fuzz build) cannot capture a structured binding in a lambda.
    const bool gives_c = std::any_of(
        facts.supported_types.begin(), facts.supported_types.end(), [&, dtype = dtype](int32_t id) {
          const RknnMatmulType* same = facts.FindType(id);
          return same && same->a == dtype && same->b == dtype && same->c == c;
        });
    if (!gives_c) continue;
    if (row) return std::nullopt;
    row = dtype;
  }
  return row;
}

}  // namespace

std::optional<NativeSubBlocks> SubBlocksFor(const RknnFacts& facts, int32_t type) {
  const RknnMatmulType* t = facts.FindType(type);
  if (!t || !facts.Supports(type)) return std::nullopt;
  NativeSubBlocks s;
  // A: the row of its own dtype, mixed types too (§2.2).
  auto a = facts.a_sub_k.find(t->a);
  if (a == facts.a_sub_k.end()) return std::nullopt;
  s.a_sub_k = a->second;
  // B: its own dtype's row, unless mixed and the reading is C's row (§2.2, §8.14).
  std::optional<DType> b_row = t->b;
  if (t->a != t->b && facts.mixed_b_layout == "c_dtype_row") b_row = RowOfCsDtype(facts, t->c);
  if (!b_row) return std::nullopt;
  auto b = facts.b_sub_n_k.find(*b_row);
  if (b == facts.b_sub_n_k.end()) return std::nullopt;
  s.b_sub_n = b->second[0];
  s.b_sub_k = b->second[1];
  // C: the documented row of its dtype, else the reading of §8.6.
  if (auto c = facts.c_sub_n.find(t->c); c != facts.c_sub_n.end()) {
    s.c_sub_n = c->second;
  } else {
    auto reading = facts.c_sub_n_other_readings.find(facts.c_sub_n_other);
    if (reading == facts.c_sub_n_other_readings.end()) return std::nullopt;
    auto other = reading->second.find(t->c);
    if (other == reading->second.end()) return std::nullopt;
    s.c_sub_n = other->second;
  }
  return s;
}

}  // namespace npuconf::rknn
