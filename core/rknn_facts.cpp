#include "core/rknn_facts.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "core/profile_json.h"

namespace npuconf {
namespace {

std::map<DType, int64_t> DTypeInts(const nlohmann::json& value, const std::string& where) {
  std::map<DType, int64_t> out;
  for (const auto& [name, v] : ProfileObject(value, where).items()) {
    out[ProfileDType(name, where)] =
        ProfileInt(v, where + "." + name, 1, std::numeric_limits<int64_t>::max());
  }
  return out;
}

std::vector<int32_t> Ints(const nlohmann::json& value, const std::string& where) {
  if (!value.is_array()) throw std::runtime_error(where + ": expected an array of integers");
  std::vector<int32_t> out;
  for (const auto& v : value) {
    out.push_back(
        static_cast<int32_t>(ProfileInt(v, where + "[]", std::numeric_limits<int32_t>::min(),
                                        std::numeric_limits<int32_t>::max())));
  }
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
  for (const auto& [name, v] : ProfileObject(value, where).items()) {
    out[ProfileDType(name, where)] = static_cast<int32_t>(
        ProfileInt(v, where + "." + name, 0, std::numeric_limits<int32_t>::max()));
  }
  return out;
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
  return has_tables &&
         std::find(supported_types.begin(), supported_types.end(), type) != supported_types.end();
}

RknnFacts ParseRknnFacts(const nlohmann::json& doc,
                         const std::map<std::string, std::string>& choices, bool verified,
                         const std::string& where) {
  RknnFacts f;
  f.platform = ProfileString(ProfileFact(doc, "platform", where), where + ".platform");
  f.sdk = ProfileString(ProfileFact(doc, "sdk", where), where + ".sdk");
  const auto& rows = ProfileArray(ProfileFact(doc, "matmul_types", where), where + ".matmul_types");
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string row_where = where + ".matmul_types[" + std::to_string(i) + "]";
    const auto& row = ProfileObject(rows[i], row_where);
    auto text = [&](const char* key) {
      return ProfileString(ProfileMember(row, key, row_where), row_where + "." + key);
    };
    RknnMatmulType t;
    t.type = static_cast<int32_t>(
        ProfileInt(ProfileMember(row, "type", row_where), row_where + ".type",
                   std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max()));
    t.name = text("name");
    t.a = ProfileDType(text("a"), where + ".matmul_types");
    t.b = ProfileDType(text("b"), where + ".matmul_types");
    t.c = ProfileDType(text("c"), where + ".matmul_types");
    f.types.push_back(t);
  }
  if (doc.contains("known_unsupported_types")) {
    f.known_unsupported = Ints(ProfileFact(doc, "known_unsupported_types", where), where);
  }
  if (doc.contains("native_io")) {
    const auto& io = ProfileMember(doc, "native_io", where);
    const auto& c2 = ProfileFact(io, "c2", where + ".native_io");
    if (!c2.is_null()) f.nc1hwc2_c2 = DTypeInts(c2, where + ".native_io.c2");
    const auto& w_align = ProfileFact(io, "output_w_align", where + ".native_io");
    if (!w_align.is_null())
      f.output_w_align = ProfileInt(w_align, where + ".native_io.output_w_align");
    // §B.4 zero-copy input conditions (absent or null: not public).
    const std::string io_where = where + ".native_io";
    if (io.contains("zero_copy_input_channels")) {
      const auto& ch = ProfileFact(io, "zero_copy_input_channels", io_where);
      if (!ch.is_null()) {
        for (const auto& v : ProfileArray(ch, io_where + ".zero_copy_input_channels"))
          f.zero_copy_channels.push_back(ProfileInt(v, io_where + ".zero_copy_input_channels[]"));
      }
      const auto& dt = ProfileFact(io, "zero_copy_input_dtypes", io_where);
      if (!dt.is_null()) {
        for (const auto& v : ProfileArray(dt, io_where + ".zero_copy_input_dtypes"))
          f.zero_copy_dtypes.push_back(
              ProfileDType(ProfileString(v, io_where + ".zero_copy_input_dtypes[]"), io_where));
      }
      const auto& wa = ProfileFact(io, "zero_copy_input_w_align", io_where);
      if (!wa.is_null())
        f.zero_copy_w_align = ProfileInt(wa, io_where + ".zero_copy_input_w_align");
    }
  }
  f.size_with_stride = ChoiceValue(choices, "rknn.native_io.size_with_stride", "unpadded_w");
  f.nhwc_input_batch = ChoiceValue(choices, "rknn.native_io.nhwc_input_batch", "every_batch");
  if (!verified && !doc.contains("supported_types")) return f;  // tables not public (§8.2)
  f.has_tables = true;
  f.supported_types = Ints(ProfileFact(doc, "supported_types", where), where + ".supported_types");
  for (int32_t type : f.supported_types) {
    if (!f.FindType(type)) {
      throw std::runtime_error(where + ".supported_types: type " + std::to_string(type) +
                               " is not a defined rknn_matmul_type");
    }
  }
  const auto& native = ProfileMember(doc, "native", where);
  f.a_sub_k =
      DTypeInts(ProfileFact(native, "a_sub_k", where + ".native"), where + ".native.a_sub_k");
  for (const auto& [name, v] : ProfileObject(ProfileFact(native, "b_sub_n_k", where + ".native"),
                                             where + ".native.b_sub_n_k")
                                   .items()) {
    const std::string sub_where = where + ".native.b_sub_n_k." + name;
    if (!v.is_array() || v.size() != 2) {
      throw std::runtime_error(sub_where + ": expected [subN, subK]");
    }
    f.b_sub_n_k[ProfileDType(name, where)] = {ProfileInt(v[0], sub_where + "[0]"),
                                              ProfileInt(v[1], sub_where + "[1]")};
  }
  f.c_sub_n =
      DTypeInts(ProfileFact(native, "c_sub_n", where + ".native"), where + ".native.c_sub_n");
  if (native.contains("c_sub_n_other_outputs")) {
    for (const auto& [reading, table] :
         ProfileObject(ProfileFact(native, "c_sub_n_other_outputs", where + ".native"),
                       where + ".native.c_sub_n_other_outputs")
             .items()) {
      f.c_sub_n_other_readings[reading] =
          DTypeInts(table, where + ".native.c_sub_n_other_outputs." + reading);
    }
  }
  f.tensor_types = DTypeCodes(ProfileFact(doc, "tensor_types", where), where + ".tensor_types");
  const auto& limits = ProfileMember(doc, "limits", where);
  const auto& k_max = ProfileFact(limits, "k_max", where + ".limits");
  if (!k_max.is_null()) f.k_max = ProfileInt(k_max, where + ".limits.k_max");
  f.header_k_max = ProfileInt(ProfileFact(limits, "header_k_max", where + ".limits"),
                              where + ".limits.header_k_max");
  f.k_align =
      DTypeInts(ProfileFact(limits, "k_align", where + ".limits"), where + ".limits.k_align");
  f.n_align =
      DTypeInts(ProfileFact(limits, "n_align", where + ".limits"), where + ".limits.n_align");
  f.n_max = DTypeInts(ProfileFact(limits, "n_max", where + ".limits"), where + ".limits.n_max");
  f.header_k_align = DTypeInts(ProfileFact(limits, "header_k_align", where + ".limits"),
                               where + ".limits.header_k_align");
  f.header_n_align = DTypeInts(ProfileFact(limits, "header_n_align", where + ".limits"),
                               where + ".limits.header_n_align");
  f.k_segment = ProfileInt(ProfileFact(doc, "k_segment", where), where + ".k_segment");
  if (f.k_segment < 0) throw std::runtime_error(where + ".k_segment: must be >= 0");
  const std::string nibble =
      ProfileString(ProfileFact(doc, "int4_nibble", where), where + ".int4_nibble");
  auto order = ParseNibbleOrder(nibble);
  if (!order) throw std::runtime_error(where + ".int4_nibble: unknown order '" + nibble + "'");
  f.norm_nibble = *order;
  f.tp_norm = ProfileBool(ProfileFact(doc, "tp_norm", where), where + ".tp_norm");
  const auto& per_channel = ProfileFact(doc, "per_channel_types", where);
  if (!per_channel.is_null()) f.per_channel_types = Ints(per_channel, where + ".per_channel_types");
  f.quant_types = ProfileBool(ProfileFact(doc, "quant_types", where), where + ".quant_types");
  const auto& per_group = ProfileFact(doc, "per_group_types", where);
  if (!per_group.is_null()) f.per_group_types = Ints(per_group, where + ".per_group_types");

  const std::string native_b =
      ChoiceValue(choices, "rknn.int4.native_b_nibble", NibbleOrderName(f.norm_nibble));
  auto b_order = ParseNibbleOrder(native_b);
  if (!b_order)
    throw std::runtime_error(where + ": choice rknn.int4.native_b_nibble = '" + native_b + "'");
  f.native_b_nibble = *b_order;
  f.mixed_b_layout = ChoiceValue(choices, "rknn.native.mixed_b_layout", "c_dtype_row");
  f.c_sub_n_other = ChoiceValue(choices, "rknn.native.c_sub_n_other_outputs", "16_bytes");
  if (!f.c_sub_n_other_readings.empty() && !f.c_sub_n_other_readings.count(f.c_sub_n_other)) {
    throw std::runtime_error(where +
                             ".native.c_sub_n_other_outputs: no table for the profile's reading '" +
                             f.c_sub_n_other + "' of choice rknn.native.c_sub_n_other_outputs");
  }
  f.align_unit = ChoiceValue(choices, "rknn.limits.align_unit", "ug_elements");
  f.k_max_rule = ChoiceValue(choices, "rknn.limits.k_max", "ug");
  f.group_size_rule = ChoiceValue(choices, "rknn.quant.group_size", "divides_k");
  f.varying_dims = ChoiceValue(choices, "rknn.dynamic.varying_dims", "k_n_fixed_unless_tp_norm");
  return f;
}

}  // namespace npuconf
