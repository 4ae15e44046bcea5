// Digests of a buffer, one per fixed-size chunk (XXH3-64 from Debian's
// libxxhash): whether and where a large buffer changed, without keeping a copy
// of it (a port's input across its call, a first answer across a second).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace npuconf {

struct ChunkDigests {
  uint64_t chunk_bytes = 0;  // every chunk but the last has this many bytes
  uint64_t size_bytes = 0;   // of the whole buffer
  std::vector<uint64_t> digests;
};

inline constexpr uint64_t kDigestChunkBytes = uint64_t{64} << 10;

ChunkDigests DigestChunks(std::span<const uint8_t> bytes, uint64_t chunk_bytes = kDigestChunkBytes);

// The byte offset of the first chunk of `after` whose digest differs from
// `before` (0 when the sizes differ), or nullopt when every digest matches.
std::optional<uint64_t> FirstChangedChunk(const ChunkDigests& before,
                                          std::span<const uint8_t> after);

// The digest of a whole buffer as text, "xxh3-64:" and 16 hex digits: what
// report.json writes of itself and of the files a run read (reports/result_json.h).
std::string DigestText(std::span<const uint8_t> bytes);

// "[a, b)": the bytes of the chunk of `digests` that starts at byte `start`.
std::string ChunkRangeText(const ChunkDigests& digests, uint64_t start);

}  // namespace npuconf
