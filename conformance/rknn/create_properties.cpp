// Properties of rknn_matmul_create and rknn_matmul_create_dynamic_shape (spec
// rknn.md §1.4–1.6, §3, §4, §5.4, §7): io_attr dims, sizes in bytes and types
// per layout for valid infos, RKNN_ERR_PARAM_INVALID for invalid ones, and the
// capacities of dynamic shapes. Valid and invalid calls are separate
// properties: each name says what its cases are.
#include <cstring>

#include "conformance/harness/layout_properties.h"
#include "conformance/harness/materialize.h"
#include "conformance/rknn/cases.h"
#include "conformance/rknn/support.h"
#include "core/status.h"
#include "generators/rknn.h"
#include "verify/compare.h"

namespace npuconf {
namespace {

using namespace rknn_props;
namespace orc = oracle::rknn;

// io_attr of a matrix as INT64 words, the form rknn.matmul_create_dynamic
// writes: {n_dims, dims[0..3], size (bytes), rknn_tensor_type}.
constexpr int64_t kAttrWords = 7;
const char* const kMatrices[3] = {"A", "B", "C"};

void AppendWords(const Shape& dims, uint64_t size_bytes, int64_t type, Bytes* out) {
  int64_t words[kAttrWords] = {static_cast<int64_t>(dims.size()), 0,   0, 0, 0,
                               static_cast<int64_t>(size_bytes),  type};
  for (size_t i = 0; i < dims.size() && i < 4; ++i) words[1 + i] = dims[i];
  const auto* bytes = reinterpret_cast<const uint8_t*>(words);
  out->insert(out->end(), bytes, bytes + sizeof(words));
}

// What the port wrote into io_attr.X: UINT64 {size, rknn_tensor_type} and dims.
void AppendPortAttr(const OutputResult& out, Bytes* words) {
  uint64_t fields[2];
  std::memcpy(fields, out.contents().data(), sizeof(fields));
  const size_t at = words->size();
  AppendWords(out.rank < 0 ? Shape{} : out.dims, fields[0], static_cast<int64_t>(fields[1]), words);
  // A rank past NPUCONF_MAX_RANK has no dims to show: n_dims keeps the rank.
  if (out.rank > NPUCONF_MAX_RANK) {
    const int64_t rank = out.rank;
    std::memcpy(words->data() + at, &rank, sizeof(rank));
  }
}

std::string Describe(const std::string& name, const std::string& dims, uint64_t size_bytes,
                     int64_t type) {
  return "io_attr." + name + " {dims " + dims + ", size " + std::to_string(size_bytes) +
         " bytes, type " + std::to_string(type) + "}";
}

// io_attr words laid out as [matrix A/B/C, field], or [shape, matrix, field].
std::shared_ptr<verify::StorageMap> AttrMap(int64_t shapes) {
  if (shapes == 0) {
    return std::make_shared<verify::RowMajorMap>(
        Shape{3, kAttrWords}, std::vector<std::string>{"matrix", "field"}, "io_attr");
  }
  return std::make_shared<verify::RowMajorMap>(Shape{shapes, 3, kAttrWords},
                                               std::vector<std::string>{"shape", "matrix", "field"},
                                               "io_attrs");
}

// The outputs a rejected call must leave as the runner filled them.
std::optional<Verdict> CheckUntouched(const Called& k, const std::vector<std::string>& names,
                                      const std::string& why) {
  for (const std::string& name : names) {
    const OutputResult& out = *k.answer.Output(name);
    Bytes before;
    for (const OutputSpec& spec : k.inv.outputs) {
      if (spec.name == name) before = spec.Before();
    }
    const auto comparison = verify::Compare({.output = name,
                                             .got = out.contents(),
                                             .want = before,
                                             .codec = {DType::kUint8, false},
                                             .count = static_cast<int64_t>(before.size())});
    if (!comparison.ok())
      return FailFrom(comparison, DType::kUint8, nullptr, name + " written although " + why + ": ");
  }
  return std::nullopt;
}

std::optional<Verdict> CheckAllGuards(const Called& k) {
  for (const OutputResult& out : k.answer.outputs) {
    if (auto v = CheckGuards(out)) return v;
  }
  return std::nullopt;
}

// ---- rknn_matmul_create -------------------------------------------------------------

// A valid info: status RKNN_SUCC and the io_attr of every matrix as §4.1 gives
// it for the layout (the oracle's), and as the documented row of §7.1 / §3.3
// gives it where there is one.
Verdict CheckCreateLayout(const PropertyContext& ctx, const Case& c) {
  const auto want = orc::ExpectCreate(*ctx.profile.rknn, InfoOf(c), ReadingsOf(c));
  if (want.status != orc::kSucc)
    return Verdict::Fail("the suite drew an invalid info as valid (" + want.rule + ")");
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (auto v = CheckAllGuards(k)) return *v;
  if (k.answer.status != rknn::kRknnSucc) {
    return Verdict::Fail("status " + StatusText("rknn", k.answer.status) +
                         ", expected 0 (RKNN_SUCC): every rule of spec rknn.md §3, §5.4 holds" +
                         (k.answer.message.empty() ? "" : " (" + k.answer.message + ")"));
  }
  for (const char* name : kMatrices) {
    if (!k.Written(name))
      return Verdict::Fail(std::string("create succeeded but io_attr.") + name +
                           " was not written");
  }
  const orc::Attr* expected[3] = {&want.A, &want.B, &want.C};
  Bytes got_words, want_words;
  // A segmented NATIVE B's dims are open under rknn.segment.b_dims = unknown
  // (§3.3, §8.7): its size and type are still checked.
  const orc::Info info = InfoOf(c);
  const int64_t seg_len = ctx.profile.rknn->k_segment;
  const bool b_dims_open =
      SegmentedBDimsOpen(ctx.profile) && info.B_layout == 1 && seg_len > 0 && info.K > seg_len;
  for (int i = 0; i < 3; ++i) {
    const OutputResult& out = *k.answer.Output(kMatrices[i]);
    AppendPortAttr(out, &got_words);
    const Shape dims =
        i == 1 && b_dims_open ? (out.rank < 0 ? Shape{} : out.dims) : expected[i]->dims;
    AppendWords(dims, expected[i]->size_bytes, expected[i]->type, &want_words);
  }
  const auto map = AttrMap(0);
  const auto comparison = verify::Compare({.output = "io_attr",
                                           .got = got_words,
                                           .want = want_words,
                                           .codec = {DType::kInt64, false},
                                           .count = 3 * kAttrWords,
                                           .map = map.get()});
  if (!comparison.ok()) {
    const int matrix = static_cast<int>(comparison.first.front().storage_index / kAttrWords);
    const OutputResult& out = *k.answer.Output(kMatrices[matrix]);
    uint64_t fields[2];
    std::memcpy(fields, out.contents().data(), sizeof(fields));
    return FailFrom(
        comparison, DType::kInt64, map.get(),
        Describe(kMatrices[matrix], ReportedDims(out), fields[0], static_cast<int64_t>(fields[1])) +
            ", expected " +
            Describe(kMatrices[matrix], ToString(expected[matrix]->dims),
                     expected[matrix]->size_bytes, expected[matrix]->type) +
            " (spec rknn.md §2.2, §4.1): ");
  }
  // The documented numbers (§7.1, §3.3) where the spec gives them: the oracle must agree.
  if (const DocumentedAttr* doc = FindDocumentedAttr(c, ctx.profile)) {
    for (int i = 0; i < 3; ++i) {
      const Shape& dims = i == 0 ? doc->a_dims : (i == 1 ? doc->b_dims : doc->c_dims);
      const std::optional<uint64_t>& bytes =
          i == 0 ? doc->a_bytes : (i == 1 ? doc->b_bytes : doc->c_bytes);
      if ((!dims.empty() && expected[i]->dims != dims) ||
          (bytes && expected[i]->size_bytes != *bytes)) {
        return Verdict::Fail(Describe(kMatrices[i], ToString(expected[i]->dims),
                                      expected[i]->size_bytes, expected[i]->type) +
                             " differs from " + doc->source + ": dims " + ToString(dims) + ", " +
                             (bytes ? std::to_string(*bytes) : "?") + " bytes");
      }
    }
  }
  return Verdict::Pass();
}

// A valid info: every io_attr size holds at least the logical matrix's bytes.
Verdict CheckCreateCapacity(const PropertyContext& ctx, const Case& c) {
  const auto want = orc::ExpectCreate(*ctx.profile.rknn, InfoOf(c), ReadingsOf(c));
  if (want.status != orc::kSucc)
    return Verdict::Fail("the suite drew an invalid info as valid (" + want.rule + ")");
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (auto v = CheckAllGuards(k)) return *v;
  if (k.answer.status != rknn::kRknnSucc) {
    return Verdict::Fail("status " + StatusText("rknn", k.answer.status) + " for a valid info");
  }
  const uint64_t logical[3] = {want.a_logical_bytes, want.b_logical_bytes, want.c_logical_bytes};
  for (int i = 0; i < 3; ++i) {
    if (!k.Written(kMatrices[i])) {
      return Verdict::Fail(std::string("create succeeded but io_attr.") + kMatrices[i] +
                           " was not written");
    }
    const OutputResult& out = *k.answer.Output(kMatrices[i]);
    uint64_t fields[2];
    std::memcpy(fields, out.contents().data(), sizeof(fields));
    if (fields[0] < logical[i]) {
      return Verdict::Fail(
          Describe(kMatrices[i], ReportedDims(out), fields[0], static_cast<int64_t>(fields[1])) +
              " is smaller than the " + std::to_string(logical[i]) + " bytes of the logical matrix",
          {{"output", kMatrices[i]}, {"size_bytes", fields[0]}, {"logical_bytes", logical[i]}});
    }
  }
  return Verdict::Pass();
}

// An invalid info: RKNN_ERR_PARAM_INVALID, io_attr untouched.
Verdict CheckCreateRejects(const PropertyContext& ctx, const Case& c) {
  const auto want = orc::ExpectCreate(*ctx.profile.rknn, InfoOf(c), ReadingsOf(c));
  if (want.status == orc::kSucc)
    return Verdict::Fail("the suite drew a valid info as invalid: " + c.ToText());
  const DocumentedInvalid* doc = FindDocumentedInvalid(c, ctx.profile);
  const std::string rule = want.rule + (doc ? "; " + doc->source : "");
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (auto v = CheckAllGuards(k)) return *v;
  if (k.answer.status != want.status) {
    return Verdict::Fail("status " + StatusText("rknn", k.answer.status) + ", expected " +
                         StatusText("rknn", want.status) + ": " + rule);
  }
  if (auto v = CheckUntouched(k, {"A", "B", "C"}, "create failed (" + rule + ")")) return *v;
  return Verdict::Pass();
}

// A create a device ran (spec rknn.md §3.2a): the port creates it where the
// device did, rejects it where the device did, and gives the sizes the log
// shows. Outranks the documents: the profile's defaults agree with every row.
Verdict CheckDeviceRow(const PropertyContext& ctx, const Case& c) {
  const DeviceRow* row = FindDeviceRow(c, ctx.profile);
  if (!row) return Verdict::Fail("not a device-observed case of spec rknn.md §3.2a: " + c.ToText());
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (auto v = CheckAllGuards(k)) return *v;
  const int64_t want = row->created ? rknn::kRknnSucc : rknn::kRknnErrParamInvalid;
  if (k.answer.status != want) {
    return Verdict::Fail("status " + StatusText("rknn", k.answer.status) + ", but the device " +
                         (row->created ? "created it" : "rejected it") + ": " + row->source);
  }
  if (!row->created) return Verdict::Pass();
  const std::optional<uint64_t> logged[3] = {row->a_bytes, row->b_bytes, row->c_bytes};
  for (int i = 0; i < 3; ++i) {
    if (!logged[i]) continue;
    uint64_t fields[2];
    std::memcpy(fields, k.answer.Output(kMatrices[i])->contents().data(), sizeof(fields));
    if (fields[0] != *logged[i]) {
      return Verdict::Fail("io_attr." + std::string(kMatrices[i]) + ".size " +
                           std::to_string(fields[0]) + " bytes, the device's log shows " +
                           std::to_string(*logged[i]) + ": " + row->source);
    }
  }
  return Verdict::Pass();
}

// ---- rknn_matmul_create_dynamic_shape -------------------------------------------------

// A valid call: one io_attr per shape as create gives it, and the capacity of
// each matrix the largest size over the shapes (§4.3); or only that capacity
// covers every shape's size.
Verdict CheckDynamic(const PropertyContext& ctx, const Case& c, bool capacity_only) {
  const Shape shapes = *c.IntList("shapes");
  const auto want = orc::ExpectDynamic(*ctx.profile.rknn, InfoOf(c), shapes, ReadingsOf(c));
  if (want.status != orc::kSucc)
    return Verdict::Fail("the suite drew an invalid call as valid (" + want.rule + ")");
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (auto v = CheckAllGuards(k)) return *v;
  if (k.answer.status != rknn::kRknnSucc) {
    return Verdict::Fail("status " + StatusText("rknn", k.answer.status) +
                         ", expected 0 (RKNN_SUCC)" +
                         (k.answer.message.empty() ? "" : " (" + k.answer.message + ")"));
  }
  const OutputResult& io = *k.answer.Output("io_attrs");
  uint64_t capacity[3];
  std::memcpy(capacity, k.answer.Output("capacity")->contents().data(), sizeof(capacity));
  const int64_t count = static_cast<int64_t>(want.per_shape.size());
  for (int64_t s = 0; s < count; ++s) {
    for (int i = 0; i < 3; ++i) {
      int64_t size = 0;
      std::memcpy(&size, io.contents().data() + ((s * 3 + i) * kAttrWords + 5) * sizeof(int64_t),
                  sizeof(size));
      if (capacity[i] < static_cast<uint64_t>(size)) {
        return Verdict::Fail("capacity of " + std::string(kMatrices[i]) + " is " +
                                 std::to_string(capacity[i]) + " bytes, but shape " +
                                 std::to_string(s) + " needs " + std::to_string(size) +
                                 " (spec rknn.md §4.3)",
                             {{"output", "capacity"}, {"matrix", kMatrices[i]}, {"shape", s}});
      }
    }
  }
  if (capacity_only) return Verdict::Pass();
  Bytes want_words;
  for (const auto& e : want.per_shape) {
    for (const orc::Attr* a : {&e.A, &e.B, &e.C})
      AppendWords(a->dims, a->size_bytes, a->type, &want_words);
  }
  const auto map = AttrMap(count);
  const auto io_comparison = verify::Compare({.output = "io_attrs",
                                              .got = io.contents(),
                                              .want = want_words,
                                              .codec = {DType::kInt64, false},
                                              .count = count * 3 * kAttrWords,
                                              .map = map.get()});
  if (!io_comparison.ok()) {
    return FailFrom(
        io_comparison, DType::kInt64, map.get(),
        "io_attrs {n_dims, dims[4], size, type} per shape and matrix differ from create's: ");
  }
  const Bytes want_capacity(
      reinterpret_cast<const uint8_t*>(want.capacity),
      reinterpret_cast<const uint8_t*>(want.capacity) + sizeof(want.capacity));
  const auto capacity_map = std::make_shared<verify::RowMajorMap>(
      Shape{3}, std::vector<std::string>{"matrix"}, "capacity");
  const auto cap_comparison = verify::Compare({.output = "capacity",
                                               .got = k.answer.Output("capacity")->contents(),
                                               .want = want_capacity,
                                               .codec = {DType::kUint64, false},
                                               .count = 3,
                                               .map = capacity_map.get()});
  if (!cap_comparison.ok()) {
    return FailFrom(cap_comparison, DType::kUint64, capacity_map.get(),
                    "capacity of A, B, C (bytes) is not the maximum size over the shapes (spec "
                    "rknn.md §4.3): ");
  }
  return Verdict::Pass();
}

// An invalid call (no shapes, K or N varying where they may not, a shape
// create rejects): RKNN_ERR_PARAM_INVALID, outputs untouched.
Verdict CheckDynamicRejects(const PropertyContext& ctx, const Case& c) {
  const Shape shapes = *c.IntList("shapes");
  const auto want = orc::ExpectDynamic(*ctx.profile.rknn, InfoOf(c), shapes, ReadingsOf(c));
  if (want.status == orc::kSucc)
    return Verdict::Fail("the suite drew a valid call as invalid: " + c.ToText());
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return *v;
  if (auto v = CheckAllGuards(k)) return *v;
  if (k.answer.status != want.status) {
    return Verdict::Fail("status " + StatusText("rknn", k.answer.status) + ", expected " +
                         StatusText("rknn", want.status) + ": " + want.rule);
  }
  if (auto v = CheckUntouched(k, {"io_attrs", "capacity"}, "the call failed (" + want.rule + ")"))
    return *v;
  return Verdict::Pass();
}

// ---- explicit cases -------------------------------------------------------------------

bool Valid(const PropertyContext& ctx, const Case& c) {
  if (c.routine == kDynamic) {
    return orc::ExpectDynamic(*ctx.profile.rknn, InfoOf(c), *c.IntList("shapes"), ReadingsOf(c))
               .status == orc::kSucc;
  }
  return orc::ExpectCreate(*ctx.profile.rknn, InfoOf(c), ReadingsOf(c)).status == orc::kSucc;
}

std::vector<Case> Only(const PropertyContext& ctx, const std::vector<Case>& cases, bool valid) {
  std::vector<Case> out;
  for (const Case& c : cases) {
    if (Valid(ctx, c) == valid) out.push_back(c);
  }
  return out;
}

// The documented rows of §7.1 and §3.3, the documented invalid infos, the
// documented rows under the other readings of §8.3 (under which some are
// rejected), and the real model shapes (many above N <= 4096): documented
// cases first for both the valid and the invalid ones.
std::vector<Case> CreateExplicit(const PropertyContext& ctx) {
  std::vector<Case> cases;
  for (const auto& d : DocumentedAttrs(ctx.profile)) cases.push_back(d.c);
  for (const auto& d : DocumentedInvalidCases(ctx.profile)) cases.push_back(d.c);
  for (const auto& d : DocumentedAttrs(ctx.profile)) {
    for (const char* unit : {"header_bytes", "header_elements", "ug_elements"}) {
      cases.push_back(Case(d.c).Set("align_unit", unit));
    }
    cases.push_back(Case(d.c).Set("k_max_rule", "header_global"));
  }
  auto real = RealCreateCases(ctx);
  cases.insert(cases.end(), real.begin(), real.end());
  auto edges = CoverageCreateCases(ctx.profile);
  cases.insert(cases.end(), edges.begin(), edges.end());
  // The creates devices ran, judged here under the readings the port claims.
  for (const DeviceRow& row : DeviceRows(ctx.profile)) cases.push_back(row.c);
  return cases;
}

// Per supported type and layout: four shapes varying M, two varying K (valid
// only for TP_NORM B, §4.3), and none.
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
        out.push_back(Case(c).Set("shapes", Shape{1, K, N, 8, 2 * K, N}));
        out.push_back(Case(c).Set("shapes", Shape{}));  // shape_num 0
      }
    }
  }
  return out;
}

const std::vector<std::string> kCreateChoices = {"rknn.limits.align_unit",
                                                 "rknn.limits.k_max",
                                                 "rknn.types.table_3_6_row7",
                                                 "rknn.native.mixed_b_layout",
                                                 "rknn.native.c_sub_n_other_outputs",
                                                 "rknn.segment.b_dims",
                                                 "rknn.tp_norm.dtypes",
                                                 "rknn.quant.group_size",
                                                 "rknn.quant.per_group_type",
                                                 "rknn.tp_norm.b_dims",
                                                 "rknn.quant.type_encoding"};

// The platform's facts with the K/N limits of §3.2 as the profile's readings
// of §8.3 make them (the oracle's LimitsFor), for the generators: a port
// claiming rknn.limits.align_unit = header_elements gets its valid calls drawn
// with the header's alignments.
RknnFacts DrawingFacts(const Profile& profile) {
  RknnFacts f = *profile.rknn;
  for (const auto& [dtype, align] : profile.rknn->k_align) {
    const orc::Limits limits = orc::LimitsFor(*profile.rknn, dtype, {});
    if (limits.k_align <= 0 || limits.n_align <= 0 || limits.n_max <= 0) continue;
    f.k_align[dtype] = limits.k_align;
    f.n_align[dtype] = limits.n_align;
    f.n_max[dtype] = limits.n_max;
    f.k_max = limits.k_max;
  }
  return f;
}

}  // namespace

void rknn_props::AddCreateProperties(std::vector<Property>* out) {
  auto valid_info = [](const PropertyContext& ctx) {
    return gen::rknn::ValidInfo(DrawingFacts(ctx.profile), ctx.profile.name, ctx.Domain());
  };
  out->push_back(
      {.name = std::string(kCreate) + ".size_matches_layout",
       .routine = kCreate,
       .description =
           "a valid info succeeds, and io_attr dims, size (bytes) and type of A, B, C equal the "
           "§4.1 table for the layout (segmented B: sum of segments); documented rows of spec "
           "rknn.md §7.1 and §3.3 match",
       .choices = kCreateChoices,
       .explicit_cases =
           [](const PropertyContext& ctx) { return Only(ctx, CreateExplicit(ctx), true); },
       .generator = valid_info,
       .check = CheckCreateLayout});
  out->push_back(
      {.name = std::string(kCreate) + ".device_observed",
       .routine = kCreate,
       .description =
           "rests on device evidence: every create a device ran (spec rknn.md §3.2a, runtime "
           "logs users posted) is created or rejected as it was there, with the sizes the log "
           "shows",
       .choices = kCreateChoices,
       .not_applicable = [](const Profile& p) -> std::string {
         return DeviceRows(p).empty() ? "no device log of this platform (spec rknn.md §3.2a)" : "";
       },
       .explicit_cases =
           [](const PropertyContext& ctx) {
             std::vector<Case> cases;
             for (const DeviceRow& row : DeviceRows(ctx.profile)) cases.push_back(row.c);
             return cases;
           },
       .check = CheckDeviceRow,
       .basis = "device logs (spec rknn.md §3.2a)"});
  out->push_back(
      {.name = std::string(kCreate) + ".capacity_ge_logical",
       .routine = kCreate,
       .description =
           "every io_attr size of a valid info holds at least the logical matrix's bytes (int4: "
           "half bytes)",
       .choices = kCreateChoices,
       .explicit_cases =
           [](const PropertyContext& ctx) { return Only(ctx, RealCreateCases(ctx), true); },
       .generator = valid_info,
       .check = CheckCreateCapacity});
  out->push_back(
      {.name = std::string(kCreate) + ".rejects_invalid",
       .routine = kCreate,
       .description =
           "an invalid rknn_matmul_info gives RKNN_ERR_PARAM_INVALID (-5) and leaves io_attr "
           "untouched (spec rknn.md §1.1-§3.2, §5.4, §7.3)",
       .choices = kCreateChoices,
       .explicit_cases =
           [](const PropertyContext& ctx) { return Only(ctx, CreateExplicit(ctx), false); },
       .generator =
           [](const PropertyContext& ctx) {
             return gen::rknn::InvalidInfo(DrawingFacts(ctx.profile), ctx.profile.name,
                                           ctx.Domain());
           },
       .check = CheckCreateRejects});
  std::vector<std::string> dynamic_choices = kCreateChoices;
  dynamic_choices.push_back("rknn.dynamic.varying_dims");
  auto valid_dynamic = [](const PropertyContext& ctx) {
    return gen::rknn::ValidDynamic(DrawingFacts(ctx.profile), ctx.profile.name, ctx.Domain());
  };
  auto valid_explicit = [](const PropertyContext& ctx) {
    return Only(ctx, DynamicExplicit(ctx), true);
  };
  out->push_back(
      {.name = std::string(kDynamic) + ".matches_oracle",
       .routine = kDynamic,
       .description =
           "a valid call gives one io_attr per shape as create gives it, and capacity = max "
           "size over the shapes (spec rknn.md §4.3)",
       .choices = dynamic_choices,
       .explicit_cases = valid_explicit,
       .generator = valid_dynamic,
       .check = [](const PropertyContext& ctx, const Case& c) {
         return CheckDynamic(ctx, c, false);
       }});
  out->push_back(
      {.name = std::string(kDynamic) + ".capacity_ge_every_shape",
       .routine = kDynamic,
       .description = "each buffer's capacity is at least every shape's size (valid calls)",
       .choices = dynamic_choices,
       .explicit_cases = valid_explicit,
       .generator = valid_dynamic,
       .check = [](const PropertyContext& ctx, const Case& c) {
         return CheckDynamic(ctx, c, true);
       }});
  out->push_back(
      {.name = std::string(kDynamic) + ".rejects_invalid",
       .routine = kDynamic,
       .description =
           "no shapes, K or N varying across shapes with NORM/NATIVE B, or a shape create "
           "rejects give RKNN_ERR_PARAM_INVALID (-5); outputs untouched (spec rknn.md §1.10, "
           "§4.3)",
       .choices = dynamic_choices,
       .explicit_cases =
           [](const PropertyContext& ctx) { return Only(ctx, DynamicExplicit(ctx), false); },
       .generator =
           [](const PropertyContext& ctx) {
             return gen::rknn::InvalidDynamic(DrawingFacts(ctx.profile), ctx.profile.name,
                                              ctx.Domain());
           },
       .check = CheckDynamicRejects});
}

}  // namespace npuconf
