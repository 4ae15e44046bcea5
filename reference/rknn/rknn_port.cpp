// The reference port's answers to "rknn.*" cases: reads the case through the
// ABI view and calls the routines of reference/rknn/.
#include "reference/rknn/rknn_port.h"

#include <cstring>

#include "core/routines/rknn.h"
#include "reference/rknn/int4.h"
#include "reference/rknn/matmul_create.h"
#include "reference/rknn/native_layout.h"
#include "reference/rknn/sub_blocks.h"

namespace npuconf::rknn {
namespace {

using Answer = PortAnswer;
Answer Rejected(int64_t* status) {
  *status = kRknnErrParamInvalid;
  return Answered();
}

bool Fits(const npuconf_tensor* t, uint64_t bytes) {
  return t && t->bytes >= bytes && (t->data || bytes == 0);
}

// The case's type, supported on the platform, and its sub-blocks with the
// case's overrides (sub_k, sub_n: the other readings of §8.6 / §8.14).
struct TypeInfo {
  RknnMatmulType type;
  NativeSubBlocks sub;
};
std::optional<TypeInfo> CaseType(const CaseView& view, const RknnFacts& facts) {
  auto type = view.Int("type");
  if (!type || !facts.Supports(static_cast<int32_t>(*type))) return std::nullopt;
  auto sub = SubBlocksFor(facts, static_cast<int32_t>(*type));
  if (!sub) return std::nullopt;
  return TypeInfo{*facts.FindType(static_cast<int32_t>(*type)), *sub};
}

// rknn.a_* / rknn.c_*: NORM [M, X] ↔ NATIVE [X1, M, sub].
Answer RowBlockedCall(const CaseView& view, const RknnFacts& facts, bool is_a, bool to_native,
                      int64_t* status) {
  const char* x_key = is_a ? "K" : "N";
  auto m = view.Int("M");
  auto x = view.Int(x_key);
  if (!m || !x || !view.Int("type"))
    return BadCase(std::string("params 'type', 'M' and '") + x_key + "' are required");
  auto t = CaseType(view, facts);
  if (!t) return Rejected(status);
  const int64_t sub =
      view.Int(is_a ? "sub_k" : "sub_n").value_or(is_a ? t->sub.a_sub_k : t->sub.c_sub_n);
  const DType dtype = is_a ? t->type.a : t->type.c;
  auto g = RowBlockedGeometryFor(*m, *x, sub, dtype);
  if (!g) return Rejected(status);
  const std::string norm_name = is_a ? "A" : "C";
  const std::string native_name = norm_name + "_native";
  const npuconf_tensor* in = view.Input((to_native ? norm_name : native_name).c_str());
  npuconf_tensor* out = view.Output((to_native ? native_name : norm_name).c_str());
  if (!in || !out)
    return BadCase("needs input '" + (to_native ? norm_name : native_name) + "' and output '" +
                   (to_native ? native_name : norm_name) + "'");
  if (!Fits(in, to_native ? g->norm_bytes : g->native_bytes) ||
      !Fits(out, to_native ? g->native_bytes : g->norm_bytes)) {
    return Rejected(status);
  }
  // §2.4: NATIVE A is packed like NORM (v2.x low nibble first; SDK 1.6 high).
  const NibbleOrder order = facts.norm_nibble;
  if (to_native) {
    RowBlockedToNative(static_cast<const uint8_t*>(in->data), static_cast<uint8_t*>(out->data), *g,
                       order, order);
    SetOutputShape(out, g->native_dims);
  } else {
    RowBlockedToNorm(static_cast<const uint8_t*>(in->data), static_cast<uint8_t*>(out->data), *g,
                     order, order);
    SetOutputShape(out, {*m, *x});
  }
  *status = kRknnSucc;
  return Answered();
}

// rknn.b_*: NORM [K, N] / TP_NORM [N, K] ↔ NATIVE [N1, K1, subN, subK], segmented.
Answer BCall(const CaseView& view, const RknnFacts& facts, bool tp, bool to_native,
             int64_t* status) {
  auto k = view.Int("K");
  auto n = view.Int("N");
  if (!k || !n || !view.Int("type")) return BadCase("params 'type', 'K' and 'N' are required");
  auto t = CaseType(view, facts);
  if (!t || (tp && !facts.tp_norm)) return Rejected(status);
  const int64_t sub_n = view.Int("sub_n").value_or(t->sub.b_sub_n);
  const int64_t sub_k = view.Int("sub_k").value_or(t->sub.b_sub_k);
  const int64_t seg_len = view.Int("seg_len").value_or(facts.k_segment);
  NibbleOrder native_order = facts.native_b_nibble;
  if (auto text = view.String("native_nibble")) {
    auto order = ParseNibbleOrder(*text);
    if (!order)
      return BadCase("native_nibble must be low_first or high_first, not '" + *text + "'");
    native_order = *order;
  }
  auto g = BNativeGeometryFor(*k, *n, sub_n, sub_k, seg_len, t->type.b);
  if (!g) return Rejected(status);
  const std::string plain_name = tp ? "B_tp" : "B";
  const npuconf_tensor* in = view.Input(to_native ? plain_name.c_str() : "B_native");
  npuconf_tensor* out = view.Output(to_native ? "B_native" : plain_name.c_str());
  if (!in || !out) return BadCase("needs tensors '" + plain_name + "' and 'B_native'");
  if (!Fits(in, to_native ? g->norm_bytes : g->native_bytes) ||
      !Fits(out, to_native ? g->native_bytes : g->norm_bytes)) {
    return Rejected(status);
  }
  if (to_native) {
    BPlainToNative(static_cast<const uint8_t*>(in->data), static_cast<uint8_t*>(out->data), *g, tp,
                   facts.norm_nibble, native_order);
    SetOutputShape(out, g->native_dims);
  } else {
    BNativeToPlain(static_cast<const uint8_t*>(in->data), static_cast<uint8_t*>(out->data), *g, tp,
                   native_order, facts.norm_nibble);
    SetOutputShape(out, tp ? Shape{*n, *k} : Shape{*k, *n});
  }
  *status = kRknnSucc;
  return Answered();
}

Answer Int4Call(const CaseView& view, const RknnFacts& facts, bool pack, int64_t* status) {
  auto count = view.Int("count");
  if (!count) return BadCase("param 'count' is required");
  NibbleOrder order = facts.norm_nibble;
  if (auto text = view.String("nibble")) {
    auto parsed = ParseNibbleOrder(*text);
    if (!parsed) return BadCase("nibble must be low_first or high_first, not '" + *text + "'");
    order = *parsed;
  }
  if (*count < 0) return Rejected(status);
  const uint64_t packed_bytes = static_cast<uint64_t>(*count / 2 + *count % 2);
  const npuconf_tensor* in = view.Input(pack ? "values" : "packed");
  npuconf_tensor* out = view.Output(pack ? "packed" : "values");
  if (!in || !out)
    return BadCase(pack ? "needs input 'values', output 'packed'"
                        : "needs input 'packed', output 'values'");
  const uint64_t values_bytes = static_cast<uint64_t>(*count);
  if (!Fits(in, pack ? values_bytes : packed_bytes) ||
      !Fits(out, pack ? packed_bytes : values_bytes)) {
    return Rejected(status);
  }
  if (pack) {
    PackInt4(static_cast<const int8_t*>(in->data), static_cast<uint8_t*>(out->data), *count, order);
  } else {
    UnpackInt4(static_cast<const uint8_t*>(in->data), static_cast<int8_t*>(out->data), *count,
               order);
  }
  SetOutputShape(out, {*count});
  *status = kRknnSucc;
  return Answered();
}

std::optional<MatmulInfo> InfoOf(const CaseView& view, bool dynamic) {
  MatmulInfo info;
  auto type = view.Int("type");
  if (!type) return std::nullopt;
  info.type = *type;
  if (!dynamic) {
    auto m = view.Int("M"), k = view.Int("K"), n = view.Int("N");
    if (!m || !k || !n) return std::nullopt;
    info.M = *m;
    info.K = *k;
    info.N = *n;
  }
  info.B_layout = view.Int("B_layout").value_or(kLayoutNorm);
  info.AC_layout = view.Int("AC_layout").value_or(kLayoutNorm);
  info.B_quant_type = view.Int("B_quant_type").value_or(kQuantPerLayerSym);
  info.AC_quant_type = view.Int("AC_quant_type").value_or(kQuantPerLayerSym);
  info.group_size = view.Int("group_size").value_or(0);
  info.zp = view.Int("zp").value_or(0);
  return info;
}

CreateReadings ReadingsOf(const CaseView& view) {
  return {view.String("align_unit").value_or(""), view.String("k_max_rule").value_or(""),
          view.String("varying").value_or("")};
}

bool WriteAttr(npuconf_tensor* out, const TensorAttr& attr) {
  if (!out || !out->data || out->bytes < 2 * sizeof(uint64_t)) return false;
  const uint64_t words[2] = {attr.size_bytes,
                             static_cast<uint64_t>(static_cast<int64_t>(attr.type))};
  std::memcpy(out->data, words, sizeof(words));
  return SetOutputShape(out, attr.Dims());
}

Answer CreateCall(const CaseView& view, const RknnFacts& facts, int64_t* status, std::string* why) {
  auto info = InfoOf(view, false);
  if (!info) return BadCase("params 'type', 'M', 'K' and 'N' are required");
  IoAttr io;
  *status = MatmulCreate(facts, *info, ReadingsOf(view), &io, why);
  if (*status != kRknnSucc) return Answered();
  if (!WriteAttr(view.Output("A"), io.A) || !WriteAttr(view.Output("B"), io.B) ||
      !WriteAttr(view.Output("C"), io.C)) {
    return BadCase("outputs 'A', 'B', 'C' need 16 bytes each");
  }
  return Answered();
}

// io_attrs: INT64 [shape_num, 3, 7] = {n_dims, dims[0..3], size_bytes, rknn_tensor_type}
// for A, B, C of each shape; capacity: UINT64 [3].
Answer DynamicCall(const CaseView& view, const RknnFacts& facts, int64_t* status,
                   std::string* why) {
  auto info = InfoOf(view, true);
  auto flat = view.IntList("shapes");
  if (!info || !flat || flat->size() % 3 != 0) {
    return BadCase("params 'type' and 'shapes' = [M0,K0,N0, M1,K1,N1, ...] are required");
  }
  std::vector<MatmulShape> shapes;
  for (size_t i = 0; i < flat->size(); i += 3)
    shapes.push_back({(*flat)[i], (*flat)[i + 1], (*flat)[i + 2]});
  std::vector<IoAttr> attrs;
  std::array<uint64_t, 3> capacity{};
  *status =
      MatmulCreateDynamicShape(facts, *info, shapes, ReadingsOf(view), &attrs, &capacity, why);
  if (*status != kRknnSucc) return Answered();
  npuconf_tensor* io_out = view.Output("io_attrs");
  npuconf_tensor* cap_out = view.Output("capacity");
  const uint64_t io_bytes = shapes.size() * 3 * 7 * sizeof(int64_t);
  if (!io_out || !cap_out || !Fits(io_out, io_bytes) || !Fits(cap_out, 3 * sizeof(uint64_t))) {
    return BadCase(
        "outputs 'io_attrs' (shape_num*21 INT64) and 'capacity' (3 UINT64) are required");
  }
  std::vector<int64_t> words;
  for (const IoAttr& io : attrs) {
    for (const TensorAttr* a : {&io.A, &io.B, &io.C}) {
      words.push_back(a->n_dims);
      for (int64_t d : a->dims) words.push_back(d);
      words.push_back(static_cast<int64_t>(a->size_bytes));
      words.push_back(a->type);
    }
  }
  std::memcpy(io_out->data, words.data(), io_bytes);
  std::memcpy(cap_out->data, capacity.data(), sizeof(capacity));
  SetOutputShape(io_out, {static_cast<int64_t>(shapes.size()), 3, 7});
  SetOutputShape(cap_out, {3});
  return Answered();
}

}  // namespace

namespace {

// The profile must carry RKNN tables (an unverified one does not, spec rknn.md §8.2).
template <typename Call>
int32_t Answering(const Profile& profile, std::string* message, Call call) {
  if (!profile.rknn || !profile.rknn->has_tables) {
    *message = "profile '" + profile.name + "' has no RKNN tables (spec rknn.md §8.2)";
    return NPUCONF_CALL_UNCLAIMED;
  }
  std::string why;
  const Answer answer = call(*profile.rknn, &why);
  *message = answer.result == NPUCONF_CALL_ANSWERED ? why : answer.message;
  return answer.result;
}

template <bool kIsA, bool kToNative>
int32_t RowBlocked(const CaseView& view, const Profile& profile, int64_t* status,
                   std::string* message) {
  return Answering(profile, message, [&](const RknnFacts& f, std::string*) {
    return RowBlockedCall(view, f, kIsA, kToNative, status);
  });
}
template <bool kTp, bool kToNative>
int32_t BLayout(const CaseView& view, const Profile& profile, int64_t* status,
                std::string* message) {
  return Answering(profile, message, [&](const RknnFacts& f, std::string*) {
    return BCall(view, f, kTp, kToNative, status);
  });
}
template <bool kPack>
int32_t Int4(const CaseView& view, const Profile& profile, int64_t* status, std::string* message) {
  return Answering(profile, message, [&](const RknnFacts& f, std::string*) {
    return Int4Call(view, f, kPack, status);
  });
}
int32_t Create(const CaseView& view, const Profile& profile, int64_t* status,
               std::string* message) {
  return Answering(profile, message, [&](const RknnFacts& f, std::string* why) {
    return CreateCall(view, f, status, why);
  });
}
int32_t Dynamic(const CaseView& view, const Profile& profile, int64_t* status,
                std::string* message) {
  return Answering(profile, message, [&](const RknnFacts& f, std::string* why) {
    return DynamicCall(view, f, status, why);
  });
}

}  // namespace

const ReferenceFamily& RknnReference() {
  namespace ids = routines::rknn;
  static const ReferenceFamily family = {
      .routines = {{ids::kMatmulCreate, Create},
                   {ids::kMatmulCreateDynamic, Dynamic},
                   {ids::kANormToNative, RowBlocked<true, true>},
                   {ids::kANativeToNorm, RowBlocked<true, false>},
                   {ids::kCNormToNative, RowBlocked<false, true>},
                   {ids::kCNativeToNorm, RowBlocked<false, false>},
                   {ids::kBNormToNative, BLayout<false, true>},
                   {ids::kBNativeToNorm, BLayout<false, false>},
                   {ids::kBTpNormToNative, BLayout<true, true>},
                   {ids::kBNativeToTpNorm, BLayout<true, false>},
                   {ids::kInt4Pack, Int4<true>},
                   {ids::kInt4Unpack, Int4<false>}}};
  return family;
}

int32_t RknnReferenceCall(const npuconf_case* c, int64_t* status, char* message,
                          uint64_t message_bytes) {
  return AnswerWith(RknnReference(), c, status, message, message_bytes);
}

}  // namespace npuconf::rknn
