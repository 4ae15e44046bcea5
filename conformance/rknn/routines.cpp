// The RKNN Matmul routines of the catalogue (spec rknn.md): params, outputs,
// and how their cases become buffers (capacities from the oracle's layout).
#include "conformance/rknn/support.h"
#include "conformance/harness/routines.h"

namespace npuconf {
namespace {

using namespace rknn_props;

const char kSeedDoc[] = "seed=N (input data from SplitMix64(N))";
const char kInfoDoc[] =
    "type=N (rknn_matmul_type), B_layout=0|1|2, AC_layout=0|1, B_quant_type=0..5, AC_quant_type=0|1, "
    "group_size=N, zp=N (the zp to be set; only 0 accepted), align_unit=ug_elements|header_bytes|"
    "header_elements, k_max_rule=ug|header_global (defaults: the profile's choices)";

Invocation LayoutInvocation(const Case& c, const Profile& profile) {
  const LayoutCase l = LayoutOf(c, profile);
  Invocation inv{c, {}, {}};
  const bool in_plain = l.to_native;
  const uint64_t in_bytes = in_plain ? l.plain_bytes : l.native_bytes;
  // Random bytes everywhere, the NATIVE padding of an input included: a
  // conversion back to NORM must ignore it.
  inv.inputs.push_back({l.in_name(), l.dtype, in_plain ? l.plain_dims : l.native_dims, RandomBytes(Seed(c), in_bytes)});
  inv.outputs.push_back({l.out_name(), l.dtype, in_plain ? l.native_bytes : l.plain_bytes, false, {}});
  return inv;
}

Invocation Int4Invocation(const Case& c) {
  auto count = c.Int("count");
  if (!count || *count < 0) throw CaseError("case needs count=N >= 0 (int4 elements)");
  Invocation inv{c, {}, {}};
  const uint64_t packed_bytes = static_cast<uint64_t>(*count / 2 + *count % 2);
  Bytes random = RandomBytes(Seed(c), c.routine == kInt4Pack ? static_cast<uint64_t>(*count) : packed_bytes);
  if (c.routine == kInt4Pack) {
    // int4 values −8…7, one per byte (the low nibble of each random byte,
    // sign-extended), or the case's own `values` (the spec's vectors, §7.4).
    for (auto& v : random) v = static_cast<uint8_t>(static_cast<int8_t>(static_cast<int8_t>(v << 4) >> 4));
    if (auto given = c.IntList("values")) {
      if (static_cast<int64_t>(given->size()) != *count) throw CaseError("values=" + ToString(*given) + " must hold count elements");
      for (size_t i = 0; i < given->size(); ++i) {
        if ((*given)[i] < -8 || (*given)[i] > 7) throw CaseError("int4 value " + std::to_string((*given)[i]) + " is outside -8..7");
        random[i] = static_cast<uint8_t>(static_cast<int8_t>((*given)[i]));
      }
    }
    inv.inputs.push_back({"values", DType::kInt8, {*count}, std::move(random)});
    inv.outputs.push_back({"packed", DType::kInt4, packed_bytes, false, {}});
  } else {
    inv.inputs.push_back({"packed", DType::kInt4, {*count}, std::move(random)});
    inv.outputs.push_back({"values", DType::kInt8, static_cast<uint64_t>(*count), false, {}});
  }
  return inv;
}

Invocation CreateInvocation(const Case& c) {
  for (const char* key : {"type", "M", "K", "N"}) {
    if (!c.Int(key)) throw CaseError(std::string("case needs ") + key + "=N");
  }
  Invocation inv{c, {}, {}};
  for (const char* name : {"A", "B", "C"}) inv.outputs.push_back({name, DType::kUint64, 16, false, {}});
  return inv;
}

Invocation DynamicInvocation(const Case& c) {
  if (!c.Int("type")) throw CaseError("case needs type=N");
  const Shape shapes = RequireShape(c, "shapes");
  if (shapes.size() % 3 != 0 || shapes.size() > 3 * 1024) {
    throw CaseError("shapes=" + ToString(shapes) + " must be [M0,K0,N0, M1,K1,N1, ...] (at most 1024 shapes)");
  }
  Invocation inv{c, {}, {}};
  inv.outputs.push_back({"io_attrs", DType::kInt64, std::max<uint64_t>(8, shapes.size() / 3 * 21 * 8), false, {}});
  inv.outputs.push_back({"capacity", DType::kUint64, 24, false, {}});
  return inv;
}

}  // namespace

void AddRknnRoutines(std::vector<RoutineInfo>* out) {
  const std::string layout_a = std::string("type=N, M=N, K=N (any positive), sub_k=N (default: the profile's), ") + kSeedDoc;
  const std::string layout_c = std::string("type=N, M=N, N=N, sub_n=N (default: the profile's; 4 for the other reading "
                                           "of §8.6), ") + kSeedDoc;
  const std::string layout_b = std::string("type=N, K=N, N=N, sub_n=N, sub_k=N, seg_len=N (default: the profile's "
                                           "segment length, 0: none), native_nibble=low_first|high_first, ") + kSeedDoc;
  const std::vector<RoutineInfo> routines = {
      {kCreate, "rknn", "rknn_matmul_create", std::string("M=N, K=N, N=N, ") + kInfoDoc,
       "A, B, C: UINT64 {size in BYTES, rknn_tensor_type}; dims = io_attr.X.dims; status 0 or -5"},
      {kDynamic, "rknn", "rknn_matmul_create_dynamic_shape",
       std::string("shapes=[M0,K0,N0,...], varying=READING, ") + kInfoDoc,
       "io_attrs: INT64 [shape_num,3,7] {n_dims, dims[4], size BYTES, type} of A,B,C; capacity: UINT64 [3] BYTES"},
      {kANorm2Native, "rknn", "", layout_a, "A_native: [K1,M,subK] of A's dtype (int4 packed), padding 0"},
      {kANative2Norm, "rknn", "", layout_a, "A: [M,K] of A's dtype; the padding of A_native ignored"},
      {kCNorm2Native, "rknn", "", layout_c, "C_native: [N1,M,subN] of C's dtype, padding 0"},
      {kCNative2Norm, "rknn", "", layout_c, "C: [M,N] of C's dtype; the padding of C_native ignored"},
      {kBNorm2Native, "rknn", "rknn_B_normal_layout_to_native_layout", layout_b,
       "B_native: [N1,K1,subN,subK] per K segment, segments concatenated; int4 packed; padding 0"},
      {kBNative2Norm, "rknn", "", layout_b, "B: [K,N] of B's dtype; the padding of B_native ignored"},
      {kBTp2Native, "rknn", "", layout_b, "B_native from B_tp = TP_NORM [N,K]; as b_norm_to_native"},
      {kBNative2Tp, "rknn", "", layout_b, "B_tp: TP_NORM [N,K]; the padding of B_native ignored"},
      {kInt4Pack, "rknn", "", std::string("count=N, nibble=low_first|high_first (default: the profile's), ") + kSeedDoc,
       "packed: INT4, ceil(count/2) BYTES, even element in the nibble the order names"},
      {kInt4Unpack, "rknn", "", std::string("count=N, nibble=low_first|high_first, ") + kSeedDoc,
       "values: INT8 [count], sign-extended -8..7"},
  };
  out->insert(out->end(), routines.begin(), routines.end());
}

Invocation MaterializeRknn(const Case& c, const Profile& profile) {
  if (!profile.rknn) {
    throw CaseError("routine " + c.routine + " needs an RKNN profile, not '" + profile.name + "'");
  }
  if (c.routine == kCreate) return CreateInvocation(c);
  if (c.routine == kDynamic) return DynamicInvocation(c);
  if (c.routine == kInt4Pack || c.routine == kInt4Unpack) return Int4Invocation(c);
  return LayoutInvocation(c, profile);
}

}  // namespace npuconf
