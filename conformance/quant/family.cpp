// The dequant family's conformance side (spec cann.md §3–4, rknn.md §5): how
// each routine's cases become buffers, and the family as registered in
// cli/families.cpp. Params that are data (scales,
// zero points, weights) come from the case's seed through a named distribution
// (`scales=`, `zps=`), or verbatim from int-list params (`table=[..]`,
// `scale_bits=[..]`, …) for the spec tables, so every case replays from its text.
#include "conformance/quant/family.h"

#include <algorithm>
#include <cstring>

#include "conformance/harness/materialize.h"
#include "conformance/quant/support.h"
#include "core/float16.h"

namespace npuconf {
namespace {

using namespace quant_props;

bool Missing(const Case& c, const std::string& input) {
  return c.String("missing").value_or("") == input;
}

// Seeds of the independent data streams of one case.
uint64_t SubSeed(const Case& c, uint64_t stream) {
  return Seed(c) * 0x9E3779B97F4A7C15ull + stream;
}

template <typename T>
Bytes AsBytes(const std::vector<T>& values) {
  Bytes out(values.size() * sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), values.data(), out.size());
  return out;
}

// a·b elements; CaseTooLarge when that many bytes already pass the case budget
// (every tensor of these routines holds at least a byte per element).
uint64_t CheckedCount(int64_t a, int64_t b, const Case& c) {
  if (a < 0 || b < 0) return 0;
  auto n = CheckedMul(a, b);
  if (!n)
    throw CaseError("case " + c.ToText() + ": " + std::to_string(a) + " x " + std::to_string(b) +
                    " elements overflow int64");
  if (static_cast<uint64_t>(*n) > MaxCaseBytes())
    throw CaseTooLarge(static_cast<uint64_t>(*n), MaxCaseBytes());
  return static_cast<uint64_t>(*n);
}

std::vector<uint16_t> Bits16Of(const std::vector<double>& values, DType dtype) {
  std::vector<uint16_t> out;
  for (double v : values) out.push_back(Bits16(v, dtype));
  return out;
}

std::vector<uint16_t> IntListAs16(const Shape& values) {
  std::vector<uint16_t> out;
  for (int64_t v : values) out.push_back(static_cast<uint16_t>(v));
  return out;
}

// ---- cann.gather_dequant_int8 -------------------------------------------------------

Invocation GatherCase(const Case& c, const Profile&) {
  Invocation inv{c, {}, {}};
  const int64_t vocab = RequireInt(c, "vocab");
  const int64_t embed = RequireInt(c, "embed");
  Shape index_shape = c.IntList("indices_shape").value_or(Shape{1, 30});  // gen_data.py: [1, 30]
  std::vector<int32_t> indices;
  if (auto explicit_indices = c.IntList("indices")) {
    for (int64_t v : *explicit_indices) indices.push_back(static_cast<int32_t>(v));
    if (!c.IntList("indices_shape")) index_shape = {static_cast<int64_t>(indices.size())};
  }
  const auto n_indices = NumElements(index_shape);
  if (!n_indices) throw CaseError("indices_shape " + ToString(index_shape) + " is not a shape");
  ChargeCaseBytes(ElemBytes(DType::kInt32, *n_indices, index_shape));
  if (indices.empty()) indices = IndexValues(SubSeed(c, 1), *n_indices, vocab);
  if (static_cast<int64_t>(indices.size()) != *n_indices) {
    throw CaseError("indices=[..] must hold prod(indices_shape) values");
  }
  if (auto bad = c.Int("bad_index"); bad && !indices.empty()) {
    indices[Seed(c) % indices.size()] = static_cast<int32_t>(*bad);
  }
  const uint64_t table_elems = CheckedCount(vocab, embed, c);
  Bytes table;
  if (auto values = c.IntList("table")) {
    if (values->size() != table_elems) throw CaseError("table=[..] must hold vocab·embed values");
    for (int64_t v : *values) table.push_back(static_cast<uint8_t>(v));
  } else {
    table = RandomBytes(SubSeed(c, 2), table_elems);
  }
  const int64_t scale_len = c.Int("scale_len").value_or(vocab);
  const int64_t zp_len = c.Int("zero_point_len").value_or(vocab);
  if (scale_len < 0 || zp_len < 0) throw CaseError("scale_len / zero_point_len must be >= 0");
  // Counted against --max-case-bytes before they are made (FLOAT16 each, drawn
  // as doubles first), so no count param is unbounded.
  ChargeCaseBytes(ElemBytes(DType::kFloat16, scale_len, Shape{scale_len}) * 5);
  ChargeCaseBytes(ElemBytes(DType::kFloat16, zp_len, Shape{zp_len}) * 5);
  std::vector<uint16_t> scale =
      c.IntList("scale_bits")
          ? IntListAs16(*c.IntList("scale_bits"))
          : Bits16Of(ScaleValues(SubSeed(c, 3), scale_len, c.String("scales").value_or("mixed")),
                     DType::kFloat16);
  std::vector<uint16_t> zp =
      c.IntList("zero_point_bits")
          ? IntListAs16(*c.IntList("zero_point_bits"))
          : Bits16Of(
                ZeroPointValues(SubSeed(c, 4), zp_len, c.String("zps").value_or("mixed"), 0, 255),
                DType::kFloat16);
  if (!Missing(c, "table"))
    inv.inputs.push_back({"table", DType::kUint8, {vocab, embed}, std::move(table)});
  if (!Missing(c, "indices"))
    inv.inputs.push_back({"indices", DType::kInt32, index_shape, AsBytes(indices)});
  const int64_t scale_count = static_cast<int64_t>(scale.size());
  const int64_t zp_count = static_cast<int64_t>(zp.size());
  if (!Missing(c, "scale"))
    inv.inputs.push_back({"scale", DType::kFloat16, {scale_count}, AsBytes(scale)});
  if (!Missing(c, "zero_point")) {
    inv.inputs.push_back({"zero_point", DType::kFloat16, {zp_count}, AsBytes(zp)});
  }
  // y: indices.shape ++ [E] fp16 (spec cann.md §3.2).
  const uint64_t y_bytes = CheckedCount(*n_indices, std::max<int64_t>(embed, 0), c) * 2;
  inv.outputs.push_back({"y", DType::kFloat16, y_bytes, OutputIsNull(c, "y"), {}});
  return inv;
}

// ---- cann.gather_dequant_int8_quantize -------------------------------------------------

Invocation GenDataCase(const Case& c, const Profile&) {
  Invocation inv{c, {}, {}};
  const int64_t vocab = RequireInt(c, "vocab");
  const int64_t embed = RequireInt(c, "embed");
  const uint64_t count = CheckedCount(vocab, embed, c);
  // The FLOAT weight is held twice while it is made (values, then bytes).
  ChargeCaseBytes(ElemBytes(DType::kFloat, static_cast<int64_t>(count), {vocab, embed}));
  ChargeCaseBytes(ElemBytes(DType::kFloat, static_cast<int64_t>(count), {vocab, embed}));
  std::vector<float> weight;
  if (auto bits = c.IntList("weight_bits")) {
    if (bits->size() != count) throw CaseError("weight_bits=[..] must hold vocab·embed values");
    for (int64_t b : *bits) {
      const uint32_t word = static_cast<uint32_t>(b);
      float f;
      std::memcpy(&f, &word, 4);
      weight.push_back(f);
    }
  } else {
    weight = WeightValues(SubSeed(c, 5), static_cast<int64_t>(count),
                          c.String("weights").value_or("normal"));
  }
  inv.inputs.push_back({"weight", DType::kFloat, {vocab, embed}, AsBytes(weight)});
  const uint64_t v = static_cast<uint64_t>(std::max<int64_t>(vocab, 0));
  inv.outputs.push_back({"table", DType::kUint8, count, false, {}});
  inv.outputs.push_back({"scale", DType::kFloat16, v * 2, false, {}});
  inv.outputs.push_back({"zero_point", DType::kFloat16, v * 2, false, {}});
  return inv;
}

// ---- cann.antiquant ----------------------------------------------------------------

Shape DefaultScaleShape(const std::string& mode, int64_t k, int64_t n, int64_t gs) {
  if (mode == "per_tensor") return {1};
  if (mode == "per_group" && gs > 0) return {k / gs + (k % gs != 0), n};
  return {n};
}

Invocation AntiquantCase(const Case& c, const Profile&) {
  Invocation inv{c, {}, {}};
  const int64_t k = RequireInt(c, "k");
  const int64_t n = RequireInt(c, "n");
  const DType weight_dtype = RequireDType(c, "weight_dtype");
  const DType x_dtype = RequireDType(c, "x_dtype");
  const int64_t gs = c.Int("group_size").value_or(0);
  const std::string mode = c.String("mode").value_or(gs > 0 ? "per_group" : "per_channel");
  const Shape scale_shape = c.IntList("scale_shape").value_or(DefaultScaleShape(mode, k, n, gs));
  const bool has_offset = c.Int("offset").value_or(1) != 0;
  const Shape offset_shape = c.IntList("offset_shape").value_or(scale_shape);
  const uint64_t count = CheckedCount(k, n, c);
  Bytes weight;
  if (auto values = c.IntList("weight")) {
    if (values->size() != count) throw CaseError("weight=[..] must hold k·n values");
    std::vector<int32_t> q(values->begin(), values->end());
    weight = oracle::quant::EncodeQ(q, weight_dtype);
  } else {
    weight = RandomBytes(SubSeed(c, 6), weight_dtype == DType::kInt8 ? count : (count + 1) / 2);
  }
  // Values of dtype I (FLOAT16/BF16); anything else asked for is stored as fp16 bits.
  const DType value_dtype = x_dtype == DType::kBf16 ? DType::kBf16 : DType::kFloat16;
  const auto scale_count = NumElements(scale_shape);
  const auto offset_count = NumElements(offset_shape);
  if (!scale_count || !offset_count) {
    throw CaseError("scale_shape " + ToString(scale_shape) + " / offset_shape " +
                    ToString(offset_shape) + " must be shapes (non-negative, int64 products)");
  }
  // 16-bit values, drawn as doubles first: charged before they are made.
  ChargeCaseBytes(ElemBytes(value_dtype, *scale_count, scale_shape) * 5);
  ChargeCaseBytes(ElemBytes(value_dtype, *offset_count, offset_shape) * 5);
  std::vector<uint16_t> scale =
      c.IntList("scale_bits")
          ? IntListAs16(*c.IntList("scale_bits"))
          : Bits16Of(ScaleValues(SubSeed(c, 7), *scale_count, c.String("scales").value_or("mixed")),
                     value_dtype);
  std::vector<uint16_t> offset =
      c.IntList("offset_bits") ? IntListAs16(*c.IntList("offset_bits"))
                               : Bits16Of(ZeroPointValues(SubSeed(c, 8), *offset_count,
                                                          c.String("zps").value_or("mixed"), -8, 8),
                                          value_dtype);
  if (!Missing(c, "weight"))
    inv.inputs.push_back({"weight", weight_dtype, {k, n}, std::move(weight)});
  if (!Missing(c, "scale"))
    inv.inputs.push_back({"scale", value_dtype, scale_shape, AsBytes(scale)});
  if (has_offset) inv.inputs.push_back({"offset", value_dtype, offset_shape, AsBytes(offset)});
  inv.outputs.push_back({"y", value_dtype, count * 2, OutputIsNull(c, "y"), {}});
  return inv;
}

// ---- rknn.dequant_b --------------------------------------------------------------------

int64_t RknnParamCount(int64_t quant_type, int64_t k, int64_t n, int64_t gs) {
  if (quant_type == 2 || quant_type == 3) return n;
  if ((quant_type == 4 || quant_type == 5) && gs > 0 && k >= 0 && n >= 0) return k / gs * n;
  return 1;
}

Invocation RknnCase(const Case& c, const Profile& profile) {
  Invocation inv{c, {}, {}};
  const int64_t k = RequireInt(c, "k");
  const int64_t n = RequireInt(c, "n");
  const DType dtype = RequireDType(c, "dtype");
  const int64_t quant_type = RequireInt(c, "quant_type");
  const int64_t gs = c.Int("group_size").value_or(0);
  const int64_t params = RknnParamCount(quant_type, k, n, gs);
  const int64_t scale_len = c.Int("scale_len").value_or(params);
  const int64_t zp_len = c.Int("zp_len").value_or(params);
  if (scale_len < 0 || zp_len < 0) {
    throw CaseError("scale_len=" + std::to_string(scale_len) +
                    " / zp_len=" + std::to_string(zp_len) + " must be >= 0");
  }
  // FLOAT scales and INT32 zero points, drawn as doubles first: charged before
  // they are made.
  ChargeCaseBytes(ElemBytes(DType::kFloat, scale_len, Shape{scale_len}) * 3);
  ChargeCaseBytes(ElemBytes(DType::kInt32, zp_len, Shape{zp_len}) * 3);
  const uint64_t count = CheckedCount(k, n, c);
  // Verbatim values and fills are held as INT32 while they are packed.
  if (c.IntList("b") || c.Int("b_fill"))
    ChargeCaseBytes(ElemBytes(DType::kInt32, static_cast<int64_t>(count), Shape{k, n}));
  // Verbatim values and fills alike are packed in the profile's NORM B nibble
  // order (spec rknn.md §2.4): an odd count's last byte holds its one element in
  // the nibble that order names (issue #9 item 7).
  const bool even_high = profile.rknn && profile.rknn->norm_nibble == NibbleOrder::kHighFirst;
  Bytes b;
  if (auto values = c.IntList("b")) {
    if (values->size() != count) throw CaseError("b=[..] must hold k·n values");
    b = oracle::quant::EncodeQ(std::vector<int32_t>(values->begin(), values->end()), dtype,
                               even_high);
  } else if (auto fill = c.Int("b_fill")) {
    b = oracle::quant::EncodeQ(std::vector<int32_t>(count, static_cast<int32_t>(*fill)), dtype,
                               even_high);
  } else {
    b = RandomBytes(SubSeed(c, 9), dtype == DType::kInt4 ? (count + 1) / 2 : count);
  }
  std::vector<float> scale;
  if (auto bits = c.IntList("scale_bits")) {
    for (int64_t word : *bits) {
      const uint32_t w = static_cast<uint32_t>(word);
      float f;
      std::memcpy(&f, &w, 4);
      scale.push_back(f);
    }
  } else {
    for (double v : ScaleValues(SubSeed(c, 10), scale_len, c.String("scales").value_or("mixed"))) {
      scale.push_back(static_cast<float>(v));
    }
  }
  std::vector<int32_t> zp;
  for (double v :
       ZeroPointValues(SubSeed(c, 11), zp_len, c.String("zps").value_or("zero"), -8, 8)) {
    zp.push_back(static_cast<int32_t>(std::lround(v)));
  }
  if (auto one = c.Int("nonzero_zp"); one && !zp.empty())
    zp[Seed(c) % zp.size()] = static_cast<int32_t>(*one);
  inv.inputs.push_back({"b", dtype, {k, n}, std::move(b)});
  inv.inputs.push_back(
      {"scale", DType::kFloat, {static_cast<int64_t>(scale.size())}, AsBytes(scale)});
  inv.inputs.push_back({"zp", DType::kInt32, {static_cast<int64_t>(zp.size())}, AsBytes(zp)});
  inv.outputs.push_back({"y", DType::kFloat, count * 4, OutputIsNull(c, "y"), {}});
  return inv;
}

const RoutineSpec* Spec(const char* id) {
  for (const auto& spec : routines::quant::Specs()) {
    if (spec.id == id) return &spec;
  }
  return nullptr;
}

void AddProperties(std::vector<Property>* out) {
  AddGatherProperties(out);
  AddAntiquantProperties(out);
  AddRknnDequantProperties(out);
}

}  // namespace

Invocation MaterializeQuantCase(const Case& c, const Profile& profile) {
  if (c.routine == kGather) return GatherCase(c, profile);
  if (c.routine == kGenData) return GenDataCase(c, profile);
  if (c.routine == kAntiquant) return AntiquantCase(c, profile);
  if (c.routine == kRknnB) return RknnCase(c, profile);
  throw CaseError("not a routine of the dequant family: " + c.routine);
}

Family QuantFamily() {
  return {.name = "quant",
          .routines = {{Spec(kGather), GatherCase, ExpectGatherAnswer},
                       {Spec(kGenData), GenDataCase},
                       {Spec(kAntiquant), AntiquantCase, ExpectWeightAnswer},
                       {Spec(kRknnB), RknnCase, ExpectWeightAnswer}},
          .add_properties = AddProperties,
          .add_coverage = AddQuantCoverage};
}

}  // namespace npuconf
