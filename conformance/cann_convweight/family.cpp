// The CANN conv-weight family (spec layouts.md §A.9, §A.10, §A.4): how each
// routine's cases become buffers (capacities from the ORACLE's layout), the
// oracle's answers for vector files, the FRACTAL_Z storage map, and the family
// as registered in cli/families.cpp.
#include "conformance/cann_convweight/family.h"

#include <cstring>

#include "conformance/harness/materialize.h"
#include "core/routines/cann_convweight.h"
#include "core/status.h"
#include "verify/storage_map.h"

namespace npuconf {
namespace cann_convweight_props {

namespace orc = oracle::cann_convweight;
namespace ids = routines::cann_convweight;

oracle::cann_convweight::Expect ExpectOf(const Profile& profile, const Case& c) {
  if (!profile.cann || !profile.raw.contains("conv_weight"))
    throw CaseError("routine " + c.routine + " needs a CANN profile with conv_weight facts, not '" +
                    profile.name + "'");
  if (c.routine == ids::kCalculateConvolutionWeightSize)
    return orc::ExpectConvolutionWeightSize(profile.raw, c);
  if (c.routine == ids::kTransConvolutionWeight)
    return orc::ExpectTransConvolutionWeight(profile.raw, c);
  return orc::ExpectFormatCast(profile.raw, c);
}

}  // namespace cann_convweight_props

namespace {

using namespace cann_convweight_props;
namespace orc = oracle::cann_convweight;
namespace ids = routines::cann_convweight;

// A call without a layout (a rejection, the both-empty exit): room that must
// stay untouched.
constexpr uint64_t kUntouchedBytes = 64;
// dst_shape's capacity: 8 dims of int64 (the routine spec's "capacity 8 dims").
constexpr uint64_t kDstShapeBytes = 8 * sizeof(int64_t);

void RequireShapeOrNull(const Case& c) {
  const ParamValue* shape = c.Find("shape");
  if (!shape ||
      (shape->kind != ParamValue::Kind::kIntList && shape->kind != ParamValue::Kind::kNull)) {
    throw CaseError("case needs shape=[d0,d1,...] or shape=null");
  }
}

Invocation SizeCase(const Case& c, const Profile&) {
  RequireShapeOrNull(c);
  RequireDType(c, "dtype");
  RequireInt(c, "groups");
  Invocation inv{c, {}, {}};
  inv.outputs.push_back({"weight_tensor_size",
                         DType::kUint64,
                         sizeof(uint64_t),
                         OutputIsNull(c, "weight_tensor_size"),
                         {}});
  return inv;
}

// Finite FLOAT weights (the routine spec's "FLOAT: finite values"): the seed's
// bytes with each exponent moved into [2^-20, 2^12), which spans fp16's
// subnormals, normals and every rounding of the cast.
Bytes WeightBytes(uint64_t seed, DType dtype, uint64_t bytes) {
  Bytes data = RandomBytes(seed, bytes);
  if (dtype != DType::kFloat) return data;
  for (size_t i = 0; i + 4 <= data.size(); i += 4) {
    uint32_t bits;
    std::memcpy(&bits, data.data() + i, 4);
    const uint32_t exponent = 107 + ((bits >> 23) & 31);  // 2^-20 … 2^11
    bits = (bits & 0x807FFFFFu) | (exponent << 23);
    std::memcpy(data.data() + i, &bits, 4);
  }
  return data;
}

bool PacksLayout(const orc::Expect& x) { return x.status == 0 && !x.dims.empty(); }

Invocation TransCase(const Case& c, const Profile& profile) {
  RequireShapeOrNull(c);
  const DType dtype = RequireDType(c, "dtype");
  RequireInt(c, "groups");
  const orc::Expect x = ExpectOf(profile, c);
  const bool null_out = OutputIsNull(c, "weight_out");
  Invocation inv{c, {}, {}};
  if (!PacksLayout(x)) {
    // Nothing is read (§A.9: a rejection, or both sides empty): no data.
    inv.inputs.push_back({"weight_in", dtype, {}, {}});
    inv.outputs.push_back({"weight_out", DType::kFloat16, kUntouchedBytes, null_out, {}});
    return inv;
  }
  const Shape shape = *c.IntList("shape");
  const auto in_elems = NumElements(shape);
  if (!in_elems) throw CaseError("shape " + ToString(shape) + " overflows int64");
  const uint64_t in_bytes = ElemBytes(dtype, *in_elems, shape);
  const uint64_t out_bytes = ElemBytes(DType::kFloat16, static_cast<int64_t>(x.size), x.dims);
  inv.inputs.push_back({"weight_in", dtype, shape, WeightBytes(Seed(c), dtype, in_bytes)});
  inv.outputs.push_back({"weight_out", DType::kFloat16, out_bytes, null_out, {}});
  return inv;
}

Invocation CastCase(const Case& c, const Profile&) {
  RequireShapeOrNull(c);
  RequireDType(c, "dtype");
  if (!c.String("src_format") || !c.String("dst_format"))
    throw CaseError("case needs src_format=F and dst_format=F");
  Invocation inv{c, {}, {}};
  inv.outputs.push_back({"dst_shape", DType::kInt64, kDstShapeBytes, false, {}});
  inv.outputs.push_back({"dst_shape_size", DType::kUint64, sizeof(uint64_t), false, {}});
  inv.outputs.push_back({"actual_format", DType::kInt32, sizeof(int32_t), false, {}});
  return inv;
}

// Each FRACTAL_Z element: its block (c1·h·w row, N1 block), its place (n0, c0)
// and the NCHW element it holds, from the oracle's own map: the oracle packs
// the source indices (as fp16 bit patterns, 15 bits a pass, bit 15 set so
// no index is 0) and the zeros it leaves are the padding.
class ConvFzMap : public verify::StorageMap {
 public:
  ConvFzMap(const Shape& nchw, int64_t groups, Shape dims) : nchw_(nchw), dims_(std::move(dims)) {
    const int64_t in_elems = *NumElements(nchw);
    for (int shift = 0; shift == 0 || (in_elems - 1) >> shift; shift += 15) {
      Bytes index(static_cast<size_t>(in_elems) * 2);
      for (int64_t i = 0; i < in_elems; ++i) {
        const uint16_t bits = static_cast<uint16_t>(0x8000 | ((i >> shift) & 0x7FFF));
        std::memcpy(index.data() + i * 2, &bits, 2);
      }
      const std::vector<uint16_t> placed = orc::GroupedFz(index, DType::kFloat16, nchw, groups);
      if (from_.empty()) from_.assign(placed.size(), 0);
      for (size_t s = 0; s < placed.size(); ++s) {
        if (placed[s] != 0) from_[s] |= int64_t{placed[s] & 0x7FFF} << shift;
        if (shift == 0 && placed[s] != 0) from_[s] += int64_t{1} << 62;  // "not padding"
      }
    }
  }
  int64_t elements() const override { return static_cast<int64_t>(from_.size()); }
  std::string logical_name() const override { return "NCHW"; }
  int64_t block_elements() const override { return 16 * 16; }
  verify::Place Locate(int64_t i) const override {
    verify::Place place;
    const int64_t n1 = dims_[1];
    place.block = {{"c1hw", i / (n1 * 256), dims_[0]}, {"n1", i / 256 % n1, n1}};
    place.within = {{"n0", i / 16 % 16, 16}, {"c0", i % 16, 16}};
    const int64_t from = from_[static_cast<size_t>(i)];
    place.padding = from == 0;
    if (!place.padding) {
      int64_t src = from - (int64_t{1} << 62);
      const char* axes[] = {"n", "c", "h", "w"};
      std::vector<verify::Coord> logical(4);
      for (size_t d = 4; d-- > 0;) {
        logical[d] = {axes[d], src % nchw_[d], nchw_[d]};
        src /= nchw_[d];
      }
      place.logical = logical;
    }
    return place;
  }

 private:
  Shape nchw_, dims_;
  std::vector<int64_t> from_;  // source index + 2^62, or 0 for padding
};

}  // namespace

namespace cann_convweight_props {

LayoutInstance TransInstance(const Case& c, const Profile& profile) {
  const orc::Expect x = ExpectOf(profile, c);
  if (!PacksLayout(x))
    throw CaseError("not a packing cann.trans_convolution_weight call: " + x.rule);
  const Shape shape = *c.IntList("shape");
  const int64_t groups = *c.Int("groups");
  const DType dtype = *c.DTypeParam("dtype");
  const int64_t in_elems = *NumElements(shape);
  const int64_t out_elems = static_cast<int64_t>(x.size);
  // The case's buffers, the oracle's answer and the map (8 bytes a storage element).
  const uint64_t bytes = static_cast<uint64_t>(in_elems) * (dtype == DType::kFloat ? 6 : 4) +
                         static_cast<uint64_t>(out_elems) * (2 * 3 + 8);
  if (bytes > MaxCaseBytes()) throw CaseTooLarge(bytes, MaxCaseBytes());
  LayoutInstance l;
  l.input = "weight_in";
  l.output = "weight_out";
  l.input_codec = {dtype, false};
  l.output_codec = {DType::kFloat16, false};
  l.input_elems = in_elems;
  l.output_elems = out_elems;
  l.output_dims = x.dims;
  l.output_map = std::make_shared<ConvFzMap>(shape, groups, x.dims);
  l.oracle = [shape, groups, dtype](const Bytes& in) {
    const std::vector<uint16_t> bits = orc::GroupedFz(in, dtype, shape, groups);
    Bytes out(bits.size() * 2);
    std::memcpy(out.data(), bits.data(), out.size());
    return out;
  };
  return l;
}

}  // namespace cann_convweight_props

namespace {

Bytes LittleEndian(const void* p, size_t n) {
  Bytes b(n);
  std::memcpy(b.data(), p, n);  // little-endian hosts only, as conformance/cann/expected.cpp
  return b;
}

Expected ExpectSizeAnswer(const PropertyContext& ctx, const Invocation& inv) {
  const orc::Expect x = ExpectOf(ctx.profile, inv.c);
  Expected e;
  e.rule = x.rule;
  e.status = x.status;
  if (x.status == 0) {
    e.outputs.push_back(
        {"weight_tensor_size", DType::kUint64, {}, LittleEndian(&x.size, sizeof(x.size))});
  } else if (!inv.outputs.at(0).null) {
    e.untouched.push_back("weight_tensor_size");
  }
  return e;
}

Expected ExpectTransAnswer(const PropertyContext& ctx, const Invocation& inv) {
  const orc::Expect x = ExpectOf(ctx.profile, inv.c);
  if (PacksLayout(x)) return ExpectLayout(TransInstance(inv.c, ctx.profile), 0, inv, x.rule);
  Expected e;
  e.rule = x.rule;
  e.status = x.status;
  if (!inv.outputs.at(0).null) e.untouched.push_back("weight_out");
  return e;
}

Expected ExpectCastAnswer(const PropertyContext& ctx, const Invocation& inv) {
  const orc::Expect x = ExpectOf(ctx.profile, inv.c);
  Expected e;
  e.rule = x.rule;
  e.status = x.status;
  if (x.status != 0) {
    e.untouched = {"dst_shape", "dst_shape_size", "actual_format"};
    return e;
  }
  const uint64_t rank = x.dims.size();
  e.outputs.push_back({"dst_shape",
                       DType::kInt64,
                       {static_cast<int64_t>(rank)},
                       LittleEndian(x.dims.data(), rank * sizeof(int64_t)),
                       Shape{static_cast<int64_t>(rank)}});
  e.outputs.push_back({"dst_shape_size", DType::kUint64, {}, LittleEndian(&rank, sizeof(rank))});
  e.outputs.push_back(
      {"actual_format", DType::kInt32, {}, LittleEndian(&x.actual_format, sizeof(int32_t))});
  return e;
}

const RoutineSpec* Spec(const char* id) {
  for (const auto& spec : ids::Specs()) {
    if (spec.id == id) return &spec;
  }
  return nullptr;
}

// out_shape left out is the shape param, additional_dtype the src dtype
// (the routine spec's defaults, core/routines/cann_convweight.cpp).
std::optional<ParamValue> Effective(const Case& c, const Profile&, const ParamSpec& param) {
  const char* from = param.key == "out_shape"          ? "shape"
                     : param.key == "additional_dtype" ? "dtype"
                                                       : nullptr;
  const ParamValue* value = from ? c.Find(from) : nullptr;
  if (!value) return std::nullopt;
  return *value;
}

}  // namespace

Family CannConvWeightFamily() {
  return {
      .name = "cann_convweight",
      .routines = {{Spec(ids::kCalculateConvolutionWeightSize), SizeCase, ExpectSizeAnswer},
                   {Spec(ids::kTransConvolutionWeight), TransCase, ExpectTransAnswer, Effective},
                   {Spec(ids::kNpuFormatCastCalculateSizeAndFormat), CastCase, ExpectCastAnswer,
                    Effective}},
      .add_properties = AddProperties,
      .add_coverage = AddCoverage};
}

}  // namespace npuconf
