// fp32 → fp16 / bf16 rounding and fp16 / bf16 → fp32 as branch-free integer
// and float operations, bit for bit those of Eigen's half / bfloat16 (their
// portable code: round to nearest even, overflow to ±inf, every fp16 NaN
// squashed to sign | 0x7E00, every bf16 NaN to sign | 0x7FC0), written so the
// compiler vectorises loops over them. tests/reference_fast_paths_test checks
// them against Eigen on every fp16 input and on the rounding-relevant bit
// patterns of fp32.
#pragma once

#include <bit>
#include <cstdint>

#if defined(__GNUC__) || defined(__clang__)
#define NPUCONF_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define NPUCONF_ALWAYS_INLINE inline
#endif

namespace npuconf::quant {

// Eigen's float_to_half_rtne, its three cases computed and selected.
NPUCONF_ALWAYS_INLINE uint16_t HalfBitsRne(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t sign = bits & 0x80000000u;
  // Magnitudes are below 2^31: signed compares, which SSE2 has.
  const int32_t magnitude = static_cast<int32_t>(bits ^ sign);
  constexpr int32_t kInf = 255 << 23;
  constexpr int32_t kHalfOverflow = (127 + 16) << 23;  // ≥ 2^16: inf or NaN
  constexpr int32_t kHalfNormalMin = 113 << 23;        // 2^-14
  constexpr uint32_t kDenormMagic = ((127 - 15) + (23 - 10) + 1) << 23;
  const uint32_t special = magnitude > kInf ? 0x7E00u : 0x7C00u;
  // Subnormal or zero: the float addition aligns the 10 kept bits at the
  // bottom and rounds them to nearest even.
  const float aligned =
      std::bit_cast<float>(static_cast<uint32_t>(magnitude)) + std::bit_cast<float>(kDenormMagic);
  const uint32_t subnormal = std::bit_cast<uint32_t>(aligned) - kDenormMagic;
  const uint32_t odd = (static_cast<uint32_t>(magnitude) >> 13) & 1u;
  const uint32_t normal = (static_cast<uint32_t>(magnitude) + 0xC8000FFFu + odd) >> 13;
  const uint32_t half = magnitude >= kHalfOverflow   ? special
                        : magnitude < kHalfNormalMin ? subnormal
                                                     : normal;
  return static_cast<uint16_t>(half | (sign >> 16));
}

// Eigen's half_to_float.
NPUCONF_ALWAYS_INLINE float HalfBitsToFloat(uint16_t half) {
  constexpr uint32_t kShiftedExp = 0x7C00u << 13;
  const uint32_t shifted = (static_cast<uint32_t>(half) & 0x7FFFu) << 13;
  const uint32_t exp = shifted & kShiftedExp;
  const uint32_t biased = shifted + ((127 - 15) << 23);
  const uint32_t inf_nan = biased + ((128 - 16) << 23);
  // Zero or subnormal: renormalised by a float subtraction.
  const float renormalised =
      std::bit_cast<float>(biased + (1u << 23)) - std::bit_cast<float>(113u << 23);
  const uint32_t magnitude = exp == kShiftedExp ? inf_nan
                             : exp == 0         ? std::bit_cast<uint32_t>(renormalised)
                                                : biased;
  return std::bit_cast<float>(magnitude | ((static_cast<uint32_t>(half) & 0x8000u) << 16));
}

// Eigen's float_to_bfloat16_rtne<false>.
NPUCONF_ALWAYS_INLINE uint16_t BFloat16BitsRne(float value) {
  const uint32_t bits = std::bit_cast<uint32_t>(value);
  const uint32_t rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
  const uint32_t nan = ((bits >> 16) & 0x8000u) | 0x7FC0u;
  const bool is_nan = static_cast<int32_t>(bits & 0x7FFFFFFFu) > (255 << 23);
  return static_cast<uint16_t>(is_nan ? nan : rounded);
}

NPUCONF_ALWAYS_INLINE float BFloat16BitsToFloat(uint16_t bf16) {
  return std::bit_cast<float>(static_cast<uint32_t>(bf16) << 16);
}

}  // namespace npuconf::quant
