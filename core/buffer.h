// Byte buffers for tensors, and the guarded output buffer: sentinel-filled
// content between guard zones, so unwritten padding and writes past the
// capacity both show.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace npuconf {

using Bytes = std::vector<uint8_t>;

inline constexpr size_t kGuardBytes = 64;
// Guard byte i holds kGuardByte ^ (i * 0x3B): a stray write of any one value
// cannot match the whole zone.
inline constexpr uint8_t kGuardByte = 0xA5;
inline constexpr uint8_t GuardByteAt(size_t i) {
  return static_cast<uint8_t>(kGuardByte ^ static_cast<uint8_t>(i * 0x3B));
}
// Fill of an output before the call: not 0, so "padding holds 0" cannot pass by
// accident.
inline constexpr uint8_t kSentinelByte = 0xCD;

class GuardedBuffer {
 public:
  explicit GuardedBuffer(uint64_t capacity_bytes, uint8_t fill = kSentinelByte)
      : capacity_bytes_(capacity_bytes), storage_(capacity_bytes + 2 * kGuardBytes) {
    for (size_t i = 0; i < kGuardBytes; ++i) {
      storage_[i] = GuardByteAt(i);
      storage_[kGuardBytes + capacity_bytes + i] = GuardByteAt(i);
    }
    std::memset(storage_.data() + kGuardBytes, fill, capacity_bytes);
  }
  uint8_t* data() { return storage_.data() + kGuardBytes; }
  const uint8_t* data() const { return storage_.data() + kGuardBytes; }
  uint64_t capacity_bytes() const { return capacity_bytes_; }

  // Offset (relative to data(), negative before it) of the first guard byte
  // that changed, or 0 with `intact` true when both guards hold.
  bool GuardsIntact(int64_t* first_bad_offset = nullptr) const {
    for (size_t i = 0; i < kGuardBytes; ++i) {
      if (storage_[i] != GuardByteAt(i)) {
        if (first_bad_offset) *first_bad_offset = static_cast<int64_t>(i) - kGuardBytes;
        return false;
      }
      if (storage_[kGuardBytes + capacity_bytes_ + i] != GuardByteAt(i)) {
        if (first_bad_offset) *first_bad_offset = static_cast<int64_t>(capacity_bytes_ + i);
        return false;
      }
    }
    return true;
  }
  Bytes Contents() const { return Bytes(data(), data() + capacity_bytes_); }

 private:
  uint64_t capacity_bytes_;
  Bytes storage_;
};

}  // namespace npuconf
