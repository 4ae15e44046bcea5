// Realistic faults of host conv-weight code (spec layouts.md §A.9, §A.10, §A.4,
// §A.12): cann.md's three-way group factor, fp32's C0 8 of aclnn TransData (D1),
// a truncating fp32 → fp16 cast, checks in the wrong order or with the wrong
// code, the N mod groups rest kept, a size in bytes, padding left as found.
// Each is the reference with one knob turned.
#include "mutants/cann_convweight_mutants.h"

#include <algorithm>
#include <cstring>
#include <numeric>

#include "core/abi_view.h"
#include "core/float16.h"
#include "core/profile.h"
#include "core/routines/cann_convweight.h"
#include "core/status.h"
#include "reference/cann_convweight/conv_weight.h"
#include "reference/cann_convweight/conv_weight_port.h"

namespace npuconf {
namespace {

using namespace cann_convweight;
namespace ids = routines::cann_convweight;

enum class Bug {
  kThreeWayMin,
  kCoutRoundsUp,
  kSizeInBytes,
  kGroupsPast65535Invalid,
  kZeroDimBeforeDtype,
  kRankBeforeNullSize,
  kFp32Truncated,
  kFp32C0Is8,
  kPaddingUnwritten,
  kZeroFillPastEnd,
  kRejectedWritesOut,
  kDimsInElements,
  kEmptyRejected,
  kCastFp32C0Is16,
  kCastNullSrc161001,
  kCastPairBeforeDtype,
};

int32_t Reference(const npuconf_case* c, int64_t* status, char* message, uint64_t bytes) {
  return CannConvWeightReferenceCall(c, status, message, bytes);
}

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

// The grouped FRACTAL_Z of §A.4 with C0 `c0`, its factor and cout per knob.
struct Geometry {
  int64_t n, cin, h, w, groups, cout, e, c1, cout_padded, g_blocks;
  Shape storage;
  int64_t elems;
};
Geometry GeometryOf(const Shape& s, int64_t groups, int64_t c0, bool three_way, bool cout_up) {
  Geometry g{};
  g.n = s[0], g.cin = s[1], g.h = s[2], g.w = s[3], g.groups = groups;
  g.cout = cout_up ? CeilDiv(g.n, groups) : g.n / groups;
  const int64_t cin_factor = std::lcm(g.cin, c0) / g.cin;
  const int64_t cout_factor = std::lcm(g.cout, int64_t{16}) / g.cout;
  g.e = three_way ? std::min({cin_factor, cout_factor, groups})
                  : std::min(std::lcm(cin_factor, cout_factor), groups);
  g.c1 = CeilDiv(g.e * g.cin, c0);
  g.cout_padded = CeilDiv(g.e * g.cout, 16) * 16;
  g.g_blocks = CeilDiv(groups, g.e);
  g.storage = {g.g_blocks * g.c1 * g.h * g.w, g.cout_padded / 16, 16, c0};
  g.elems = g.storage[0] * g.storage[1] * 16 * c0;
  return g;
}

bool AnyZero(const Shape& s) {
  return std::any_of(s.begin(), s.end(), [](int64_t d) { return !d; });
}

template <Bug kBug>
int32_t SizeCall(const npuconf_case* c, int64_t* status, char* message, uint64_t message_bytes) {
  const CaseView view(c);
  const Profile* profile = FindProfile(view.profile());
  const auto shape = view.IntList("shape");
  npuconf_tensor* out = view.Output("weight_tensor_size");
  if (!profile || !out) return Reference(c, status, message, message_bytes);
  const ConvWeightFacts facts = ReadConvWeightFacts(profile->raw);
  const int64_t groups = view.Int("groups").value_or(1);
  const bool transposed = view.Int("transposed").value_or(0) != 0;
  if (kBug == Bug::kRankBeforeNullSize && shape && shape->size() != 4) {
    *status = cann::kAclnnErrParamInvalid;  // rank checked before `size == nullptr`
    return NPUCONF_CALL_ANSWERED;
  }
  if (kBug == Bug::kZeroDimBeforeDtype && shape && out->data && shape->size() == 4 && !transposed &&
      groups != 0 && facts.conv_weight_supported && AnyZero(*shape) &&
      std::none_of(shape->begin(), shape->end(), [](int64_t d) { return d < 0; })) {
    const uint64_t zero = 0;  // the empty exit taken before the dataType check
    std::memcpy(out->data, &zero, 8);
    SetOutputShape(out, {});
    *status = cann::kAclnnSuccess;
    return NPUCONF_CALL_ANSWERED;
  }
  const int32_t r = Reference(c, status, message, message_bytes);
  if (r != NPUCONF_CALL_ANSWERED) return r;
  if (kBug == Bug::kGroupsPast65535Invalid && *status == cann::kAclnnErrInnerNullptr)
    *status = cann::kAclnnErrParamInvalid;
  if (*status != cann::kAclnnSuccess || !shape || AnyZero(*shape)) return r;
  uint64_t size = 0;
  std::memcpy(&size, out->data, 8);
  if (kBug == Bug::kSizeInBytes) size *= 2;
  if (kBug == Bug::kThreeWayMin) size = GeometryOf(*shape, groups, 16, true, false).elems;
  if (kBug == Bug::kCoutRoundsUp) size = GeometryOf(*shape, groups, 16, false, true).elems;
  std::memcpy(out->data, &size, 8);
  return r;
}

// The reference's arguments of a trans case (as reference/…/conv_weight_port.cpp reads them).

// fp32 → fp16 bits: round to nearest even, or (kFp32Truncated) the low 13
// mantissa bits dropped first (round toward zero for fp16 normals).
std::vector<uint8_t> ToHalf(const TransConvolutionWeightArgs& a, bool truncate) {
  const size_t elems = a.in_bytes / 4;
  std::vector<uint8_t> half(elems * 2);
  for (size_t i = 0; i < elems; ++i) {
    uint32_t bits;
    std::memcpy(&bits, a.in + i * 4, 4);
    if (truncate) bits &= ~uint32_t{0x1FFF};
    float f;
    std::memcpy(&f, &bits, 4);
    const uint16_t h = HalfBits(Half(f));
    std::memcpy(half.data() + i * 2, &h, 2);
  }
  return half;
}

template <Bug kBug>
int32_t TransCall(const npuconf_case* c, int64_t* status, char* message, uint64_t message_bytes) {
  const CaseView view(c);
  const Profile* profile = FindProfile(view.profile());
  npuconf_tensor* out = view.Output("weight_out");
  if (!profile || !out || !view.DTypeParam("dtype") || !view.Int("groups"))
    return Reference(c, status, message, message_bytes);
  const ConvWeightFacts facts = ReadConvWeightFacts(profile->raw);
  TransConvolutionWeightArgs a = TransConvolutionWeightArgsOf(view);
  Shape storage;
  if (kBug == Bug::kFp32Truncated && a.dtype == DType::kFloat && a.in) {
    const std::vector<uint8_t> half = ToHalf(a, true);
    a.dtype = DType::kFloat16;
    a.in = half.data();
    a.in_bytes = half.size();
    *status = TransConvolutionWeight(facts, a, &storage);
    if (*status == cann::kAclnnSuccess && !storage.empty()) SetOutputShape(out, storage);
    return NPUCONF_CALL_ANSWERED;
  }
  if (kBug == Bug::kPaddingUnwritten) {
    std::vector<uint8_t> scratch(out->bytes), probe(out->bytes);
    std::vector<uint8_t> ones(a.in_bytes);
    const size_t width = a.dtype == DType::kFloat ? 4 : 2;
    for (size_t i = 0; i + width <= ones.size(); i += width) {
      if (width == 4) {
        const float one = 1.0f;
        std::memcpy(ones.data() + i, &one, 4);
      } else {
        const uint16_t one = 0x3C00;
        std::memcpy(ones.data() + i, &one, 2);
      }
    }
    TransConvolutionWeightArgs real = a, probing = a;
    real.out = scratch.data();
    probing.out = probe.data();
    probing.in = a.in ? ones.data() : nullptr;
    *status = TransConvolutionWeight(facts, real, &storage);
    if (*status != cann::kAclnnSuccess || storage.empty()) return NPUCONF_CALL_ANSWERED;
    TransConvolutionWeight(facts, probing, &storage);
    auto* d = static_cast<uint8_t*>(out->data);
    for (size_t b = 0; b + 1 < probe.size(); b += 2) {
      if (probe[b] | probe[b + 1]) std::memcpy(d + b, scratch.data() + b, 2);
    }
    SetOutputShape(out, storage);
    return NPUCONF_CALL_ANSWERED;
  }
  const int32_t r = Reference(c, status, message, message_bytes);
  if (r != NPUCONF_CALL_ANSWERED) return r;
  if (kBug == Bug::kEmptyRejected && *status == cann::kAclnnSuccess && !a.null_in &&
      AnyZero(a.shape))
    *status = cann::kAclnnErrParamInvalid;  // "an empty side" rejected, both empty included
  if (kBug == Bug::kRejectedWritesOut && *status != cann::kAclnnSuccess && out->data)
    std::memset(out->data, 0, static_cast<size_t>(out->bytes));
  if (*status != cann::kAclnnSuccess || !out->data || a.null_in || AnyZero(a.shape)) return r;
  if (kBug == Bug::kZeroFillPastEnd) {
    // The zero-fill covers one more C0 row of 16 fp16 (32 bytes) than the storage.
    std::memset(static_cast<uint8_t*>(out->data) + out->bytes, 0, 32);
  }
  if (kBug == Bug::kDimsInElements && out->rank == 4) {
    // Reports dim 1 as Cout' in elements instead of Cout'/16 blocks.
    SetOutputShape(out, {out->dims[0], out->dims[1] * 16, 16, 16});
  }
  if (kBug == Bug::kFp32C0Is8 && a.dtype == DType::kFloat && a.in) {
    // aclnn TransData's C0 for FLOAT (32 B / 4, §A.0.1, D1) taken for the cast weight.
    const std::vector<uint8_t> half = ToHalf(a, false);
    const Geometry g = GeometryOf(a.shape, a.groups, 8, false, false);
    auto* d = static_cast<uint8_t*>(out->data);
    std::memset(d, 0, static_cast<size_t>(out->bytes));
    const int64_t hw = g.h * g.w;
    int64_t src = 0;
    for (int64_t nt = 0; nt < g.groups * g.cout; ++nt) {
      const int64_t gi = nt / g.cout, n = nt % g.cout, ev = gi % g.e;
      for (int64_t ch = 0; ch < g.cin; ++ch) {
        const int64_t ci = ev * g.cin + ch, co = ev * g.cout + n;
        for (int64_t p = 0; p < hw; ++p, ++src) {
          const int64_t row = ((gi / g.e) * g.c1 + ci / 8) * hw + p;
          const int64_t offset = row * g.cout_padded * 8 + co * 8 + ci % 8;
          if (static_cast<uint64_t>(offset * 2 + 2) <= out->bytes)
            std::memcpy(d + offset * 2, half.data() + src * 2, 2);
        }
      }
    }
    SetOutputShape(out, g.storage);
  }
  return r;
}

template <Bug kBug>
int32_t CastCall(const npuconf_case* c, int64_t* status, char* message, uint64_t message_bytes) {
  const CaseView view(c);
  const Profile* profile = FindProfile(view.profile());
  if (!profile) return Reference(c, status, message, message_bytes);
  const ConvWeightFacts facts = ReadConvWeightFacts(profile->raw);
  const auto shape = view.IntList("shape");
  const std::string src = view.String("src_format").value_or("");
  const std::string dst = view.String("dst_format").value_or("");
  if (kBug == Bug::kCastNullSrc161001 && facts.format_cast_supported && !shape) {
    *status = cann::kAclnnErrParamNullptr;  // the 161001 of other aclnn APIs (D12)
    return NPUCONF_CALL_ANSWERED;
  }
  if (kBug == Bug::kCastPairBeforeDtype && facts.format_cast_supported && shape) {
    static const std::vector<std::pair<std::string, std::string>> kPairs = {
        {"NCHW", "NC1HWC0"},       {"NHWC", "NC1HWC0"},      {"NCHW", "FRACTAL_Z"},
        {"HWCN", "FRACTAL_Z"},     {"NCDHW", "NDC1HWC0"},    {"NDHWC", "NDC1HWC0"},
        {"NCDHW", "FRACTAL_Z_3D"}, {"DHWCN", "FRACTAL_Z_3D"}};
    bool branch = false;
    for (const auto& [plain, blocked] : kPairs) {
      branch |= (src == plain && dst == blocked) || (src == blocked && dst == plain);
    }
    if (!branch) {
      *status = cann::kAclnnErrRuntimeError;  // the pair checked before the dtype list
      return NPUCONF_CALL_ANSWERED;
    }
  }
  const int32_t r = Reference(c, status, message, message_bytes);
  if (kBug != Bug::kCastFp32C0Is16 || r != NPUCONF_CALL_ANSWERED || *status != 0 || !shape)
    return r;
  // GE/TSU's C0 16 for 4-byte dtypes (§A.0.1, D1) in place of NFC's 32 / sizeof = 8.
  const DType c0_dtype = view.DTypeParam("additional_dtype")
                             .value_or(view.DTypeParam("dtype").value_or(DType::kFloat16));
  if (c0_dtype != DType::kFloat && c0_dtype != DType::kInt32) return r;
  FormatCastArgs a{.shape = *shape,
                   .src_format = src,
                   .dst_format = dst,
                   .dtype = *view.DTypeParam("dtype"),
                   .additional_dtype = DType::kFloat16};
  FormatCastResult res;
  if (NpuFormatCastCalculateSizeAndFormat(facts, a, &res) != 0) return r;
  npuconf_tensor* dims = view.Output("dst_shape");
  if (!dims || dims->bytes < res.dst_shape.size() * 8) return r;
  std::memcpy(dims->data, res.dst_shape.data(), res.dst_shape.size() * 8);
  return r;
}

}  // namespace

void AddCannConvWeightMutants(std::vector<Mutant>* out) {
  const ReferenceFamily* family = &CannConvWeightReference();
  auto add = [&](const char* name, const char* bug, const std::string& routine,
                 const char* property, const char* profile, PortCallPtr call) {
    out->push_back({.name = name,
                    .bug = bug,
                    .caught_by = routine + "." + property,
                    .profile = profile,
                    .family = family,
                    .call = call,
                    .routines = {routine}});
  };
  const std::string size = ids::kCalculateConvolutionWeightSize;
  const std::string trans = ids::kTransConvolutionWeight;
  const std::string cast = ids::kNpuFormatCastCalculateSizeAndFormat;
  add("convweight-three-way-min",
      "the group factor e is cann.md's three-way min(Cin factor, cout factor, g), not "
      "min(lcm(…), g) (§A.4, D3)",
      size, "matches_oracle", "ascend310p", &SizeCall<Bug::kThreeWayMin>);
  add("convweight-cout-rounds-up",
      "cout = ceil(N / groups): the N mod groups rest is kept instead of dropped (§A.4 hazard 4)",
      size, "matches_oracle", "ascend310p", &SizeCall<Bug::kCoutRoundsUp>);
  add("convweight-size-in-bytes", "the size is returned in bytes of fp16, not elements (§A.9)",
      size, "matches_oracle", "ascend310p", &SizeCall<Bug::kSizeInBytes>);
  add("convweight-groups-past-65535-161002",
      "groups > 65535 returns 161002 instead of TransData's 561103 (§A.9, D13 as shipped)", size,
      "rejects_invalid", "ascend310p", &SizeCall<Bug::kGroupsPast65535Invalid>);
  add("convweight-zero-dim-before-dtype",
      "a zero dim exits with size 0 before the dataType check (§A.9 order)", size,
      "rejects_invalid", "ascend310p", &SizeCall<Bug::kZeroDimBeforeDtype>);
  add("convweight-rank-before-null-size",
      "the rank is checked before size == nullptr (161002 for §A.9's 161001)", size,
      "rejects_invalid", "ascend310p", &SizeCall<Bug::kRankBeforeNullSize>);
  add("convweight-fp32-truncated",
      "fp32 weights are cast to fp16 by truncation, not round to nearest even (§A.9)", trans,
      "matches_oracle", "ascend310p", &TransCall<Bug::kFp32Truncated>);
  add("convweight-fp32-c0-8",
      "an fp32 weight is packed with C0 8 (aclnn TransData's FLOAT C0, §A.0.1 D1), not fp16's 16",
      trans, "matches_oracle", "ascend310p", &TransCall<Bug::kFp32C0Is8>);
  add("convweight-padding-unwritten", "FRACTAL_Z padding keeps what the buffer held (§A.4)", trans,
      "padding_is_zero", "ascend310p", &TransCall<Bug::kPaddingUnwritten>);
  add("convweight-zero-fill-past-end", "the zero-fill covers 32 bytes past the FRACTAL_Z storage",
      trans, "no_write_past_capacity", "ascend310p", &TransCall<Bug::kZeroFillPastEnd>);
  add("convweight-rejected-writes-out", "a rejected call zero-fills weightOut", trans,
      "rejects_invalid", "ascend310p", &TransCall<Bug::kRejectedWritesOut>);
  add("convweight-dims-in-elements",
      "weightOut's storage dim 1 is reported as Cout' elements, not Cout'/16 blocks", trans,
      "size_law", "ascend310p", &TransCall<Bug::kDimsInElements>);
  add("convweight-empty-rejected",
      "both sides empty return 161002 (any empty side rejected), not SUCCESS with weightOut "
      "untouched (§A.9)",
      trans, "empty_leaves_out_untouched", "ascend310p", &TransCall<Bug::kEmptyRejected>);
  add("formatcast-fp32-c0-16",
      "FLOAT/INT32 take GE's C0 16 (§A.0.1, D1) for NFC's 32 / sizeof = 8 (§A.10)", cast,
      "matches_oracle", "ascend910b", &CastCall<Bug::kCastFp32C0Is16>);
  add("formatcast-null-src-161001",
      "a null srcTensor returns 161001, not the shipped 161002 (§A.10, D12)", cast,
      "rejects_invalid", "ascend910b", &CastCall<Bug::kCastNullSrc161001>);
  add("formatcast-pair-before-dtype",
      "an unsupported pair (361001) is checked before the src dtype list (161002, §A.10 order)",
      cast, "rejects_invalid", "ascend910b", &CastCall<Bug::kCastPairBeforeDtype>);
}

}  // namespace npuconf
