// Deterministic bulk data for cases: SplitMix64 seeded by the case's `seed`, so a
// case replays from its text alone (DESIGN.md: never seed from random_device).
#pragma once

#include <cstdint>
#include <cstring>

namespace npuconf {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

 private:
  uint64_t state_;
};

// Fills `bytes` bytes at `out` with the stream of SplitMix64(seed).
inline void FillRandomBytes(uint64_t seed, uint8_t* out, uint64_t bytes) {
  SplitMix64 rng(seed);
  uint64_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    const uint64_t word = rng.Next();
    std::memcpy(out + i, &word, 8);
  }
  if (i < bytes) {
    const uint64_t word = rng.Next();
    std::memcpy(out + i, &word, bytes - i);
  }
}

}  // namespace npuconf
