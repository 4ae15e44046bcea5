// Deliberately wrong dequant ports: the reference answers first (so statuses and
// validation stay right), then a plain element loop with one bug rewrites the
// output. Each names the property that catches it (tests/mutants_test.cpp).
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "core/abi_view.h"
#include "core/float16.h"
#include "core/profile.h"
#include "mutants/mutants.h"
#include "reference/quant/quant_port.h"

namespace npuconf {
namespace {

enum class Bug {
  kGatherOneRounding,
  kGatherFp32Output,
  kAntiquantOffsetSubtracted,
  kAntiquantInt4HighNibble,
  kAntiquantInt4Unsigned,
  kAntiquantNeighbourGroupScale,
  kRknnGroupOrderSwapped,
  kRknnGroupBoundaryOffByOne,
  kRknnNonzeroZpAccepted,
  kRknnStaleGroupCache,
  kRknnGroupIndexShift,
};

Shape DimsOf(const npuconf_tensor* t) { return t ? Shape(t->dims, t->dims + t->rank) : Shape{}; }

template <typename T>
std::vector<T> Read(const npuconf_tensor* t) {
  std::vector<T> out(t ? t->bytes / sizeof(T) : 0);
  if (!out.empty()) std::memcpy(out.data(), t->data, out.size() * sizeof(T));
  return out;
}

int32_t Nibble(const uint8_t* d, int64_t e, bool even_high, bool is_signed) {
  const bool high = (e % 2 == 0) == even_high;
  const int32_t v = high ? d[e / 2] >> 4 : d[e / 2] & 0xF;
  return is_signed && v >= 8 ? v - 16 : v;
}

// ---- GatherDequantInt8 -------------------------------------------------------------

void GatherBuggy(const CaseView& view, Bug bug) {
  const npuconf_tensor* table = view.Input("table");
  const npuconf_tensor* indices = view.Input("indices");
  npuconf_tensor* y = view.Output("y");
  const int64_t embed = DimsOf(table)[1];
  const auto idx = Read<int32_t>(indices);
  const auto scale = Read<uint16_t>(view.Input("scale"));
  const auto zp = Read<uint16_t>(view.Input("zero_point"));
  const auto* q = static_cast<const uint8_t*>(table->data);
  auto* out16 = static_cast<uint16_t*>(y->data);
  auto* out32 = static_cast<float*>(y->data);
  const uint64_t cap32 = y->bytes / 4;
  for (size_t i = 0; i < idx.size(); ++i) {
    const float s = static_cast<float>(HalfFromBits(scale[idx[i]]));
    const float z = static_cast<float>(HalfFromBits(zp[idx[i]]));
    for (int64_t e = 0; e < embed; ++e) {
      const float exact =
          (static_cast<float>(q[idx[i] * embed + e]) - z) * s;  // no RN16 in between
      const uint64_t at = i * embed + e;
      if (bug == Bug::kGatherOneRounding) out16[at] = HalfBits(Half(exact));
      if (bug == Bug::kGatherFp32Output && at < cap32)
        out32[at] = exact;  // fp32 where fp16 is specified
    }
  }
}

// ---- antiquant -------------------------------------------------------------------------

void AntiquantBuggy(const CaseView& view, Bug bug) {
  const npuconf_tensor* weight = view.Input("weight");
  const npuconf_tensor* scale_t = view.Input("scale");
  const npuconf_tensor* offset_t = view.Input("offset");
  npuconf_tensor* y = view.Output("y");
  const Shape w = DimsOf(weight), s = DimsOf(scale_t);
  const int64_t k = w[0], n = w[1];
  const int64_t gs = view.Int("group_size").value_or(0);
  const bool bf16 = view.String("x_dtype").value_or("") == "BF16";
  const auto scale = Read<uint16_t>(scale_t);
  const auto offset = Read<uint16_t>(offset_t);
  const auto* q = static_cast<const uint8_t*>(weight->data);
  const bool int4 = weight->dtype != NPUCONF_DT_INT8;
  const int64_t numel = s.size() == 1 ? s[0] : s[0] * s[1];
  auto value = [&](uint16_t bits) {
    return bf16 ? static_cast<float>(BFloat16FromBits(bits))
                : static_cast<float>(HalfFromBits(bits));
  };
  auto round = [&](float v) {
    return bf16 ? static_cast<float>(BFloat16(v)) : static_cast<float>(Half(v));
  };
  const int64_t groups_floor = gs > 0 ? std::max<int64_t>(k / gs, 1) : 1;
  auto* out = static_cast<uint16_t*>(y->data);
  for (int64_t r = 0; r < k; ++r) {
    for (int64_t c = 0; c < n; ++c) {
      const int64_t e = r * n + c;
      int32_t qv = int4 ? Nibble(q, e, bug == Bug::kAntiquantInt4HighNibble,
                                 bug != Bug::kAntiquantInt4Unsigned)
                        : static_cast<int8_t>(q[e]);
      int64_t p = numel <= 1 ? 0 : c;
      if (gs > 0) {
        int64_t g = r / gs;
        // ceil(k/gs) groups counted as floor(k/gs): the short last group takes its neighbour's
        // scale.
        if (bug == Bug::kAntiquantNeighbourGroupScale) g = std::min(g, groups_floor - 1);
        p = g * n + c;
      }
      const float off = offset_t ? value(offset[p]) : 0.0f;
      const float sum = bug == Bug::kAntiquantOffsetSubtracted ? static_cast<float>(qv) - off
                                                               : static_cast<float>(qv) + off;
      const float result = round(round(sum) * value(scale[p]));
      out[e] = bf16 ? BFloat16Bits(BFloat16(result)) : HalfBits(Half(result));
    }
  }
}

// ---- RKNN B --------------------------------------------------------------------------

void RknnBuggy(const CaseView& view, Bug bug) {
  const npuconf_tensor* b = view.Input("b");
  const Shape d = DimsOf(b);
  const int64_t k = d[0], n = d[1];
  const int64_t quant_type = view.Int("quant_type").value_or(0);
  const int64_t gs = view.Int("group_size").value_or(0);
  if (quant_type < 4 || gs <= 0) return;  // both bugs are in the per-group path
  const Profile* profile = FindProfile(view.profile());
  const bool even_high =
      profile && profile->rknn && profile->rknn->norm_nibble == NibbleOrder::kHighFirst;
  const auto scale = Read<float>(view.Input("scale"));
  const auto zp = Read<int32_t>(view.Input("zp"));
  const auto* q = static_cast<const uint8_t*>(b->data);
  const bool int4 = b->dtype == NPUCONF_DT_INT4;
  const int64_t groups = k / gs;
  auto* out = static_cast<float*>(view.Output("y")->data);
  for (int64_t r = 0; r < k; ++r) {
    for (int64_t c = 0; c < n; ++c) {
      const int64_t e = r * n + c;
      const int32_t qv = int4 ? Nibble(q, e, even_high, true) : static_cast<int8_t>(q[e]);
      int64_t g = r / gs;
      if (bug == Bug::kRknnGroupBoundaryOffByOne) g = std::min((r + 1) / gs, groups - 1);
      // r / gs as a shift by the group size's lowest set bit: right for every
      // power of two, wrong (and clamped into range) for 48 or 96.
      if (bug == Bug::kRknnGroupIndexShift)
        g = std::min<int64_t>(r >> std::countr_zero(static_cast<uint64_t>(gs)), groups - 1);
      // The order swapped: n·(K/gs) + g where the profile says g·N + n.
      const int64_t p = bug == Bug::kRknnGroupOrderSwapped ? c * groups + g : g * n + c;
      out[e] = static_cast<float>(static_cast<int64_t>(qv) - zp[p]) * scale[p];
    }
  }
}

// A dequantized-weight cache keyed by the call's params and B's bytes: on a hit
// (the same weight again, new scales) each group's rows are refreshed with the
// loop bound one short, [g·gs, (g+1)·gs − 1), so the last row of every group is
// served stale. Every fresh case is right; only a caller that changes a scale
// and calls again sees it (issue #9 item 7: the old group_isolation asked for
// one changed element of the group, and gs − 1 >= 7 of them do change).
void RknnStaleCache(const CaseView& view, const npuconf_case* c) {
  static std::map<std::string, std::vector<float>> cache;
  const npuconf_tensor* b = view.Input("b");
  npuconf_tensor* y = view.Output("y");
  const int64_t gs = view.Int("group_size").value_or(0);
  if (!b || !y || !y->data || view.Int("quant_type").value_or(0) < 4 || gs <= 0) return;
  std::string key;
  for (uint64_t i = 0; i < c->n_params; ++i) {
    const npuconf_param& p = c->params[i];
    key += p.key;
    key += '=';
    key += std::to_string(p.i);
    if (p.s) key += p.s;
    for (uint64_t j = 0; j < p.n_ints; ++j) {
      key += ',';
      key += std::to_string(p.ints[j]);
    }
    key += ';';
  }
  key.append(static_cast<const char*>(b->data), b->bytes);
  const int64_t n = DimsOf(b)[1];
  auto* out = static_cast<float*>(y->data);
  const size_t count = y->bytes / 4;
  auto it = cache.find(key);
  if (it == cache.end() || it->second.size() != count) {
    cache[key] = std::vector<float>(out, out + count);
    return;
  }
  for (size_t e = 0; e < count; ++e) {
    const int64_t row = static_cast<int64_t>(e) / n;
    if (row % gs == gs - 1) out[e] = it->second[e];  // stale: the refresh stops one row short
  }
}

// Calls the reference with one extra param (a reading the case did not ask for).
int32_t CallWithParam(const npuconf_case* c, const char* key, const char* value, int64_t* status,
                      char* message, uint64_t message_bytes) {
  std::vector<npuconf_param> params(c->params, c->params + c->n_params);
  npuconf_param extra{};
  extra.key = key;
  extra.kind = NPUCONF_PARAM_STRING;
  extra.s = value;
  params.push_back(extra);
  npuconf_case copy = *c;
  copy.params = params.data();
  copy.n_params = params.size();
  return quant::QuantReferenceCall(&copy, status, message, message_bytes);
}

template <Bug kBug>
int32_t MutantCall(const npuconf_case* c, int64_t* status, char* message, uint64_t message_bytes) {
  const CaseView view(c);
  const std::string routine = view.routine();
  if (kBug == Bug::kRknnNonzeroZpAccepted && routine == "rknn.dequant_b" &&
      !view.Has("zero_point")) {
    // Treats every zp as valid: the asymmetric reading where the runtime rejects (§5.4).
    return CallWithParam(c, "zero_point", "asymmetric", status, message, message_bytes);
  }
  const int32_t result = quant::QuantReferenceCall(c, status, message, message_bytes);
  if (result != NPUCONF_CALL_ANSWERED || *status != 0) return result;
  switch (kBug) {
    case Bug::kGatherOneRounding:
    case Bug::kGatherFp32Output:
      if (routine == "cann.gather_dequant_int8") GatherBuggy(view, kBug);
      break;
    case Bug::kAntiquantOffsetSubtracted:
    case Bug::kAntiquantInt4HighNibble:
    case Bug::kAntiquantInt4Unsigned:
    case Bug::kAntiquantNeighbourGroupScale:
      if (routine == "cann.antiquant") AntiquantBuggy(view, kBug);
      break;
    case Bug::kRknnGroupOrderSwapped:
    case Bug::kRknnGroupBoundaryOffByOne:
    case Bug::kRknnGroupIndexShift:
      if (routine == "rknn.dequant_b") RknnBuggy(view, kBug);
      break;
    case Bug::kRknnNonzeroZpAccepted:
      break;
    case Bug::kRknnStaleGroupCache:
      if (routine == "rknn.dequant_b") RknnStaleCache(view, c);
      break;
  }
  return result;
}

}  // namespace

void AddQuantMutants(std::vector<Mutant>* out) {
  const std::vector<Mutant> mutants = {
      {"gather-one-rounding",
       "GatherDequantInt8 rounds (q - zp) * s once instead of after each fp16 op",
       "cann.gather_dequant_int8.documented_cases",
       "ascend910b",
       &quant::QuantReference(),
       &MutantCall<Bug::kGatherOneRounding>,
       {"cann.gather_dequant_int8"}},
      {"gather-fp32-output",
       "GatherDequantInt8 writes the fp32 result where y is FLOAT16",
       "cann.gather_dequant_int8.matches_oracle",
       "ascend910b",
       &quant::QuantReference(),
       &MutantCall<Bug::kGatherFp32Output>,
       {"cann.gather_dequant_int8"}},
      {"antiquant-offset-subtracted",
       "antiquant subtracts antiquantOffset (the zero-point sign) instead of adding it",
       "cann.antiquant.matches_oracle",
       "ascend910b",
       &quant::QuantReference(),
       &MutantCall<Bug::kAntiquantOffsetSubtracted>,
       {"cann.antiquant"}},
      {"antiquant-int4-high-nibble",
       "antiquant reads the even INT4 element from the high nibble",
       "cann.antiquant.matches_oracle",
       "ascend910b",
       &quant::QuantReference(),
       &MutantCall<Bug::kAntiquantInt4HighNibble>,
       {"cann.antiquant"}},
      {"antiquant-int4-unsigned",
       "antiquant reads INT4 nibbles as unsigned 0..15",
       "cann.antiquant.matches_oracle",
       "ascend910b",
       &quant::QuantReference(),
       &MutantCall<Bug::kAntiquantInt4Unsigned>,
       {"cann.antiquant"}},
      {"antiquant-neighbour-group-scale",
       "antiquant counts floor(k/gs) groups: the short last group uses its neighbour's scale",
       "cann.antiquant.matches_oracle",
       "ascend910b",
       &quant::QuantReference(),
       &MutantCall<Bug::kAntiquantNeighbourGroupScale>,
       {"cann.antiquant"}},
      {"rknn-group-order-swapped",
       "RKNN per-group params read n*(K/gs)+g where the profile's order is g*N+n",
       "rknn.dequant_b.matches_oracle",
       "rk3588",
       &quant::QuantReference(),
       &MutantCall<Bug::kRknnGroupOrderSwapped>,
       {"rknn.dequant_b"}},
      {"rknn-group-boundary-off-by-one",
       "RKNN per-group: the last row of each group takes the next group's param",
       "rknn.dequant_b.group_isolation",
       "rk3588",
       &quant::QuantReference(),
       &MutantCall<Bug::kRknnGroupBoundaryOffByOne>,
       {"rknn.dequant_b"}},
      {"rknn-nonzero-zp-accepted",
       "RKNN B accepts a non-zero zero point (runtime 2.3.2 rejects it)",
       "rknn.dequant_b.rejects_invalid",
       "rk3588",
       &quant::QuantReference(),
       &MutantCall<Bug::kRknnNonzeroZpAccepted>,
       {"rknn.dequant_b"}},
      {"rknn-stale-group-cache",
       "RKNN per-group: a weight seen before is served from a cache whose refresh for new "
       "scales stops one row short of each group's end",
       "rknn.dequant_b.group_isolation",
       "rk3588",
       &quant::QuantReference(),
       &MutantCall<Bug::kRknnStaleGroupCache>,
       {"rknn.dequant_b"}},
      {"rknn-group-index-shift",
       "RKNN per-group: the group of row r is r >> log2(group_size), right only for powers of "
       "two (divides_k admits 48, §5.3)",
       "rknn.dequant_b.matches_oracle",
       "rk3588",
       &quant::QuantReference(),
       &MutantCall<Bug::kRknnGroupIndexShift>,
       {"rknn.dequant_b"}},
  };
  out->insert(out->end(), mutants.begin(), mutants.end());
}

}  // namespace npuconf
