#include "oracles/rknn/sub_block_oracle.h"

#include <vector>

namespace npuconf::oracle::rknn {
namespace {

template <typename Table>
std::optional<typename Table::mapped_type> Lookup(const Table& table, DType dtype) {
  auto it = table.find(dtype);
  if (it == table.end()) return std::nullopt;
  return it->second;
}

// §2.2 note to Table 3-5: under c_dtype_row a mixed type's B "is the same-type B
// layout for the dtype of C". The same-type matmuls (A = B) of the platform's
// type table, narrowed to C's dtype, name the row: exactly one must remain.
std::optional<DType> SameTypeBForC(const RknnFacts& facts, DType c) {
  std::vector<DType> candidates;
  for (const RknnMatmulType& same : facts.types) {
    if (facts.Supports(same.type) && same.a == same.b && same.c == c) candidates.push_back(same.b);
  }
  if (candidates.size() != 1) return std::nullopt;
  return candidates.front();
}

}  // namespace

std::optional<SubBlocks> SubBlocksOf(const RknnFacts& facts, int32_t type,
                                     const SubBlockReadings& readings) {
  if (!facts.Supports(type)) return std::nullopt;
  const RknnMatmulType& t = *facts.FindType(type);
  const std::string mixed =
      readings.mixed_b_layout.empty() ? facts.mixed_b_layout : readings.mixed_b_layout;
  const std::string c_other =
      readings.c_sub_n_other.empty() ? facts.c_sub_n_other : readings.c_sub_n_other;
  const bool mixed_type = t.a != t.b;
  const std::optional<DType> b_dtype =
      mixed_type && mixed == "c_dtype_row" ? SameTypeBForC(facts, t.c) : t.b;
  const auto a = Lookup(facts.a_sub_k, t.a);
  const auto b = b_dtype ? Lookup(facts.b_sub_n_k, *b_dtype) : std::nullopt;
  auto c = Lookup(facts.c_sub_n, t.c);
  if (!c) {  // §8.6: a C dtype no table documents
    const auto by_reading = facts.c_sub_n_other_readings.find(c_other);
    if (by_reading != facts.c_sub_n_other_readings.end()) c = Lookup(by_reading->second, t.c);
  }
  if (!a || !b || !c) return std::nullopt;
  return SubBlocks{.a_sub_k = *a, .b_sub_n = (*b)[0], .b_sub_k = (*b)[1], .c_sub_n = *c};
}

}  // namespace npuconf::oracle::rknn
