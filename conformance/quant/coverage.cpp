// The dequant family's coverage classes (issue #9 item 6; conformance/harness/coverage.h):
// every rule of the oracles' check lists (oracles/quant/quant_oracle.cpp: the
// status each documented check gives, spec cann.md §3.1-3.4, §4.1a-4.5, rknn.md
// §5.1-5.4), the quantization modes, dtypes and group geometry. A status class
// is decided the way the checks decide it: the case is materialized and the
// oracle's first broken rule named.
#include "conformance/harness/coverage.h"

#include <optional>

#include "conformance/quant/family.h"
#include "conformance/quant/support.h"

namespace npuconf {
namespace {

using namespace quant_props;

std::optional<Invocation> Materialized(const Case& c, const Profile& p) {
  try {
    return MaterializeQuantCase(c, p);
  } catch (const CaseError&) {
    return std::nullopt;
  }
}

std::string ProfileReading(const Profile& p, const std::string& choice, const std::string& dflt) {
  const Choice* ch = p.FindChoice(choice);
  return ch ? ch->value : dflt;
}

std::string RuleOfUncached(const Case& c, const Profile& p);

// The oracle's deciding rule for a case ("valid" when it passes every check);
// every rule class of a case asks, so the last answer is kept (one process
// runs one case at a time: the runner is single-threaded, parallel runs fork).
std::string RuleOf(const Case& c, const Profile& p) {
  static Case last_case;
  static std::string last_profile, last_rule;
  if (!(c == last_case) || p.name != last_profile) {
    last_rule = RuleOfUncached(c, p);
    last_case = c;
    last_profile = p.name;
  }
  return last_rule;
}

std::string RuleOfUncached(const Case& c, const Profile& p) {
  auto inv = Materialized(c, p);
  if (!inv) return "";
  if (c.routine == kAntiquant) {
    if (!p.cann) return "";
    return oracle::quant::ExpectAntiquant(AntiquantCallOf(c, *inv, p)).rule;
  }
  if (c.routine == kGather) return oracle::quant::ExpectGather(GatherCallOf(*inv, c)).rule;
  if (c.routine == kRknnB) {
    if (!p.rknn) return "";
    oracle::quant::RknnCall call = RknnCallOfProfile(c, *inv, p);
    return oracle::quant::ExpectRknn(call).rule;
  }
  return "";
}

CoverageClass RuleClass(std::string name, std::string rule_prefix, std::string doc,
                        std::function<bool(const Profile&)> applies = {}, bool required = true) {
  return {.name = std::move(name),
          .doc = std::move(doc),
          .required = required,
          .applies = std::move(applies),
          .hit = [rule_prefix](const Case& c, const Profile& p) {
            return RuleOf(c, p).rfind(rule_prefix, 0) == 0;
          }};
}

CoverageClass ParamClass(std::string name, std::string doc, std::function<bool(const Case&)> pred,
                         std::function<bool(const Profile&)> applies = {}) {
  return {.name = std::move(name),
          .doc = std::move(doc),
          .applies = std::move(applies),
          .hit = [pred](const Case& c, const Profile&) { return pred(c); }};
}

bool AntiquantArch(const Profile& p) { return p.cann && p.cann->antiquant_supported; }

std::vector<CoverageClass> AntiquantClasses() {
  std::vector<CoverageClass> out = {
      RuleClass("status.361001_arch", "arch has no", "no WeightQuantBatchMatmulV2 (§4.1a step 1)",
                [](const Profile& p) { return !AntiquantArch(p); }),
      RuleClass("status.161001_null", "null weight", "a null weight, scale or y (§4.1a step 2)",
                AntiquantArch),
      RuleClass("status.161002_x_dtype", "x dtype", "x dtype not FLOAT16/BF16 (§4.5)",
                AntiquantArch),
      RuleClass("status.161002_weight_dtype", "weight dtype", "weight dtype not INT8/INT4/INT32",
                AntiquantArch),
      RuleClass("status.161002_k_n_range", "k/n range",
                "k or n outside [1, the arch's max] (§4.3): zeros and dims past 2^16 on DAV_2201",
                AntiquantArch),
      RuleClass("status.161002_int4_odd_n", "INT4 needs even n",
                "INT4 with odd n (§4.4): the odd-element int4 case is a rejection here",
                AntiquantArch),
      RuleClass("status.161002_int32_n", "INT32 carrier", "INT32 carrier with n % 8 != 0 (§4.4)",
                AntiquantArch),
      RuleClass("status.161002_group_negative", "group size < 0", "group size < 0 (§4.3 rule 2)",
                AntiquantArch),
      RuleClass("status.161002_group_mod_32", "group size % 32", "group size % 32 != 0 (§4.3)",
                AntiquantArch),
      RuleClass("status.161002_group_ge_k", "group size + 1 > k", "group size + 1 > k (§4.3)",
                AntiquantArch),
      RuleClass("status.161002_scale_shape", "antiquantScale shape", "a bad scale shape (§4.2)",
                AntiquantArch),
      RuleClass("status.161002_offset_shape", "offset shape", "offset shape != scale shape (§4.2)",
                AntiquantArch),
      RuleClass("status.success", "valid", "a valid call (§4.5)", AntiquantArch),
  };
  for (const char* mode : {"per_tensor", "per_channel", "per_group"}) {
    out.push_back(ParamClass(
        std::string("mode.") + mode, std::string("antiquant ") + mode + " (§4.2)",
        [mode = std::string(mode)](const Case& c) {
          const int64_t gs = c.Int("group_size").value_or(0);
          return c.String("mode").value_or(gs > 0 ? "per_group" : "per_channel") == mode;
        },
        AntiquantArch));
  }
  for (DType d : {DType::kInt8, DType::kInt4, DType::kInt32}) {
    out.push_back(ParamClass(
        "weight." + std::string(Name(d)), "weight dtype " + std::string(Name(d)) + " (§4.4)",
        [d](const Case& c) { return c.DTypeParam("weight_dtype") == d; }, AntiquantArch));
  }
  for (DType d : {DType::kFloat16, DType::kBf16}) {
    out.push_back(ParamClass(
        "x." + std::string(Name(d)), "x dtype " + std::string(Name(d)),
        [d](const Case& c) { return c.DTypeParam("x_dtype") == d; }, AntiquantArch));
  }
  auto gs_of = [](const Case& c) { return c.Int("group_size").value_or(0); };
  out.push_back(ParamClass(
      "group.short_last", "per-group with k % group_size != 0: a short last group (§4.3)",
      [gs_of](const Case& c) {
        const int64_t gs = gs_of(c), k = c.Int("k").value_or(0);
        return gs > 0 && k > gs && k % gs != 0;
      },
      AntiquantArch));
  out.push_back(ParamClass(
      "group.exact_several", "per-group with k a multiple of group_size, >= 2 groups",
      [gs_of](const Case& c) {
        const int64_t gs = gs_of(c), k = c.Int("k").value_or(0);
        return gs > 0 && k >= 2 * gs && k % gs == 0;
      },
      AntiquantArch));
  out.push_back(ParamClass(
      "group_size.32", "group_size 32, the smallest (§4.3)",
      [gs_of](const Case& c) { return gs_of(c) == 32; }, AntiquantArch));
  out.push_back(ParamClass(
      "group_size.multiple_of_32_over_32",
      "group_size 64, 96, ... (§4.3 rule 3 admits every multiple of 32)",
      [gs_of](const Case& c) { return gs_of(c) > 32 && gs_of(c) % 32 == 0; }, AntiquantArch));
  out.push_back(ParamClass(
      "offset.absent", "antiquantOffset null (§4.2)",
      [](const Case& c) { return c.Int("offset").value_or(1) == 0; }, AntiquantArch));
  return out;
}

std::vector<CoverageClass> RknnClasses() {
  auto tables = [](const Profile& p) { return p.rknn && p.rknn->has_tables; };
  auto per_group = [](const Profile& p) {
    return p.rknn && p.rknn->has_tables &&
           (!RknnDequantSupport(p).DTypesFor(4).empty() ||
            !RknnDequantSupport(p).DTypesFor(5).empty());
  };
  std::vector<CoverageClass> out = {
      RuleClass("status.-5_quant_type", "quant_type is not", "quant_type outside 0..5 (§1.2)",
                tables),
      RuleClass("status.-5_b_dtype", "B dtype", "B dtype not INT8/INT4", tables),
      RuleClass("status.-5_k_n", "K, N >= 1", "K or N < 1: zeros", tables),
      RuleClass("status.-5_scale_len_zero", "scale_len must > 0", "scale_len 0 (§5.4)", tables),
      RuleClass("status.-5_group_size", "group_size >= 1",
                "per-group with group_size < 1 (§5.3), where per-group is supported", per_group),
      RuleClass("status.-5_k_align", "K must align",
                "K not a multiple of group_size (§5.3), where per-group is supported", per_group),
      RuleClass("status.-5_param_len", "scale_len/zp_len",
                "scale_len or zp_len not the quant type's (§5.1)", tables),
      RuleClass("status.-5_nonzero_zp", "only zp 0", "a non-zero zp under symmetric_only (§5.4)",
                [](const Profile& p) {
                  return p.rknn && p.rknn->has_tables &&
                         ProfileReading(p, kChoiceZeroPoint, "symmetric_only") == "symmetric_only";
                }),
      RuleClass("status.0", "valid", "a valid call (§5.5)", tables),
  };
  for (int64_t q = 0; q <= 5; ++q) {
    out.push_back(ParamClass(
        "quant_type." + std::to_string(q),
        "B_quant_type " + std::to_string(q) +
            " where the platform supports it (RknnDequantSupport, spec rknn.md §5.4)",
        [q](const Case& c) { return c.Int("quant_type") == q; },
        [q](const Profile& p) {
          return p.rknn && p.rknn->has_tables && !RknnDequantSupport(p).DTypesFor(q).empty();
        }));
  }
  for (DType d : {DType::kInt8, DType::kInt4}) {
    out.push_back(ParamClass(
        "dtype." + std::string(Name(d)),
        "B dtype " + std::string(Name(d)) + " where a supported type has it (§3.1)",
        [d](const Case& c) { return c.DTypeParam("dtype") == d; },
        [d](const Profile& p) {
          return p.rknn && p.rknn->has_tables && RknnDequantSupport(p).AnyQuantType(d);
        }));
  }

  out.push_back(ParamClass(
      "group.several", "per-group with K / group_size >= 2: group boundaries (§5.1, §5.2)",
      [](const Case& c) {
        const int64_t gs = c.Int("group_size").value_or(0);
        return c.Int("quant_type").value_or(0) >= 4 && gs > 0 && c.Int("k").value_or(0) >= 2 * gs;
      },
      per_group));
  auto per_group_size = [](int64_t q_gs, bool other) {
    return [q_gs, other](const Case& c) {
      const int64_t gs = c.Int("group_size").value_or(0);
      return c.Int("quant_type").value_or(0) >= 4 && gs > 0 && (other ? gs != q_gs : gs == q_gs);
    };
  };
  out.push_back(ParamClass("group_size.32",
                           "per-group with group_size 32, the only value seen (§5.3)",
                           per_group_size(32, false), per_group));
  out.push_back(ParamClass(
      "group_size.other",
      "per-group with a group_size other than 32 (8, 16, 64, 128), where the profile's reading of "
      "rknn.quant.group_size is divides_k (§5.3, §8)",
      per_group_size(32, true), [per_group](const Profile& p) {
        return per_group(p) && p.rknn->group_size_rule == "divides_k";
      }));
  out.push_back(ParamClass(
      "group_size.not_power_of_two",
      "per-group with a group_size that is no power of two (48, 96, 3, ...), where the profile's "
      "reading of rknn.quant.group_size is divides_k (§5.3): a group index taken by a shift "
      "fails here",
      [](const Case& c) {
        const int64_t gs = c.Int("group_size").value_or(0);
        return c.Int("quant_type").value_or(0) >= 4 && gs > 0 && (gs & (gs - 1)) != 0;
      },
      [per_group](const Profile& p) {
        return per_group(p) && p.rknn->group_size_rule == "divides_k";
      }));
  out.push_back(ParamClass(
      "int4.odd_elements", "INT4 B with K*N odd (§2.4)",
      [](const Case& c) {
        return c.DTypeParam("dtype") == DType::kInt4 &&
               (c.Int("k").value_or(0) * c.Int("n").value_or(0)) % 2 == 1;
      },
      [](const Profile& p) {
        return p.rknn && p.rknn->has_tables && RknnDequantSupport(p).AnyQuantType(DType::kInt4);
      }));
  return out;
}

std::vector<CoverageClass> GatherClasses() {
  auto shape_of = [](const Case& c) { return c.IntList("indices_shape").value_or(Shape{1, 30}); };
  return {
      RuleClass("status.161001_null", "a null tensor", "a null input or y (§3.4)"),
      RuleClass("status.161002_v_e_range", "V, E in", "V or E outside [1, 2^32-1] (§3.2)"),
      RuleClass("status.161002_param_len", "scale and zero_point",
                "scale or zero_point not of length V (§3.1)"),
      RuleClass("bad_index", "an index outside",
                "an index outside [0, V): undefined upstream (§3.4), checked only under "
                "choice cann.gather_dequant.validation = param_invalid",
                {}, false),
      RuleClass("status.success", "valid", "a valid call (§3.3)"),
      ParamClass("indices.rank_0", "rank-0 indices (row_equals_dequant)",
                 [shape_of](const Case& c) { return shape_of(c).empty(); }),
      ParamClass("indices.rank_2_or_more", "indices of rank >= 2 (§3.2: y = indices.shape ++ [E])",
                 [shape_of](const Case& c) { return shape_of(c).size() >= 2; }),
      ParamClass("zero.indices", "an empty indices tensor (a 0 in indices_shape)",
                 [shape_of](const Case& c) {
                   for (int64_t d : shape_of(c))
                     if (d == 0) return true;
                   return false;
                 }),
      ParamClass("zero.vocab", "V = 0", [](const Case& c) { return c.Int("vocab") == 0; }),
      ParamClass("vocab.past_2_16", "V > 65536 (real vocabularies; an explicit case V = 65537)",
                 [](const Case& c) { return c.Int("vocab").value_or(0) > 65536; }),
  };
}

}  // namespace

void AddQuantCoverage(std::vector<RoutineCoverage>* out) {
  out->push_back({kGather, GatherClasses()});
  out->push_back({kAntiquant, AntiquantClasses()});
  out->push_back({kRknnB, RknnClasses()});
}

}  // namespace npuconf
