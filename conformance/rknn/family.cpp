// The RKNN Matmul family's conformance side (spec rknn.md): how each routine's
// cases become buffers (capacities from the oracle's layout), and the family as
// registered in cli/families.cpp.
#include "conformance/rknn/family.h"

#include "conformance/harness/materialize.h"
#include "conformance/rknn/support.h"
#include "oracles/rknn/sub_block_oracle.h"

namespace npuconf {
namespace {

using namespace rknn_props;

Invocation LayoutInvocation(const Case& c, const Profile& profile) {
  const LayoutGeometry l = GeometryOf(c, profile);
  Invocation inv{c, {}, {}};
  const bool in_plain = l.to_native;
  const uint64_t in_bytes = in_plain ? l.plain_bytes : l.native_bytes;
  // Random bytes everywhere, the NATIVE padding of an input included: a
  // conversion back to NORM must ignore it.
  inv.inputs.push_back({l.in_name(), l.dtype, in_plain ? l.plain_dims : l.native_dims,
                        RandomBytes(Seed(c), in_bytes)});
  inv.outputs.push_back(
      {l.out_name(), l.dtype, in_plain ? l.native_bytes : l.plain_bytes, false, {}});
  return inv;
}

Invocation Int4Invocation(const Case& c, const Profile&) {
  auto count = c.Int("count");
  if (!count || *count < 0) throw CaseError("case needs count=N >= 0 (int4 elements)");
  Invocation inv{c, {}, {}};
  const uint64_t packed_bytes = static_cast<uint64_t>(*count / 2 + *count % 2);
  Bytes random =
      RandomBytes(Seed(c), c.routine == kInt4Pack ? static_cast<uint64_t>(*count) : packed_bytes);
  if (c.routine == kInt4Pack) {
    // int4 values −8…7, one per byte (the low nibble of each random byte,
    // sign-extended), or the case's own `values` (the spec's vectors, §7.4).
    for (auto& v : random)
      v = static_cast<uint8_t>(static_cast<int8_t>(static_cast<int8_t>(v << 4) >> 4));
    if (auto given = c.IntList("values")) {
      if (static_cast<int64_t>(given->size()) != *count)
        throw CaseError("values=" + ToString(*given) + " must hold count elements");
      for (size_t i = 0; i < given->size(); ++i) {
        if ((*given)[i] < -8 || (*given)[i] > 7)
          throw CaseError("int4 value " + std::to_string((*given)[i]) + " is outside -8..7");
        random[i] = static_cast<uint8_t>(static_cast<int8_t>((*given)[i]));
      }
    }
    inv.inputs.push_back({"values", DType::kInt8, {*count}, std::move(random)});
    inv.outputs.push_back({"packed", DType::kInt4, packed_bytes, false, {}});
  } else {
    if (auto given = c.IntList("packed")) {
      if (static_cast<uint64_t>(given->size()) != packed_bytes) {
        throw CaseError("packed=" + ToString(*given) + " must hold ceil(count/2) bytes");
      }
      for (size_t i = 0; i < given->size(); ++i) {
        if ((*given)[i] < 0 || (*given)[i] > 255)
          throw CaseError("packed byte " + std::to_string((*given)[i]) + " is outside 0..255");
        random[i] = static_cast<uint8_t>((*given)[i]);
      }
    }
    inv.inputs.push_back({"packed", DType::kInt4, {*count}, std::move(random)});
    inv.outputs.push_back({"values", DType::kInt8, static_cast<uint64_t>(*count), false, {}});
  }
  return inv;
}

Invocation CreateInvocation(const Case& c, const Profile&) {
  for (const char* key : {"type", "M", "K", "N"}) {
    if (!c.Int(key)) throw CaseError(std::string("case needs ") + key + "=N");
  }
  Invocation inv{c, {}, {}};
  for (const char* name : {"A", "B", "C"})
    inv.outputs.push_back({name, DType::kUint64, 16, false, {}});
  return inv;
}

Invocation DynamicInvocation(const Case& c, const Profile&) {
  if (!c.Int("type")) throw CaseError("case needs type=N");
  const Shape shapes = RequireShape(c, "shapes");
  if (shapes.size() % 3 != 0 || shapes.size() > 3 * 1024) {
    throw CaseError("shapes=" + ToString(shapes) +
                    " must be [M0,K0,N0, M1,K1,N1, ...] (at most 1024 shapes)");
  }
  Invocation inv{c, {}, {}};
  inv.outputs.push_back(
      {"io_attrs", DType::kInt64, std::max<uint64_t>(8, shapes.size() / 3 * 21 * 8), false, {}});
  inv.outputs.push_back({"capacity", DType::kUint64, 24, false, {}});
  return inv;
}

const RoutineSpec* Spec(const char* id) {
  for (const auto& spec : routines::rknn::Specs()) {
    if (spec.id == id) return &spec;
  }
  return nullptr;
}

void AddProperties(std::vector<Property>* out) {
  AddCreateProperties(out);
  AddLayoutProperties(out);
}

// What a layout or int4 case that leaves a sub-block, the segment length or
// the nibble order out takes: the platform's (spec rknn.md §2.2, §2.4, §3.3),
// the sub-blocks as the oracle derives them for the type.
std::optional<ParamValue> Effective(const Case& c, const Profile& profile, const ParamSpec& param) {
  if (!profile.rknn) return std::nullopt;
  const RknnFacts& facts = *profile.rknn;
  if (param.key == "seg_len") return ParamValue::Int(facts.k_segment);
  if (param.key == "nibble") return ParamValue::String(NibbleOrderName(facts.norm_nibble));
  if (param.key != "sub_n" && param.key != "sub_k") return std::nullopt;
  const auto type = c.Int("type");
  if (!type) return std::nullopt;
  const auto blocks = oracle::rknn::SubBlocksOf(facts, static_cast<int32_t>(*type));
  if (!blocks) return std::nullopt;
  const bool b = c.routine == kBNorm2Native || c.routine == kBNative2Norm ||
                 c.routine == kBTp2Native || c.routine == kBNative2Tp;
  const bool a = c.routine == kANorm2Native || c.routine == kANative2Norm;
  if (b) return ParamValue::Int(param.key == "sub_n" ? blocks->b_sub_n : blocks->b_sub_k);
  if (a && param.key == "sub_k") return ParamValue::Int(blocks->a_sub_k);
  if (!a && param.key == "sub_n") return ParamValue::Int(blocks->c_sub_n);
  return std::nullopt;
}

}  // namespace

Family RknnFamily() {
  Family family{.name = "rknn", .add_properties = AddProperties, .add_coverage = AddRknnCoverage};
  family.routines = {{Spec(kCreate), CreateInvocation},
                     {Spec(kDynamic), DynamicInvocation},
                     {Spec(kInt4Pack), Int4Invocation, ExpectInt4Answer, Effective},
                     {Spec(kInt4Unpack), Int4Invocation, ExpectInt4Answer, Effective}};
  for (const char* layout : {kANorm2Native, kANative2Norm, kCNorm2Native, kCNative2Norm,
                             kBNorm2Native, kBNative2Norm, kBTp2Native, kBNative2Tp}) {
    family.routines.push_back({Spec(layout), LayoutInvocation, ExpectLayoutAnswer, Effective});
  }
  return family;
}

}  // namespace npuconf
