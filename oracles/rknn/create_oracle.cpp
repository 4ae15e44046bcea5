#include "oracles/rknn/create_oracle.h"

#include <algorithm>
#include <functional>

#include "oracles/rknn/layout_oracle.h"
#include "oracles/rknn/sub_block_oracle.h"

namespace npuconf::oracle::rknn {
namespace {

uint64_t SizeBytes(__int128 elems, DType d) {
  return static_cast<uint64_t>((elems * Bits(d) + 7) / 8);
}

int64_t Lookup(const std::map<DType, int64_t>& table, DType d) {
  auto it = table.find(d);
  return it == table.end() ? 0 : it->second;
}

struct Rule {
  std::function<bool()> violated;
  std::function<std::string()> text;
};

}  // namespace

Limits LimitsFor(const RknnFacts& facts, DType a, const Readings& readings) {
  const std::string unit = readings.align_unit.empty() ? facts.align_unit : readings.align_unit;
  const std::string k_rule = readings.k_max_rule.empty() ? facts.k_max_rule : readings.k_max_rule;
  // §3.2 alignments in elements under the reading of §8.3.
  auto align = [&](bool k) -> int64_t {
    if (unit == "ug_elements") return Lookup(k ? facts.k_align : facts.n_align, a);
    const int64_t header = Lookup(k ? facts.header_k_align : facts.header_n_align, a);
    return unit == "header_bytes" ? header * 8 / Bits(a) : header;
  };
  return {.k_align = align(true),
          .n_align = align(false),
          .n_max = Lookup(facts.n_max, a),
          .k_max =
              k_rule == "header_global" ? std::optional<int64_t>(facts.header_k_max) : facts.k_max};
}

CreateExpectation ExpectCreate(const RknnFacts& facts, const Info& info, const Readings& readings) {
  CreateExpectation e;
  const RknnMatmulType* t = facts.FindType(static_cast<int32_t>(info.type));
  const std::string unit = readings.align_unit.empty() ? facts.align_unit : readings.align_unit;
  const std::string k_rule = readings.k_max_rule.empty() ? facts.k_max_rule : readings.k_max_rule;
  const Limits limits = t ? LimitsFor(facts, t->a, readings) : Limits{};
  auto align = [&](bool k) { return k ? limits.k_align : limits.n_align; };
  const bool per_group = info.B_quant_type == 4 || info.B_quant_type == 5;
  const bool per_channel = info.B_quant_type == 2 || info.B_quant_type == 3;
  const std::vector<Rule> rules = {
      {[&] { return t == nullptr; },
       [&] { return "type " + std::to_string(info.type) + " undefined (§1.1)"; }},
      {[&] { return !facts.Supports(t->type); },
       [&] { return t->name + " unsupported on " + facts.platform + " (§3.1)"; }},
      {[&] {
         return info.M < 1 || info.K < 1 || info.N < 1 || info.M > INT32_MAX ||
                info.K > INT32_MAX || info.N > INT32_MAX;
       },
       [&] { return std::string("M, K, N must be positive int32 (§1.4)"); }},
      {[&] { return info.B_layout < 0 || info.B_layout > 2; },
       [&] { return "B_layout " + std::to_string(info.B_layout) + " (§1.3)"; }},
      {[&] { return info.AC_layout < 0 || info.AC_layout > 1; },
       [&] { return "AC_layout " + std::to_string(info.AC_layout) + " (§1.4)"; }},
      {[&] { return info.B_layout == 2 && !facts.tp_norm; },
       [&] { return "TP_NORM not on " + facts.platform + " (§8.11)"; }},
      {[&] { return limits.k_max && info.K > *limits.k_max; },
       [&] { return "K " + std::to_string(info.K) + " above the K limit (§3.2, " + k_rule + ")"; }},
      {[&] { return limits.n_max == 0 || align(true) == 0 || align(false) == 0; },
       [&] { return std::string("no K/N limits for A's dtype (§3.2)"); }},
      {[&] { return info.N > limits.n_max; },
       [&] { return "N " + std::to_string(info.N) + " above N max (§3.2)"; }},
      {[&] { return info.K % align(true) != 0; },
       [&] {
         return "K " + std::to_string(info.K) + " % " + std::to_string(align(true)) +
                " != 0 (§3.2, " + unit + ")";
       }},
      {[&] { return info.N % align(false) != 0; },
       [&] {
         return "N " + std::to_string(info.N) + " % " + std::to_string(align(false)) +
                " != 0 (§3.2, " + unit + ")";
       }},
      {[&] { return info.AC_quant_type < 0 || info.AC_quant_type > 1; },
       [&] { return std::string("A/C per-layer only (§1.4, §5.1)"); }},
      {[&] { return info.B_quant_type < 0 || info.B_quant_type > 5; },
       [&] { return std::string("B_quant_type not in the enum (§1.2)"); }},
      {[&] { return per_group && (info.AC_layout != 1 || info.B_layout != 1); },
       [&] { return std::string("per-group needs NATIVE A/C and NATIVE B (§5.4, §7.3)"); }},
      {[&] { return per_group && (info.group_size < 1 || info.K % info.group_size != 0); },
       [&] { return std::string("K must align group size (§5.3, §7.3)"); }},
      {[&] { return per_group && facts.group_size_rule == "32_only" && info.group_size != 32; },
       [&] { return std::string("group_size 32 only (§5.3)"); }},
      {[&] {
         return per_channel && facts.per_channel_types &&
                std::count(facts.per_channel_types->begin(), facts.per_channel_types->end(),
                           info.type) == 0;
       },
       [&] { return std::string("per-channel type list (§5.4, #550)"); }},
      {[&] { return info.zp != 0; }, [&] { return std::string("only zp 0 (§5.4, §7.3)"); }},
  };
  for (const Rule& rule : rules) {
    if (rule.violated()) {
      e.status = kParamInvalid;
      e.rule = rule.text();
      return e;
    }
  }
  // §4.1 io_attr; sub-blocks from §2.2 via the profile (choices applied).
  const std::optional<SubBlocks> sub = SubBlocksOf(facts, t->type);
  if (!sub) {
    e.status = kParamInvalid;
    e.rule = "no NATIVE sub-blocks for " + t->name + " in the profile's tables (§2.2)";
    return e;
  }
  const SubBlocks& s = *sub;
  // rknn_tensor_type of a dtype (§1.5), from the profile's table.
  auto tensor_type = [&facts](DType d) -> int32_t {
    auto it = facts.tensor_types.find(d);
    return it == facts.tensor_types.end() ? -1 : it->second;
  };
  const __int128 M = info.M, K = info.K, N = info.N;
  e.a_logical_bytes = SizeBytes(M * K, t->a);
  e.b_logical_bytes = SizeBytes(K * N, t->b);
  e.c_logical_bytes = SizeBytes(M * N, t->c);
  if (info.AC_layout == 1) {
    const int64_t k1 = info.K / s.a_sub_k + (info.K % s.a_sub_k != 0),
                  n1 = info.N / s.c_sub_n + (info.N % s.c_sub_n != 0);
    e.A = {
        {k1, info.M, s.a_sub_k}, SizeBytes(__int128{k1} * M * s.a_sub_k, t->a), tensor_type(t->a)};
    e.C = {
        {n1, info.M, s.c_sub_n}, SizeBytes(__int128{n1} * M * s.c_sub_n, t->c), tensor_type(t->c)};
  } else {
    e.A = {{info.M, info.K}, e.a_logical_bytes, tensor_type(t->a)};
    e.C = {{info.M, info.N}, e.c_logical_bytes, tensor_type(t->c)};
  }
  if (info.B_layout == 1) {
    // §3.3: the size of a segmented B is the sum of its segments' sizes.
    const auto l = BLayoutOf(info.K, info.N, s.b_sub_n, s.b_sub_k, facts.k_segment);
    e.B = {l->dims, SizeBytes(l->native_elems, t->b), tensor_type(t->b)};
  } else if (info.B_layout == 2) {
    e.B = {{info.N, info.K}, e.b_logical_bytes, tensor_type(t->b)};
  } else {
    e.B = {{info.K, info.N}, e.b_logical_bytes, tensor_type(t->b)};
  }
  return e;
}

DynamicExpectation ExpectDynamic(const RknnFacts& facts, const Info& info, const Shape& shapes,
                                 const Readings& readings) {
  DynamicExpectation d;
  if (shapes.empty()) {
    d.status = kParamInvalid;
    d.rule = "shape_num is invalid (§1.10)";
    return d;
  }
  const std::string varying = readings.varying.empty() ? facts.varying_dims : readings.varying;
  const bool same_k_n =
      varying == "m_only" || (varying == "k_n_fixed_unless_tp_norm" && info.B_layout != 2);
  for (size_t i = 0; i + 2 < shapes.size(); i += 3) {
    if (same_k_n && (shapes[i + 1] != shapes[1] || shapes[i + 2] != shapes[2])) {
      d.status = kParamInvalid;
      d.rule = "dynamic_shapes K and N must be same (§4.3, " + varying + ")";
      return d;
    }
    Info one = info;
    one.M = shapes[i];
    one.K = shapes[i + 1];
    one.N = shapes[i + 2];
    CreateExpectation e = ExpectCreate(facts, one, readings);
    if (e.status != kSucc) {
      d.status = e.status;
      d.rule = "shape " + std::to_string(i / 3) + ": " + e.rule;
      return d;
    }
    d.capacity[0] = std::max(d.capacity[0], e.A.size_bytes);
    d.capacity[1] = std::max(d.capacity[1], e.B.size_bytes);
    d.capacity[2] = std::max(d.capacity[2], e.C.size_bytes);
    d.per_shape.push_back(e);
  }
  return d;
}

}  // namespace npuconf::oracle::rknn
