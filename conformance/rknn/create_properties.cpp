// Properties of rknn_matmul_create and rknn_matmul_create_dynamic_shape (spec
// rknn.md §1.4–1.6, §3, §4, §5.4, §7): io_attr dims, sizes in bytes and types
// per layout, validation of rknn_matmul_info (−5), dynamic-shape capacities.
#include <cstring>

#include "conformance/rknn/cases.h"
#include "conformance/rknn/support.h"
#include "conformance/harness/materialize.h"
#include "generators/rknn.h"

namespace npuconf {
namespace {

using namespace rknn_props;
namespace orc = oracle::rknn;

struct PortAttr {
  Shape dims;
  uint64_t size_bytes = 0;
  int64_t type = 0;
};

PortAttr ReadAttr(const OutputResult& out) {
  PortAttr a;
  a.dims = out.rank < 0 ? Shape{} : out.dims;
  uint64_t words[2];
  std::memcpy(words, out.contents().data(), sizeof(words));
  a.size_bytes = words[0];
  a.type = static_cast<int64_t>(words[1]);
  return a;
}

bool Untouched(const OutputResult& out) {
  for (uint8_t b : out.contents()) {
    if (b != kSentinelByte) return false;
  }
  return true;
}

std::string Describe(const char* name, const PortAttr& a) {
  return std::string("io_attr.") + name + " {dims " + ToString(a.dims) + ", size " + std::to_string(a.size_bytes) +
         " bytes, type " + std::to_string(a.type) + "}";
}

enum class CreateAspect { kLayout, kCapacity, kRejects };

Verdict CheckCreate(const PropertyContext& ctx, const Case& c, CreateAspect aspect) {
  const auto want = orc::ExpectCreate(*ctx.profile.rknn, InfoOf(c), ReadingsOf(c));
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  for (const char* name : {"A", "B", "C"}) {
    if (auto v = CheckGuards(*k.answer.Output(name))) return *v;
  }
  if (k.answer.status != want.status) {
    return Verdict::Fail("status " + StatusText(k.answer.status) + ", expected " + StatusText(want.status) +
                         (want.status ? ": " + want.rule : std::string(" (every rule of spec rknn.md §3, §5.4 holds)")));
  }
  if (want.status != orc::kSucc) {
    for (const char* name : {"A", "B", "C"}) {
      if (!Untouched(*k.answer.Output(name))) return Verdict::Fail(std::string("io_attr.") + name + " written although create failed");
    }
    return Verdict::Pass();
  }
  if (aspect == CreateAspect::kRejects) return Verdict::Pass();
  const orc::Attr* expected[3] = {&want.A, &want.B, &want.C};
  const uint64_t logical[3] = {want.a_logical_bytes, want.b_logical_bytes, want.c_logical_bytes};
  const char* names[3] = {"A", "B", "C"};
  const DocumentedAttr* doc = FindDocumentedAttr(c, ctx.profile);
  for (int i = 0; i < 3; ++i) {
    if (!k.Written(names[i])) {
      return Verdict::Fail(std::string("create succeeded but io_attr.") + names[i] + " was not written");
    }
    const PortAttr got = ReadAttr(*k.answer.Output(names[i]));
    if (aspect == CreateAspect::kCapacity) {
      if (got.size_bytes < logical[i]) {
        return Verdict::Fail(Describe(names[i], got) + " is smaller than the " + std::to_string(logical[i]) +
                             " bytes of the logical matrix");
      }
      continue;
    }
    if (got.dims != expected[i]->dims || got.size_bytes != expected[i]->size_bytes || got.type != expected[i]->type) {
      return Verdict::Fail(Describe(names[i], got) + ", expected {dims " + ToString(expected[i]->dims) + ", size " +
                           std::to_string(expected[i]->size_bytes) + " bytes, type " + std::to_string(expected[i]->type) +
                           "} (spec rknn.md §2.2, §4.1)");
    }
    if (doc) {
      const Shape& doc_dims = i == 0 ? doc->a_dims : (i == 1 ? doc->b_dims : doc->c_dims);
      const std::optional<uint64_t>& doc_bytes = i == 0 ? doc->a_bytes : (i == 1 ? doc->b_bytes : doc->c_bytes);
      if ((!doc_dims.empty() && got.dims != doc_dims) || (doc_bytes && got.size_bytes != *doc_bytes)) {
        return Verdict::Fail(Describe(names[i], got) + " differs from " + doc->source + ": dims " + ToString(doc_dims) +
                             ", " + (doc_bytes ? std::to_string(*doc_bytes) : "?") + " bytes");
      }
    }
  }
  return Verdict::Pass();
}

// A valid rknn_matmul_info of the profile: K, N multiples of the §3.2
// alignment (K also at the segment thresholds), layouts, per-layer or
// per-group quant.
rc::Gen<Case> ValidInfo(const PropertyContext& ctx) {
  const RknnFacts f = *ctx.profile.rknn;
  const std::string name = ctx.profile.name;
  return rc::gen::mapcat(gen::rknn::SupportedType(f), [f, name](int32_t type) {
    const DType a = f.FindType(type)->a;
    const int64_t ka = f.k_align.at(a), na = f.n_align.at(a), n_max = f.n_max.at(a);
    const int64_t k_top = f.k_max.value_or(3 * std::max<int64_t>(f.k_segment, 4096)) / ka;
    auto k = rc::gen::weightedOneOf<int64_t>({{4, rc::gen::map(rc::gen::inRange<int64_t>(1, 9), [ka](int64_t r) { return r * ka; })},
                                              {2, rc::gen::map(rc::gen::inRange<int64_t>(1, k_top + 1), [ka](int64_t r) { return r * ka; })},
                                              {1, rc::gen::element<int64_t>(int64_t{f.k_segment > 0 ? f.k_segment : ka}, int64_t{f.k_segment + ka}, int64_t{2 * f.k_segment + ka})}});
    auto n = rc::gen::map(rc::gen::inRange<int64_t>(1, n_max / na + 1), [na](int64_t r) { return r * na; });
    auto layouts = rc::gen::inRange(0, f.tp_norm ? 6 : 4);
    return rc::gen::map(rc::gen::tuple(gen::rknn::M(), k, n, layouts, rc::gen::inRange(0, 4)),
                        [=](const std::tuple<int64_t, int64_t, int64_t, int, int>& t) {
                          Case c(kCreate, name);
                          const int layout = std::get<3>(t);
                          c.Set("type", int64_t{type}).Set("M", std::get<0>(t)).Set("K", std::get<1>(t)).Set("N", std::get<2>(t))
                              .Set("AC_layout", int64_t{layout % 2}).Set("B_layout", int64_t{layout / 2});
                          const int quant = std::get<4>(t);
                          if (quant == 1) c.Set("B_quant_type", int64_t{1}).Set("AC_quant_type", int64_t{1});
                          if (quant == 2 && std::get<1>(t) % 32 == 0) {
                            c.Set("AC_layout", int64_t{1}).Set("B_layout", int64_t{1}).Set("B_quant_type", int64_t{4}).Set("group_size", int64_t{32});
                          }
                          return c;
                        });
  });
}

// A valid info with one rule broken (§1.1–§3.2, §5.3–§5.4).
rc::Gen<Case> InvalidInfo(const PropertyContext& ctx) {
  const RknnFacts f = *ctx.profile.rknn;
  return rc::gen::map(rc::gen::tuple(ValidInfo(ctx), rc::gen::inRange(0, 13), gen::rknn::GroupSize(), rc::gen::inRange(0, 1 << 20)),
                         [f](const std::tuple<Case, int, int64_t, int>& t) {
                           Case c = std::get<0>(t);
                           const int pick = std::get<3>(t);
                           auto one_of = [pick](std::vector<int64_t> values) { return values[static_cast<size_t>(pick) % values.size()]; };
                           const DType a = f.FindType(static_cast<int32_t>(*c.Int("type")))->a;
                           switch (std::get<1>(t)) {
                             case 0: c.Set("type", one_of({0, 13, 14, 16, -1})); break;
                             case 1: c.Set("K", *c.Int("K") + 1); break;
                             case 2: c.Set("N", *c.Int("N") + 1); break;
                             case 3: c.Set("N", f.n_max.at(a) + f.n_align.at(a)); break;
                             case 4: c.Set("M", int64_t{0}); break;
                             case 5: c.Set("B_quant_type", int64_t{4}).Set("group_size", int64_t{32}).Set("AC_layout", int64_t{0}); break;
                             case 6: c.Set("B_quant_type", int64_t{5}).Set("group_size", std::get<2>(t)).Set("AC_layout", int64_t{1})
                                         .Set("B_layout", int64_t{1}).Set("K", std::get<2>(t) * 3 + 32); break;
                             case 7: c.Set("zp", one_of({1, -1, 128})); break;
                             case 8: c.Set("B_layout", one_of({3, -1, f.tp_norm ? 3 : 2})); break;
                             case 9: c.Set("AC_layout", one_of({2, -1})); break;
                             case 10: c.Set("AC_quant_type", one_of({2, 4})); break;
                             case 11: c.Set("B_quant_type", one_of({6, -1})); break;
                             default: {
                               std::vector<int64_t> unsupported;
                               for (const auto& type : f.types) {
                                 if (!f.Supports(type.type)) unsupported.push_back(type.type);
                               }
                               if (!unsupported.empty()) c.Set("type", one_of(unsupported));
                             }
                           }
                           return c;
                         });
}

// ---- dynamic shape ----------------------------------------------------------------

Verdict CheckDynamic(const PropertyContext& ctx, const Case& c, bool capacity_only) {
  const Shape shapes = *c.IntList("shapes");
  const auto want = orc::ExpectDynamic(*ctx.profile.rknn, InfoOf(c), shapes, ReadingsOf(c));
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  const OutputResult& io = *k.answer.Output("io_attrs");
  const OutputResult& cap = *k.answer.Output("capacity");
  if (auto v = CheckGuards(io)) return *v;
  if (auto v = CheckGuards(cap)) return *v;
  if (k.answer.status != want.status) {
    return Verdict::Fail("status " + StatusText(k.answer.status) + ", expected " + StatusText(want.status) +
                         (want.status ? ": " + want.rule : std::string()));
  }
  if (want.status != orc::kSucc) return Verdict::Pass();
  uint64_t capacity[3];
  std::memcpy(capacity, cap.contents().data(), sizeof(capacity));
  const char* names[3] = {"A", "B", "C"};
  for (size_t s = 0; s < want.per_shape.size(); ++s) {
    const orc::Attr* expected[3] = {&want.per_shape[s].A, &want.per_shape[s].B, &want.per_shape[s].C};
    for (int i = 0; i < 3; ++i) {
      int64_t words[7];
      std::memcpy(words, io.contents().data() + (s * 3 + i) * sizeof(words), sizeof(words));
      const uint64_t size = static_cast<uint64_t>(words[5]);
      if (capacity[i] < size) {
        return Verdict::Fail("capacity of " + std::string(names[i]) + " is " + std::to_string(capacity[i]) + " bytes, but shape " +
                             std::to_string(s) + " needs " + std::to_string(size) + " (spec rknn.md §4.3)");
      }
      if (capacity_only) continue;
      const Shape dims(words + 1, words + 1 + std::min<int64_t>(std::max<int64_t>(words[0], 0), 4));
      if (dims != expected[i]->dims || size != expected[i]->size_bytes || words[6] != expected[i]->type) {
        return Verdict::Fail("shape " + std::to_string(s) + " io_attr." + names[i] + " {dims " + ToString(dims) + ", size " +
                             std::to_string(size) + "}, expected {dims " + ToString(expected[i]->dims) + ", size " +
                             std::to_string(expected[i]->size_bytes) + "}");
      }
    }
  }
  if (!capacity_only) {
    for (int i = 0; i < 3; ++i) {
      if (capacity[i] != want.capacity[i]) {
        return Verdict::Fail("capacity of " + std::string(names[i]) + " is " + std::to_string(capacity[i]) +
                             " bytes, expected the maximum size over the shapes, " + std::to_string(want.capacity[i]));
      }
    }
  }
  return Verdict::Pass();
}

std::vector<Case> DynamicExplicit(const PropertyContext& ctx) {
  const RknnFacts& f = *ctx.profile.rknn;
  std::vector<Case> out;
  for (int32_t type : f.supported_types) {
    const DType a = f.FindType(type)->a;
    const int64_t K = 4 * f.k_align.at(a), N = 4 * f.n_align.at(a);
    for (int64_t b : {0, 1, 2}) {
      if (b == 2 && !f.tp_norm) continue;
      for (int64_t ac : {0, 1}) {
        Case c(kDynamic, ctx.profile.name);
        c.Set("type", int64_t{type}).Set("B_layout", b).Set("AC_layout", ac);
        out.push_back(Case(c).Set("shapes", Shape{1, K, N, 4, K, N, 64, K, N, 17, K, N}));
        out.push_back(Case(c).Set("shapes", Shape{1, K, N, 8, 2 * K, N}));  // K varies: −5 unless TP_NORM (§4.3)
        out.push_back(Case(c).Set("shapes", Shape{}));                      // shape_num 0
      }
    }
  }
  return out;
}

rc::Gen<Case> DynamicGen(const PropertyContext& ctx) {
  return rc::gen::mapcat(ValidInfo(ctx), [](const Case& info) {
    return rc::gen::map(rc::gen::tuple(rc::gen::container<std::vector<int64_t>>(gen::rknn::M()), rc::gen::inRange(0, 4)),
                        [info](const std::tuple<std::vector<int64_t>, int>& t) {
                          Case c(kDynamic, info.profile);
                          for (const char* key : {"type", "B_layout", "AC_layout", "B_quant_type", "AC_quant_type", "group_size"}) {
                            if (auto v = info.Int(key)) c.Set(key, *v);
                          }
                          const int64_t K = *info.Int("K"), N = *info.Int("N");
                          Shape shapes;
                          for (int64_t m : std::get<0>(t)) shapes.insert(shapes.end(), {m, K, N});
                          if (shapes.empty()) shapes = {*info.Int("M"), K, N};
                          if (std::get<1>(t) == 0) shapes.insert(shapes.end(), {1, 2 * K, N});  // a differing K
                          c.Set("shapes", shapes);
                          return c;
                        });
  });
}

const std::vector<std::string> kCreateChoices = {
    "rknn.limits.align_unit", "rknn.limits.k_max", "rknn.types.table_3_6_row7", "rknn.native.mixed_b_layout",
    "rknn.native.c_sub_n_other_outputs", "rknn.segment.b_dims", "rknn.tp_norm.dtypes", "rknn.quant.group_size",
    "rknn.quant.per_group_type", "rknn.tp_norm.b_dims", "rknn.quant.type_encoding"};

}  // namespace

void rknn_props::AddCreateProperties(std::vector<Property>* out) {
  auto layout_explicit = [](const PropertyContext& ctx) {
    std::vector<Case> cases;
    for (const auto& d : DocumentedAttrs(ctx.profile)) cases.push_back(d.c);
    // Both other readings of §8.3 on the documented row shapes.
    for (const auto& d : DocumentedAttrs(ctx.profile)) {
      for (const char* unit : {"header_bytes", "header_elements", "ug_elements"}) cases.push_back(Case(d.c).Set("align_unit", unit));
      cases.push_back(Case(d.c).Set("k_max_rule", "header_global"));
    }
    auto invalid = DocumentedInvalidCases(ctx.profile);
    cases.insert(cases.end(), invalid.begin(), invalid.end());
    auto real = RealCreateCases(ctx);
    cases.insert(cases.end(), real.begin(), real.end());
    return cases;
  };
  out->push_back({std::string(kCreate) + ".size_matches_layout", kCreate, {},
                  "status, and io_attr dims, size (bytes) and type of A, B, C equal the §4.1 table for the layout "
                  "(segmented B: sum of segments); documented rows of spec rknn.md §7.1 and §3.3 match",
                  kCreateChoices, nullptr, layout_explicit, ValidInfo,
                  [](const PropertyContext& ctx, const Case& c) { return CheckCreate(ctx, c, CreateAspect::kLayout); }});
  out->push_back({std::string(kCreate) + ".capacity_ge_logical", kCreate, {},
                  "every io_attr size holds at least the logical matrix's bytes (int4: half bytes)", kCreateChoices, nullptr,
                  [](const PropertyContext& ctx) { return RealCreateCases(ctx); }, ValidInfo,
                  [](const PropertyContext& ctx, const Case& c) { return CheckCreate(ctx, c, CreateAspect::kCapacity); }});
  out->push_back({std::string(kCreate) + ".rejects_invalid", kCreate, {},
                  "an invalid rknn_matmul_info gives RKNN_ERR_PARAM_INVALID (-5) and leaves io_attr untouched "
                  "(spec rknn.md §3, §5.4, §7.3)",
                  kCreateChoices, nullptr, [](const PropertyContext& ctx) { return DocumentedInvalidCases(ctx.profile); },
                  InvalidInfo, [](const PropertyContext& ctx, const Case& c) { return CheckCreate(ctx, c, CreateAspect::kRejects); }});
  std::vector<std::string> dyn_choices = kCreateChoices;
  dyn_choices.push_back("rknn.dynamic.varying_dims");
  out->push_back({std::string(kDynamic) + ".matches_oracle", kDynamic, {},
                  "one io_attr per shape as create gives it; K, N equal across shapes for NORM/NATIVE B; capacity = "
                  "max size over shapes (spec rknn.md §4.3)",
                  dyn_choices, nullptr, DynamicExplicit, DynamicGen,
                  [](const PropertyContext& ctx, const Case& c) { return CheckDynamic(ctx, c, false); }});
  out->push_back({std::string(kDynamic) + ".capacity_ge_every_shape", kDynamic, {},
                  "each buffer's capacity is at least every shape's size", dyn_choices, nullptr, DynamicExplicit, DynamicGen,
                  [](const PropertyContext& ctx, const Case& c) { return CheckDynamic(ctx, c, true); }});
}

}  // namespace npuconf
