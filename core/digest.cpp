#include "core/digest.h"

#include <xxhash.h>

#include <algorithm>
#include <cstdio>

namespace npuconf {
namespace {

uint64_t ChunkDigest(std::span<const uint8_t> bytes, uint64_t chunk_bytes, uint64_t chunk) {
  const uint64_t begin = chunk * chunk_bytes;
  const uint64_t size = std::min<uint64_t>(chunk_bytes, bytes.size() - begin);
  return XXH3_64bits(bytes.data() + begin, size);
}

}  // namespace

ChunkDigests DigestChunks(std::span<const uint8_t> bytes, uint64_t chunk_bytes) {
  ChunkDigests out{.chunk_bytes = std::max<uint64_t>(chunk_bytes, 1), .size_bytes = bytes.size()};
  const uint64_t chunks = (bytes.size() + out.chunk_bytes - 1) / out.chunk_bytes;
  out.digests.reserve(chunks);
  for (uint64_t c = 0; c < chunks; ++c)
    out.digests.push_back(ChunkDigest(bytes, out.chunk_bytes, c));
  return out;
}

std::optional<uint64_t> FirstChangedChunk(const ChunkDigests& before,
                                          std::span<const uint8_t> after) {
  if (after.size() != before.size_bytes) return 0;
  for (uint64_t c = 0; c < before.digests.size(); ++c) {
    if (ChunkDigest(after, before.chunk_bytes, c) != before.digests[c])
      return c * before.chunk_bytes;
  }
  return std::nullopt;
}

std::string ChunkRangeText(const ChunkDigests& digests, uint64_t start) {
  const uint64_t end = std::min<uint64_t>(start + digests.chunk_bytes, digests.size_bytes);
  // append, not "[" + std::string: GCC 12 warns falsely on it (-Wrestrict, PR 105329).
  return std::string("[")
      .append(std::to_string(start))
      .append(", ")
      .append(std::to_string(end))
      .append(")");
}

std::string DigestText(std::span<const uint8_t> bytes) {
  char hex[17];
  std::snprintf(hex, sizeof(hex), "%016llx",
                static_cast<unsigned long long>(XXH3_64bits(bytes.data(), bytes.size())));
  return std::string("xxh3-64:") + hex;
}

}  // namespace npuconf
