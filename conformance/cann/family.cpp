// The CANN family's conformance side (spec cann.md §1–2): how each routine's
// cases become buffers, and the family as registered in cli/families.cpp.
#include "conformance/cann/family.h"

#include "conformance/cann/support.h"
#include "conformance/harness/materialize.h"
#include "core/prng.h"
#include "core/status.h"
#include "oracles/cann/fractal_nz_oracle.h"
#include "oracles/cann/validation_oracle.h"

namespace npuconf {
namespace {

using namespace cann_props;

Invocation SizeCase(const Case& c, const Profile&) {
  Invocation inv{c, {}, {}};
  const ParamValue* shape = c.Find("shape");
  if (!shape ||
      (shape->kind != ParamValue::Kind::kIntList && shape->kind != ParamValue::Kind::kNull)) {
    throw CaseError("case needs shape=[d0,d1,...] or shape=null");
  }
  if (c.routine == kV2) RequireDType(c, "dtype");
  OutputSpec out{"weight_tensor_size",
                 DType::kUint64,
                 sizeof(uint64_t),
                 OutputIsNull(c, "weight_tensor_size"),
                 {}};
  inv.outputs.push_back(out);
  return inv;
}

// Capacity of the in-place buffer: the V2 size in elements (16×16 for 2-byte
// floats, 16×32 otherwise; spec cann.md §1.2) times the element size — what
// the vendor docs tell a caller to allocate (§2.1). An invalid shape still gets
// room for its ND data, so rejections can be checked for "untouched".
Invocation TransCase(const Case& c, const Profile& profile) {
  Invocation inv{c, {}, {}};
  const Shape shape = RequireShape(c, "shape");
  const DType dtype = RequireDType(c, "dtype");
  uint64_t capacity = 0;
  bool any_negative = false;
  for (int64_t d : shape) any_negative |= d < 0;
  if (!any_negative) {
    auto nd_elems = NumElements(shape);
    if (!nd_elems) throw CaseError("shape " + ToString(shape) + " overflows int64");
    capacity = ElemBytes(dtype, *nd_elems, shape);
    const bool half = dtype == DType::kFloat16 || dtype == DType::kBf16;
    if (shape.size() >= 2) {
      if (auto v2 = oracle::cann::PaddedWeightElems(shape, half ? 16 : 32)) {
        capacity = std::max(capacity, ElemBytes(dtype, *v2, shape));
      }
    }
  }
  OutputSpec out{"mm_weight_ref", dtype, capacity, OutputIsNull(c, "mm_weight_ref"), {}};
  auto nd_elems = NumElements(shape);
  // A call the validation oracle rejects (rank, dtype, format, SoC; spec
  // cann.md §2.2) never reads the weight, so it gets no PRNG content: the 7-D
  // unit-test case T4 (§2.4) would fill 1 GiB for a check of its rank. Its
  // buffer holds the sentinel (core/buffer.h) instead; "left untouched" is
  // checked against that the same way.
  oracle::cann::TransCall call{.null_tensor = out.null,
                               .dtype = dtype,
                               .format = c.String("format").value_or("ND"),
                               .view_shape = shape};
  const bool rejected =
      profile.cann && oracle::cann::ExpectTrans(*profile.cann, call).status != cann::kAclnnSuccess;
  if (!any_negative && nd_elems && !rejected) {
    out.initial = RandomBytes(Seed(c), ElemBytes(dtype, *nd_elems, shape));
  }
  inv.outputs.push_back(std::move(out));
  return inv;
}

Invocation LayoutCase(const Case& c, const Profile& profile, bool to_nz) {
  if (!profile.cann)
    throw CaseError("routine " + c.routine + " needs a CANN profile, not '" + profile.name + "'");
  Invocation inv{c, {}, {}};
  const Shape shape = RequireShape(c, "shape");
  const DType dtype = RequireDType(c, "dtype");
  if (const ParamValue* c0_param = c.Find("c0")) {
    if (c0_param->kind != ParamValue::Kind::kInt || c0_param->i <= 0 || c0_param->i > 4096 ||
        (Bits(dtype) == 4 && c0_param->i % 2 != 0)) {
      throw CaseError("c0=" + c0_param->ToText() +
                      " is not a C0 (a positive integer up to 4096, "
                      "even for INT4)");
    }
  }
  const int64_t c0 = CaseC0(c, profile);
  if (c0 <= 0) throw CaseError("no C0 for dtype " + std::string(Name(dtype)) + "; pass c0=N");
  // The storage shape [B…, C1, N1, 16, C0] has rank + 2 dims (rank 1: 4).
  if (shape.size() + 2 > NPUCONF_MAX_RANK) {
    throw CaseError("shape " + ToString(shape) + " of rank " + std::to_string(shape.size()) +
                    ": its FRACTAL_NZ storage rank exceeds NPUCONF_MAX_RANK (" +
                    std::to_string(NPUCONF_MAX_RANK) + ")");
  }
  auto storage = oracle::cann::NzStorageShape(shape, c0);
  if (!storage) throw CaseError("shape " + ToString(shape) + " has no FRACTAL_NZ form");
  auto nd_elems = NumElements(shape);
  auto nz_elems = NumElements(*storage);
  if (!nd_elems || !nz_elems) throw CaseError("shape " + ToString(shape) + " overflows int64");
  const uint64_t nd_bytes = ElemBytes(dtype, *nd_elems, shape);
  const uint64_t nz_bytes = ElemBytes(dtype, *nz_elems, *storage);
  if (to_nz) {
    inv.inputs.push_back({"nd", dtype, shape, RandomBytes(Seed(c), nd_bytes)});
    inv.outputs.push_back({"nz", dtype, nz_bytes, false, {}});
  } else {
    // Random bytes in the padding too: an unpack must ignore it.
    inv.inputs.push_back({"nz", dtype, *storage, RandomBytes(Seed(c), nz_bytes)});
    inv.outputs.push_back({"nd", dtype, nd_bytes, false, {}});
  }
  return inv;
}

}  // namespace

namespace {

Invocation PackCase(const Case& c, const Profile& profile) { return LayoutCase(c, profile, true); }
Invocation UnpackCase(const Case& c, const Profile& profile) {
  return LayoutCase(c, profile, false);
}

const RoutineSpec* Spec(const char* id) {
  for (const auto& spec : routines::cann::Specs()) {
    if (spec.id == id) return &spec;
  }
  return nullptr;
}

void AddProperties(std::vector<Property>* out) {
  AddSizeProperties(out);
  AddLayoutProperties(out);
}

}  // namespace

namespace cann_props {
int64_t CaseC0(const Case& c, const Profile& profile) {
  if (auto c0 = c.Int("c0")) return *c0;
  auto dtype = c.DTypeParam("dtype");
  if (!dtype || !profile.cann) return 0;
  auto it = profile.cann->nz_c0.find(*dtype);
  return it == profile.cann->nz_c0.end() ? 0 : it->second;
}

}  // namespace cann_props

namespace {

// A layout case that leaves c0 out takes the profile's C0 for its dtype
// (profile fractal_nz.c0, readings applied; spec cann.md §2.5).
std::optional<ParamValue> NzEffective(const Case& c, const Profile& profile,
                                      const ParamSpec& param) {
  if (param.key != "c0") return std::nullopt;
  const int64_t c0 = cann_props::CaseC0(c, profile);
  if (c0 <= 0) return std::nullopt;
  return ParamValue::Int(c0);
}

}  // namespace

Family CannFamily() {
  return {.name = "cann",
          .routines = {{Spec(kLegacy), SizeCase, ExpectSizeAnswer},
                       {Spec(kV2), SizeCase, ExpectSizeAnswer},
                       {Spec(kTrans), TransCase, ExpectTransAnswer},
                       {Spec(kPack), PackCase, ExpectNzAnswer, NzEffective},
                       {Spec(kUnpack), UnpackCase, ExpectNzAnswer, NzEffective}},
          .add_properties = AddProperties,
          .add_coverage = AddCannCoverage};
}

}  // namespace npuconf
