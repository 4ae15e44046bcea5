// The verifier (after TOSA's verify/, a library of its own): compares an
// output a port wrote with the oracle's, under the output's compare mode
// (core/routine.h CompareMode), and returns structured mismatches — which
// element, where it sits (StorageMap), what was expected and what was held, and
// what the held value means: the runner's never-written fill, the other nibble
// of the same byte, a value that belongs to a neighbouring block.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/routine.h"
#include "core/shape.h"
#include "verify/storage_map.h"

namespace npuconf::verify {

// How element e of a tensor is read: its dtype, and for INT4 which nibble of
// byte e/2 holds an even element (CANN §4.4 and RKNN v2.x: the low one).
struct ElementCodec {
  DType dtype = DType::kUint8;
  bool even_high = false;
  // The raw bits of element e (INT4: the nibble, 0..15).
  uint64_t Get(std::span<const uint8_t> data, int64_t e) const;
  // Bytes that hold `elems` elements (INT4: rounded up).
  uint64_t Bytes(int64_t elems) const;
};

enum class Region { kData, kPadding, kGuard };

struct Mismatch {
  std::string output;
  Region region = Region::kData;
  int64_t storage_index = 0;  // element index; for kGuard the byte offset from the data start
  Place place;
  uint64_t expected = 0;  // bits
  uint64_t actual = 0;
  bool unwritten = false;  // the element still holds the runner's fill
  std::string meaning;     // what the held value means, when something can be said
  // The storage element that holds the value expected here, when `meaning` says
  // it was found there: the other nibble of the byte, or the same place in a
  // neighbouring block. A report draws an arrow from that block to this one.
  std::optional<int64_t> found_at;
  // The one storage element where the value held here is expected, when
  // `meaning` names it ("holds the value expected at ..."): a value moved away.
  std::optional<int64_t> belongs_at;
  // "nz element 12 (C1 block 0 of 2, …) = ND [n 0, k 12] holds 0x3c00, expected 0x3d00: …"
  std::string Text(DType dtype, const std::string& logical_name) const;
  nlohmann::json ToJson(DType dtype, const std::string& logical_name) const;
};

// One storage block, one character per element in storage order: '.' agrees,
// '_' padding that agrees, 'x' differs, 'u' differs and still holds the
// runner's fill, 's' holds the other nibble's value (nibble order swapped), 'n'
// the expected value is at the same place in a neighbouring block, '-' not
// compared (CompareRequest::only left it out).
struct BlockCells {
  int64_t block = -1;    // index of the block (storage index / elements)
  int64_t elements = 0;  // per block: StorageMap::block_elements, or without a map
                         // a row of kMaplessRowElements
  int64_t rows = 1;      // the block drawn as rows × cols (the map's within extents)
  int64_t cols = 0;
  std::string cells;
  nlohmann::json ToJson() const;
};
inline constexpr int64_t kMaxBlockCells = 4096;
inline constexpr int64_t kMaplessRowElements = 64;

struct Comparison {
  int64_t compared = 0;         // elements compared
  int64_t mismatches = 0;       // elements that differ (all of them, not only the reported)
  std::vector<Mismatch> first;  // the first ones in storage order, at most `max_reported`
  // Per storage block (StorageMap::block_elements), how many elements differ;
  // empty without a map or when the output has more than kMaxBlocksCounted blocks.
  std::vector<int64_t> block_mismatches;
  // The storage block of the first mismatch, element by element, for a picture
  // (without a map the row of kMaplessRowElements holding it; empty when a
  // block has more than kMaxBlockCells elements).
  BlockCells first_block;
  bool ok() const { return mismatches == 0; }
};

inline constexpr int64_t kMaxBlocksCounted = int64_t{1} << 20;

struct CompareRequest {
  std::string output;             // its name, for messages
  std::span<const uint8_t> got;   // what the port left in the buffer
  std::span<const uint8_t> want;  // the oracle's (padding holds 0)
  ElementCodec codec;
  int64_t count = 0;                // elements to compare, from the start
  CompareMode mode;                 // of the output (RoutineSpec)
  const StorageMap* map = nullptr;  // optional: places, padding, blocks
  int max_reported = 8;
  // Only elements whose place is padding (padding_is_zero), or only the data.
  enum class Only { kAll, kPadding, kData } only = Only::kAll;
};

Comparison Compare(const CompareRequest& request);

// Whether two element bit patterns agree under `mode` for `dtype`.
bool Agree(uint64_t got, uint64_t want, DType dtype, const CompareMode& mode);

// A guard-zone violation as a mismatch (region kGuard): `first_bad_offset` is
// relative to the data start (negative: before the buffer).
Mismatch GuardMismatch(const std::string& output, int64_t first_bad_offset,
                       uint64_t capacity_bytes);

// "0x3c00" with as many hex digits as the dtype has nibbles.
std::string Hex(uint64_t bits, DType dtype);

// ---- element access kept for the properties that compare by hand ----------------
// Raw bits of element `e` (INT4: the nibble, even element in the low nibble).
uint64_t ElementBits(std::span<const uint8_t> data, DType dtype, int64_t e);
// First element index in [0, count) whose bits differ, or nullopt.
std::optional<int64_t> FirstMismatch(std::span<const uint8_t> got, std::span<const uint8_t> want,
                                     DType dtype, int64_t count);

}  // namespace npuconf::verify

namespace npuconf {
// Older spelling, used by properties not yet on the structured verifier.
using verify::ElementBits;
using verify::FirstMismatch;
using verify::Hex;
}  // namespace npuconf
