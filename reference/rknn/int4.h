// RKNN int4 packing (spec rknn.md §2.4): two's-complement 4-bit values, two
// per byte; element e lives in byte e/2, the even element in the low nibble
// (v2.x) or the high nibble (SDK 1.6, profile rk3588_sdk1_6).
#pragma once

#include <cstdint>

#include "core/rknn_facts.h"

namespace npuconf::rknn {

// Packs `count` values (one int8 per byte; only the low 4 bits are kept, as
// the vendor's writers mask with 0xF) into ceil(count/2) bytes. An odd
// count leaves the last byte's other nibble 0.
void PackInt4(const int8_t* values, uint8_t* packed, int64_t count, NibbleOrder order);

// Unpacks `count` elements into sign-extended int8 values (−8…7).
void UnpackInt4(const uint8_t* packed, int8_t* values, int64_t count, NibbleOrder order);

// The nibble (0…15) of element e.
inline uint8_t Int4Nibble(const uint8_t* packed, int64_t e, NibbleOrder order) {
  const bool high = ((e & 1) == 0) == (order == NibbleOrder::kHighFirst);
  return high ? static_cast<uint8_t>(packed[e >> 1] >> 4)
              : static_cast<uint8_t>(packed[e >> 1] & 0xF);
}

}  // namespace npuconf::rknn
