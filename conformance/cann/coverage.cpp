// The CANN family's coverage classes (issue #9 item 6; conformance/harness/coverage.h):
// which boundary classes of the FRACTAL_NZ geometry (spec cann.md §2.5: rows n
// padded to 16, columns k to C0, batch dims unpadded), of the size rules
// (§1.2-1.5) and of the documented checks (§1.3, §1.4, §2.2) each routine's
// checked cases must hit. The rules for which class a case hits live here,
// the counting in the harness.
#include "conformance/harness/coverage.h"

#include "conformance/cann/family.h"
#include "conformance/cann/support.h"
#include "core/status.h"
#include "oracles/cann/validation_oracle.h"

namespace npuconf {
namespace {

using namespace cann_props;

std::optional<Shape> ShapeOf(const Case& c) { return c.IntList("shape"); }

// n = m·block + offset with m ≥ 1 (offset −1, 0, +1): the dim ends one short of,
// exactly at, or one past a block boundary.
bool AtBlockOffset(int64_t d, int64_t block, int offset) {
  if (block <= 0 || d < block - 1) return false;
  const int64_t m = offset == -1 ? (d + 1) / block : offset == 0 ? d / block : (d - 1) / block;
  return m >= 1 && m * block + offset == d;
}

const char* OffsetName(int offset) {
  return offset == -1 ? "minus_1" : offset == 0 ? "exact" : "plus_1";
}

bool ProfileHas(const Profile& p, DType dtype) { return p.cann && p.cann->nz_c0.count(dtype); }

// The ND → NZ geometry: every dim's position against its block, each dtype of
// the profile's C0 table (§2.5), zeros in each axis, ranks, int4 odd counts,
// dims past 2^16.
std::vector<CoverageClass> LayoutClasses(bool with_dtypes) {
  std::vector<CoverageClass> out;
  for (int offset : {-1, 0, 1}) {
    out.push_back({.name = std::string("n.block_") + OffsetName(offset),
                   .doc = "rows n = 16m" +
                          std::string(offset == 0  ? ""
                                      : offset < 0 ? "-1"
                                                   : "+1") +
                          " (m >= 1): N1 blocks of 16 rows (spec cann.md §2.5); edge cases "
                          "and gen::DimNear",
                   .hit = [offset](const Case& c, const Profile&) {
                     auto s = ShapeOf(c);
                     return s && s->size() >= 2 && AtBlockOffset((*s)[s->size() - 2], 16, offset);
                   }});
    out.push_back({.name = std::string("k.block_") + OffsetName(offset),
                   .doc = "columns k = m*C0" +
                          std::string(offset == 0  ? ""
                                      : offset < 0 ? "-1"
                                                   : "+1") +
                          " (m >= 1) for the case's C0 (§2.5 C0 table)",
                   .hit = [offset](const Case& c, const Profile& p) {
                     auto s = ShapeOf(c);
                     return s && !s->empty() && AtBlockOffset(s->back(), CaseC0(c, p), offset);
                   }});
  }
  out.push_back({.name = "n.several_blocks_k.several_blocks",
                 .doc = "n > 16 and k > C0: N1 >= 2 and C1 >= 2, the block order is seen",
                 .hit = [](const Case& c, const Profile& p) {
                   auto s = ShapeOf(c);
                   return s && s->size() >= 2 && (*s)[s->size() - 2] > 16 &&
                          s->back() > CaseC0(c, p);
                 }});
  out.push_back({.name = "rank.1",
                 .doc = "a rank-1 shape [k] (n = 1 implied; §2.5); edge cases",
                 .hit = [](const Case& c, const Profile&) {
                   auto s = ShapeOf(c);
                   return s && s->size() == 1;
                 }});
  out.push_back({.name = "rank.batched",
                 .doc = "rank >= 3: batch dims before [n, k], stored unpadded (§2.5)",
                 .hit = [](const Case& c, const Profile&) {
                   auto s = ShapeOf(c);
                   return s && s->size() >= 3;
                 }});
  const char* axes[] = {"batch", "n", "k"};
  for (int axis = 0; axis < 3; ++axis) {
    out.push_back({.name = std::string("zero.") + axes[axis],
                   .doc = std::string("a zero ") + axes[axis] +
                          " dim (an empty tensor; for TransMatmulWeight §2.2 step 5); "
                          "edge cases [0,5], [5,0], [2,0,16] and [0,2,16]",
                   .hit = [axis](const Case& c, const Profile&) {
                     auto s = ShapeOf(c);
                     if (!s || s->empty()) return false;
                     const size_t r = s->size();
                     if (axis == 2) return s->back() == 0;
                     if (axis == 1) return r >= 2 && (*s)[r - 2] == 0;
                     for (size_t i = 0; i + 2 < r; ++i)
                       if ((*s)[i] == 0) return true;
                     return false;
                   }});
  }
  out.push_back({.name = "dim.past_2_16",
                 .doc = "a dim > 65536 (k = 65537 in an explicit edge case [1, 65537]: 16-bit "
                        "index arithmetic wraps there)",
                 .hit = [](const Case& c, const Profile&) {
                   auto s = ShapeOf(c);
                   if (!s) return false;
                   for (int64_t d : *s)
                     if (d > 65536) return true;
                   return false;
                 }});
  if (!with_dtypes) return out;
  int count = 0;
  const DTypeInfo* all = AllDTypes(&count);
  for (int i = 0; i < count; ++i) {
    const DType dtype = all[i].dtype;
    out.push_back(
        {.name = "dtype." + std::string(Name(dtype)),
         .doc = "dtype " + std::string(Name(dtype)) +
                ", in the profile's C0 table (spec cann.md §2.5)",
         .applies = [dtype](const Profile& p) { return ProfileHas(p, dtype); },
         .hit = [dtype](const Case& c, const Profile&) { return c.DTypeParam("dtype") == dtype; }});
  }
  out.push_back({.name = "int4.odd_elements",
                 .doc = "INT4 with an odd element count: the last byte holds one element "
                        "(spec cann.md §4.4)",
                 .applies = [](const Profile& p) { return ProfileHas(p, DType::kInt4); },
                 .hit =
                     [](const Case& c, const Profile&) {
                       auto s = ShapeOf(c);
                       auto n = s ? NumElements(*s) : std::nullopt;
                       return c.DTypeParam("dtype") == DType::kInt4 && n && *n % 2 == 1;
                     }});
  out.push_back({.name = "c0.other_reading",
                 .doc = "c0=N: another reading of cann.nz.fp32_c0 / cann.nz.int4_c0 (§5.6, "
                        "§5.7); only where the profile's choices have one",
                 .applies =
                     [](const Profile& p) {
                       for (const Choice& ch : p.choices) {
                         if ((ch.name == "cann.nz.fp32_c0" || ch.name == "cann.nz.int4_c0") &&
                             ch.readings.size() > 1)
                           return true;
                       }
                       return false;
                     },
                 .hit = [](const Case& c, const Profile&) { return c.Find("c0") != nullptr; }});
  return out;
}

oracle::cann::SizeCall SizeCallOf(const Case& c) {
  oracle::cann::SizeCall call;
  call.shape = c.IntList("shape");
  call.null_output = OutputIsNull(c, "weight_tensor_size");
  call.dtype = c.DTypeParam("dtype").value_or(DType::kFloat16);
  return call;
}

// A status class: the rule of the oracle (oracles/cann/validation_oracle.cpp)
// that decides the case names `step`.
CoverageClass SizeStep(const std::string& routine, std::string name, std::string step,
                       std::string doc, std::function<bool(const Profile&)> applies = {}) {
  const bool v2 = routine == kV2;
  return {.name = std::move(name),
          .doc = std::move(doc),
          .applies = std::move(applies),
          .hit = [v2, step](const Case& c, const Profile& p) {
            if (!p.cann) return false;
            const auto call = SizeCallOf(c);
            const auto e =
                v2 ? oracle::cann::ExpectV2Size(*p.cann, call, "param_invalid", "param_invalid")
                   : oracle::cann::ExpectLegacySize(*p.cann, call, "param_invalid",
                                                    "param_invalid");
            return e.rule.find(step) != std::string::npos;
          }};
}

std::vector<CoverageClass> SizeClasses(const std::string& routine) {
  const bool v2 = routine == kV2;
  auto supported = [](const Profile& p) { return p.cann && p.cann->v2_size_supported; };
  auto v2_applies =
      v2 ? std::function<bool(const Profile&)>(supported) : std::function<bool(const Profile&)>();
  std::vector<CoverageClass> out;
  if (v2) {
    out.push_back(SizeStep(routine, "status.361001_soc", "§1.4 step 1",
                           "V2 off its SoC list: 361001 before any other check (§1.4 step 1)",
                           [](const Profile& p) { return p.cann && !p.cann->v2_size_supported; }));
  }
  const std::string sec = v2 ? "§1.4 step " : "§1.3 step ";
  out.push_back(SizeStep(routine, "status.161001_null_shape", sec + (v2 ? "2" : "1"),
                         "tensorShape == nullptr: 161001", v2_applies));
  out.push_back(SizeStep(routine, "status.161001_null_output", sec + (v2 ? "3" : "2"),
                         "weightTensorSize == nullptr: 161001", v2_applies));
  out.push_back(SizeStep(routine, "status.161002_rank", sec + (v2 ? "4" : "3"),
                         "rank outside the SoC's rule: 161002", v2_applies));
  if (v2) {
    out.push_back(SizeStep(routine, "status.161002_zero_dim", "§1.4 step 5",
                           "a dim == 0: 161002 (CheckNonZeroShape)", v2_applies));
  }
  out.push_back(SizeStep(routine, "status.success", "(spec cann.md §1.2)",
                         "SUCCESS with the size of §1.2", v2_applies));
  out.push_back(SizeStep(routine, "negative_dim", "negative dim",
                         "a negative dim: undefined upstream (§1.5, choice "
                         "cann.size.negative_dims)",
                         v2_applies));
  out.push_back(SizeStep(routine, "size.overflows_int64", "overflows int64",
                         "the padded size overflows int64: undefined upstream (§1.5, choice "
                         "cann.size.overflow)",
                         v2_applies));
  auto success_with = [v2](std::function<bool(const Shape&, int64_t)> pred) {
    return [v2, pred](const Case& c, const Profile& p) {
      if (!p.cann) return false;
      const auto call = SizeCallOf(c);
      const auto e =
          v2 ? oracle::cann::ExpectV2Size(*p.cann, call, "param_invalid", "param_invalid")
             : oracle::cann::ExpectLegacySize(*p.cann, call, "param_invalid", "param_invalid");
      return e.status == cann::kAclnnSuccess && e.size && pred(*call.shape, *e.size);
    };
  };
  out.push_back(
      {.name = "size.past_2_31_elements",
       .doc = "a size past 2^31 elements: offsets past 2^31 in the FRACTAL_NZ layout, "
              "reached by size only (a layout case that big is not materialized); "
              "real model shapes and gen::DimMaybeLarge",
       .applies = v2_applies,
       .hit = success_with([](const Shape&, int64_t size) { return size > (int64_t{1} << 31); })});
  out.push_back({.name = "dim.past_2_16",
                 .doc = "SUCCESS with a dim > 65536 (gen::DimMaybeLarge, real shapes)",
                 .applies = v2_applies,
                 .hit = success_with([](const Shape& s, int64_t) {
                   for (int64_t d : s)
                     if (d > 65536) return true;
                   return false;
                 })});
  for (int offset : {-1, 0, 1}) {
    out.push_back({.name = std::string("n.block_") + OffsetName(offset),
                   .doc = "SUCCESS with n at a 16-row block boundary " +
                          std::string(OffsetName(offset)) + " (§1.2)",
                   .applies = v2_applies,
                   .hit = success_with([offset](const Shape& s, int64_t) {
                     return s.size() >= 2 && AtBlockOffset(s[s.size() - 2], 16, offset);
                   })});
    out.push_back({.name = std::string("k.block_") + OffsetName(offset),
                   .doc = "SUCCESS with k at its alignment (16 for FLOAT16/BF16 and legacy, else "
                          "32; §1.2) " +
                          std::string(OffsetName(offset)),
                   .applies = v2_applies,
                   .hit = [v2, offset, success_with](const Case& c, const Profile& p) {
                     const auto d = c.DTypeParam("dtype").value_or(DType::kFloat16);
                     const int64_t align =
                         !v2 || d == DType::kFloat16 || d == DType::kBf16 ? 16 : 32;
                     return success_with([offset, align](const Shape& s, int64_t) {
                       return !s.empty() && AtBlockOffset(s.back(), align, offset);
                     })(c, p);
                   }});
  }
  out.push_back({.name = "rank.batched",
                 .doc = "SUCCESS with batch dims (rank >= 3, §1.2: batch unaligned), where the "
                        "SoC's rank rule admits them (§1.3 step 3, §1.4 step 4)",
                 .applies =
                     [v2, v2_applies](const Profile& p) {
                       if (v2_applies && !v2_applies(p)) return false;
                       return p.cann &&
                              (v2 ? p.cann->v2_size_rank.max : p.cann->legacy_size_rank.max) >= 3;
                     },
                 .hit = success_with([](const Shape& s, int64_t) { return s.size() >= 3; })});
  if (v2) {
    for (DType dtype : {DType::kFloat16, DType::kBf16, DType::kFloat, DType::kInt8, DType::kInt4}) {
      out.push_back({
          .name = "dtype." + std::string(Name(dtype)),
          .doc =
              "SUCCESS with dtype " + std::string(Name(dtype)) + " (k aligned to 16 or 32, §1.2)",
          .applies = supported,
          .hit = success_with([](const Shape&, int64_t) { return true; }),
      });
      auto& cls = out.back();
      auto base = cls.hit;
      cls.hit = [dtype, base](const Case& c, const Profile& p) {
        return c.DTypeParam("dtype") == dtype && base(c, p);
      };
    }
  }
  return out;
}

std::vector<CoverageClass> TransClasses() {
  std::vector<CoverageClass> out;
  const std::vector<std::pair<const char*, const char*>> steps = {
      {"status.161001_null", "step 1"},      {"status.161002_dtype", "step 2"},
      {"status.161002_format", "step 3"},    {"status.161002_rank_over_8", "step 4"},
      {"status.success_empty", "step 5"},    {"status.161002_rank_rule", "step 6"},
      {"status.success_converts", "step 7"},
  };
  for (const auto& [name, step] : steps) {
    out.push_back({.name = name,
                   .doc = std::string("the check of spec cann.md §2.2 ") + step +
                          " decides (oracles/cann/validation_oracle.cpp)",
                   .hit = [step = std::string(step)](const Case& c, const Profile& p) {
                     auto shape = c.IntList("shape");
                     auto dtype = c.DTypeParam("dtype");
                     if (!p.cann || !shape || !dtype) return false;
                     oracle::cann::TransCall call{OutputIsNull(c, "mm_weight_ref"), *dtype,
                                                  c.String("format").value_or("ND"), *shape};
                     return oracle::cann::ExpectTrans(*p.cann, call).rule.find(step) !=
                            std::string::npos;
                   }});
  }
  for (DType dtype : {DType::kFloat16, DType::kBf16, DType::kFloat, DType::kInt8, DType::kInt4}) {
    out.push_back(
        {.name = "dtype." + std::string(Name(dtype)),
         .doc = "a converting case of dtype " + std::string(Name(dtype)) +
                ", where the SoC's list has it (§2.3)",
         .applies = [dtype](const Profile& p) { return p.cann && p.cann->TransSupports(dtype); },
         .hit =
             [dtype](const Case& c, const Profile&) {
               return c.DTypeParam("dtype") == dtype && c.String("format").value_or("ND") == "ND";
             }});
  }
  return out;
}

}  // namespace

void AddCannCoverage(std::vector<RoutineCoverage>* out) {
  out->push_back({kLegacy, SizeClasses(kLegacy)});
  out->push_back({kV2, SizeClasses(kV2)});
  out->push_back({kTrans, TransClasses()});
  out->push_back({kPack, LayoutClasses(true)});
  out->push_back({kUnpack, LayoutClasses(true)});
}

}  // namespace npuconf
