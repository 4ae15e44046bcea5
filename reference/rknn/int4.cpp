#include "reference/rknn/int4.h"

namespace npuconf::rknn {

void PackInt4(const int8_t* values, uint8_t* packed, int64_t count, NibbleOrder order) {
  const int first_shift = order == NibbleOrder::kLowFirst ? 0 : 4;
  const int second_shift = 4 - first_shift;
  const int64_t pairs = count / 2;
  for (int64_t i = 0; i < pairs; ++i) {
    const auto even = static_cast<uint8_t>(values[2 * i] & 0xF);
    const auto odd = static_cast<uint8_t>(values[2 * i + 1] & 0xF);
    packed[i] = static_cast<uint8_t>((even << first_shift) | (odd << second_shift));
  }
  if (count % 2) packed[pairs] = static_cast<uint8_t>((values[count - 1] & 0xF) << first_shift);
}

void UnpackInt4(const uint8_t* packed, int8_t* values, int64_t count, NibbleOrder order) {
  // Sign extension of bit 3, as the demo's reader does (§2.4).
  auto extend = [](uint8_t nibble) {
    return static_cast<int8_t>(static_cast<int8_t>(nibble << 4) >> 4);
  };
  const int first_shift = order == NibbleOrder::kLowFirst ? 0 : 4;
  const int second_shift = 4 - first_shift;
  const int64_t pairs = count / 2;
  for (int64_t i = 0; i < pairs; ++i) {
    values[2 * i] = extend(static_cast<uint8_t>((packed[i] >> first_shift) & 0xF));
    values[2 * i + 1] = extend(static_cast<uint8_t>((packed[i] >> second_shift) & 0xF));
  }
  if (count % 2)
    values[count - 1] = extend(static_cast<uint8_t>((packed[pairs] >> first_shift) & 0xF));
}

}  // namespace npuconf::rknn
