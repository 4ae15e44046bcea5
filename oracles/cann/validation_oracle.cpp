#include "oracles/cann/validation_oracle.h"

#include <algorithm>
#include <functional>
#include <vector>

#include "core/status.h"
#include "oracles/cann/fractal_nz_oracle.h"

namespace npuconf::oracle::cann {
namespace {

using npuconf::cann::kAclnnErrParamInvalid;
using npuconf::cann::kAclnnErrParamNullptr;
using npuconf::cann::kAclnnErrRuntimeError;
using npuconf::cann::kAclnnSuccess;

template <typename Call>
struct Rule {
  std::string name;
  std::function<bool(const Call&)> fires;
  int64_t status;
};

template <typename Call>
const Rule<Call>* FirstFiring(const std::vector<Rule<Call>>& rules, const Call& call) {
  auto it = std::find_if(rules.begin(), rules.end(),
                         [&](const Rule<Call>& rule) { return rule.fires(call); });
  return it == rules.end() ? nullptr : &*it;
}

bool HasNegative(const Shape& s) {
  return std::any_of(s.begin(), s.end(), [](int64_t d) { return d < 0; });
}
bool HasZero(const Shape& s) {
  return std::any_of(s.begin(), s.end(), [](int64_t d) { return d == 0; });
}

// "as_shipped" for a negative dim: CeilAlign of spec §0.3 on negative x with
// positive a is the mathematical ceiling (CeilDiv(-1,16) = 0), and the int64
// product is cast to uint64 (§1.5).
std::optional<int64_t> ShippedNegativeSize(const Shape& shape, int64_t k_align) {
  const size_t rank = shape.size();
  __int128 product = 1;
  for (size_t i = 0; i < rank; ++i) {
    const __int128 align = i == rank - 2 ? 16 : (i == rank - 1 ? k_align : 1);
    const __int128 x = shape[i];
    __int128 q = x / align;
    if (x % align != 0 && x > 0) q += 1;
    product *= q * align;
    if (product > INT64_MAX || product < INT64_MIN) return std::nullopt;
  }
  return static_cast<int64_t>(product);
}

Expectation FinishSize(const SizeCall& call, int64_t k_align, const std::string& negative_reading,
                       const std::string& overflow_reading) {
  Expectation e;
  const Shape& shape = *call.shape;
  if (HasNegative(shape)) {
    e.rule = "negative dim: undefined upstream (spec cann.md §1.5), choice cann.size.negative_dims";
    if (negative_reading == "param_invalid") {
      e.status = kAclnnErrParamInvalid;
    } else if (negative_reading == "as_shipped") {
      e.size = ShippedNegativeSize(shape, k_align);
      e.status = kAclnnSuccess;
      e.undefined = !e.size.has_value();
    } else {
      e.undefined = true;
    }
    return e;
  }
  e.size = PaddedWeightElems(shape, k_align);
  if (!e.size) {
    e.rule =
        "size overflows int64: undefined upstream (spec cann.md §1.5), choice cann.size.overflow";
    if (overflow_reading == "param_invalid") {
      e.status = kAclnnErrParamInvalid;
    } else {
      e.undefined = true;
    }
    return e;
  }
  e.status = kAclnnSuccess;
  e.rule = k_align == 16 ? "size: batch x align(n,16) x align(k,16) (spec cann.md §1.2)"
                         : "size: batch x align(n,16) x align(k,32) (spec cann.md §1.2)";
  return e;
}

}  // namespace

Expectation ExpectLegacySize(const CannFacts& facts, const SizeCall& call,
                             const std::string& negative_reading,
                             const std::string& overflow_reading) {
  const std::vector<Rule<SizeCall>> rules = {
      {"tensorShape == nullptr → 161001 (spec cann.md §1.3 step 1)",
       [](const SizeCall& c) { return !c.shape; }, kAclnnErrParamNullptr},
      {"weightTensorSize == nullptr → 161001 (§1.3 step 2)",
       [](const SizeCall& c) { return c.null_output; }, kAclnnErrParamNullptr},
      {"rank outside the SoC's rule → 161002 (§1.3 step 3)",
       [&](const SizeCall& c) { return !facts.legacy_size_rank.Contains(c.shape->size()); },
       kAclnnErrParamInvalid},
  };
  if (const auto* rule = FirstFiring(rules, call)) return {rule->status, rule->name, {}, false};
  // Legacy always uses the FLOAT16 rule (§1.2).
  return FinishSize(call, 16, negative_reading, overflow_reading);
}

Expectation ExpectV2Size(const CannFacts& facts, const SizeCall& call,
                         const std::string& negative_reading, const std::string& overflow_reading) {
  const std::vector<Rule<SizeCall>> rules = {
      {"SoC not 310P/910B/910_93/RegBase → 361001, before any other check (spec cann.md §1.4 step "
       "1)",
       [&](const SizeCall&) { return !facts.v2_size_supported; }, kAclnnErrRuntimeError},
      {"tensorShape == nullptr → 161001 (§1.4 step 2)", [](const SizeCall& c) { return !c.shape; },
       kAclnnErrParamNullptr},
      {"weightTensorSize == nullptr → 161001 (§1.4 step 3)",
       [](const SizeCall& c) { return c.null_output; }, kAclnnErrParamNullptr},
      {"rank outside [2,6] → 161002 (§1.4 step 4)",
       [&](const SizeCall& c) { return !facts.v2_size_rank.Contains(c.shape->size()); },
       kAclnnErrParamInvalid},
      {"a dim == 0 → 161002 (§1.4 step 5, CheckNonZeroShape)",
       [](const SizeCall& c) { return HasZero(*c.shape); }, kAclnnErrParamInvalid},
      // Every rule after the null checks gives 161002, so where the doc's dtype
      // check sits among them changes no status.
      {"dtype outside FLOAT16/BF16/INT8 → 161002 (the doc, §5.1; choice "
       "cann.v2.dtype_validation = as_documented)",
       [&](const SizeCall& c) {
         const auto& listed = facts.v2_validated_dtypes;
         return listed && std::find(listed->begin(), listed->end(), c.dtype) == listed->end();
       },
       kAclnnErrParamInvalid},
  };
  if (const auto* rule = FirstFiring(rules, call)) return {rule->status, rule->name, {}, false};
  const bool half = call.dtype == DType::kFloat16 || call.dtype == DType::kBf16;
  return FinishSize(call, half ? 16 : 32, negative_reading, overflow_reading);
}

TransExpectation ExpectTrans(const CannFacts& facts, const TransCall& call) {
  const std::vector<Rule<TransCall>> rules = {
      {"mmWeightRef == nullptr → 161001 (spec cann.md §2.2 step 1)",
       [](const TransCall& c) { return c.null_tensor; }, kAclnnErrParamNullptr},
      {"dtype not in the SoC's list → 161002 (§2.2 step 2, §2.3)",
       [&](const TransCall& c) { return !facts.TransSupports(c.dtype); }, kAclnnErrParamInvalid},
      {"storage format not ND → 161002 (§2.2 step 3)",
       [](const TransCall& c) { return c.format != "ND"; }, kAclnnErrParamInvalid},
      {"view rank > 8 → 161002 (§2.2 step 4)",
       [&](const TransCall& c) {
         return static_cast<int>(c.view_shape.size()) > facts.trans_max_view_rank;
       },
       kAclnnErrParamInvalid},
      {facts.trans_empty_tensor == "param_invalid"
           ? "empty tensor → 161002 (the doc, §5.3; choice cann.trans.empty_tensor = "
             "as_documented)"
           : "empty tensor → SUCCESS, untouched, before the rank rule (§2.2 step 5, choice "
             "cann.trans.empty_tensor = as_shipped)",
       [](const TransCall& c) { return HasZero(c.view_shape); },
       facts.trans_empty_tensor == "param_invalid" ? kAclnnErrParamInvalid : kAclnnSuccess},
      {"rank outside the rule for the dtype and SoC → 161002 (§2.2 step 6)",
       [&](const TransCall& c) {
         const RankRange& rule =
             c.dtype == DType::kInt8 ? facts.trans_rank_int8 : facts.trans_rank_other;
         return !rule.Contains(c.view_shape.size());
       },
       kAclnnErrParamInvalid},
  };
  if (const auto* rule = FirstFiring(rules, call)) return {rule->status, rule->name, false};
  return {kAclnnSuccess, "ND → FRACTAL_NZ in place (§2.2 step 7, §2.5)", true};
}

}  // namespace npuconf::oracle::cann
