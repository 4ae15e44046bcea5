#include "reference/cann_convweight/conv_weight.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "core/float16.h"
#include "core/routines/cann_convweight.h"
#include "core/status.h"

namespace npuconf::cann_convweight {
namespace {

using namespace npuconf::cann;  // the aclnn status codes

constexpr int64_t kC0 = 16;            // §A.9: FLOAT16, C0 = 32 B / 2 (§A.0.1 aclnn l0 TransData)
constexpr int64_t kCubeRows = 16;      // §A.3: Cout padded to 16
constexpr int64_t kMaxGroups = 65535;  // §A.4 hazard 5: groups > 65535 → nullptr
constexpr int64_t kBlockBytes = 32;    // §A.0.1: NFC C0 = 32 / sizeof

bool GroupsRejectedUpFront(const ConvWeightFacts& facts, int64_t groups) {
  if (groups == 0) return true;  // §A.9: the only groups check in the code
  return facts.groups_as_documented && (groups < 1 || groups > kMaxGroups);
}

bool AnyDim(const Shape& s, bool (*pred)(int64_t)) { return std::any_of(s.begin(), s.end(), pred); }
bool Negative(int64_t d) { return d < 0; }
bool Zero(int64_t d) { return d == 0; }

// §A.9's CheckParams, shared by both conv-weight APIs.
int64_t CheckConvParams(const ConvWeightFacts& facts, const Shape& shape, bool transposed,
                        int64_t groups) {
  if (shape.size() != 4) return kAclnnErrParamInvalid;
  if (transposed) return kAclnnErrParamInvalid;
  if (GroupsRejectedUpFront(facts, groups)) return kAclnnErrParamInvalid;
  if (!facts.conv_weight_supported) return kAclnnErrParamInvalid;
  return kAclnnSuccess;
}

// After the empty-tensor exit: TransData's nullptr, then npuconf's own rejections.
int64_t CheckGroupsForTransData(int64_t groups) {
  if (groups > kMaxGroups) return kAclnnErrInnerNullptr;
  if (groups < 0) return kAclnnErrParamInvalid;  // undefined upstream (as_shipped)
  return kAclnnSuccess;
}

uint16_t ToHalfBits(const uint8_t* src, DType dtype, int64_t index) {
  if (dtype == DType::kFloat16) {
    uint16_t bits;
    std::memcpy(&bits, src + index * 2, 2);
    return bits;
  }
  float f;
  std::memcpy(&f, src + index * 4, 4);
  return HalfBits(Half(f));  // round to nearest even (Eigen::half)
}

int64_t SizeOfDType(DType d) {
  switch (d) {
    case DType::kInt8:
    case DType::kUint8:
    case DType::kFloat8E4M3Fn:
    case DType::kHiFloat8:
      return 1;
    case DType::kFloat16:
    case DType::kBf16:
      return 2;
    case DType::kFloat:
    case DType::kInt32:
      return 4;
    default:
      return 0;  // outside §A.10's list
  }
}

std::optional<int32_t> FormatNumber(const std::string& name) {
  for (const auto& f : routines::cann_convweight::kFormats) {
    if (name == f.name) return f.number;
  }
  return std::nullopt;
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

}  // namespace

ConvWeightFacts ReadConvWeightFacts(const nlohmann::json& raw) {
  ConvWeightFacts f;
  if (!raw.contains("conv_weight")) return f;
  const auto& s = raw.at("conv_weight");
  f.conv_weight_supported = s.at("supported").at("value").get<bool>();
  f.groups_as_documented = s.at("groups_range").at("value") == "as_documented";
  f.format_cast_supported = s.at("format_cast_supported").at("value").get<bool>();
  f.format_cast_empty_fallback = s.at("format_cast_empty_fallback").at("value").get<bool>();
  f.format_cast_null_src_status = s.at("format_cast_null_src_status").at("value").get<int64_t>();
  return f;
}

bool ConvFzGeometryFor(const Shape& nchw, int64_t groups, ConvFzGeometry* g) {
  if (nchw.size() != 4 || groups < 1) return false;
  g->n = nchw[0];
  g->cin = nchw[1];
  g->h = nchw[2];
  g->w = nchw[3];
  g->groups = groups;
  g->cout = g->n / groups;
  if (g->cout < 1 || g->cin < 1 || g->h < 1 || g->w < 1) return false;
  // §A.4 (§A.0 item 1): e = min(lcm(lcm(Cin,C0)/Cin, lcm(cout,16)/cout), g).
  const int64_t cin_factor = std::lcm(g->cin, kC0) / g->cin;
  const int64_t cout_factor = std::lcm(g->cout, kCubeRows) / g->cout;
  g->e = std::min(std::lcm(cin_factor, cout_factor), groups);
  auto cin_e = CheckedMul(g->e, g->cin), cout_e = CheckedMul(g->e, g->cout);
  if (!cin_e || !cout_e) return false;
  g->c1 = CeilDiv(*cin_e, kC0);
  g->cout_padded = CeilDiv(*cout_e, kCubeRows) * kCubeRows;
  g->g_blocks = CeilDiv(groups, g->e);
  auto rows = CheckedMul(g->g_blocks, g->c1);
  if (rows) rows = CheckedMul(*rows, g->h);
  if (rows) rows = CheckedMul(*rows, g->w);
  if (!rows) return false;
  g->storage = {*rows, g->cout_padded / kCubeRows, kCubeRows, kC0};
  auto elems = NumElements(g->storage);
  if (!elems) return false;
  g->storage_elems = *elems;
  return true;
}

int64_t CalculateConvolutionWeightSize(const ConvWeightFacts& facts, const Shape* shape,
                                       bool transposed, int64_t groups, DType dtype,
                                       uint64_t* size_elems) {
  if (shape == nullptr) return kAclnnErrParamNullptr;
  if (size_elems == nullptr) return kAclnnErrParamNullptr;
  if (int64_t s = CheckConvParams(facts, *shape, transposed, groups); s != kAclnnSuccess) return s;
  if (dtype != DType::kFloat16) return kAclnnErrParamInvalid;
  if (AnyDim(*shape, Negative)) return kAclnnErrParamInvalid;
  if (AnyDim(*shape, Zero)) {
    *size_elems = 0;
    return kAclnnSuccess;
  }
  if (int64_t s = CheckGroupsForTransData(groups); s != kAclnnSuccess) return s;
  ConvFzGeometry g;
  if (!ConvFzGeometryFor(*shape, groups, &g)) return kAclnnErrParamInvalid;
  *size_elems = static_cast<uint64_t>(g.storage_elems);
  return kAclnnSuccess;
}

int64_t TransConvolutionWeight(const ConvWeightFacts& facts, const TransConvolutionWeightArgs& a,
                               Shape* storage) {
  if (a.null_in) return kAclnnErrParamNullptr;
  if (a.null_out) return kAclnnErrParamNullptr;
  if (int64_t s = CheckConvParams(facts, a.shape, a.transposed, a.groups); s != kAclnnSuccess)
    return s;
  if (a.dtype != DType::kFloat16 && a.dtype != DType::kFloat) return kAclnnErrParamInvalid;
  if (a.out_dtype != DType::kFloat16) return kAclnnErrParamInvalid;
  if (a.in_format != "NCHW" || a.out_format != "NCHW") return kAclnnErrParamInvalid;
  if (!a.out_contiguous) return kAclnnErrParamInvalid;
  if (AnyDim(a.shape, Negative) || AnyDim(a.out_shape, Negative)) return kAclnnErrParamInvalid;
  const bool in_empty = AnyDim(a.shape, Zero);
  const bool out_empty = a.out_shape.empty() || AnyDim(a.out_shape, Zero);
  if (in_empty != out_empty) return kAclnnErrParamInvalid;
  if (in_empty) return kAclnnSuccess;  // workspace 0, weightOut untouched
  if (int64_t s = CheckGroupsForTransData(a.groups); s != kAclnnSuccess) return s;
  ConvFzGeometry g;
  if (!ConvFzGeometryFor(a.shape, a.groups, &g)) return kAclnnErrParamInvalid;
  const int64_t in_elems = a.shape[0] * a.shape[1] * a.shape[2] * a.shape[3];
  const uint64_t in_elem_bytes = a.dtype == DType::kFloat ? 4 : 2;
  if (!a.in || !a.out || a.in_bytes < static_cast<uint64_t>(in_elems) * in_elem_bytes ||
      a.out_bytes < static_cast<uint64_t>(g.storage_elems) * 2) {
    return kAclnnErrParamInvalid;
  }
  // Zero-fill, then one pass over the source in order (§A.4 element map): the
  // source rows past groups·cout are never read (§A.4 hazard 4).
  std::memset(a.out, 0, static_cast<size_t>(g.storage_elems) * 2);
  auto* out = reinterpret_cast<uint8_t*>(a.out);
  const int64_t hw = g.h * g.w, row_elems = g.cout_padded * kC0;
  int64_t src = 0;
  for (int64_t n_total = 0; n_total < g.groups * g.cout; ++n_total) {
    const int64_t g_idx = n_total / g.cout, n = n_total % g.cout;
    const int64_t ev = g_idx % g.e, block = g_idx / g.e;
    const int64_t co = ev * g.cout + n;
    for (int64_t c = 0; c < g.cin; ++c) {
      const int64_t ci = ev * g.cin + c;
      const int64_t plane = (block * g.c1 + ci / kC0) * hw;
      for (int64_t p = 0; p < hw; ++p, ++src) {
        const int64_t offset = (plane + p) * row_elems + co * kC0 + ci % kC0;
        const uint16_t bits = ToHalfBits(a.in, a.dtype, src);
        std::memcpy(out + offset * 2, &bits, 2);
      }
    }
  }
  *storage = g.storage;
  return kAclnnSuccess;
}

int64_t NpuFormatCastCalculateSizeAndFormat(const ConvWeightFacts& facts, const FormatCastArgs& a,
                                            FormatCastResult* result) {
  if (!facts.format_cast_supported) return kAclnnErrParamInvalid;
  if (a.null_src) return facts.format_cast_null_src_status;
  const int64_t src_size = SizeOfDType(a.dtype);
  if (src_size == 0) return kAclnnErrParamInvalid;
  if (facts.format_cast_empty_fallback && AnyDim(a.shape, Zero)) return kAclnnErrRuntimeError;
  const auto src_number = FormatNumber(a.src_format), dst_number = FormatNumber(a.dst_format);
  if (!src_number || !dst_number) return kAclnnErrRuntimeError;
  struct Branch {
    const char* plain;
    const char* blocked;
  };
  static const Branch kBranches[] = {{"NCHW", "NC1HWC0"},       {"NHWC", "NC1HWC0"},
                                     {"NCHW", "FRACTAL_Z"},     {"HWCN", "FRACTAL_Z"},
                                     {"NCDHW", "NDC1HWC0"},     {"NDHWC", "NDC1HWC0"},
                                     {"NCDHW", "FRACTAL_Z_3D"}, {"DHWCN", "FRACTAL_Z_3D"}};
  const Branch* forward = nullptr;
  const Branch* reverse = nullptr;
  for (const Branch& b : kBranches) {
    if (a.src_format == b.plain && a.dst_format == b.blocked) forward = &b;
    if (a.src_format == b.blocked && a.dst_format == b.plain) reverse = &b;
  }
  if (!forward && !reverse) return kAclnnErrRuntimeError;
  if (AnyDim(a.shape, Negative)) return kAclnnErrParamInvalid;
  if (reverse) {
    result->dst_shape = a.shape;
    result->actual_format = *dst_number;
    return kAclnnSuccess;
  }
  const int64_t c0_size = a.additional_dtype ? SizeOfDType(*a.additional_dtype) : src_size;
  if (c0_size == 0) return kAclnnErrParamInvalid;
  const int64_t c0 = kBlockBytes / c0_size;
  const std::string plain = forward->plain;
  const bool three_d = plain.size() == 5;
  if (a.shape.size() != (three_d ? 5u : 4u)) return kAclnnErrParamInvalid;
  // The axes of the plain format by letter (§A.1, §A.3, §A.6, §A.7).
  auto axis = [&](char letter) { return a.shape[plain.find(letter)]; };
  const int64_t n = axis('N'), c = axis('C'), h = axis('H'), w = axis('W');
  const int64_t d = three_d ? axis('D') : 1;
  const int64_t c1 = CeilDiv(c, c0), n1 = CeilDiv(n, kCubeRows);
  const std::string blocked = forward->blocked;
  if (blocked == "NC1HWC0") {
    result->dst_shape = {n, c1, h, w, c0};
  } else if (blocked == "FRACTAL_Z") {
    result->dst_shape = {c1 * h * w, n1, kCubeRows, c0};
  } else if (blocked == "NDC1HWC0") {
    result->dst_shape = {n, d, c1, h, w, c0};
  } else {
    result->dst_shape = {d * c1 * h * w, n1, kCubeRows, c0};
  }
  result->actual_format = *dst_number;
  return kAclnnSuccess;
}

}  // namespace npuconf::cann_convweight
