#include "reference/rknn/matmul_create.h"

#include <algorithm>

#include "reference/rknn/native_layout.h"
#include "reference/rknn/sub_blocks.h"

namespace npuconf::rknn {
namespace {

std::string Str(int64_t v) { return std::to_string(v); }

bool Fail(std::string* why, std::string text) {
  if (why) *why = std::move(text);
  return false;
}

// The element alignment of K or N under a reading of §8.3.
std::optional<int64_t> Alignment(const RknnFacts& facts, DType a_dtype, bool for_k,
                                 const std::string& unit) {
  const auto& ug = for_k ? facts.k_align : facts.n_align;
  const auto& header = for_k ? facts.header_k_align : facts.header_n_align;
  if (unit == "ug_elements") {
    auto it = ug.find(a_dtype);
    return it == ug.end() ? std::nullopt : std::optional<int64_t>(it->second);
  }
  auto it = header.find(a_dtype);
  if (it == header.end()) return std::nullopt;
  if (unit == "header_elements") return it->second;
  return it->second * 8 / Bits(a_dtype);  // header_bytes: bytes of A's dtype
}

bool Validate(const RknnFacts& facts, const MatmulInfo& info, const CreateReadings& readings,
              std::string* why) {
  if (info.type < INT32_MIN || info.type > INT32_MAX ||
      !facts.FindType(static_cast<int32_t>(info.type))) {
    return Fail(why, "type " + Str(info.type) + " is not a rknn_matmul_type (spec rknn.md §1.1)");
  }
  const RknnMatmulType& t = *facts.FindType(static_cast<int32_t>(info.type));
  if (!facts.Supports(static_cast<int32_t>(info.type))) {
    return Fail(why, "unsupported matmul dtype : " + t.name + " on " + facts.platform +
                         " (spec rknn.md §3.1)");
  }
  if (info.M <= 0 || info.K <= 0 || info.N <= 0 || info.M > INT32_MAX || info.K > INT32_MAX ||
      info.N > INT32_MAX) {
    return Fail(why, "M, K, N = " + Str(info.M) + ", " + Str(info.K) + ", " + Str(info.N) +
                         " must be positive int32 (spec rknn.md §1.4)");
  }
  if (info.B_layout < kLayoutNorm || info.B_layout > kLayoutTpNorm) {
    return Fail(why, "B_layout " + Str(info.B_layout) + " is not 0, 1 or 2 (spec rknn.md §1.3)");
  }
  if (info.AC_layout != kLayoutNorm && info.AC_layout != kLayoutNative) {
    return Fail(why, "AC_layout " + Str(info.AC_layout) + " is not 0 or 1 (spec rknn.md §1.4)");
  }
  if (info.B_layout == kLayoutTpNorm && !facts.tp_norm) {
    return Fail(why, "B_layout = 2 (TP_NORM) is not available on " + facts.platform +
                         " (spec rknn.md §8.11)");
  }
  // §3.2 limits, keyed by A's dtype (RK3576 mixed types follow A's dtype).
  const std::string unit = readings.align_unit.empty() ? facts.align_unit : readings.align_unit;
  const std::string k_rule = readings.k_max_rule.empty() ? facts.k_max_rule : readings.k_max_rule;
  std::optional<int64_t> k_max =
      k_rule == "header_global" ? std::optional<int64_t>(facts.header_k_max) : facts.k_max;
  if (k_max && info.K > *k_max) {
    return Fail(why, "K(" + Str(info.K) + ") > limit: " + Str(*k_max) +
                         " (spec rknn.md §3.2, reading " + k_rule + ")");
  }
  auto n_max = facts.n_max.find(t.a);
  auto k_align = Alignment(facts, t.a, true, unit);
  auto n_align = Alignment(facts, t.a, false, unit);
  if (n_max == facts.n_max.end() || !k_align || !n_align) {
    return Fail(why, "no K/N limits for A dtype " + std::string(Name(t.a)) + " on " +
                         facts.platform + " (spec rknn.md §3.2)");
  }
  if (info.N > n_max->second) {
    return Fail(why, "N " + Str(info.N) + " > " + Str(n_max->second) + " (spec rknn.md §3.2)");
  }
  if (info.K % *k_align != 0) {
    return Fail(why, "matmul K:" + Str(info.K) + " must be align with " + Str(*k_align) +
                         "! (spec rknn.md §3.2, " + unit + ")");
  }
  if (info.N % *n_align != 0) {
    return Fail(why, "matmul N:" + Str(info.N) + " must be align with " + Str(*n_align) +
                         "! (spec rknn.md §3.2, " + unit + ")");
  }
  if (info.AC_quant_type != kQuantPerLayerSym && info.AC_quant_type != kQuantPerLayerAsym) {
    return Fail(why, "AC_quant_type " + Str(info.AC_quant_type) +
                         ": A and C only support per layer (spec rknn.md §1.4, §5.1)");
  }
  if (info.B_quant_type < kQuantPerLayerSym || info.B_quant_type > kQuantPerGroupAsym) {
    return Fail(why, "B_quant_type " + Str(info.B_quant_type) +
                         " is not a rknn_matmul_quant_type (spec rknn.md §1.2)");
  }
  const bool per_group =
      info.B_quant_type == kQuantPerGroupSym || info.B_quant_type == kQuantPerGroupAsym;
  const bool per_channel =
      info.B_quant_type == kQuantPerChannelSym || info.B_quant_type == kQuantPerChannelAsym;
  if (per_group) {
    if (info.AC_layout != kLayoutNative || info.B_layout != kLayoutNative) {
      return Fail(
          why, "per-group B quant only supported AC_layout: Native, B_layout: Native (AC_layout " +
                   Str(info.AC_layout) + ", B_layout " + Str(info.B_layout) +
                   "; spec rknn.md §5.4)");
    }
    if (info.group_size <= 0 || info.K % info.group_size != 0) {
      return Fail(why, "K: " + Str(info.K) + " must align group size: " + Str(info.group_size) +
                           " (spec rknn.md §5.3)");
    }
    if (facts.group_size_rule == "32_only" && info.group_size != 32) {
      return Fail(why, "group_size " + Str(info.group_size) +
                           " is not 32 (choice rknn.quant.group_size = 32_only)");
    }
  }
  if (per_channel && facts.per_channel_types &&
      std::find(facts.per_channel_types->begin(), facts.per_channel_types->end(), info.type) ==
          facts.per_channel_types->end()) {
    return Fail(why, "per-channel B quant is not supported for " + t.name + " on " +
                         facts.platform + " (spec rknn.md §5.4, airockchip/rknn-toolkit2#550)");
  }
  if (info.zp != 0) {
    return Fail(why,
                "zp: " + Str(info.zp) + " is unsupport, only support zp set 0 (spec rknn.md §5.4)");
  }
  return true;
}

// rknn_tensor_type of a dtype from the profile's table (§1.5); -1 if it has none.
int32_t TensorType(const RknnFacts& facts, DType dtype) {
  auto it = facts.tensor_types.find(dtype);
  return it == facts.tensor_types.end() ? -1 : it->second;
}

TensorAttr Attr(const RknnFacts& facts, const Shape& dims, DType dtype, uint64_t size_bytes) {
  TensorAttr a;
  a.n_dims = static_cast<uint32_t>(dims.size());
  std::copy(dims.begin(), dims.end(), a.dims.begin());
  a.size_bytes = size_bytes;
  a.type = TensorType(facts, dtype);
  return a;
}

uint64_t NormBytes(int64_t rows, int64_t cols, DType dtype) {
  return static_cast<uint64_t>((rows * cols * Bits(dtype) + 7) /
                               8);  // M, K, N ≤ INT32_MAX, checked below
}

bool FillIoAttr(const RknnFacts& facts, const MatmulInfo& info, IoAttr* io, std::string* why) {
  const RknnMatmulType& t = *facts.FindType(static_cast<int32_t>(info.type));
  auto sub = SubBlocksFor(facts, static_cast<int32_t>(info.type));
  if (!sub)
    return Fail(why, "no NATIVE sub-blocks for " + t.name + " on " + facts.platform +
                         " (spec rknn.md §2.2)");
  // Products of three int32 fit int64 only up to ~2^62 elements·bits: check.
  auto fits = [](int64_t a, int64_t b) {
    auto p = CheckedMul(a, b);
    return p && CheckedMul(*p, 32);
  };
  if (!fits(info.M, info.K) || !fits(info.K, info.N) || !fits(info.M, info.N)) {
    return Fail(why, "M, K, N = " + Str(info.M) + ", " + Str(info.K) + ", " + Str(info.N) +
                         " overflow the sizes");
  }
  if (info.AC_layout == kLayoutNative) {
    auto a = RowBlockedGeometryFor(info.M, info.K, sub->a_sub_k, t.a);
    auto c = RowBlockedGeometryFor(info.M, info.N, sub->c_sub_n, t.c);
    if (!a || !c) return Fail(why, "NATIVE A/C size overflows");
    io->A = Attr(facts, a->native_dims, t.a, a->native_bytes);
    io->C = Attr(facts, c->native_dims, t.c, c->native_bytes);
  } else {
    io->A = Attr(facts, {info.M, info.K}, t.a, NormBytes(info.M, info.K, t.a));
    io->C = Attr(facts, {info.M, info.N}, t.c, NormBytes(info.M, info.N, t.c));
  }
  if (info.B_layout == kLayoutNative) {
    auto b = BNativeGeometryFor(info.K, info.N, sub->b_sub_n, sub->b_sub_k, facts.k_segment, t.b);
    if (!b) return Fail(why, "NATIVE B size overflows");
    io->B =
        Attr(facts, b->native_dims, t.b, b->native_bytes);  // segmented: sum of the segments (§3.3)
  } else if (info.B_layout == kLayoutTpNorm) {
    io->B = Attr(facts, {info.N, info.K}, t.b, NormBytes(info.K, info.N, t.b));  // [N,K], §8.11
  } else {
    io->B = Attr(facts, {info.K, info.N}, t.b, NormBytes(info.K, info.N, t.b));
  }
  return true;
}

}  // namespace

int64_t MatmulCreate(const RknnFacts& facts, const MatmulInfo& info, const CreateReadings& readings,
                     IoAttr* io, std::string* why) {
  IoAttr out;
  if (!Validate(facts, info, readings, why) || !FillIoAttr(facts, info, &out, why))
    return kRknnErrParamInvalid;
  *io = out;
  return kRknnSucc;
}

int64_t MatmulCreateDynamicShape(const RknnFacts& facts, MatmulInfo info,
                                 const std::vector<MatmulShape>& shapes,
                                 const CreateReadings& readings, std::vector<IoAttr>* io_attrs,
                                 std::array<uint64_t, 3>* capacity_bytes, std::string* why) {
  if (shapes.empty()) {
    Fail(why, "shape_num is invalid! (0 shapes; spec rknn.md §1.10)");
    return kRknnErrParamInvalid;
  }
  const std::string varying =
      readings.varying.empty() ? "k_n_fixed_unless_tp_norm" : readings.varying;
  const bool k_n_fixed = varying == "m_only" ||
                         (varying == "k_n_fixed_unless_tp_norm" && info.B_layout != kLayoutTpNorm);
  std::vector<IoAttr> out;
  std::array<uint64_t, 3> capacity{0, 0, 0};
  for (size_t s = 0; s < shapes.size(); ++s) {
    if (k_n_fixed && (shapes[s].K != shapes[0].K || shapes[s].N != shapes[0].N)) {
      Fail(why, "dynamic_shapes K and N must be same! (shape " + std::to_string(s) +
                    " has K, N = " + Str(shapes[s].K) + ", " + Str(shapes[s].N) + ", shape 0 has " +
                    Str(shapes[0].K) + ", " + Str(shapes[0].N) + "; spec rknn.md §4.3, reading " +
                    varying + ")");
      return kRknnErrParamInvalid;
    }
    info.M = shapes[s].M;
    info.K = shapes[s].K;
    info.N = shapes[s].N;
    IoAttr io;
    std::string rule;
    if (MatmulCreate(facts, info, readings, &io, &rule) != kRknnSucc) {
      Fail(why, "shape " + std::to_string(s) + ": " + rule);
      return kRknnErrParamInvalid;
    }
    capacity[0] = std::max(capacity[0], io.A.size_bytes);
    capacity[1] = std::max(capacity[1], io.B.size_bytes);
    capacity[2] = std::max(capacity[2], io.C.size_bytes);
    out.push_back(io);
  }
  *io_attrs = std::move(out);
  *capacity_bytes = capacity;
  return kRknnSucc;
}

}  // namespace npuconf::rknn
