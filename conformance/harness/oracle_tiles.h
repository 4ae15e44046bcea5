// Comparing a port's output with the oracle's one tile at a time (issue 10):
// a conforming answer of a real model shape is checked byte for byte, padding
// included, in O(tile) memory beyond the port's own buffers.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "core/buffer.h"
#include "core/invocation.h"

namespace npuconf {

// A tile of the oracle's output: `bytes` belong at output byte `offset_bytes`.
struct OracleTile {
  uint64_t offset_bytes = 0;
  Bytes bytes;
};

struct LayoutInstance;

struct TiledCompare {
  bool equal = false;       // every tile equals the port's bytes
  std::string suite_error;  // the tiles do not cover the layout exactly (a bug of the suite)
  // When not equal: the first differing output byte of the first differing tile
  // (in the oracle's tile order), the oracle's value, the port's.
  uint64_t first_byte = 0;
  uint8_t want = 0, got = 0;
};

// Compares `got` (the port's output buffer) with every tile of `l`; stops at the
// first tile that differs. `input` is the tensor the layout reads.
TiledCompare CompareTiles(const LayoutInstance& l, std::span<const uint8_t> input,
                          std::span<const uint8_t> got);

// The bytes a layout reads: an input tensor, or an in-place output's initial content.
std::span<const uint8_t> InputSpanOf(const Invocation& inv, const std::string& name);

}  // namespace npuconf
