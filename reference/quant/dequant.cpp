#include "reference/quant/dequant.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/shape.h"
#include "reference/quant/half_lanes.h"
#include "reference/simd/isa.h"
#if NPUCONF_HAVE_AVX2_KERNELS
#include <cpuid.h>
#endif

#if NPUCONF_HAVE_AVX512_KERNELS
#include "reference/simd/avx512.h"
#endif

namespace npuconf::quant {
namespace {

// ---- q decoders: one per storage, chosen once per call --------------------------

struct Int8Q {
  static int32_t At(const uint8_t* q, int64_t e) { return static_cast<int8_t>(q[e]); }
};
struct Uint8Q {
  static int32_t At(const uint8_t* q, int64_t e) { return q[e]; }
};
template <bool kEvenHigh>
struct Int4Q {
  static int32_t At(const uint8_t* q, int64_t e) {
    const uint8_t byte = q[e >> 1];
    const bool high = ((e & 1) == 0) == kEvenHigh;
    const int32_t nibble = high ? (byte >> 4) : (byte & 0xF);
    return nibble >= 8 ? nibble - 16 : nibble;  // two's complement (§4.4, rknn §2.4)
  }
};

// ---- output element types ------------------------------------------------------

template <typename Out>
inline Out Round(float v) {
  if constexpr (std::is_same_v<Out, float>) {
    return v;
  } else {
    return Out(v);  // Eigen::half / bfloat16: round to nearest even from fp32
  }
}

// The rounding sequence, per element. Everything in fp32; RN_out where the
// sequence says so.
template <Rounding kRounding, typename Out>
inline Out Apply(int32_t q, float scale, float zero_point) {
  if constexpr (kRounding == Rounding::kPerStep && !std::is_same_v<Out, float>) {
    const float t = static_cast<float>(Round<Out>(static_cast<float>(q) - zero_point));
    return Round<Out>(t * scale);
  } else {
    return Round<Out>((static_cast<float>(q) - zero_point) * scale);
  }
}

// How the params of one row are laid out across its cols.
enum class Stride { kBroadcast, kUnit, kStrided };

template <typename Decoder, Rounding kRounding, typename Out, Stride kStride>
void Rows(const DequantArgs& a, Out* out) {
  const QuantGeometry& g = a.geometry;
  const int64_t groups = g.Groups();
  const float zero = 0.0f;
  for (int64_t r = 0; r < g.rows; ++r) {
    const int64_t group = g.granularity == Granularity::kPerGroup ? r / g.group_size : 0;
    int64_t base = 0;
    int64_t stride = 0;
    if (g.granularity == Granularity::kPerChannel) {
      stride = 1;
    } else if (g.granularity == Granularity::kPerGroup) {
      base = g.order == GroupOrder::kGroupMajor ? group * g.cols : group;
      stride = g.order == GroupOrder::kGroupMajor ? 1 : groups;
    }
    const float* s = a.scale + base;
    const float* z = a.zero_point ? a.zero_point + base : &zero;
    const int64_t z_stride = a.zero_point ? stride : 0;
    const int64_t row_start = r * g.cols;
    Out* y = out + row_start;
    if constexpr (kStride == Stride::kBroadcast) {
      const float s0 = s[0], z0 = z[0];
      for (int64_t c = 0; c < g.cols; ++c) {
        y[c] = Apply<kRounding, Out>(Decoder::At(a.q, row_start + c), s0, z0);
      }
    } else if constexpr (kStride == Stride::kUnit) {
      for (int64_t c = 0; c < g.cols; ++c) {
        y[c] = Apply<kRounding, Out>(Decoder::At(a.q, row_start + c), s[c], z[c * z_stride]);
      }
    } else {
      for (int64_t c = 0; c < g.cols; ++c) {
        y[c] =
            Apply<kRounding, Out>(Decoder::At(a.q, row_start + c), s[c * stride], z[c * z_stride]);
      }
    }
  }
}

template <typename Decoder, Rounding kRounding, typename Out>
void ByStride(const DequantArgs& a, Out* out) {
  const QuantGeometry& g = a.geometry;
  if (g.granularity == Granularity::kPerTensor) {
    Rows<Decoder, kRounding, Out, Stride::kBroadcast>(a, out);
  } else if (g.granularity == Granularity::kPerChannel || g.order == GroupOrder::kGroupMajor) {
    Rows<Decoder, kRounding, Out, Stride::kUnit>(a, out);
  } else {
    Rows<Decoder, kRounding, Out, Stride::kStrided>(a, out);
  }
}

template <typename Decoder, typename Out>
void ByRounding(const DequantArgs& a, Out* out) {
  if (a.rounding == Rounding::kPerStep) {
    ByStride<Decoder, Rounding::kPerStep, Out>(a, out);
  } else {
    ByStride<Decoder, Rounding::kFp32Once, Out>(a, out);
  }
}

template <typename Out>
void ByDecoder(const DequantArgs& a, Out* out) {
  switch (a.qtype) {
    case QType::kInt8:
      return ByRounding<Int8Q, Out>(a, out);
    case QType::kUint8:
      return ByRounding<Uint8Q, Out>(a, out);
    case QType::kInt4:
      if (a.nibbles == NibbleOrder::kHighFirst) return ByRounding<Int4Q<true>, Out>(a, out);
      return ByRounding<Int4Q<false>, Out>(a, out);
  }
}

void StoreQ(uint8_t* q, int64_t e, int32_t value, QType qtype, NibbleOrder nibbles) {
  if (qtype != QType::kInt4) {
    q[e] = static_cast<uint8_t>(value);
    return;
  }
  const uint8_t nibble = static_cast<uint8_t>(value) & 0xF;
  const bool high = ((e & 1) == 0) == (nibbles == NibbleOrder::kHighFirst);
  uint8_t& byte = q[e >> 1];
  byte = high ? static_cast<uint8_t>((byte & 0x0F) | (nibble << 4))
              : static_cast<uint8_t>((byte & 0xF0) | nibble);
}

// ---- fast paths ------------------------------------------------------------
//
// The element-wise code above is the definition (DequantizeElementwise); the
// fast paths below give the same bits. Per group of rows that share params,
// the params are laid out as two contiguous rows (scale, zero point) over the
// cols; then
//  - int4 → fp16 / bf16: a lookup table per (group, col) of the 16 possible
//    results, each computed by the same rounding sequence, and a row is 16-way
//    selects (AVX-512: a 4-level blend tree over 32 cols at once). The table
//    costs 16 results per col per group: worth it from a few rows per group on.
//  - everything else: q decoded to int32, then the rounding sequence as plain
//    float and integer arithmetic over the row (half_lanes.h), which the
//    compiler vectorises — built twice, for the baseline ISA and for AVX-512.
// bench/quant_dequant_bench (int4 4096 × 1024, group 128), throughput × a
// plain fp32 multiply-add loop over as many elements in the same run: fp16
// per-step 0.02 → 0.41 (portable build of the same code 0.09), fp32 0.08 →
// 0.65-0.78 (portable 0.32).

enum class OutKind { kFloat, kHalf, kBf16 };

template <OutKind kOut>
NPUCONF_ALWAYS_INLINE uint16_t Round16(float v) {
  if constexpr (kOut == OutKind::kHalf) {
    return HalfBitsRne(v);
  } else {
    return BFloat16BitsRne(v);
  }
}
template <OutKind kOut>
NPUCONF_ALWAYS_INLINE float Widen16(uint16_t bits) {
  if constexpr (kOut == OutKind::kHalf) {
    return HalfBitsToFloat(bits);
  } else {
    return BFloat16BitsToFloat(bits);
  }
}

// The rounding sequence of Apply(), on a decoded q, in the output's bits.
template <Rounding kRounding, OutKind kOut>
NPUCONF_ALWAYS_INLINE auto ApplyLanes(int32_t q, float scale, float zero_point) {
  if constexpr (kOut == OutKind::kFloat) {
    return (static_cast<float>(q) - zero_point) * scale;
  } else if constexpr (kRounding == Rounding::kPerStep) {
    const float t = Widen16<kOut>(Round16<kOut>(static_cast<float>(q) - zero_point));
    return Round16<kOut>(t * scale);
  } else {
    return Round16<kOut>((static_cast<float>(q) - zero_point) * scale);
  }
}

template <OutKind kOut>
using OutBits = std::conditional_t<kOut == OutKind::kFloat, float, uint16_t>;

// Elements [e0, e0 + count) of q as int32.
NPUCONF_ALWAYS_INLINE void DecodeBody(const uint8_t* q, QType qtype, NibbleOrder nibbles,
                                      int64_t e0, int64_t count, int32_t* values) {
  if (qtype == QType::kInt8) {
    const auto* s = reinterpret_cast<const int8_t*>(q) + e0;
    for (int64_t i = 0; i < count; ++i) values[i] = s[i];
    return;
  }
  if (qtype == QType::kUint8) {
    for (int64_t i = 0; i < count; ++i) values[i] = q[e0 + i];
    return;
  }
  int64_t i = 0;
  if (e0 % 2 != 0 && count > 0) {  // a row that starts mid-byte
    values[i++] =
        nibbles == NibbleOrder::kHighFirst ? Int4Q<true>::At(q, e0) : Int4Q<false>::At(q, e0);
  }
  const uint8_t* bytes = q + (e0 + i) / 2;
  const int shift_even = nibbles == NibbleOrder::kHighFirst ? 4 : 0;
  const int64_t pairs = (count - i) / 2;
  int32_t* out = values + i;
  for (int64_t p = 0; p < pairs; ++p) {
    // Two's complement nibbles: shift to the top of an int8, then back.
    const int32_t even =
        static_cast<int8_t>(static_cast<uint8_t>(bytes[p] >> shift_even << 4)) >> 4;
    const int32_t odd =
        static_cast<int8_t>(static_cast<uint8_t>(bytes[p] >> (4 - shift_even) << 4)) >> 4;
    out[2 * p] = even;
    out[2 * p + 1] = odd;
  }
  if ((count - i) % 2 != 0) {
    const int64_t e = e0 + count - 1;
    values[count - 1] =
        nibbles == NibbleOrder::kHighFirst ? Int4Q<true>::At(q, e) : Int4Q<false>::At(q, e);
  }
}

template <Rounding kRounding, OutKind kOut>
NPUCONF_ALWAYS_INLINE void ComputeBody(const int32_t* values, const float* scale,
                                       const float* zero_point, int64_t count, OutBits<kOut>* out) {
  for (int64_t i = 0; i < count; ++i) {
    out[i] = ApplyLanes<kRounding, kOut>(values[i], scale[i], zero_point[i]);
  }
}

// The 16 results of every col: lut[v · cols + c] for nibble v (value v − 16·(v ≥ 8)).
template <Rounding kRounding, OutKind kOut>
NPUCONF_ALWAYS_INLINE void BuildLutBody(const float* scale, const float* zero_point, int64_t cols,
                                        uint16_t* lut) {
  for (int32_t v = 0; v < 16; ++v) {
    const int32_t value = v >= 8 ? v - 16 : v;
    uint16_t* row = lut + v * cols;
    for (int64_t c = 0; c < cols; ++c) {
      row[c] = ApplyLanes<kRounding, kOut>(value, scale[c], zero_point[c]);
    }
  }
}

// One scale and zero point for the whole run (DequantRow).
template <Rounding kRounding, OutKind kOut>
NPUCONF_ALWAYS_INLINE void ComputeBroadcastBody(const int32_t* values, float scale,
                                                float zero_point, int64_t count,
                                                OutBits<kOut>* out) {
  for (int64_t i = 0; i < count; ++i) {
    out[i] = ApplyLanes<kRounding, kOut>(values[i], scale, zero_point);
  }
}

// The portable lookup, cols [c_begin, cols) of a row starting at element e0.
void LookupRowPortable(const uint8_t* q, NibbleOrder nibbles, int64_t e0, const uint16_t* lut,
                       int64_t cols, uint16_t* out, int64_t c_begin = 0) {
  const bool high_first = nibbles == NibbleOrder::kHighFirst;
  for (int64_t c = c_begin; c < cols; ++c) {
    const int64_t e = e0 + c;
    const uint8_t byte = q[e >> 1];
    const bool high = ((e & 1) == 0) == high_first;
    out[c] = lut[(high ? byte >> 4 : byte & 0xF) * cols + c];
  }
}

// The kernels, built for the baseline ISA and for AVX-512.
template <Rounding kRounding, OutKind kOut>
void ComputePortable(const int32_t* values, const float* scale, const float* zero_point,
                     int64_t count, OutBits<kOut>* out) {
  ComputeBody<kRounding, kOut>(values, scale, zero_point, count, out);
}
template <Rounding kRounding, OutKind kOut>
void BuildLutPortable(const float* scale, const float* zero_point, int64_t cols, uint16_t* lut) {
  BuildLutBody<kRounding, kOut>(scale, zero_point, cols, lut);
}
template <Rounding kRounding, OutKind kOut>
void ComputeBroadcastPortable(const int32_t* values, float scale, float zero_point, int64_t count,
                              OutBits<kOut>* out) {
  ComputeBroadcastBody<kRounding, kOut>(values, scale, zero_point, count, out);
}
void DecodePortable(const uint8_t* q, QType qtype, NibbleOrder nibbles, int64_t e0, int64_t count,
                    int32_t* values) {
  DecodeBody(q, qtype, nibbles, e0, count, values);
}

#if NPUCONF_HAVE_AVX512_KERNELS
template <Rounding kRounding, OutKind kOut>
NPUCONF_AVX512 void ComputeAvx512(const int32_t* values, const float* scale,
                                  const float* zero_point, int64_t count, OutBits<kOut>* out) {
  ComputeBody<kRounding, kOut>(values, scale, zero_point, count, out);
}
template <Rounding kRounding, OutKind kOut>
NPUCONF_AVX512 void BuildLutAvx512(const float* scale, const float* zero_point, int64_t cols,
                                   uint16_t* lut) {
  BuildLutBody<kRounding, kOut>(scale, zero_point, cols, lut);
}
template <Rounding kRounding, OutKind kOut>
NPUCONF_AVX512 void ComputeBroadcastAvx512(const int32_t* values, float scale, float zero_point,
                                           int64_t count, OutBits<kOut>* out) {
  ComputeBroadcastBody<kRounding, kOut>(values, scale, zero_point, count, out);
}
NPUCONF_AVX512 void DecodeAvx512(const uint8_t* q, QType qtype, NibbleOrder nibbles, int64_t e0,
                                 int64_t count, int32_t* values) {
  DecodeBody(q, qtype, nibbles, e0, count, values);
}

// A row that starts on a byte: 32 cols per step. The 32 nibbles become 32
// bytes, each tested bit by bit into a mask, and the 16 table rows are
// reduced by a blend tree (bit 3 first): 15 blends and no gather.
NPUCONF_AVX512 void LookupRowAvx512(const uint8_t* q, NibbleOrder nibbles, const uint16_t* lut,
                                    int64_t cols, uint16_t* out) {
  const __m128i low_nibbles = _mm_set1_epi8(0x0F);
  const bool high_first = nibbles == NibbleOrder::kHighFirst;
  int64_t c = 0;
  for (; c + 32 <= cols; c += 32) {
    const __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(q + c / 2));
    const __m128i lo = _mm_and_si128(bytes, low_nibbles);
    const __m128i hi = _mm_and_si128(_mm_srli_epi16(bytes, 4), low_nibbles);
    const __m128i even = high_first ? hi : lo, odd = high_first ? lo : hi;
    const __m256i nib =
        _mm256_set_m128i(_mm_unpackhi_epi8(even, odd), _mm_unpacklo_epi8(even, odd));
    const __mmask32 bit3 = _mm256_test_epi8_mask(nib, _mm256_set1_epi8(8));
    const __mmask32 bit2 = _mm256_test_epi8_mask(nib, _mm256_set1_epi8(4));
    const __mmask32 bit1 = _mm256_test_epi8_mask(nib, _mm256_set1_epi8(2));
    const __mmask32 bit0 = _mm256_test_epi8_mask(nib, _mm256_set1_epi8(1));
    const uint16_t* column = lut + c;
    __m512i t[8];
    for (int v = 0; v < 8; ++v) {
      t[v] = _mm512_mask_blend_epi16(bit3, _mm512_loadu_si512(column + v * cols),
                                     _mm512_loadu_si512(column + (v + 8) * cols));
    }
    for (int v = 0; v < 4; ++v) t[v] = _mm512_mask_blend_epi16(bit2, t[v], t[v + 4]);
    for (int v = 0; v < 2; ++v) t[v] = _mm512_mask_blend_epi16(bit1, t[v], t[v + 2]);
    _mm512_storeu_si512(out + c, _mm512_mask_blend_epi16(bit0, t[0], t[1]));
  }
  LookupRowPortable(q, nibbles, 0, lut, cols, out, c);
}
#endif

#if NPUCONF_HAVE_AVX2_KERNELS
// The same bodies built for AVX2 (the compiler vectorises them 8 floats wide).
template <Rounding kRounding, OutKind kOut>
NPUCONF_AVX2 void ComputeAvx2(const int32_t* values, const float* scale, const float* zero_point,
                              int64_t count, OutBits<kOut>* out) {
  ComputeBody<kRounding, kOut>(values, scale, zero_point, count, out);
}
template <Rounding kRounding, OutKind kOut>
NPUCONF_AVX2 void BuildLutAvx2(const float* scale, const float* zero_point, int64_t cols,
                               uint16_t* lut) {
  BuildLutBody<kRounding, kOut>(scale, zero_point, cols, lut);
}
template <Rounding kRounding, OutKind kOut>
NPUCONF_AVX2 void ComputeBroadcastAvx2(const int32_t* values, float scale, float zero_point,
                                       int64_t count, OutBits<kOut>* out) {
  ComputeBroadcastBody<kRounding, kOut>(values, scale, zero_point, count, out);
}
// int4 from a whole byte on: 32 nibbles per step, split and interleaved in
// order, sign-extended by (v ^ 8) − 8 and widened to int32. GCC leaves
// DecodeBody's nibble loop scalar: int4 → fp32 took 0.45× the FMA loop.
NPUCONF_AVX2 void DecodeAvx2(const uint8_t* q, QType qtype, NibbleOrder nibbles, int64_t e0,
                             int64_t count, int32_t* values) {
  if (qtype != QType::kInt4 || e0 % 2 != 0) return DecodeBody(q, qtype, nibbles, e0, count, values);
  const uint8_t* bytes = q + e0 / 2;
  const bool high_first = nibbles == NibbleOrder::kHighFirst;
  const __m128i low_nibbles = _mm_set1_epi8(0x0F), eight = _mm_set1_epi8(8);
  int64_t i = 0;
  for (; i + 32 <= count; i += 32) {
    const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(bytes + i / 2));
    const __m128i lo = _mm_and_si128(b, low_nibbles);
    const __m128i hi = _mm_and_si128(_mm_srli_epi16(b, 4), low_nibbles);
    const __m128i even = high_first ? hi : lo, odd = high_first ? lo : hi;
    const __m128i first = _mm_sub_epi8(_mm_xor_si128(_mm_unpacklo_epi8(even, odd), eight), eight);
    const __m128i second = _mm_sub_epi8(_mm_xor_si128(_mm_unpackhi_epi8(even, odd), eight), eight);
    auto* out = reinterpret_cast<__m256i*>(values + i);
    _mm256_storeu_si256(out, _mm256_cvtepi8_epi32(first));
    _mm256_storeu_si256(out + 1, _mm256_cvtepi8_epi32(_mm_srli_si128(first, 8)));
    _mm256_storeu_si256(out + 2, _mm256_cvtepi8_epi32(second));
    _mm256_storeu_si256(out + 3, _mm256_cvtepi8_epi32(_mm_srli_si128(second, 8)));
  }
  DecodeBody(q, qtype, nibbles, e0 + i, count - i, values + i);
}

// Every AVX2 CPU has F16C, but the AVX2 path asks only for AVX2 and BMI2.
// CPUID.1:ECX bit 29 read directly: clang 14 (the fuzz build) knows no "f16c"
// for __builtin_cpu_supports.
bool HasF16c() {
  static const bool f16c = [] {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_F16C) != 0;
  }();
  return f16c;
}

// Whether ComputeHalfF16cAvx2 gives ApplyLanes' bits for every int4 or int8 q
// with these params: all finite and |zero point| <= 65000, so q - zp rounds to a
// finite half and no step makes a NaN (F16C keeps a NaN's payload, HalfBitsRne
// writes 0x7E00); everything else (+-0, subnormals, overflow to +-inf) is the
// same round to nearest even in both.
bool F16cExact(const float* scale, const float* zero_point, int64_t cols) {
  for (int64_t c = 0; c < cols; ++c) {
    if (!std::isfinite(scale[c]) || !(std::fabs(zero_point[c]) <= 65000.0f)) return false;
  }
  return true;
}

// ComputeBody for half outputs with F16C's conversions, 8 lanes per step
// (int4 -> fp16 per step through the 16-entry table took 0.15x the FMA loop on
// AVX2: 15 blends per 16 columns). Only where F16cExact holds.
template <Rounding kRounding>
__attribute__((target("avx2,bmi2,f16c"))) void ComputeHalfF16cAvx2(const int32_t* values,
                                                                   const float* scale,
                                                                   const float* zero_point,
                                                                   int64_t count, uint16_t* out) {
  constexpr int kRne = _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC;
  int64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const __m256 q =
        _mm256_cvtepi32_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(values + i)));
    const __m256 d = _mm256_sub_ps(q, _mm256_loadu_ps(zero_point + i));
    __m128i y;
    if constexpr (kRounding == Rounding::kPerStep) {
      const __m256 t = _mm256_cvtph_ps(_mm256_cvtps_ph(d, kRne));
      y = _mm256_cvtps_ph(_mm256_mul_ps(t, _mm256_loadu_ps(scale + i)), kRne);
    } else {
      y = _mm256_cvtps_ph(_mm256_mul_ps(d, _mm256_loadu_ps(scale + i)), kRne);
    }
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i), y);
  }
  ComputeBody<kRounding, OutKind::kHalf>(values + i, scale + i, zero_point + i, count - i, out + i);
}

// A lane mask of the 16-bit lanes of `nib` that have `bit` set.
NPUCONF_AVX2 inline __m256i BitMask(__m256i nib, int16_t bit) {
  const __m256i m = _mm256_set1_epi16(bit);
  return _mm256_cmpeq_epi16(_mm256_and_si256(nib, m), m);
}

// LookupRowAvx512 on 16 cols per step: the 16 nibbles widened to 16-bit
// lanes, each bit turned into a lane mask, the same blend tree (vpblendvb).
NPUCONF_AVX2 void LookupRowAvx2(const uint8_t* q, NibbleOrder nibbles, const uint16_t* lut,
                                int64_t cols, uint16_t* out) {
  const __m128i low_nibbles = _mm_set1_epi8(0x0F);
  const bool high_first = nibbles == NibbleOrder::kHighFirst;
  int64_t c = 0;
  for (; c + 16 <= cols; c += 16) {
    const __m128i bytes = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(q + c / 2));
    const __m128i lo = _mm_and_si128(bytes, low_nibbles);
    const __m128i hi = _mm_and_si128(_mm_srli_epi16(bytes, 4), low_nibbles);
    const __m128i even = high_first ? hi : lo, odd = high_first ? lo : hi;
    const __m256i nib = _mm256_cvtepu8_epi16(_mm_unpacklo_epi8(even, odd));
    const __m256i bit3 = BitMask(nib, 8), bit2 = BitMask(nib, 4);
    const __m256i bit1 = BitMask(nib, 2), bit0 = BitMask(nib, 1);
    __m256i t[8];
    for (int v = 0; v < 8; ++v) {
      t[v] = _mm256_blendv_epi8(
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lut + v * cols + c)),
          _mm256_loadu_si256(reinterpret_cast<const __m256i*>(lut + (v + 8) * cols + c)), bit3);
    }
    for (int v = 0; v < 4; ++v) t[v] = _mm256_blendv_epi8(t[v], t[v + 4], bit2);
    for (int v = 0; v < 2; ++v) t[v] = _mm256_blendv_epi8(t[v], t[v + 2], bit1);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + c), _mm256_blendv_epi8(t[0], t[1], bit0));
  }
  LookupRowPortable(q, nibbles, 0, lut, cols, out, c);
}
#endif

#if NPUCONF_HAVE_AVX512_KERNELS
bool Avx512() { return simd::ActiveIsa() == simd::Isa::kAvx512; }
bool Avx2() { return simd::ActiveIsa() == simd::Isa::kAvx2; }
#endif

template <Rounding kRounding, OutKind kOut>
void Compute(const int32_t* values, const float* scale, const float* zero_point, int64_t count,
             OutBits<kOut>* out) {
#if NPUCONF_HAVE_AVX512_KERNELS
  if (Avx512()) return ComputeAvx512<kRounding, kOut>(values, scale, zero_point, count, out);
  if (Avx2()) return ComputeAvx2<kRounding, kOut>(values, scale, zero_point, count, out);
#endif
  ComputePortable<kRounding, kOut>(values, scale, zero_point, count, out);
}

template <Rounding kRounding, OutKind kOut>
void ComputeBroadcast(const int32_t* values, float scale, float zero_point, int64_t count,
                      OutBits<kOut>* out) {
#if NPUCONF_HAVE_AVX512_KERNELS
  if (Avx512()) {
    return ComputeBroadcastAvx512<kRounding, kOut>(values, scale, zero_point, count, out);
  }
  if (Avx2()) return ComputeBroadcastAvx2<kRounding, kOut>(values, scale, zero_point, count, out);
#endif
  ComputeBroadcastPortable<kRounding, kOut>(values, scale, zero_point, count, out);
}

void Decode(const uint8_t* q, QType qtype, NibbleOrder nibbles, int64_t e0, int64_t count,
            int32_t* values) {
#if NPUCONF_HAVE_AVX512_KERNELS
  if (Avx512()) return DecodeAvx512(q, qtype, nibbles, e0, count, values);
  if (Avx2()) return DecodeAvx2(q, qtype, nibbles, e0, count, values);
#endif
  DecodePortable(q, qtype, nibbles, e0, count, values);
}

// The params of one group of rows as contiguous rows over the cols.
class GroupParams {
 public:
  explicit GroupParams(const DequantArgs& a) : a_(a), cols_(a.geometry.cols) {}

  void Load(int64_t group, const float** scale, const float** zero_point) {
    const QuantGeometry& g = a_.geometry;
    const bool unit =
        g.granularity == Granularity::kPerChannel ||
        (g.granularity == Granularity::kPerGroup && g.order == GroupOrder::kGroupMajor);
    if (unit) {
      const int64_t base = g.granularity == Granularity::kPerGroup ? group * cols_ : 0;
      *scale = a_.scale + base;
      *zero_point = a_.zero_point ? a_.zero_point + base : Zeros();
      return;
    }
    scale_.resize(static_cast<size_t>(cols_));
    if (a_.zero_point) zero_.resize(static_cast<size_t>(cols_));
    for (int64_t c = 0; c < cols_; ++c) {
      const int64_t p =
          g.ParamIndex(group * (g.granularity == Granularity::kPerGroup ? g.group_size : 0), c);
      scale_[c] = a_.scale[p];
      if (a_.zero_point) zero_[c] = a_.zero_point[p];
    }
    *scale = scale_.data();
    *zero_point = a_.zero_point ? zero_.data() : Zeros();
  }

 private:
  const float* Zeros() {
    if (zeros_.empty()) zeros_.assign(static_cast<size_t>(cols_), 0.0f);
    return zeros_.data();
  }
  const DequantArgs& a_;
  int64_t cols_;
  std::vector<float> scale_, zero_, zeros_;
};

// From this many rows per group on, int4 → 16-bit goes through the table: it
// costs 16 results per col, a direct row 1 per col plus the decode.
constexpr int64_t kLutMinRows = 8;

template <Rounding kRounding, OutKind kOut>
void FastRows(const DequantArgs& a, OutBits<kOut>* out) {
  const QuantGeometry& g = a.geometry;
  const int64_t rows_per_group = g.granularity == Granularity::kPerGroup ? g.group_size : g.rows;
  const bool lut = kOut != OutKind::kFloat && a.qtype == QType::kInt4 &&
                   std::min(rows_per_group, g.rows) >= kLutMinRows;
  GroupParams params(a);
  std::vector<int32_t> values(static_cast<size_t>(g.cols));
  std::vector<uint16_t> table(lut ? static_cast<size_t>(16 * g.cols) : 0);
  for (int64_t r0 = 0, group = 0; r0 < g.rows; r0 += rows_per_group, ++group) {
    const int64_t r1 = std::min(g.rows, r0 + rows_per_group);
    const float* scale = nullptr;
    const float* zero_point = nullptr;
    params.Load(group, &scale, &zero_point);
#if NPUCONF_HAVE_AVX2_KERNELS
    if constexpr (kOut == OutKind::kHalf) {
      // Computing 8 lanes with F16C beats the 16-entry table on both x86
      // paths (measured: int4 -> fp16 per step 0.72x the FMA loop on AVX2,
      // the AVX-512 table lookup 0.57x), so AVX-512 runs this AVX2 kernel too.
      if ((Avx2() || Avx512()) && HasF16c() && F16cExact(scale, zero_point, g.cols)) {
        for (int64_t r = r0; r < r1; ++r) {
          Decode(a.q, a.qtype, a.nibbles, r * g.cols, g.cols, values.data());
          ComputeHalfF16cAvx2<kRounding>(values.data(), scale, zero_point, g.cols,
                                         out + r * g.cols);
        }
        continue;
      }
    }
#endif
    if constexpr (kOut != OutKind::kFloat) {
      if (lut) {
#if NPUCONF_HAVE_AVX512_KERNELS
        if (Avx512()) {
          BuildLutAvx512<kRounding, kOut>(scale, zero_point, g.cols, table.data());
        } else if (Avx2()) {
          BuildLutAvx2<kRounding, kOut>(scale, zero_point, g.cols, table.data());
        } else {
          BuildLutPortable<kRounding, kOut>(scale, zero_point, g.cols, table.data());
        }
#else
        BuildLutPortable<kRounding, kOut>(scale, zero_point, g.cols, table.data());
#endif
        for (int64_t r = r0; r < r1; ++r) {
          const int64_t e0 = r * g.cols;
          uint16_t* y = out + e0;
#if NPUCONF_HAVE_AVX512_KERNELS
          if (Avx512() && e0 % 2 == 0) {
            LookupRowAvx512(a.q + e0 / 2, a.nibbles, table.data(), g.cols, y);
            continue;
          }
          if (Avx2() && e0 % 2 == 0) {
            LookupRowAvx2(a.q + e0 / 2, a.nibbles, table.data(), g.cols, y);
            continue;
          }
#endif
          LookupRowPortable(a.q, a.nibbles, e0, table.data(), g.cols, y);
        }
        continue;
      }
    }
    for (int64_t r = r0; r < r1; ++r) {
      Decode(a.q, a.qtype, a.nibbles, r * g.cols, g.cols, values.data());
      Compute<kRounding, kOut>(values.data(), scale, zero_point, g.cols, out + r * g.cols);
    }
  }
}

// DequantRow: chunks of a stack buffer, one (scale, zero point).
template <Rounding kRounding, OutKind kOut>
void FastRow(const uint8_t* q, QType qtype, NibbleOrder nibbles, int64_t q_offset, int64_t count,
             float scale, float zero_point, OutBits<kOut>* out) {
  constexpr int64_t kChunk = 512;
  int32_t values[kChunk];
  for (int64_t done = 0; done < count; done += kChunk) {
    const int64_t n = std::min(kChunk, count - done);
    Decode(q, qtype, nibbles, q_offset + done, n, values);
    ComputeBroadcast<kRounding, kOut>(values, scale, zero_point, n, out + done);
  }
}

template <OutKind kOut>
void FastByRounding(const DequantArgs& a, void* out) {
  auto* y = static_cast<OutBits<kOut>*>(out);
  if (a.rounding == Rounding::kPerStep) return FastRows<Rounding::kPerStep, kOut>(a, y);
  FastRows<Rounding::kFp32Once, kOut>(a, y);
}

}  // namespace

int64_t QuantGeometry::Groups() const {
  if (granularity != Granularity::kPerGroup || group_size <= 0) return 1;
  return CeilDiv(rows, group_size);
}

int64_t QuantGeometry::ParamCount() const {
  switch (granularity) {
    case Granularity::kPerTensor:
      return 1;
    case Granularity::kPerChannel:
      return cols;
    case Granularity::kPerGroup:
      return CheckedMul(Groups(), cols).value_or(-1);
  }
  return -1;
}

bool QuantGeometry::Valid() const {
  if (rows <= 0 || cols <= 0 || !CheckedMul(rows, cols)) return false;
  if (granularity == Granularity::kPerGroup && group_size <= 0) return false;
  return ParamCount() > 0;
}

bool Dequantize(const DequantArgs& a, void* out) {
  if (!a.geometry.Valid() || !a.q || !a.scale || !out) return false;
  switch (a.out_type) {
    case OutType::kFloat:
      FastByRounding<OutKind::kFloat>(a, out);
      break;
    case OutType::kFloat16:
      FastByRounding<OutKind::kHalf>(a, out);
      break;
    case OutType::kBf16:
      FastByRounding<OutKind::kBf16>(a, out);
      break;
  }
  return true;
}

bool DequantizeElementwise(const DequantArgs& a, void* out) {
  if (!a.geometry.Valid() || !a.q || !a.scale || !out) return false;
  switch (a.out_type) {
    case OutType::kFloat:
      ByDecoder(a, static_cast<float*>(out));
      break;
    case OutType::kFloat16:
      ByDecoder(a, static_cast<Half*>(out));
      break;
    case OutType::kBf16:
      ByDecoder(a, static_cast<BFloat16*>(out));
      break;
  }
  return true;
}

template <typename Out>
void DequantRow(const uint8_t* q, QType qtype, NibbleOrder nibbles, int64_t q_offset, int64_t count,
                float scale, float zero_point, Rounding rounding, Out* out) {
  constexpr OutKind kOut = std::is_same_v<Out, float>  ? OutKind::kFloat
                           : std::is_same_v<Out, Half> ? OutKind::kHalf
                                                       : OutKind::kBf16;
  auto* y = reinterpret_cast<OutBits<kOut>*>(out);
  if (rounding == Rounding::kPerStep) {
    return FastRow<Rounding::kPerStep, kOut>(q, qtype, nibbles, q_offset, count, scale, zero_point,
                                             y);
  }
  FastRow<Rounding::kFp32Once, kOut>(q, qtype, nibbles, q_offset, count, scale, zero_point, y);
}

template void DequantRow<float>(const uint8_t*, QType, NibbleOrder, int64_t, int64_t, float, float,
                                Rounding, float*);
template void DequantRow<Half>(const uint8_t*, QType, NibbleOrder, int64_t, int64_t, float, float,
                               Rounding, Half*);
template void DequantRow<BFloat16>(const uint8_t*, QType, NibbleOrder, int64_t, int64_t, float,
                                   float, Rounding, BFloat16*);

int32_t QMin(QType qtype) { return qtype == QType::kInt8 ? -128 : qtype == QType::kUint8 ? 0 : -8; }
int32_t QMax(QType qtype) { return qtype == QType::kInt8 ? 127 : qtype == QType::kUint8 ? 255 : 7; }

bool Quantize(const float* x, const QuantGeometry& g, const float* scale, const float* zero_point,
              QType qtype, NibbleOrder nibbles, uint8_t* q) {
  if (!g.Valid() || !x || !scale || !q) return false;
  const int32_t lo = QMin(qtype), hi = QMax(qtype);
  for (int64_t r = 0; r < g.rows; ++r) {
    for (int64_t c = 0; c < g.cols; ++c) {
      const int64_t p = g.ParamIndex(r, c);
      const double zp = zero_point ? zero_point[p] : 0.0;
      const double v = std::nearbyint(static_cast<double>(x[r * g.cols + c]) / scale[p] + zp);
      const int32_t clipped =
          std::isnan(v) ? 0 : static_cast<int32_t>(std::clamp<double>(v, lo, hi));
      StoreQ(q, r * g.cols + c, clipped, qtype, nibbles);
    }
  }
  return true;
}

bool ChooseParams(const float* x, const QuantGeometry& g, QType qtype, bool symmetric, float* scale,
                  float* zero_point) {
  if (!g.Valid() || !x || !scale || (symmetric && qtype == QType::kUint8)) return false;
  const int64_t count = g.ParamCount();
  std::vector<double> lo(static_cast<size_t>(count), 0.0), hi(static_cast<size_t>(count), 0.0);
  for (int64_t r = 0; r < g.rows; ++r) {
    for (int64_t c = 0; c < g.cols; ++c) {
      const int64_t p = g.ParamIndex(r, c);
      const double v = x[r * g.cols + c];
      lo[p] = std::min(lo[p], v);
      hi[p] = std::max(hi[p], v);
    }
  }
  const double qmin = QMin(qtype), qmax = QMax(qtype);
  for (int64_t p = 0; p < count; ++p) {
    double s = 0, zp = 0;
    if (symmetric) {
      s = std::max(-lo[p], hi[p]) / qmax;
    } else {
      s = (hi[p] - lo[p]) / (qmax - qmin);
    }
    if (s == 0) s = 1;
    if (!symmetric) zp = std::clamp(std::nearbyint(qmin - lo[p] / s), qmin, qmax);
    scale[p] = static_cast<float>(s);
    if (zero_point) zero_point[p] = static_cast<float>(zp);
  }
  return true;
}

uint16_t HalfBitsFromDouble(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return sign | 0x7E00;
  const double a = std::fabs(value);
  // 65520 is the midpoint between 65504 (max half) and 2^16; the tie goes to
  // the even neighbour 2^16, i.e. overflow.
  if (a >= 65520.0) return sign | 0x7C00;
  int e = 0;
  std::frexp(a, &e);                                      // a = m · 2^e, m ∈ [0.5, 1)
  const int exponent = std::max(e - 1, -14);              // subnormals share 2^-14's quantum
  const double quantum = std::ldexp(1.0, exponent - 10);  // 11 significant bits
  const double m = std::nearbyint(a / quantum);           // exact scaling, then RNE
  const float rounded = static_cast<float>(m * quantum);  // a half value: exact in float
  return static_cast<uint16_t>(sign | HalfBits(Half(rounded)));
}

}  // namespace npuconf::quant
