// fp16 and bf16 values through Eigen's types (Eigen::half, Eigen::bfloat16), and
// their raw bit patterns, which is how tensors hold them.
#pragma once

#include <Eigen/Core>
#include <cstdint>

namespace npuconf {

using Half = Eigen::half;
using BFloat16 = Eigen::bfloat16;

inline uint16_t HalfBits(Half h) { return Eigen::numext::bit_cast<uint16_t>(h); }
inline Half HalfFromBits(uint16_t bits) { return Eigen::numext::bit_cast<Half>(bits); }
inline uint16_t BFloat16Bits(BFloat16 b) { return Eigen::numext::bit_cast<uint16_t>(b); }
inline BFloat16 BFloat16FromBits(uint16_t bits) { return Eigen::numext::bit_cast<BFloat16>(bits); }

}  // namespace npuconf
