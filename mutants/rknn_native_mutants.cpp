// Deliberately wrong NC1HWC2 ports (spec layouts.md Part B): the reference
// port with one realistic fault each, the faults found in hand-written
// zero-copy converters (a C2 of another dtype or platform, the plane indexed
// w-major, the last C1 block packed densely, the zero point's sign, the scale
// applied before the zero point, the batch pointer never advanced, ...).
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "core/abi_view.h"
#include "core/profile.h"
#include "core/routines/rknn_native.h"
#include "core/status.h"
#include "mutants/mutants.h"
#include "reference/rknn_native/nc1hwc2.h"
#include "reference/rknn_native/nhwc_stride.h"
#include "reference/rknn_native/rknn_native_port.h"

namespace npuconf {
namespace {

namespace ids = routines::rknn_native;
using rknn_native::Nc1hwc2Geometry;

enum class Bug {
  kInt8C2ForEveryDtype,
  kRk3566C2,
  kPlaneWMajor,
  kLastBlockDense,
  kC1Floor,
  kBatchNotAdvanced,
  kClearsNativeBytes,
  kNhwcPixelStrideC2,
  kZpSignFlipped,
  kScaleBeforeZp,
  kFloatZpSubtraction,
  kCumulativeBatchPointer,
  kSizeIsNativeBytes,
  kSizeWithStrideUnaligned,
  kAnyDtypeSixteenBytes,
  kZeroCopyRowAdvanceW,
  kZeroCopyBatchStrideMissing,
  kNhwcSizeWithStrideIsW,
};

// The zero-copy faults (§B.4) on top of the reference's correct answer.
template <Bug kBug>
void ZeroCopyBug(const CaseView& view) {
  auto s = view.IntList("shape");
  auto ws = view.Int("w_stride");
  auto dtype = view.DTypeParam("dtype");
  if (!s || s->size() != 4 || !ws || !dtype) return;
  auto g =
      rknn_native::StrideGeometryFor((*s)[0], (*s)[1], (*s)[2], (*s)[3], *ws, Bits(*dtype) / 8);
  if (!g) return;
  if constexpr (kBug == Bug::kNhwcSizeWithStrideIsW) {
    // size_with_stride from W, not w_stride: the attr's size twice.
    if (npuconf_tensor* out = view.Output("attr")) {
      const uint64_t words[2] = {g->plain_bytes, g->plain_bytes};
      std::memcpy(out->data, words, sizeof(words));
    }
    return;
  }
  const auto* src = static_cast<const uint8_t*>(view.Input("src")->data);
  auto* dst = static_cast<uint8_t*>(view.Output("dst")->data);
  if constexpr (kBug == Bug::kZeroCopyRowAdvanceW) {
    // The destination advanced by W·C per row, as if w_stride were W: one dense copy.
    std::memcpy(dst, src, g->plain_bytes);
  } else {
    // Every batch written from the buffer's start (h·w_stride·C, no batch term):
    // batch 0's rows end up holding the last batch.
    for (int64_t n = 0; n < g->n; ++n) {
      for (int64_t h = 0; h < g->h; ++h) {
        std::memcpy(dst + h * g->stride_bytes, src + (n * g->h + h) * g->row_bytes, g->row_bytes);
      }
    }
  }
}

int32_t Reference(const npuconf_case* c, int64_t* status, char* message, uint64_t bytes) {
  return rknn_native::RknnNativeReferenceCall(c, status, message, bytes);
}

// The case's geometry with C2 given, read as the reference reads it.
std::optional<Nc1hwc2Geometry> Geometry(const CaseView& view, DType dtype, int64_t c2) {
  auto s = view.IntList("shape");
  if (!s || s->size() != 4) return std::nullopt;
  const bool nhwc = view.routine() == ids::kNhwcToNc1hwc2 || view.routine() == ids::kNc1hwc2ToNhwc;
  const Shape& d = *s;
  return rknn_native::Nc1hwc2GeometryFor(d[0], nhwc ? d[3] : d[1], nhwc ? d[1] : d[2],
                                         nhwc ? d[2] : d[3], c2, Bits(dtype) / 8);
}

// A layout answered with another C2 (the output as far as the caller's buffer goes).
int32_t LayoutWithC2(const CaseView& view, int64_t c2, int64_t* status) {
  auto dtype = view.DTypeParam("dtype");
  if (!dtype) return NPUCONF_CALL_BAD_CASE;
  auto g = Geometry(view, *dtype, c2);
  const std::string r = view.routine();
  const bool nhwc = r == ids::kNhwcToNc1hwc2;
  const npuconf_tensor* in = view.Input(nhwc ? "nhwc" : "nchw");
  npuconf_tensor* out = view.Output("nc1hwc2");
  if (!g || !in || !out || in->bytes < g->plain_bytes) {
    *status = rknn::kRknnErrParamInvalid;
    return NPUCONF_CALL_ANSWERED;
  }
  std::vector<uint8_t> scratch(g->native_bytes);
  nhwc ? rknn_native::NhwcToNc1hwc2(static_cast<const uint8_t*>(in->data), scratch.data(), *g)
       : rknn_native::NchwToNc1hwc2(static_cast<const uint8_t*>(in->data), scratch.data(), *g);
  std::memcpy(out->data, scratch.data(), std::min<uint64_t>(out->bytes, scratch.size()));
  SetOutputShape(out, g->native_dims);
  *status = rknn::kRknnSucc;
  return NPUCONF_CALL_ANSWERED;
}

const Profile* ProfileOf(const CaseView& view) { return FindProfile(view.profile()); }

int64_t C2Of(const CaseView& view, DType dtype) {
  const Profile* p = ProfileOf(view);
  if (!p || !p->rknn) return 0;
  auto it = p->rknn->nc1hwc2_c2.find(dtype);
  return it == p->rknn->nc1hwc2_c2.end() ? 0 : it->second;
}

template <Bug kBug>
int32_t MutantCall(const npuconf_case* c, int64_t* status, char* message, uint64_t bytes) {
  const CaseView view(c);
  const std::string r = view.routine();
  auto dtype = view.DTypeParam("dtype");
  switch (kBug) {
    case Bug::kInt8C2ForEveryDtype:
      // "C2 is 16": int8's lane count used for every dtype.
      if (dtype && C2Of(view, DType::kInt8) > 0) {
        return LayoutWithC2(view, C2Of(view, DType::kInt8), status);
      }
      break;
    case Bug::kRk3566C2: {
      // RK3566/RK3568's C2 (Table 4-6: 8 / 4 / 4) on every platform.
      const std::map<DType, int64_t> rk3566 = {
          {DType::kInt8, 8}, {DType::kFloat16, 4}, {DType::kInt16, 4}};
      if (dtype && rk3566.count(*dtype)) return LayoutWithC2(view, rk3566.at(*dtype), status);
      break;
    }
    case Bug::kAnyDtypeSixteenBytes:
      // C2 = 16 bytes / element size for any dtype: FLOAT (4 lanes) accepted.
      if (dtype && *dtype == DType::kFloat) return LayoutWithC2(view, 4, status);
      break;
    default:
      break;
  }
  const int32_t result = Reference(c, status, message, bytes);
  if (result != NPUCONF_CALL_ANSWERED || *status != rknn::kRknnSucc) return result;
  if constexpr (kBug == Bug::kZeroCopyRowAdvanceW || kBug == Bug::kZeroCopyBatchStrideMissing ||
                kBug == Bug::kNhwcSizeWithStrideIsW) {
    if (r == ids::kNhwcZeroCopyPack || view.String("fmt").value_or("") == "NHWC")
      ZeroCopyBug<kBug>(view);
    return result;
  }
  const DType d = dtype.value_or(DType::kInt8);
  auto g = Geometry(view, d, C2Of(view, d));
  if (!g) return result;
  const int64_t hw = g->h * g->w, eb = g->elem_bytes;
  switch (kBug) {
    case Bug::kPlaneWMajor:
      // The native plane indexed w·H + h (the NHWC postprocess's W and H swapped).
      if (npuconf_tensor* out = view.Output("nc1hwc2")) {
        auto* o = static_cast<uint8_t*>(out->data);
        std::vector<uint8_t> right(o, o + g->native_bytes);
        const int64_t px = g->c2 * eb;
        for (int64_t b = 0; b < g->n * g->c1; ++b) {
          for (int64_t h = 0; h < g->h; ++h) {
            for (int64_t w = 0; w < g->w; ++w) {
              std::memcpy(o + (b * hw + w * g->h + h) * px,
                          right.data() + (b * hw + h * g->w + w) * px, static_cast<size_t>(px));
            }
          }
        }
      }
      break;
    case Bug::kLastBlockDense:
      // The last C1 block holds only C mod C2 lanes per pixel: not padded.
      if (npuconf_tensor* out = view.Output("nc1hwc2"); out && g->c % g->c2 != 0) {
        auto* o = static_cast<uint8_t*>(out->data);
        const int64_t lanes = g->c % g->c2;
        for (int64_t n = 0; n < g->n; ++n) {
          uint8_t* block = o + ((n * g->c1 + g->c1 - 1) * hw * g->c2) * eb;
          for (int64_t p = 0; p < hw; ++p)
            std::memmove(block + p * lanes * eb, block + p * g->c2 * eb,
                         static_cast<size_t>(lanes * eb));
        }
      }
      break;
    case Bug::kC1Floor:
      // C1 = C / C2 rounded down: the channels of the last, partial block are never written.
      if (npuconf_tensor* out = view.Output("nchw"); out && g->c % g->c2 != 0) {
        auto* o = static_cast<uint8_t*>(out->data);
        for (int64_t n = 0; n < g->n; ++n) {
          std::memset(o + (n * g->c + (g->c1 - 1) * g->c2) * hw * eb, 0,
                      static_cast<size_t>((g->c % g->c2) * hw * eb));
        }
      }
      break;
    case Bug::kBatchNotAdvanced:
      // Every batch converted from batch 0's native block (the batch pointer never advanced).
      if (npuconf_tensor* out = view.Output("nchw"); out && g->n > 1) {
        auto* o = static_cast<uint8_t*>(out->data);
        const int64_t image = g->c * hw * eb;
        for (int64_t n = 1; n < g->n; ++n)
          std::memcpy(o + n * image, o, static_cast<size_t>(image));
      }
      break;
    case Bug::kClearsNativeBytes:
      // The NCHW destination cleared with the native buffer's size first:
      // past its end by up to 32 bytes.
      if (npuconf_tensor* out = view.Output("nchw"); out && g->native_bytes > g->plain_bytes) {
        std::memset(static_cast<uint8_t*>(out->data) + out->bytes, 0,
                    static_cast<size_t>(std::min<uint64_t>(32, g->native_bytes - g->plain_bytes)));
      }
      break;
    case Bug::kNhwcPixelStrideC2:
      // NHWC pixels read C1·C2 apart instead of C (the source taken as channel-aligned).
      if (npuconf_tensor* out = view.Output("nc1hwc2"); out && g->c % g->c2 != 0) {
        const auto* in = static_cast<const uint8_t*>(view.Input("nhwc")->data);
        auto* o = static_cast<uint8_t*>(out->data);
        const int64_t plain = g->plain_elems, stride = g->c1 * g->c2;
        for (int64_t n = 0; n < g->n; ++n) {
          for (int64_t c1 = 0; c1 < g->c1; ++c1) {
            for (int64_t p = 0; p < hw; ++p) {
              for (int64_t l = 0; l < g->c2 && c1 * g->c2 + l < g->c; ++l) {
                const int64_t src = n * hw * g->c + p * stride + c1 * g->c2 + l;
                uint8_t* dst = o + (((n * g->c1 + c1) * hw + p) * g->c2 + l) * eb;
                if (src < plain)
                  std::memcpy(dst, in + src * eb, static_cast<size_t>(eb));
                else
                  std::memset(dst, 0, static_cast<size_t>(eb));
              }
            }
          }
        }
      }
      break;
    case Bug::kZpSignFlipped:
    case Bug::kScaleBeforeZp:
    case Bug::kFloatZpSubtraction:
    case Bug::kCumulativeBatchPointer:
      if (r == ids::kNc1hwc2Int8ToNchwFloat) {
        const npuconf_param* sp = view.Param("scale");
        const float scale =
            static_cast<float>(!sp                             ? 0.125
                               : sp->kind == NPUCONF_PARAM_INT ? static_cast<double>(sp->i)
                                                               : sp->f);
        const auto zp = static_cast<int32_t>(view.Int("zp").value_or(0));
        const auto* q = static_cast<const int8_t*>(view.Input("nc1hwc2")->data);
        auto* y = static_cast<float*>(view.Output("nchw")->data);
        for (int64_t n = 0; n < g->n; ++n) {
          // The demo's batch pointer adds n images at image n (0, 1, 3, 6, ...),
          // wrapped here to stay inside the buffer: right for the first two only.
          const int64_t from = kBug == Bug::kCumulativeBatchPointer ? (n * (n + 1) / 2) % g->n : n;
          for (int64_t ch = 0; ch < g->c; ++ch) {
            for (int64_t p = 0; p < hw; ++p) {
              const int8_t v = q[((from * g->c1 + ch / g->c2) * hw + p) * g->c2 + ch % g->c2];
              float& out = y[(n * g->c + ch) * hw + p];
              if (kBug == Bug::kZpSignFlipped)
                out = static_cast<float>(int64_t{v} + zp) * scale;
              else if (kBug == Bug::kScaleBeforeZp)
                out = static_cast<float>(v) * scale - static_cast<float>(zp) * scale;
              else if (kBug == Bug::kFloatZpSubtraction)  // LdDl/rknn-runtime
                out = (static_cast<float>(v) - static_cast<float>(zp)) * scale;
              else
                out = static_cast<float>(int64_t{v} - zp) * scale;
            }
          }
        }
      }
      break;
    case Bug::kSizeIsNativeBytes:
    case Bug::kSizeWithStrideUnaligned:
      if (npuconf_tensor* out = view.Output("attr")) {
        uint64_t words[2];
        std::memcpy(words, out->data, sizeof(words));
        if (kBug == Bug::kSizeIsNativeBytes) words[0] = g->native_bytes;
        if (kBug == Bug::kSizeWithStrideUnaligned) words[1] = g->native_bytes;
        std::memcpy(out->data, words, sizeof(words));
      }
      break;
    default:
      break;
  }
  return result;
}

}  // namespace

void AddRknnNativeMutants(std::vector<Mutant>* out) {
  const ReferenceFamily* family = &rknn_native::RknnNativeReference();
  auto add = [&](std::string name, std::string bug, std::string caught_by, std::string profile,
                 PortCallPtr call, std::vector<std::string> routines) {
    out->push_back({.name = std::move(name),
                    .bug = std::move(bug),
                    .caught_by = std::move(caught_by),
                    .profile = std::move(profile),
                    .family = family,
                    .call = call,
                    .routines = std::move(routines)});
  };
  add("nc1hwc2-int8-c2-for-every-dtype",
      "NCHW -> NC1HWC2 takes int8's C2 (16 on RK3588) for float16 and int16 too (Table 4-6: 8)",
      "rknn.nchw_to_nc1hwc2.matches_oracle", "rk3588", &MutantCall<Bug::kInt8C2ForEveryDtype>,
      {ids::kNchwToNc1hwc2});
  add("nc1hwc2-rk3566-c2-on-rk3588",
      "NHWC -> NC1HWC2 uses RK3566/RK3568's C2 (8 / 4 / 4) on RK3588 (16 / 8 / 8, Table 4-6)",
      "rknn.nhwc_to_nc1hwc2.matches_oracle", "rk3588", &MutantCall<Bug::kRk3566C2>,
      {ids::kNhwcToNc1hwc2});
  add("nc1hwc2-c2-sixteen-bytes-any-dtype",
      "C2 = 16 bytes / element size for any dtype: a FLOAT tensor is packed with C2 4 instead of "
      "rejected",
      "rknn.nchw_to_nc1hwc2.rejects_invalid", "rk3588", &MutantCall<Bug::kAnyDtypeSixteenBytes>,
      {ids::kNchwToNc1hwc2});
  add("nc1hwc2-plane-w-major", "the native plane is indexed w*H + h (H and W swapped, §B.5)",
      "rknn.nchw_to_nc1hwc2.matches_oracle", "rk3588", &MutantCall<Bug::kPlaneWMajor>,
      {ids::kNchwToNc1hwc2});
  add("nc1hwc2-last-block-not-padded",
      "the last C1 block holds C mod C2 lanes per pixel instead of C2 (not padded, §B.2)",
      "rknn.nhwc_to_nc1hwc2.matches_oracle", "rk3566_rk3568", &MutantCall<Bug::kLastBlockDense>,
      {ids::kNhwcToNc1hwc2});
  add("nc1hwc2-c1-rounded-down",
      "NC1HWC2 -> NCHW takes C1 = C / C2 rounded down: the last partial block's channels are "
      "lost",
      "rknn.nc1hwc2_to_nchw.matches_oracle", "rk3562", &MutantCall<Bug::kC1Floor>,
      {ids::kNc1hwc2ToNchw});
  add("nc1hwc2-batch-not-advanced",
      "NC1HWC2 -> NCHW converts every batch from batch 0 (the RV1106 demo's dims[0] = 1, §B.4)",
      "rknn.nchw_to_nc1hwc2.round_trip", "rk3588", &MutantCall<Bug::kBatchNotAdvanced>,
      {ids::kNc1hwc2ToNchw});
  add("nc1hwc2-clears-native-bytes",
      "NC1HWC2 -> NCHW first clears the destination with the native size (C1*C2 channels): up to "
      "32 bytes past the NCHW buffer",
      "rknn.nc1hwc2_to_nchw.no_write_past_capacity", "rk3588", &MutantCall<Bug::kClearsNativeBytes>,
      {ids::kNc1hwc2ToNchw});
  add("nc1hwc2-nhwc-pixel-stride-c1c2",
      "NHWC -> NC1HWC2 steps C1*C2 elements per source pixel instead of C",
      "rknn.nhwc_to_nc1hwc2.matches_oracle", "rk3588", &MutantCall<Bug::kNhwcPixelStrideC2>,
      {ids::kNhwcToNc1hwc2});
  add("nc1hwc2-dequant-zp-sign", "the dequant adds the zero point: (q + zp) * scale (§B.1)",
      "rknn.nc1hwc2_int8_to_nchw_float.matches_oracle", "rk3588", &MutantCall<Bug::kZpSignFlipped>,
      {ids::kNc1hwc2Int8ToNchwFloat});
  add("nc1hwc2-dequant-scale-before-zp",
      "the dequant scales first: q * scale - zp * scale (two roundings, §B.5's is one)",
      "rknn.nc1hwc2_int8_to_nchw_float.matches_oracle", "rk3588", &MutantCall<Bug::kScaleBeforeZp>,
      {ids::kNc1hwc2Int8ToNchwFloat});
  add("nc1hwc2-dequant-float-zp",
      "the dequant subtracts in float: ((float)q - (float)zp) * scale (LdDl/rknn-runtime), "
      "inexact once |zp| > 2^24",
      "rknn.nc1hwc2_int8_to_nchw_float.matches_oracle", "rk3588",
      &MutantCall<Bug::kFloatZpSubtraction>, {ids::kNc1hwc2Int8ToNchwFloat});
  add("nc1hwc2-dequant-cumulative-batch",
      "the dequant's batch pointer accumulates (image n read from image n(n+1)/2): right for "
      "N <= 2 only",
      "rknn.nc1hwc2_int8_to_nchw_float.matches_oracle", "rk3588",
      &MutantCall<Bug::kCumulativeBatchPointer>, {ids::kNc1hwc2Int8ToNchwFloat});
  add("nc1hwc2-size-is-native-bytes",
      "attr.size reports the native buffer (C1*C2 channels) instead of the dense tensor (§B.1)",
      "rknn.nc1hwc2_size.size_law", "rk3588", &MutantCall<Bug::kSizeIsNativeBytes>,
      {ids::kNc1hwc2Size});
  add("nc1hwc2-size-with-stride-unaligned",
      "size_with_stride ignores the W stride RK3588 pads to (§B.3: 40 -> 48, 20 -> 32)",
      "rknn.nc1hwc2_size.device_log", "rk3588", &MutantCall<Bug::kSizeWithStrideUnaligned>,
      {ids::kNc1hwc2Size});
  add("zero-copy-row-advance-w",
      "the zero-copy pack advances the destination by W*C per row instead of w_stride*C (the "
      "rows packed densely, §B.4)",
      "rknn.nhwc_zero_copy_pack.matches_oracle", "rk3588", &MutantCall<Bug::kZeroCopyRowAdvanceW>,
      {ids::kNhwcZeroCopyPack});
  add("zero-copy-batch-stride-missing",
      "the zero-copy pack starts every batch at the buffer's start (no n*H*w_stride*C term; "
      "RK-ZOO deeplabv3 continues the rows across the batch, §B.4)",
      "rknn.nhwc_zero_copy_pack.matches_oracle", "rk3566_rk3568",
      &MutantCall<Bug::kZeroCopyBatchStrideMissing>, {ids::kNhwcZeroCopyPack});
  add("nhwc-size-with-stride-is-w",
      "rknn.nc1hwc2_size with fmt NHWC reports size_with_stride from W instead of w_stride "
      "(N*H*W*C*elem, §B.4)",
      "rknn.nc1hwc2_size.matches_oracle", "rk3562", &MutantCall<Bug::kNhwcSizeWithStrideIsW>,
      {ids::kNc1hwc2Size});
}

}  // namespace npuconf
