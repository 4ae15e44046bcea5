#include "conformance/harness/oracle_tiles.h"

#include <algorithm>
#include <cstring>

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
  uint64_t covered = 0;
  for (int64_t t = 0; t < l.oracle_tiles; ++t) {
    const OracleTile tile = l.oracle_tile(input, t);
    if (tile.offset_bytes != covered || tile.bytes.size() > layout_bytes - covered) {
      result.suite_error = "suite error: oracle tile " + std::to_string(t) + " at byte " +
                           std::to_string(tile.offset_bytes) + " (" +
                           std::to_string(tile.bytes.size()) + " bytes) does not continue at " +
                           std::to_string(covered) + " within the layout's " +
                           std::to_string(layout_bytes) + " bytes";
      return result;
    }
    if (std::memcmp(got.data() + covered, tile.bytes.data(), tile.bytes.size()) != 0) {
      const auto at = std::mismatch(tile.bytes.begin(), tile.bytes.end(), got.begin() + covered);
      result.first_byte = covered + static_cast<uint64_t>(at.first - tile.bytes.begin());
      result.want = *at.first;
      result.got = *at.second;
      return result;
    }
    covered += tile.bytes.size();
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
