#include "core/rknn_facts.h"

#include <algorithm>
#include <stdexcept>

#include "core/profile_json.h"

namespace npuconf {
namespace {

std::map<DType, int64_t> DTypeInts(const nlohmann::json& value, const std::string& where) {
  std::map<DType, int64_t> out;
  for (const auto& [name, v] : value.items()) {
    if (!v.is_number_integer() || v.get<int64_t>() <= 0) {
      throw std::runtime_error(where + "." + name + ": expected a positive integer, got " + v.dump());
    }
    out[ProfileDType(name, where)] = v.get<int64_t>();
  }
  return out;
}

std::vector<int32_t> Ints(const nlohmann::json& value, const std::string& where) {
  if (!value.is_array()) throw std::runtime_error(where + ": expected an array of integers");
  std::vector<int32_t> out;
  for (const auto& v : value) out.push_back(v.get<int32_t>());
  return out;
}

std::string ChoiceValue(const std::map<std::string, std::string>& choices, const std::string& name,
                        const std::string& fallback) {
  auto it = choices.find(name);
  return it == choices.end() ? fallback : it->second;
}

// A table of dtype → integer where 0 is a value (rknn_tensor_type FLOAT32 = 0).
std::map<DType, int32_t> DTypeCodes(const nlohmann::json& value, const std::string& where) {
  std::map<DType, int32_t> out;
  for (const auto& [name, v] : value.items()) {
    if (!v.is_number_integer() || v.get<int64_t>() < 0) {
      throw std::runtime_error(where + "." + name + ": expected a non-negative integer, got " + v.dump());
    }
    out[ProfileDType(name, where)] = v.get<int32_t>();
  }
  return out;
}

// The same-type B dtype whose row a mixed type's B takes under the reading
// "c_dtype_row" (spec rknn.md §2.2 note to Table 3-5): the A=B type producing C.
std::optional<DType> SameTypeRowForC(DType c) {
  switch (c) {
    case DType::kFloat: return DType::kFloat16;    // type 1 FP16→FP32
    case DType::kFloat16: return DType::kFloat16;  // type 4 FP16→FP16
    case DType::kInt32: return DType::kInt8;       // type 2 INT8→INT32
    case DType::kInt16: return DType::kInt4;       // type 10 INT4→INT16
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<NibbleOrder> ParseNibbleOrder(const std::string& text) {
  if (text == "low_first") return NibbleOrder::kLowFirst;
  if (text == "high_first") return NibbleOrder::kHighFirst;
  return std::nullopt;
}

const char* NibbleOrderName(NibbleOrder order) {
  return order == NibbleOrder::kLowFirst ? "low_first" : "high_first";
}

const RknnMatmulType* RknnFacts::FindType(int32_t type) const {
  for (const auto& t : types) {
    if (t.type == type) return &t;
  }
  return nullptr;
}

bool RknnFacts::Supports(int32_t type) const {
  return has_tables && std::find(supported_types.begin(), supported_types.end(), type) !=
                           supported_types.end();
}

std::optional<RknnSubBlocks> RknnFacts::SubBlocks(int32_t type, const std::string& mixed,
                                                  const std::string& c_other) const {
  const RknnMatmulType* t = FindType(type);
  if (!t || !Supports(type)) return std::nullopt;
  RknnSubBlocks s;
  auto a = a_sub_k.find(t->a);
  if (a == a_sub_k.end()) return std::nullopt;
  s.a_sub_k = a->second;  // A uses the row of its own dtype (§2.2)
  DType b_row = t->b;
  if (t->a != t->b) {
    const std::string reading = mixed.empty() ? mixed_b_layout : mixed;
    if (reading == "c_dtype_row") {
      auto row = SameTypeRowForC(t->c);
      if (!row) return std::nullopt;
      b_row = *row;
    }
  }
  auto b = b_sub_n_k.find(b_row);
  if (b == b_sub_n_k.end()) return std::nullopt;
  s.b_sub_n = b->second[0];
  s.b_sub_k = b->second[1];
  if (auto c = c_sub_n.find(t->c); c != c_sub_n.end()) {
    s.c_sub_n = c->second;
  } else {
    // §8.6: undocumented C dtypes, per choice rknn.native.c_sub_n_other_outputs.
    const std::string reading = c_other.empty() ? c_sub_n_other : c_other;
    s.c_sub_n = reading == "4" ? 4 : 16 * 8 / Bits(t->c);
  }
  return s;
}

RknnFacts ParseRknnFacts(const nlohmann::json& doc, const std::map<std::string, std::string>& choices,
                         bool verified, const std::string& where) {
  RknnFacts f;
  f.platform = ProfileFact(doc, "platform", where).get<std::string>();
  f.sdk = ProfileFact(doc, "sdk", where).get<std::string>();
  for (const auto& row : ProfileFact(doc, "matmul_types", where)) {
    RknnMatmulType t;
    t.type = row.at("type").get<int32_t>();
    t.name = row.at("name").get<std::string>();
    t.a = ProfileDType(row.at("a").get<std::string>(), where + ".matmul_types");
    t.b = ProfileDType(row.at("b").get<std::string>(), where + ".matmul_types");
    t.c = ProfileDType(row.at("c").get<std::string>(), where + ".matmul_types");
    f.types.push_back(t);
  }
  if (doc.contains("known_unsupported_types")) {
    f.known_unsupported = Ints(ProfileFact(doc, "known_unsupported_types", where), where);
  }
  if (!verified && !doc.contains("supported_types")) return f;  // tables not public (§8.2)
  f.has_tables = true;
  f.supported_types = Ints(ProfileFact(doc, "supported_types", where), where + ".supported_types");
  for (int32_t type : f.supported_types) {
    if (!f.FindType(type)) {
      throw std::runtime_error(where + ".supported_types: type " + std::to_string(type) +
                               " is not a defined rknn_matmul_type");
    }
  }
  const auto& native = doc.at("native");
  f.a_sub_k = DTypeInts(ProfileFact(native, "a_sub_k", where + ".native"), where + ".native.a_sub_k");
  for (const auto& [name, v] : ProfileFact(native, "b_sub_n_k", where + ".native").items()) {
    if (!v.is_array() || v.size() != 2) {
      throw std::runtime_error(where + ".native.b_sub_n_k." + name + ": expected [subN, subK]");
    }
    f.b_sub_n_k[ProfileDType(name, where)] = {v[0].get<int64_t>(), v[1].get<int64_t>()};
  }
  f.c_sub_n = DTypeInts(ProfileFact(native, "c_sub_n", where + ".native"), where + ".native.c_sub_n");
  if (native.contains("c_sub_n_other_outputs")) {
    for (const auto& [reading, table] :
         ProfileFact(native, "c_sub_n_other_outputs", where + ".native").items()) {
      f.c_sub_n_other_readings[reading] =
          DTypeInts(table, where + ".native.c_sub_n_other_outputs." + reading);
    }
  }
  f.tensor_types = DTypeCodes(ProfileFact(doc, "tensor_types", where), where + ".tensor_types");
  const auto& limits = doc.at("limits");
  const auto& k_max = ProfileFact(limits, "k_max", where + ".limits");
  if (!k_max.is_null()) f.k_max = k_max.get<int64_t>();
  f.header_k_max = ProfileFact(limits, "header_k_max", where + ".limits").get<int64_t>();
  f.k_align = DTypeInts(ProfileFact(limits, "k_align", where + ".limits"), where + ".limits.k_align");
  f.n_align = DTypeInts(ProfileFact(limits, "n_align", where + ".limits"), where + ".limits.n_align");
  f.n_max = DTypeInts(ProfileFact(limits, "n_max", where + ".limits"), where + ".limits.n_max");
  f.header_k_align =
      DTypeInts(ProfileFact(limits, "header_k_align", where + ".limits"), where + ".limits.header_k_align");
  f.header_n_align =
      DTypeInts(ProfileFact(limits, "header_n_align", where + ".limits"), where + ".limits.header_n_align");
  f.k_segment = ProfileFact(doc, "k_segment", where).get<int64_t>();
  if (f.k_segment < 0) throw std::runtime_error(where + ".k_segment: must be >= 0");
  const std::string nibble = ProfileFact(doc, "int4_nibble", where).get<std::string>();
  auto order = ParseNibbleOrder(nibble);
  if (!order) throw std::runtime_error(where + ".int4_nibble: unknown order '" + nibble + "'");
  f.norm_nibble = *order;
  f.tp_norm = ProfileFact(doc, "tp_norm", where).get<bool>();
  const auto& per_channel = ProfileFact(doc, "per_channel_types", where);
  if (!per_channel.is_null()) f.per_channel_types = Ints(per_channel, where + ".per_channel_types");

  const std::string native_b = ChoiceValue(choices, "rknn.int4.native_b_nibble", NibbleOrderName(f.norm_nibble));
  auto b_order = ParseNibbleOrder(native_b);
  if (!b_order) throw std::runtime_error(where + ": choice rknn.int4.native_b_nibble = '" + native_b + "'");
  f.native_b_nibble = *b_order;
  f.mixed_b_layout = ChoiceValue(choices, "rknn.native.mixed_b_layout", "c_dtype_row");
  f.c_sub_n_other = ChoiceValue(choices, "rknn.native.c_sub_n_other_outputs", "16_bytes");
  if (!f.c_sub_n_other_readings.empty() && !f.c_sub_n_other_readings.count(f.c_sub_n_other)) {
    throw std::runtime_error(where + ".native.c_sub_n_other_outputs: no table for the profile's reading '" +
                             f.c_sub_n_other + "' of choice rknn.native.c_sub_n_other_outputs");
  }
  f.align_unit = ChoiceValue(choices, "rknn.limits.align_unit", "ug_elements");
  f.k_max_rule = ChoiceValue(choices, "rknn.limits.k_max", "ug");
  f.group_size_rule = ChoiceValue(choices, "rknn.quant.group_size", "divides_k");
  return f;
}

int32_t RknnTensorType(DType dtype) {
  // rknn_tensor_type (spec rknn.md §1.5, API-h v2.3.2).
  switch (dtype) {
    case DType::kFloat: return 0;
    case DType::kFloat16: return 1;
    case DType::kInt8: return 2;
    case DType::kUint8: return 3;
    case DType::kInt16: return 4;
    case DType::kInt32: return 6;
    case DType::kInt64: return 8;
    case DType::kInt4: return 10;
    case DType::kBf16: return 11;
    default: return -1;
  }
}

}  // namespace npuconf
