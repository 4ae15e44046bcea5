#include "verify/compare.h"

#include <cmath>
#include <cstring>
#include <sstream>

#include "core/buffer.h"
#include "core/float16.h"

namespace npuconf::verify {
namespace {

bool IsFloat(DType dtype) {
  return dtype == DType::kFloat16 || dtype == DType::kBf16 || dtype == DType::kFloat;
}

bool IsNan(uint64_t bits, DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
      return (bits & 0x7C00) == 0x7C00 && (bits & 0x03FF) != 0;
    case DType::kBf16:
      return (bits & 0x7F80) == 0x7F80 && (bits & 0x007F) != 0;
    case DType::kFloat:
      return (bits & 0x7F800000) == 0x7F800000 && (bits & 0x007FFFFF) != 0;
    default:
      return false;
  }
}

// Float bits mapped to integers whose order is the values' order, so that the
// distance in units in the last place is a difference.
int64_t Ordered(uint64_t bits, DType dtype) {
  const int width = Bits(dtype);
  const uint64_t sign = uint64_t{1} << (width - 1);
  const int64_t magnitude = static_cast<int64_t>(bits & (sign - 1));
  return (bits & sign) ? -magnitude : magnitude;
}

// The runner's fill (kSentinelByte) as element bits of `codec`'s width.
bool IsFill(std::span<const uint8_t> got, const ElementCodec& codec, int64_t e) {
  if (Bits(codec.dtype) == 4) return got[static_cast<size_t>(e / 2)] == kSentinelByte;
  const size_t width = static_cast<size_t>(Bits(codec.dtype) / 8);
  for (size_t i = 0; i < width; ++i) {
    if (got[static_cast<size_t>(e) * width + i] != kSentinelByte) return false;
  }
  return true;
}

// The one storage element whose expected value is `value`, if exactly one is
// (searched only in small outputs: a coincidence is unlikely for wide types and
// a unique match is the only one worth naming).
std::optional<int64_t> UniqueExpected(const CompareRequest& r, uint64_t value) {
  constexpr int64_t kMaxSearched = int64_t{1} << 20;
  if (r.count > kMaxSearched || Bits(r.codec.dtype) < 8) return std::nullopt;
  std::optional<int64_t> found;
  for (int64_t e = 0; e < r.count; ++e) {
    if (r.codec.Get(r.want, e) != value) continue;
    if (found) return std::nullopt;
    found = e;
  }
  return found;
}

std::string Where(const CompareRequest& r, int64_t e) {
  if (!r.map) return r.output + " element " + std::to_string(e);
  return r.output + " element " + std::to_string(e) + " (" +
         r.map->Locate(e).Text(r.map->logical_name()) + ")";
}

// How storage element n's block stands to e's: the outermost block coordinate
// that differs ("the same place in the neighbouring segment (segment 1; this
// element is in segment 0)"), so a K segment off by one reads as such.
std::string Relation(const StorageMap& map, int64_t e, int64_t n) {
  const Place here = map.Locate(e), there = map.Locate(n);
  for (size_t i = 0; i < here.block.size() && i < there.block.size(); ++i) {
    const Coord& a = here.block[i];
    const Coord& b = there.block[i];
    if (a.axis != b.axis || a.index == b.index) continue;
    const bool next = b.index == a.index + 1 || b.index + 1 == a.index;
    return "the same place in " + std::string(next ? "the neighbouring " : "another ") + a.axis +
           " (" + a.axis + " " + std::to_string(b.index) + "; this element is in " + a.axis + " " +
           std::to_string(a.index) + ")";
  }
  return "the same place in a neighbouring block";
}

std::string Meaning(const CompareRequest& r, int64_t e, uint64_t got, uint64_t want, bool padding,
                    std::optional<int64_t>* found_at, std::optional<int64_t>* belongs_at) {
  const DType dtype = r.codec.dtype;
  if (IsFill(r.got, r.codec, e)) {
    return Hex(got, dtype) + " is the runner's fill: the port never wrote this " +
           (padding ? "padding element (padding must be 0)" : "element");
  }
  if (Bits(dtype) == 4) {
    const int64_t other = e ^ 1;
    if (other < r.count && r.codec.Get(r.got, other) == want && r.codec.Get(r.want, other) == got &&
        got != want) {
      *found_at = other;
      return "the value expected here sits in the other nibble of this byte, and this nibble holds "
             "the other's: "
             "the nibble order is swapped";
    }
  }
  if (r.map) {
    for (int64_t n : r.map->Neighbours(e)) {
      if (n < r.count && r.codec.Get(r.got, n) == want && r.codec.Get(r.want, n) != want) {
        *found_at = n;
        return "the value expected here is at " + Where(r, n) + ": " + Relation(*r.map, e, n);
      }
    }
  }
  if (padding) return "padding must hold 0";
  // A padding element's value (0) is the fill of every padding slot, not a
  // value shifted from there (breaker F4).
  if (auto from = UniqueExpected(r, got);
      from && *from != e && !(r.map && r.map->Locate(*from).padding)) {
    *belongs_at = from;
    return "holds the value expected at " + Where(r, *from);
  }
  return "";
}

// The block holding `first`, element by element (see BlockCells).
BlockCells DescribeBlock(const CompareRequest& r, const Mismatch& first, int64_t per_block) {
  BlockCells out;
  out.block = first.storage_index / per_block;
  out.elements = per_block;
  out.cols = per_block;
  const auto& within = first.place.within;
  if (within.size() >= 2 && within.back().extent > 0 && per_block % within.back().extent == 0) {
    out.cols = within.back().extent;
    out.rows = per_block / out.cols;
  }
  const int64_t start = out.block * per_block;
  const int64_t end = std::min(r.count, start + per_block);
  out.cells.reserve(static_cast<size_t>(per_block));
  for (int64_t e = start; e < end; ++e) {
    const uint64_t got = r.codec.Get(r.got, e), want = r.codec.Get(r.want, e);
    const bool padding = r.map && r.map->Locate(e).padding;
    if ((r.only == CompareRequest::Only::kPadding && !padding) ||
        (r.only == CompareRequest::Only::kData && padding)) {
      out.cells += '-';
      continue;
    }
    if (Agree(got, want, r.codec.dtype, r.mode)) {
      out.cells += padding ? '_' : '.';
      continue;
    }
    // The same tests as Meaning, without its whole-output search.
    char cell = 'x';
    if (IsFill(r.got, r.codec, e)) {
      cell = 'u';
    } else if (Bits(r.codec.dtype) == 4 && (e ^ 1) < r.count && r.codec.Get(r.got, e ^ 1) == want &&
               r.codec.Get(r.want, e ^ 1) == got) {
      cell = 's';
    } else if (r.map) {
      for (int64_t n : r.map->Neighbours(e)) {
        if (n < r.count && r.codec.Get(r.got, n) == want && r.codec.Get(r.want, n) != want) {
          cell = 'n';
          break;
        }
      }
    }
    out.cells += cell;
  }
  return out;
}

}  // namespace

uint64_t ElementCodec::Get(std::span<const uint8_t> data, int64_t e) const {
  if (Bits(dtype) == 4) {
    const uint8_t byte = data[static_cast<size_t>(e / 2)];
    const bool high = (e % 2 == 0) == even_high;
    return high ? (byte >> 4) : (byte & 0xF);
  }
  const size_t width = static_cast<size_t>(Bits(dtype) / 8);
  uint64_t value = 0;
  std::memcpy(&value, data.data() + static_cast<size_t>(e) * width, width);
  return value;
}

uint64_t ElementCodec::Bytes(int64_t elems) const {
  return BytesForElems(dtype, static_cast<uint64_t>(std::max<int64_t>(elems, 0))).value_or(0);
}

bool Agree(uint64_t got, uint64_t want, DType dtype, const CompareMode& mode) {
  if (got == want) return true;
  if (mode.kind == CompareMode::Kind::kExact || !IsFloat(dtype)) return false;
  if (IsNan(got, dtype) || IsNan(want, dtype)) return IsNan(got, dtype) && IsNan(want, dtype);
  if (mode.kind == CompareMode::Kind::kExactNanAnyPayload) return false;
  const int64_t distance = Ordered(got, dtype) - Ordered(want, dtype);
  return std::llabs(distance) <= mode.ulps;
}

Comparison Compare(const CompareRequest& r) {
  Comparison out;
  if (r.map && r.map->blocks() <= kMaxBlocksCounted)
    out.block_mismatches.assign(static_cast<size_t>(r.map->blocks()), 0);
  const int64_t per_block = r.map ? std::max<int64_t>(r.map->block_elements(), 1) : 1;
  // Wide types compared exactly: skip equal runs with memcmp, the common case.
  const bool bytewise = Bits(r.codec.dtype) >= 8 && r.mode.kind == CompareMode::Kind::kExact &&
                        r.only == CompareRequest::Only::kAll;
  const int64_t width = std::max(1, Bits(r.codec.dtype) / 8);
  constexpr int64_t kRun = 4096;
  for (int64_t start = 0; start < r.count; start += kRun) {
    const int64_t end = std::min(r.count, start + kRun);
    if (bytewise && std::memcmp(r.got.data() + start * width, r.want.data() + start * width,
                                static_cast<size_t>((end - start) * width)) == 0) {
      out.compared += end - start;
      continue;
    }
    for (int64_t e = start; e < end; ++e) {
      bool padding = false;
      if (r.map && (r.only != CompareRequest::Only::kAll ||
                    !Agree(r.codec.Get(r.got, e), r.codec.Get(r.want, e), r.codec.dtype, r.mode))) {
        padding = r.map->Locate(e).padding;
      }
      if ((r.only == CompareRequest::Only::kPadding && !padding) ||
          (r.only == CompareRequest::Only::kData && padding)) {
        continue;
      }
      ++out.compared;
      const uint64_t got = r.codec.Get(r.got, e), want = r.codec.Get(r.want, e);
      if (Agree(got, want, r.codec.dtype, r.mode)) continue;
      ++out.mismatches;
      if (!out.block_mismatches.empty()) ++out.block_mismatches[static_cast<size_t>(e / per_block)];
      if (static_cast<int>(out.first.size()) >= r.max_reported) continue;
      Mismatch m;
      m.output = r.output;
      m.region = padding ? Region::kPadding : Region::kData;
      m.storage_index = e;
      if (r.map) m.place = r.map->Locate(e);
      m.expected = want;
      m.actual = got;
      m.unwritten = IsFill(r.got, r.codec, e);
      m.meaning = Meaning(r, e, got, want, padding, &m.found_at, &m.belongs_at);
      out.first.push_back(std::move(m));
    }
  }
  if (!out.first.empty() && out.first.front().region != Region::kGuard) {
    if (r.map && per_block <= kMaxBlockCells) {
      out.first_block = DescribeBlock(r, out.first.front(), per_block);
    } else if (!r.map) {
      // No layout: a row of kMaplessRowElements elements (INT4: packed bytes).
      out.first_block = DescribeBlock(r, out.first.front(), kMaplessRowElements);
    }
  }
  return out;
}

nlohmann::json BlockCells::ToJson() const {
  return {
      {"block", block}, {"elements", elements}, {"rows", rows}, {"cols", cols}, {"cells", cells}};
}

Mismatch GuardMismatch(const std::string& output, int64_t first_bad_offset,
                       uint64_t capacity_bytes) {
  Mismatch m;
  m.output = output;
  m.region = Region::kGuard;
  m.storage_index = first_bad_offset;
  m.meaning = first_bad_offset < 0
                  ? "wrote " + std::to_string(-first_bad_offset) + " bytes before the start of '" +
                        output + "'"
                  : "wrote past the capacity of '" + output + "' (" +
                        std::to_string(capacity_bytes) + " bytes): guard byte " +
                        std::to_string(static_cast<uint64_t>(first_bad_offset) - capacity_bytes) +
                        " past the end changed";
  return m;
}

std::string Mismatch::Text(DType dtype, const std::string& logical_name) const {
  if (region == Region::kGuard) return meaning;
  std::string text = output + " element " + std::to_string(storage_index);
  const std::string where = place.Text(logical_name);
  if (!place.block.empty() || !place.within.empty() || !place.logical.empty() || place.padding) {
    text += " (" + where + ")";
  }
  text += " holds " + Hex(actual, dtype) + ", expected " + Hex(expected, dtype);
  if (!meaning.empty()) text += ": " + meaning;
  return text;
}

nlohmann::json Mismatch::ToJson(DType dtype, const std::string& logical_name) const {
  const char* region_name = region == Region::kGuard     ? "guard"
                            : region == Region::kPadding ? "padding"
                                                         : "data";
  nlohmann::json j = {{"output", output}, {"region", region_name}, {"meaning", meaning}};
  if (region == Region::kGuard) {
    j["byte_offset"] = storage_index;
    return j;
  }
  j["storage_index"] = storage_index;
  j["place"] = place.ToJson();
  j["logical_name"] = logical_name;
  j["expected"] = Hex(expected, dtype);
  j["actual"] = Hex(actual, dtype);
  j["unwritten"] = unwritten;
  if (found_at) j["found_at"] = *found_at;
  if (belongs_at) j["belongs_at"] = *belongs_at;
  j["text"] = Text(dtype, logical_name);
  return j;
}

std::string Hex(uint64_t bits, DType dtype) {
  std::ostringstream out;
  out << "0x" << std::hex;
  out.width(std::max(1, Bits(dtype) / 4));
  out.fill('0');
  out << bits;
  return out.str();
}

uint64_t ElementBits(std::span<const uint8_t> data, DType dtype, int64_t e) {
  return ElementCodec{dtype, false}.Get(data, e);
}

std::optional<int64_t> FirstMismatch(std::span<const uint8_t> got, std::span<const uint8_t> want,
                                     DType dtype, int64_t count) {
  const Comparison c = Compare({.output = "",
                                .got = got,
                                .want = want,
                                .codec = {dtype, false},
                                .count = count,
                                .max_reported = 1});
  if (c.ok()) return std::nullopt;
  return c.first.front().storage_index;
}

}  // namespace npuconf::verify
