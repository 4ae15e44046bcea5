#include "reference/quant/quant_port.h"

#include <cstring>
#include <vector>

#include "core/routines/quant.h"
#include "core/shape.h"
#include "core/status.h"
#include "reference/quant/cann_antiquant.h"
#include "reference/quant/gather_dequant_int8.h"
#include "reference/quant/rknn_dequant.h"

namespace npuconf::quant {
namespace {

using Answer = PortAnswer;

Shape Dims(const npuconf_tensor* t) {
  if (!t || t->rank < 0 || !t->dims) return {};
  return Shape(t->dims, t->dims + t->rank);
}

// A tensor's data as T values; the copy keeps alignment for the typed reads.
template <typename T>
std::vector<T> Values(const npuconf_tensor* t) {
  std::vector<T> out(t && t->data ? t->bytes / sizeof(T) : 0);
  if (!out.empty()) std::memcpy(out.data(), t->data, out.size() * sizeof(T));
  return out;
}

Answer Gather(const CaseView& view, int64_t* status, std::string* note) {
  const npuconf_tensor* table = view.Input("table");
  const npuconf_tensor* indices = view.Input("indices");
  const npuconf_tensor* scale = view.Input("scale");
  const npuconf_tensor* zero_point = view.Input("zero_point");
  npuconf_tensor* y = view.Output("y");
  if (!y) return BadCase("output 'y' missing");
  const Shape table_dims = Dims(table);
  if (table && table_dims.size() != 2) return BadCase("input 'table' must be [V, E]");
  const Shape index_dims = Dims(indices);
  const auto num_indices = NumElements(index_dims);
  if (!num_indices) return BadCase("indices dims overflow");
  const auto index_values = Values<int32_t>(indices);
  if (indices && static_cast<int64_t>(index_values.size()) < *num_indices) {
    return BadCase("input 'indices' holds fewer values than its dims say");
  }
  const auto scale_bits = Values<uint16_t>(scale);
  const auto zp_bits = Values<uint16_t>(zero_point);
  GatherDequantArgs a;
  a.table = table ? static_cast<const uint8_t*>(table->data) : nullptr;
  a.vocab = table ? table_dims[0] : 0;
  a.embed = table ? table_dims[1] : 0;
  if (table && static_cast<uint64_t>(a.vocab) * static_cast<uint64_t>(a.embed) > table->bytes) {
    return BadCase("input 'table' holds fewer bytes than [V, E]");
  }
  // A present tensor of 0 elements is empty, not null.
  static const uint16_t kEmpty16[1] = {0};
  static const int32_t kEmpty32[1] = {0};
  static const uint8_t kEmpty8[1] = {0};
  if (table && !a.table) a.table = kEmpty8;
  a.indices = indices ? (index_values.empty() ? kEmpty32 : index_values.data()) : nullptr;
  a.num_indices = *num_indices;
  a.scale_bits = scale ? (scale_bits.empty() ? kEmpty16 : scale_bits.data()) : nullptr;
  a.scale_len = static_cast<int64_t>(scale_bits.size());
  a.zero_point_bits = zero_point ? (zp_bits.empty() ? kEmpty16 : zp_bits.data()) : nullptr;
  a.zero_point_len = static_cast<int64_t>(zp_bits.size());
  a.y = static_cast<uint16_t*>(y->data);
  a.y_capacity_elems = y->bytes / 2;
  // The kernel writes straight into y; keep scratch-free by validating first
  // (GatherDequantInt8 writes nothing on error).
  *status = GatherDequantInt8(a, note);
  if (*status == cann::kAclnnSuccess) {
    Shape out_dims = index_dims;  // §3.2: indices.shape ++ [E]
    out_dims.push_back(a.embed);
    if (!SetOutputShape(y, out_dims)) return BadCase("y rank exceeds NPUCONF_MAX_RANK");
  }
  return Answered();
}

Answer GenData(const CaseView& view, int64_t* status, std::string* note) {
  const npuconf_tensor* weight = view.Input("weight");
  npuconf_tensor* table = view.Output("table");
  npuconf_tensor* scale = view.Output("scale");
  npuconf_tensor* zero_point = view.Output("zero_point");
  if (!table || !scale || !zero_point)
    return BadCase("outputs 'table', 'scale', 'zero_point' needed");
  const Shape dims = Dims(weight);
  if (weight && dims.size() != 2) return BadCase("input 'weight' must be [V, E]");
  const int64_t vocab = weight ? dims[0] : 0, embed = weight ? dims[1] : 0;
  const auto values = Values<float>(weight);
  if (weight && static_cast<int64_t>(values.size()) < vocab * embed) {
    return BadCase("input 'weight' holds fewer floats than [V, E]");
  }
  if (table->data && (table->bytes < static_cast<uint64_t>(vocab * embed) ||
                      scale->bytes < static_cast<uint64_t>(vocab) * 2 ||
                      zero_point->bytes < static_cast<uint64_t>(vocab) * 2)) {
    *status = cann::kAclnnErrParamInvalid;
    *note = "an output is too small";
    return Answered();
  }
  std::vector<uint16_t> scale_bits(static_cast<size_t>(std::max<int64_t>(vocab, 0)));
  std::vector<uint16_t> zp_bits(scale_bits.size());
  *status = GenDataQuantize(
      weight ? values.data() : nullptr, vocab, embed, static_cast<uint8_t*>(table->data),
      scale->data ? scale_bits.data() : nullptr, zero_point->data ? zp_bits.data() : nullptr, note);
  if (*status == cann::kAclnnSuccess) {
    std::memcpy(scale->data, scale_bits.data(), scale_bits.size() * 2);
    std::memcpy(zero_point->data, zp_bits.data(), zp_bits.size() * 2);
    SetOutputShape(table, {vocab, embed});
    SetOutputShape(scale, {vocab});
    SetOutputShape(zero_point, {vocab});
  }
  return Answered();
}

Answer Antiquant(const CaseView& view, const Profile& profile, int64_t* status, std::string* note) {
  const npuconf_tensor* weight = view.Input("weight");
  const npuconf_tensor* scale = view.Input("scale");
  const npuconf_tensor* offset = view.Input("offset");
  npuconf_tensor* y = view.Output("y");
  if (!y) return BadCase("output 'y' missing");
  auto x_dtype = view.DTypeParam("x_dtype");
  if (!x_dtype) return BadCase("param 'x_dtype' (FLOAT16 or BF16) is required");
  AntiquantArgs a;
  a.npu_arch = profile.cann->npu_arch;
  a.soc_supported = profile.cann->antiquant_supported;
  a.kn_max = profile.cann->antiquant_kn_max;
  a.x_dtype = *x_dtype;
  a.group_size = view.Int("group_size").value_or(0);
  const auto scale_bits = Values<uint16_t>(scale);
  const auto offset_bits = Values<uint16_t>(offset);
  if (weight) {
    const Shape dims = Dims(weight);
    if (dims.size() != 2) return BadCase("input 'weight' must be (k, n)");
    auto dtype = DTypeFromAbi(weight->dtype);
    if (!dtype) return BadCase("input 'weight' has an unknown dtype");
    a.weight_dtype = *dtype;
    a.k = dims[0];
    a.n = dims[1];  // logical int4 values for INT4 and the INT32 carrier
    a.weight = static_cast<const uint8_t*>(weight->data);
    a.weight_bytes = weight->bytes;
    if (!a.weight) a.weight = reinterpret_cast<const uint8_t*>("");  // empty, not null
  }
  if (scale) {
    a.scale_shape = Dims(scale);
    // A present tensor of 0 elements is empty, not null (161002 by the k/n
    // limits of spec cann.md §4, not 161001).
    static const uint16_t kEmptyScale[1] = {0};
    a.scale_bits = scale_bits.empty() ? kEmptyScale : scale_bits.data();
    const auto numel = NumElements(*a.scale_shape);
    if (!numel || *numel > static_cast<int64_t>(scale_bits.size())) {
      return BadCase("input 'scale' holds fewer values than its dims say");
    }
  }
  if (offset) {
    a.offset_shape = Dims(offset);
    static const uint16_t kEmptyOffset[1] = {0};
    a.offset_bits = offset_bits.empty() ? kEmptyOffset : offset_bits.data();
    const auto numel = NumElements(*a.offset_shape);
    if (!numel || *numel > static_cast<int64_t>(offset_bits.size())) {
      return BadCase("input 'offset' holds fewer values than its dims say");
    }
  }
  a.y = static_cast<uint16_t*>(y->data);
  a.y_capacity_elems = y->bytes / 2;
  *status = CannAntiquant(a, note);
  if (*status == cann::kAclnnSuccess) SetOutputShape(y, {a.k, a.n});
  return Answered();
}

Answer RknnB(const CaseView& view, const Profile& profile, int64_t* status, std::string* note) {
  const npuconf_tensor* b = view.Input("b");
  const npuconf_tensor* scale = view.Input("scale");
  const npuconf_tensor* zp = view.Input("zp");
  npuconf_tensor* y = view.Output("y");
  if (!b || !y) return BadCase("input 'b' and output 'y' are required");
  const Shape dims = Dims(b);
  if (dims.size() != 2) return BadCase("input 'b' must be [K, N]");
  auto dtype = DTypeFromAbi(b->dtype);
  auto quant_type = view.Int("quant_type");
  if (!dtype || !quant_type)
    return BadCase("input 'b' dtype and param 'quant_type' (0..5) are required");
  const auto scales = Values<float>(scale);
  const auto zps = Values<int32_t>(zp);
  RknnDequantArgs a;
  a.b_dtype = *dtype;
  a.nibbles = profile.rknn ? profile.rknn->norm_nibble : NibbleOrder::kLowFirst;
  a.k = dims[0];
  a.n = dims[1];
  a.b = static_cast<const uint8_t*>(b->data);
  a.b_bytes = b->bytes;
  a.group_size = view.Int("group_size").value_or(0);
  a.group_size_32_only = profile.rknn && profile.rknn->group_size_rule == "32_only";
  a.channel_major_groups =
      CaseReading(view, profile, "group_order", "rknn.quant.group_order", "g_major") == "n_major";
  a.asymmetric = CaseReading(view, profile, "zero_point", "rknn.quant.zero_point",
                             "symmetric_only") == "asymmetric";
  a.scale = scales.data();
  a.scale_len = static_cast<int64_t>(scales.size());
  a.zp = zps.data();
  a.zp_len = static_cast<int64_t>(zps.size());
  a.y = static_cast<float*>(y->data);
  a.y_capacity_elems = y->bytes / 4;
  // rknn_matmul_quant_type (§1.2): 0/1 per-layer, 2/3 per-channel, 4/5 per-group
  // (SYM/ASYM); the ASYM enums take the same path, the zp values decide (§5.4).
  if (*quant_type < 0 || *quant_type > 5) {
    *status = kRknnErrParamInvalid;
    *note =
        "quant_type " + std::to_string(*quant_type) + " is not an rknn_matmul_quant_type (§1.2)";
    return Answered();
  }
  a.quant_type = *quant_type <= 1   ? RknnQuantType::kPerLayer
                 : *quant_type <= 3 ? RknnQuantType::kPerChannel
                                    : RknnQuantType::kPerGroup;
  *status = RknnDequantB(a, note);
  if (*status == kRknnSuccess) SetOutputShape(y, {a.k, a.n});
  return Answered();
}

}  // namespace

std::string CaseReading(const CaseView& view, const Profile& profile, const char* param,
                        const char* choice, const char* fallback) {
  if (auto value = view.String(param)) return *value;
  if (const Choice* c = profile.FindChoice(choice)) return c->value;
  return fallback;
}

namespace {

// Every routine answers ANSWERED or BAD_CASE, with the rule behind a rejection
// in *message.
template <typename Call>
int32_t Answering(std::string* message, Call call) {
  std::string note;
  const Answer answer = call(&note);
  *message = answer.result == NPUCONF_CALL_ANSWERED ? note : answer.message;
  return answer.result;
}

bool NotCann(const Profile& profile, std::string* message) {
  if (profile.cann) return false;
  *message = "profile '" + profile.name + "' is not a CANN profile";
  return true;
}

int32_t GatherAnswer(const CaseView& view, const Profile& profile, int64_t* status,
                     std::string* message) {
  if (NotCann(profile, message)) return NPUCONF_CALL_UNCLAIMED;
  return Answering(message, [&](std::string* note) { return Gather(view, status, note); });
}
int32_t GenDataAnswer(const CaseView& view, const Profile& profile, int64_t* status,
                      std::string* message) {
  if (NotCann(profile, message)) return NPUCONF_CALL_UNCLAIMED;
  return Answering(message, [&](std::string* note) { return GenData(view, status, note); });
}
int32_t AntiquantAnswer(const CaseView& view, const Profile& profile, int64_t* status,
                        std::string* message) {
  if (NotCann(profile, message)) return NPUCONF_CALL_UNCLAIMED;
  return Answering(message,
                   [&](std::string* note) { return Antiquant(view, profile, status, note); });
}
int32_t RknnBAnswer(const CaseView& view, const Profile& profile, int64_t* status,
                    std::string* message) {
  if (profile.family != "rknn") {
    *message = "profile '" + profile.name + "' is not an RKNN profile";
    return NPUCONF_CALL_UNCLAIMED;
  }
  return Answering(message, [&](std::string* note) { return RknnB(view, profile, status, note); });
}

}  // namespace

const ReferenceFamily& QuantReference() {
  namespace ids = routines::quant;
  static const ReferenceFamily family = {
      .routines = {{ids::kGatherDequantInt8, GatherAnswer},
                   {ids::kGatherDequantInt8Quantize, GenDataAnswer},
                   {ids::kAntiquant, AntiquantAnswer},
                   {ids::kRknnDequantB, RknnBAnswer}},
      // Undefined upstream (spec cann.md §3.4, §5.10); the reference defines them.
      .choice_claims = {"choice:cann.gather_dequant.validation=param_invalid",
                        "choice:cann.gather_dequant.embed_dim=any"}};
  return family;
}

int32_t QuantReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                           uint64_t message_bytes) {
  return AnswerWith(QuantReference(), c, status, message, message_bytes);
}

}  // namespace npuconf::quant
