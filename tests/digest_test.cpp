// Chunk digests tell whether and where a buffer changed without a copy of it
// (core/digest.h): a port's input across its call, a large first answer.
#include "core/digest.h"

#include <gtest/gtest.h>

#include "core/buffer.h"

namespace npuconf {
namespace {

TEST(ChunkDigests, AnUnchangedBufferHasNoChangedChunk) {
  Bytes bytes(200000);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7);
  const ChunkDigests d = DigestChunks(bytes);
  EXPECT_EQ(d.digests.size(), 4u);  // 3 × 64 KiB + 3392 bytes
  EXPECT_EQ(FirstChangedChunk(d, bytes), std::nullopt);
}

TEST(ChunkDigests, OneFlippedBitIsFoundInItsChunk) {
  Bytes bytes(200000, 0x5A);
  const ChunkDigests d = DigestChunks(bytes);
  for (uint64_t at : {uint64_t{0}, uint64_t{65535}, uint64_t{65536}, uint64_t{199999}}) {
    Bytes changed = bytes;
    changed[at] ^= 0x10;
    EXPECT_EQ(FirstChangedChunk(d, changed), at / kDigestChunkBytes * kDigestChunkBytes) << at;
  }
}

TEST(ChunkDigests, ASizeChangeIsAChangeAtByteZero) {
  const Bytes bytes(1000, 1);
  const ChunkDigests d = DigestChunks(bytes);
  EXPECT_EQ(FirstChangedChunk(d, Bytes(999, 1)), 0u);
  EXPECT_EQ(FirstChangedChunk(DigestChunks({}), Bytes{}), std::nullopt);
  EXPECT_EQ(FirstChangedChunk(DigestChunks({}), Bytes(1, 0)), 0u);
}

TEST(ChunkDigests, SwappedChunksDiffer) {
  // Equal chunks in another order: a position-free checksum would miss it.
  Bytes bytes(2 * kDigestChunkBytes, 0);
  std::fill(bytes.begin(), bytes.begin() + kDigestChunkBytes, 0xAB);
  Bytes swapped(bytes.rbegin(), bytes.rend());
  EXPECT_EQ(FirstChangedChunk(DigestChunks(bytes), swapped), 0u);
}

}  // namespace
}  // namespace npuconf
