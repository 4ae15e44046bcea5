// The RKNN native tensor family's conformance side: how each routine's cases
// become buffers (capacities from the oracle's native dims and the profile's
// C2), and the family as registered in cli/families.cpp.
#include "conformance/rknn_native/family.h"

#include <algorithm>

#include "conformance/harness/materialize.h"
#include "conformance/rknn_native/support.h"

namespace npuconf {
namespace {

using namespace rknn_native_props;

// An invalid call (rank, dims, dtype the routine must reject). Where the shape
// is 4-D and positive the buffers fit it with any C2 up to 64 lanes (a port
// that wrongly accepts the call can write it, and rejects_invalid sees that);
// else 64 bytes each.
constexpr uint64_t kInvalidBytes = 64;

Invocation Invalid(const Case& c, const std::string& in, DType in_dtype, const std::string& out,
                   DType out_dtype) {
  uint64_t in_bytes = kInvalidBytes, out_bytes = kInvalidBytes;
  const Shape s = RequireShape(c, "shape");
  if (s.size() == 4 && std::all_of(s.begin(), s.end(), [](int64_t d) { return d >= 1; })) {
    const int64_t channels = IsNhwc(c.routine) ? s[3] : s[1];
    const int64_t lanes = (channels + 63) / 64 * 64;
    const uint64_t pixels =
        static_cast<uint64_t>(s[0] * (IsNhwc(c.routine) ? s[1] * s[2] : s[2] * s[3]));
    const uint64_t in_bits = static_cast<uint64_t>(Bits(in_dtype)),
                   out_bits = static_cast<uint64_t>(Bits(out_dtype));
    const bool in_plain = IsToNative(c.routine);
    in_bytes = pixels * static_cast<uint64_t>(in_plain ? channels : lanes) * in_bits / 8;
    out_bytes = pixels * static_cast<uint64_t>(in_plain ? lanes : channels) * out_bits / 8;
    if (in_bytes > (uint64_t{1} << 20) || out_bytes > (uint64_t{1} << 20))
      in_bytes = out_bytes = kInvalidBytes;
  }
  Invocation inv{c, {}, {}};
  inv.inputs.push_back(
      {in,
       in_dtype,
       {static_cast<int64_t>(in_bytes * 8 / static_cast<uint64_t>(Bits(in_dtype)))},
       RandomBytes(Seed(c), in_bytes)});
  inv.outputs.push_back({out, out_dtype, out_bytes, false, {}});
  return inv;
}

Invocation LayoutInvocation(const Case& c, const Profile& profile) {
  RequireShape(c, "shape");
  const std::string plain = IsNhwc(c.routine) ? "nhwc" : "nchw";
  const bool to_native = IsToNative(c.routine);
  const std::string in = to_native ? plain : "nc1hwc2", out = to_native ? "nc1hwc2" : plain;
  NativeGeometry g;
  try {
    g = GeometryOf(c, profile);
  } catch (const CaseTooLarge&) {
    throw;
  } catch (const CaseError&) {
    const DType d = c.DTypeParam("dtype").value_or(DType::kInt8);
    return Invalid(c, in, d, out, d);
  }
  Invocation inv{c, {}, {}};
  // Random bytes everywhere, the pad lanes of a native input included: a
  // conversion back must ignore them.
  inv.inputs.push_back({in, g.dtype, to_native ? g.logical : g.native_dims,
                        RandomBytes(Seed(c), to_native ? g.plain_bytes : g.native_bytes)});
  inv.outputs.push_back({out, g.dtype, to_native ? g.native_bytes : g.plain_bytes, false, {}});
  return inv;
}

Invocation DequantInvocation(const Case& c, const Profile& profile) {
  RequireShape(c, "shape");
  const auto zp = c.Int("zp").value_or(0);
  NativeGeometry g;
  try {
    g = GeometryOf(c, profile);
  } catch (const CaseTooLarge&) {
    throw;
  } catch (const CaseError&) {
    return Invalid(c, "nc1hwc2", DType::kInt8, "nchw", DType::kFloat);
  }
  if (zp < INT32_MIN || zp > INT32_MAX)
    return Invalid(c, "nc1hwc2", DType::kInt8, "nchw", DType::kFloat);
  Invocation inv{c, {}, {}};
  inv.inputs.push_back(
      {"nc1hwc2", DType::kInt8, g.native_dims, RandomBytes(Seed(c), g.native_bytes)});
  inv.outputs.push_back(
      {"nchw", DType::kFloat, ElemBytes(DType::kFloat, g.plain_elems, g.logical), false, {}});
  return inv;
}

// The zero-copy pack: src dense NHWC, dst of the oracle's size_with_stride.
// An invalid call whose shape is 4-D and positive gets buffers that fit its
// shape at max(W, |w_stride|) pixels a row, so a port that wrongly accepts it
// can write it (rejects_invalid sees that); else 64 bytes each.
Invocation PackInvocation(const Case& c, const Profile& profile) {
  const Shape s = RequireShape(c, "shape");
  try {
    const ZeroCopyGeometry g = ZeroCopyGeometryOf(c, profile);
    Invocation inv{c, {}, {}};
    inv.inputs.push_back({"src", g.dtype, g.logical, RandomBytes(Seed(c), g.plain_bytes)});
    inv.outputs.push_back({"dst", g.dtype, g.stored_bytes, false, {}});
    return inv;
  } catch (const CaseTooLarge&) {
    throw;
  } catch (const CaseError&) {
  }
  const DType d = c.DTypeParam("dtype").value_or(DType::kUint8);
  const uint64_t elem = static_cast<uint64_t>(std::max(8, Bits(d)) / 8);
  uint64_t in_bytes = kInvalidBytes, out_bytes = kInvalidBytes;
  const int64_t w_stride = c.Int("w_stride").value_or(0);
  auto small = [](int64_t x) { return x >= 1 && x <= (1 << 20); };
  if (s.size() == 4 && std::all_of(s.begin(), s.end(), small) && w_stride > -(1 << 20) &&
      w_stride < (1 << 20)) {
    const __int128 ws = std::max<int64_t>(s[2], w_stride < 0 ? -w_stride : w_stride);
    const __int128 rows = static_cast<__int128>(s[0]) * s[1];
    const __int128 in = rows * s[2] * s[3] * elem, out = rows * ws * s[3] * elem;
    if (in <= (1 << 20) && out <= (1 << 20)) {
      in_bytes = static_cast<uint64_t>(in);
      out_bytes = static_cast<uint64_t>(out);
    }
  }
  Invocation inv{c, {}, {}};
  inv.inputs.push_back(
      {"src", d, {static_cast<int64_t>(in_bytes / elem)}, RandomBytes(Seed(c), in_bytes)});
  inv.outputs.push_back({"dst", d, out_bytes, false, {}});
  return inv;
}

Invocation SizeInvocation(const Case& c, const Profile&) {
  RequireShape(c, "shape");
  Invocation inv{c, {}, {}};
  inv.outputs.push_back({"attr", DType::kUint64, 16, false, {}});
  return inv;
}

const RoutineSpec* Spec(const char* id) {
  for (const auto& spec : routines::rknn_native::Specs()) {
    if (spec.id == id) return &spec;
  }
  return nullptr;
}

}  // namespace

Family RknnNativeFamily() {
  Family family{.name = "rknn_native", .add_properties = AddProperties};
  for (const char* layout :
       {ids::kNchwToNc1hwc2, ids::kNc1hwc2ToNchw, ids::kNhwcToNc1hwc2, ids::kNc1hwc2ToNhwc}) {
    family.routines.push_back({Spec(layout), LayoutInvocation});
  }
  family.routines.push_back({Spec(ids::kNc1hwc2Int8ToNchwFloat), DequantInvocation});
  family.routines.push_back({Spec(ids::kNc1hwc2Size), SizeInvocation});
  family.routines.push_back({Spec(ids::kNhwcZeroCopyPack), PackInvocation});
  return family;
}

}  // namespace npuconf
