// The CANN framework storage-shape family (spec layouts.md §A.0.2): how a
// cann.transfer_shape case becomes buffers, its properties, and the family as
// registered in cli/families.cpp.
#include "conformance/cann_transfer_shape/family.h"

#include <cstring>

#include "conformance/cann_transfer_shape/ut_rows.h"
#include "conformance/harness/call.h"
#include "conformance/harness/materialize.h"
#include "core/routines/cann_transdata.h"
#include "core/routines/cann_transfer_shape.h"
#include "generators/cann_transfer_shape.h"
#include "oracles/cann_transfer_shape/transfer_shape_oracle.h"

namespace npuconf {
namespace {

namespace ids = routines::cann_transfer_shape;
namespace orc = oracle::cann_transfer_shape;
namespace ut = cann_transfer_shape::ut;
namespace g = gen::cann_transfer_shape;
using ids::kTransferShape;
using ids::kTrue;

constexpr char kOutput[] = "storage_shape";
// Room for the largest storage rank (NPUCONF_MAX_RANK dims of INT64).
constexpr uint64_t kOutputBytes = NPUCONF_MAX_RANK * sizeof(int64_t);

bool CannWithFacts(const Profile& profile) {
  return profile.cann && profile.raw.contains("transfer_shape");
}

Invocation Materialize(const Case& c, const Profile& profile) {
  if (!CannWithFacts(profile))
    throw CaseError("routine " + c.routine + " needs a CANN profile, not '" + profile.name + "'");
  if (!c.IntList("shape")) throw CaseError("param shape (an int list) is required");
  Invocation inv{c, {}, {}};
  inv.outputs.push_back({kOutput, DType::kInt64, kOutputBytes, false, {}});
  return inv;
}

orc::TransferShapeQuery QueryOf(const Case& c) {
  return {.src_format = c.String("src_format").value_or(""),
          .dst_format = c.String("dst_format").value_or(""),
          .dtype = c.String("dtype").value_or(""),
          .shape = c.IntList("shape").value_or(Shape{}),
          .groups = c.Int("groups").value_or(1),
          .m0 = c.Int("m0").value_or(0)};
}

Bytes DimBytes(const Shape& dims) {
  Bytes out(dims.size() * sizeof(int64_t));
  if (!dims.empty()) std::memcpy(out.data(), dims.data(), out.size());
  return out;
}

Expected ExpectAnswer(const PropertyContext& ctx, const Invocation& inv) {
  const orc::TransferShapeAnswer a = orc::ExpectTransferShape(ctx.profile.raw, QueryOf(inv.c));
  Expected e;
  e.rule = a.rule;
  e.status = a.status;
  if (a.status != kTrue) {
    e.untouched.push_back(kOutput);
    return e;
  }
  const Shape rank = {static_cast<int64_t>(a.storage.size())};
  e.outputs.push_back({.name = kOutput,
                       .dtype = DType::kInt64,
                       .dims = rank,
                       .bytes = DimBytes(a.storage),
                       .reported_dims = rank});
  return e;
}

std::string Text(const Shape& s) { return ToString(s); }

// The port's status and, on true, the storage dims it wrote (INT64, reported dims [rank]).
struct Got {
  int64_t status = 0;
  Shape dims;
};
std::optional<Verdict> CallShape(const PropertyContext& ctx, const Case& c, Got* got) {
  Called k;
  if (auto v = CallPort(ctx, c, &k)) return v;
  const OutputResult& out = *k.answer.Output(kOutput);
  if (auto v = CheckGuards(out)) return v;
  got->status = k.answer.status;
  if (got->status != kTrue) {
    if (!Untouched(k.inv.outputs[0], out.contents()))
      return Verdict::Fail("storage_shape written although the status is " +
                           std::to_string(got->status));
    return std::nullopt;
  }
  if (out.dims.size() != 1 || out.dims[0] < 0 ||
      static_cast<uint64_t>(out.dims[0]) * sizeof(int64_t) > kOutputBytes) {
    return Verdict::Fail("storage_shape reported dims " + ReportedDims(out) +
                         ", expected [rank of the storage shape]");
  }
  got->dims.resize(static_cast<size_t>(out.dims[0]));
  if (!got->dims.empty())
    std::memcpy(got->dims.data(), out.contents().data(), got->dims.size() * sizeof(int64_t));
  return std::nullopt;
}

std::string Answer(int64_t status, const Shape& dims) {
  return status == kTrue ? "true " + Text(dims) : "status " + std::to_string(status);
}

Verdict CheckOracle(const PropertyContext& ctx, const Case& c) {
  const orc::TransferShapeAnswer want = orc::ExpectTransferShape(ctx.profile.raw, QueryOf(c));
  Got got;
  if (auto v = CallShape(ctx, c, &got)) return *v;
  if (got.status == want.status && (want.status != kTrue || got.dims == want.storage))
    return Verdict::Pass();
  return Verdict::Fail(Answer(got.status, got.dims) + "; the oracle's " +
                       Answer(want.status, want.storage) + " (" + want.rule + ")");
}

// ---- the TSU-UT rows ---------------------------------------------------------------------

const ut::UtRow* RowOf(const Case& c) {
  const orc::TransferShapeQuery q = QueryOf(c);
  for (const ut::UtRow& r : ut::kRows) {
    if (q.src_format == r.src_format && q.dst_format == r.dst_format && q.dtype == r.dtype &&
        q.groups == r.groups && (q.m0 == 0 ? 16 : q.m0) == r.m0 && q.shape == Shape(r.shape))
      return &r;
  }
  return nullptr;
}

Verdict CheckUtRow(const PropertyContext& ctx, const Case& c) {
  const ut::UtRow* row = RowOf(c);
  if (!row) return Verdict::Fail("no TSU-UT row has this case's params");
  Got got;
  if (auto v = CallShape(ctx, c, &got)) return *v;
  const std::string where =
      "TSU-UT transformer_transfer_shape_ut.cc @8d5a10a4 line " + std::to_string(row->line);
  // TransferShape returns a bool: true is status 0, false status 1.
  const int64_t want = row->expect_true ? kTrue : ids::kFalse;
  if (got.status != want)
    return Verdict::Fail("status " + std::to_string(got.status) + ", " + where + " expects " +
                         (row->expect_true ? "true" : "false"));
  if (row->expect_true && got.dims != Shape(row->expect))
    return Verdict::Fail(Text(got.dims) + ", " + where + " expects " + Text(Shape(row->expect)));
  return Verdict::Pass();
}

// ---- laws ----------------------------------------------------------------------------------

// Whether `target` reads the origin axis `letter` at all (§A.0.2 table: C1HWC0
// splits N, not C; FRACTAL_Z_C04 reads H, W, N; the 4-D targets drop D).
bool Reads(const std::string& target, char letter) {
  if (letter == 'C') return target != "C1HWC0" && target != "FRACTAL_Z_C04";
  if (letter == 'D') {
    return target == "NCDHW" || target == "NDHWC" || target == "DHWCN" || target == "DHWNC" ||
           target == "NDC1HWC0" || target == "FRACTAL_Z_3D" || target == "FRACTAL_Z_3D_TRANSPOSE" ||
           target == "ND" || target.rfind("FRACTAL_NZ", 0) == 0;
  }
  return true;
}

// §A.0.2 step 5: each dim set to -1 in turn; every storage dim is the known
// case's or -1, and some dim is -1 when the target reads that axis.
Verdict CheckUnknown(const PropertyContext& ctx, const Case& c) {
  Got known;
  if (auto v = CallShape(ctx, c, &known)) return *v;
  if (known.status != kTrue)
    return Verdict::Fail("status " + std::to_string(known.status) + " for a known shape");
  const Shape s = *c.IntList("shape");
  const std::string origin = *c.String("src_format"), target = *c.String("dst_format");
  const std::string letters = origin == "ND" ? "NCHW" : origin;
  for (size_t i = 0; i < s.size(); ++i) {
    Case u = c;
    Shape us = s;
    us[i] = -1;
    u.Set("shape", us);
    Got got;
    if (auto v = CallShape(ctx, u, &got)) return *v;
    const std::string what =
        Text(us) + " -> " + Answer(got.status, got.dims) + " (known " + Text(known.dims) + ")";
    if (got.status != kTrue || got.dims.size() != known.dims.size())
      return Verdict::Fail(what + ": an unknown dim must keep the result and the rank");
    bool some_unknown = false;
    for (size_t j = 0; j < got.dims.size(); ++j) {
      if (got.dims[j] == -1) {
        some_unknown = true;
      } else if (got.dims[j] != known.dims[j]) {
        return Verdict::Fail(what + ": storage dim " + std::to_string(j) +
                             " is neither -1 nor the known one");
      }
    }
    const bool nz = target.rfind("FRACTAL_NZ", 0) == 0;
    const char letter = i < letters.size() ? letters[i] : 'D';
    if (!some_unknown && (nz || Reads(target, letter)))
      return Verdict::Fail(what + ": the -1 did not propagate (§A.0.2 step 5)");
  }
  return Verdict::Pass();
}

// §A.0.2 step 5: a rank below the origin's axis need leaves the shape as it is, true.
Verdict CheckBelowNeed(const PropertyContext& ctx, const Case& c) {
  Got got;
  if (auto v = CallShape(ctx, c, &got)) return *v;
  const Shape s = *c.IntList("shape");
  if (got.status == kTrue && got.dims == s) return Verdict::Pass();
  return Verdict::Fail(Answer(got.status, got.dims) + ", expected true " + Text(s) +
                       " (a rank below the origin's need is left unchanged, §A.0.2 step 5)");
}

// The trans_data C0 fact (as claimed) of `dtype`, or 0 where trans_data has none.
int64_t TransDataC0(const Profile& p, const std::string& dtype) {
  const auto& t = p.raw.at("trans_data").at("c0").at("value");
  return t.contains(dtype) ? t.at(dtype).get<int64_t>() : 0;
}

// The dtypes whose trans_data C0 equals TSU's K0 on `p`: fp32/INT32 only while
// cann.trans_data.fp32_c0 reads 16 (§A.1 "Known disagreements", D1), INT8/UINT8
// while int8_c0 reads 32 (D2); for FRACTAL_Z_C04 only those whose K0 is 16 while
// cann.trans_data.fz_c04_c0 reads fixed_16 (D7).
std::vector<std::string> AgreeingDTypes(const Profile& p, const std::string& target = "") {
  std::vector<std::string> out;
  const bool fixed_16 =
      target == "FRACTAL_Z_C04" && p.raw.at("trans_data").at("fz_c04_c0").at("value") == "fixed_16";
  for (const char* d : {"FLOAT16", "BF16", "FLOAT", "INT32", "INT8", "UINT8"}) {
    const int64_t td = fixed_16 && TransDataC0(p, d) ? 16 : TransDataC0(p, d);
    if (td && td == orc::C0OfQuery(p.raw, {.dst_format = "NC1HWC0", .dtype = d})) out.push_back(d);
  }
  return out;
}

// The origin of a trans_data law case: NCDHW for the 3-D targets (§A.6, §A.7).
std::string LawOrigin(const std::string& target) {
  return target == "NDC1HWC0" || target == "FRACTAL_Z_3D" ? "NCDHW" : "NCHW";
}

rc::Gen<Case> TransDataLawCase(const Profile& p, const CaseDomain& domain) {
  const std::string name = p.name;
  const std::vector<std::string> dtypes = AgreeingDTypes(p);
  const g::K0Table k0 = g::K0Of(p);
  const std::vector<std::string> targets = {"NC1HWC0", "FRACTAL_Z", "NDC1HWC0", "FRACTAL_Z_3D",
                                            "FRACTAL_Z_C04"};
  return rc::gen::mapcat(
      rc::gen::pair(gen::PickIn(domain, "dst_format", targets),
                    gen::PickIn(domain, "dtype", dtypes)),
      [name, k0](const std::pair<std::string, std::string>& fd) {
        const std::string origin = LawOrigin(fd.first);
        // FRACTAL_Z_C04: C in 1..4, where trans_data accepts it (§A.5).
        const auto c04_c = fd.first == "FRACTAL_Z_C04" ? rc::gen::inRange<int64_t>(1, 5)
                                                       : rc::gen::just<int64_t>(0);
        return rc::gen::map(
            rc::gen::pair(g::AxisShape(origin, g::EdgeC0(k0, fd.first, fd.second), 1), c04_c),
            [name, fd, origin](const std::pair<Shape, int64_t>& sc) {
              Shape s = sc.first;
              if (sc.second > 0) s[1] = sc.second;
              Case c(kTransferShape, name);
              c.Set("src_format", origin)
                  .Set("dst_format", fd.first)
                  .Set("dtype", fd.second)
                  .Set("shape", s);
              return c;
            });
      });
}

// NCHW -> NC1HWC0 / FRACTAL_Z with dims >= 1: the storage dims equal what
// cann.trans_data reports for the same tensor, on the dtypes where both read
// the same C0 (AgreeingDTypes).
Verdict CheckTransData(const PropertyContext& ctx, const Case& c) {
  const std::string dtype = *c.String("dtype");
  const auto agree = AgreeingDTypes(ctx.profile, *c.String("dst_format"));
  if (std::find(agree.begin(), agree.end(), dtype) == agree.end())
    return Verdict::Skip("trans_data's C0 for " + dtype +
                         " differs from TSU's K0 on this profile (D1/D2)");
  Got got;
  if (auto v = CallShape(ctx, c, &got)) return *v;
  if (got.status != kTrue)
    return Verdict::Fail("status " + std::to_string(got.status) + " for NCHW dims >= 1");
  Case td(routines::cann_transdata::kTransData, c.profile);
  td.Set("src_format", *c.String("src_format"))
      .Set("dst_format", *c.String("dst_format"))
      .Set("dtype", dtype)
      .Set("shape", *c.IntList("shape"));
  if (!ctx.Inside(td)) return Verdict::OutsideClaims("cann.trans_data " + td.ToText());
  Called k;
  if (auto v = CallPort(ctx, td, &k)) return *v;
  const OutputResult& out = *k.answer.Output("dst");
  if (k.answer.status != routines::cann_transdata::kGeSuccess)
    return Verdict::Fail("cann.trans_data answered status " + std::to_string(k.answer.status));
  if (out.dims != got.dims)
    return Verdict::Fail("transfer_shape " + Text(got.dims) + ", trans_data reports " +
                         ReportedDims(out));
  return Verdict::Pass();
}

// ---- explicit cases ----------------------------------------------------------------------

Case RowCase(const ut::UtRow& r, const std::string& profile) {
  Case c(kTransferShape, profile);
  c.Set("src_format", r.src_format)
      .Set("dst_format", r.dst_format)
      .Set("dtype", r.dtype)
      .Set("shape", Shape(r.shape));
  if (r.groups != 1) c.Set("groups", r.groups);
  if (r.m0 != 16) c.Set("m0", r.m0);
  return c;
}

// Block edges the UT rows do not reach (C mod C0 in {0, 1, C0-1}, N mod 16, groups
// with e < g, 1-D / 2-D NZ, the spec's grouped example of §A.0 item 1).
std::vector<Case> EdgeCases(const Profile& p) {
  std::vector<Case> out;
  auto add = [&](const char* src, const char* dst, const char* dtype, Shape s, int64_t groups = 1) {
    Case c(kTransferShape, p.name);
    c.Set("src_format", src).Set("dst_format", dst).Set("dtype", dtype).Set("shape", s);
    if (groups != 1) c.Set("groups", groups);
    out.push_back(c);
  };
  add("NCHW", "FRACTAL_Z", "FLOAT16", {128, 2, 3, 3}, 8);  // §A.0 item 1: (9, 8, 16, 16)
  add("NCHW", "FRACTAL_Z", "FLOAT16", {16, 8, 1, 1}, 4);   // §A.4: (2, 1, 16, 16)
  add("NCHW", "FRACTAL_Z", "INT8", {32, 1, 1, 1}, 2);      // §A.4: (1, 2, 16, 32)
  add("NCHW", "FRACTAL_Z", "FLOAT16", {3, 5, 2, 2}, 4);    // N < groups: ungrouped (D6)
  add("NCHW", "FRACTAL_Z", "FLOAT16", {8, 0, 2, 2}, 2);    // grouped Cin 0: not modelled
  for (int64_t c : {16, 17, 31, 32, 33, 1}) add("NHWC", "NC1HWC0", "INT8", {1, 2, 2, c});
  for (int64_t n : {15, 16, 17}) add("HWCN", "FRACTAL_Z", "FLOAT", {3, 3, 5, n});
  add("ND", "FRACTAL_NZ", "INT8", {1});
  add("ND", "FRACTAL_NZ", "INT4", {2, 3, 17, 65});
  add("NCHW", "NCHW", "FLOAT16", {2, -3, 4, 4});  // a dim below -1: not modelled
  add("ND", "FRACTAL_ZN_LSTM", "FLOAT16", {-1, 80, 1, 1});
  add("NCDHW", "NC1HWC0", "FLOAT16", {2, 17, 3, 4, 5});      // D dropped
  add("NCHW", "FRACTAL_Z_3D", "FLOAT16", {2, 17, 4, 5});     // 4-D origin read as 5-D: not modelled
  add("NC1HWC0", "FRACTAL_Z", "FLOAT16", {2, 1, 4, 4, 16});  // no axis map: unchanged
  return out;
}

void AddProperties(std::vector<Property>* out) {
  auto applicable = [](const Profile& p) {
    return CannWithFacts(p) ? std::string()
                            : std::string("not a CANN profile with transfer_shape facts");
  };
  out->push_back(
      {.name = "cann.transfer_shape.matches_oracle",
       .routine = kTransferShape,
       .description =
           "status and storage dims equal the axis-algebra oracle's (spec layouts.md §A.0.2)",
       .not_applicable = applicable,
       .explicit_cases =
           [](const PropertyContext& ctx) {
             std::vector<Case> cases = EdgeCases(ctx.profile);
             for (Case& c : cann_transfer_shape_props::UtCases(ctx.profile))
               cases.push_back(std::move(c));
             return cases;
           },
       .generator =
           [](const PropertyContext& ctx) {
             return g::TransferShapeCase(ctx.profile, ctx.Domain(), g::Draw::kAny);
           },
       .check = CheckOracle});
  out->push_back({.name = "cann.transfer_shape.vendor_unit_test_rows",
                  .routine = kTransferShape,
                  .description =
                      "each TSU-UT EXPECT_RunTransferShape row (transformer_transfer_shape_ut.cc "
                      "@8d5a10a4): the UT's bool, and on true the UT's shape",
                  .not_applicable = applicable,
                  .explicit_cases =
                      [](const PropertyContext& ctx) {
                        return cann_transfer_shape_props::UtCases(ctx.profile);
                      },
                  .check = CheckUtRow});
  out->push_back(
      {.name = "cann.transfer_shape.unknown_dim_propagates",
       .routine = kTransferShape,
       .description =
           "a -1 in any origin dim leaves true and the rank, and every storage dim is -1 "
           "or the known case's, some -1 where the target reads the axis (§A.0.2 step 5)",
       .not_applicable = applicable,
       .generator =
           [](const PropertyContext& ctx) {
             return g::TransferShapeCase(ctx.profile, ctx.Domain(), g::Draw::kKnownDims);
           },
       .check = CheckUnknown});
  out->push_back({.name = "cann.transfer_shape.rank_below_need_unchanged",
                  .routine = kTransferShape,
                  .description =
                      "an origin shape of rank below its axis map's 4 (5 for the 3-D formats) is "
                      "left as it is, true (§A.0.2 step 5)",
                  .not_applicable = applicable,
                  .generator =
                      [](const PropertyContext& ctx) {
                        return g::TransferShapeCase(ctx.profile, ctx.Domain(), g::Draw::kBelowNeed);
                      },
                  .check = CheckBelowNeed});
  out->push_back(
      {.name = "cann.transfer_shape.agrees_with_trans_data",
       .routine = kTransferShape,
       .also_needs = {routines::cann_transdata::kTransData},
       .description =
           "NCHW -> NC1HWC0 / FRACTAL_Z / FRACTAL_Z_C04 (C <= 4), NCDHW -> NDC1HWC0 / "
           "FRACTAL_Z_3D with dims >= 1: the storage dims equal the dims cann.trans_data "
           "reports, on the dtypes whose trans_data C0 (as claimed) equals TSU's K0 (fp32 only "
           "under fp32_c0 16: §A.1 Known disagreements, D1; FRACTAL_Z_C04 per fz_c04_c0, D7)",
       .not_applicable = applicable,
       .generator =
           [](const PropertyContext& ctx) { return TransDataLawCase(ctx.profile, ctx.Domain()); },
       .check = CheckTransData});
}

const RoutineSpec* Spec() { return &ids::Specs().front(); }

}  // namespace

namespace cann_transfer_shape_props {
std::vector<Case> UtCases(const Profile& profile) {
  std::vector<Case> out;
  for (const ut::UtRow& r : ut::kRows) out.push_back(RowCase(r, profile.name));
  return out;
}
}  // namespace cann_transfer_shape_props

namespace {

// m0 left out is the profile's transfer_shape.m0 for the dtype (its "default"
// row for a dtype it does not list; [DtypeMKN], profile transfer_shape.m0).
std::optional<ParamValue> Effective(const Case& c, const Profile& profile, const ParamSpec& param) {
  const auto dtype = c.String("dtype");
  if (param.key != "m0" || !dtype) return std::nullopt;
  const auto section = profile.raw.find("transfer_shape");
  if (section == profile.raw.end() || !section->contains("m0")) return std::nullopt;
  const auto& table = section->at("m0").at("value");
  const auto row = table.contains(*dtype) ? table.find(*dtype) : table.find("default");
  if (row == table.end() || !row->is_number_integer()) return std::nullopt;
  return ParamValue::Int(row->get<int64_t>());
}

}  // namespace

Family CannTransferShapeFamily() {
  Family family{.name = "cann_transfer_shape", .add_properties = AddProperties};
  family.routines.push_back({Spec(), Materialize, ExpectAnswer, Effective});
  return family;
}

}  // namespace npuconf
