#include "conformance/harness/oracle_tiles.h"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

#include "conformance/harness/layout_properties.h"

namespace npuconf {

TiledCompare CompareTiles(const LayoutInstance& l, std::span<const uint8_t> input,
                          std::span<const uint8_t> got) {
  const uint64_t layout_bytes = l.output_codec.Bytes(l.output_elems);
  TiledCompare result;
  if (got.size() < layout_bytes) {
    result.suite_error = "output buffer of " + std::to_string(got.size()) +
                         " bytes is smaller than the layout's " + std::to_string(layout_bytes);
    return result;
  }
  // The tiles come in the oracle's order (not always storage order): each is
  // compared where it belongs, and their runs must tile [0, layout_bytes).
  std::vector<std::pair<uint64_t, uint64_t>> runs;  // (offset, bytes)
  runs.reserve(static_cast<size_t>(std::max<int64_t>(0, l.oracle_tiles)));
  for (int64_t t = 0; t < l.oracle_tiles; ++t) {
    const OracleTile tile = l.oracle_tile(input, t);
    if (tile.offset_bytes > layout_bytes || tile.bytes.size() > layout_bytes - tile.offset_bytes) {
      result.suite_error = "suite error: oracle tile " + std::to_string(t) + " at byte " +
                           std::to_string(tile.offset_bytes) + " (" +
                           std::to_string(tile.bytes.size()) + " bytes) ends past the layout's " +
                           std::to_string(layout_bytes) + " bytes";
      return result;
    }
    const uint8_t* at_got = got.data() + tile.offset_bytes;
    if (std::memcmp(at_got, tile.bytes.data(), tile.bytes.size()) != 0) {
      const auto at = std::mismatch(tile.bytes.begin(), tile.bytes.end(), at_got);
      result.first_byte = tile.offset_bytes + static_cast<uint64_t>(at.first - tile.bytes.begin());
      result.want = *at.first;
      result.got = *at.second;
      return result;
    }
    runs.emplace_back(tile.offset_bytes, tile.bytes.size());
  }
  std::sort(runs.begin(), runs.end());
  uint64_t covered = 0;
  for (const auto& [offset, bytes] : runs) {
    if (offset != covered) {
      result.suite_error = "suite error: the oracle tiles " +
                           std::string(offset < covered ? "overlap" : "leave a gap") + " at byte " +
                           std::to_string(std::min(offset, covered)) + " of the layout's " +
                           std::to_string(layout_bytes) + " bytes";
      return result;
    }
    covered += bytes;
  }
  if (covered != layout_bytes) {
    result.suite_error = "suite error: the oracle tiles cover " + std::to_string(covered) +
                         " of the layout's " + std::to_string(layout_bytes) + " bytes";
    return result;
  }
  result.equal = true;
  return result;
}

std::span<const uint8_t> InputSpanOf(const Invocation& inv, const std::string& name) {
  if (const InputTensor* t = inv.Input(name)) return t->bytes;
  for (const auto& o : inv.outputs) {
    if (o.name == name) return o.initial;
  }
  return {};
}

}  // namespace npuconf
