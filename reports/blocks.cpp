#include "reports/blocks.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "reports/text.h"

namespace npuconf::report {
namespace {

int64_t IntOr(const nlohmann::json& j, const char* key, int64_t fallback) {
  if (!j.is_object() || !j.contains(key) || !j.at(key).is_number_integer()) return fallback;
  return j.at(key).get<int64_t>();
}

std::string Swatch(const char* colour, const std::string& label) {
  return std::string("<span class=\"swatch\" style=\"background:") + colour + "\"></span>" +
         HtmlEscape(label) + " ";
}

// One row of blocks: `count` blocks from block `first`, labelled; `boundary`:
// a thicker line above it (a new K segment).
struct GridRow {
  int64_t first = 0, count = 0;
  std::string label;
  bool boundary = false;
};

struct Grid {
  std::vector<GridRow> rows;
  int64_t cols = 1;
  std::string row_axis, col_axis;  // what a row / column of blocks is
  // The row and column of block b.
  std::pair<int64_t, int64_t> At(int64_t b) const {
    auto it = std::upper_bound(rows.begin(), rows.end(), b,
                               [](int64_t x, const GridRow& r) { return x < r.first; });
    const int64_t r = std::max<int64_t>(0, static_cast<int64_t>(it - rows.begin()) - 1);
    return {r, b - rows[static_cast<size_t>(r)].first};
  }
};

Grid Uniform(int64_t blocks, int64_t cols, std::string row_axis, std::string col_axis) {
  Grid g;
  g.cols = std::max<int64_t>(cols, 1);
  for (int64_t first = 0; first < blocks; first += g.cols)
    g.rows.push_back({first, std::min(g.cols, blocks - first), "", false});
  g.row_axis = std::move(row_axis);
  g.col_axis = std::move(col_axis);
  return g;
}

// The grid of the blocks: the rows the storage map gives ("block_rows": a
// segmented NATIVE B, one row per K segment and N1 block, a line between
// segments); else from the first mismatch's block coordinates when their
// extents multiply to the block count; else rows of up to 32 blocks.
Grid GridOf(const nlohmann::json& evidence, int64_t blocks) {
  if (evidence.contains("block_rows") && evidence["block_rows"].is_array() &&
      !evidence["block_rows"].empty()) {
    Grid g;
    int64_t next = 0;
    bool ok = true;
    for (const auto& row : evidence["block_rows"]) {
      const GridRow r{IntOr(row, "first", -1), IntOr(row, "count", 0),
                      row.value("label", std::string()), row.value("boundary", false)};
      ok &= r.first == next && r.count > 0;
      next = r.first + r.count;
      g.cols = std::max(g.cols, r.count);
      g.rows.push_back(r);
    }
    if (ok && next == blocks) {
      g.row_axis = evidence.value("block_row_axis", std::string("row"));
      g.col_axis = evidence.value("block_col_axis", std::string("block"));
      return g;
    }
  }
  nlohmann::json place = nlohmann::json::object();
  if (evidence.contains("first") && evidence["first"].is_array() && !evidence["first"].empty()) {
    place = evidence["first"][0].value("place", nlohmann::json::object());
  }
  const nlohmann::json* coords = nullptr;
  if (place.contains("block") && place["block"].is_array()) coords = &place["block"];
  if (coords && !coords->empty()) {
    int64_t product = 1;
    bool ok = true;
    for (const auto& c : *coords) {
      const int64_t extent = IntOr(c, "extent", 0);
      if (extent <= 0 || product > blocks) {
        ok = false;
        break;
      }
      product *= extent;
    }
    if (ok && product == blocks) {
      std::string row_axis;
      for (size_t i = 0; i + 1 < coords->size(); ++i) {
        row_axis += (row_axis.empty() ? "" : " × ") + (*coords)[i].value("axis", std::string());
      }
      return Uniform(blocks, IntOr(coords->back(), "extent", 1), row_axis,
                     coords->back().value("axis", std::string()));
    }
  }
  return Uniform(blocks, std::min<int64_t>(blocks, 32), "blocks, 32 a row", "block");
}

}  // namespace

std::string BlockGridSvg(const nlohmann::json& evidence) {
  if (!evidence.is_object() || !evidence.contains("block_mismatches") ||
      !evidence["block_mismatches"].is_array() || evidence["block_mismatches"].empty()) {
    return "";
  }
  const auto& counts = evidence["block_mismatches"];
  const int64_t blocks = static_cast<int64_t>(counts.size());
  const int64_t per_block = std::max<int64_t>(IntOr(evidence, "block_elements", 1), 1);
  const Grid g = GridOf(evidence, blocks);
  int64_t first_block = 0;
  // A value's move, drawn from the block that holds it to the block where it
  // is expected: (found_at's block, this one) and (this one, belongs_at's block).
  std::vector<std::pair<int64_t, int64_t>> arrows;
  if (evidence.contains("first") && evidence["first"].is_array() && !evidence["first"].empty()) {
    first_block = IntOr(evidence["first"][0], "storage_index", 0) / per_block;
    std::set<std::pair<int64_t, int64_t>> seen;
    for (const auto& m : evidence["first"]) {
      const int64_t here = IntOr(m, "storage_index", 0) / per_block;
      std::pair<int64_t, int64_t> arrow;
      if (m.contains("found_at")) {
        arrow = {IntOr(m, "found_at", 0) / per_block, here};
      } else if (m.contains("belongs_at")) {
        arrow = {here, IntOr(m, "belongs_at", 0) / per_block};
      } else {
        continue;
      }
      if (arrow.first != arrow.second && arrow.first >= 0 && arrow.second >= 0 &&
          arrow.first < blocks && arrow.second < blocks && seen.insert(arrow).second) {
        arrows.push_back(arrow);
      }
    }
  }
  first_block = std::clamp<int64_t>(first_block, 0, blocks - 1);
  const int64_t grid_rows = static_cast<int64_t>(g.rows.size());
  // A window around the first mismatch.
  const int64_t shown_rows = std::min<int64_t>(grid_rows, kMaxPictureBlockRows);
  const int64_t shown_cols = std::min<int64_t>(g.cols, kMaxPictureBlockCols);
  const auto [first_row, first_col] = g.At(first_block);
  const int64_t row0 = std::clamp<int64_t>(first_row - shown_rows / 2, 0, grid_rows - shown_rows);
  const int64_t col0 = std::clamp<int64_t>(first_col - shown_cols / 2, 0, g.cols - shown_cols);
  const int64_t size = std::clamp<int64_t>(640 / shown_cols, 12, 40);
  // Room above and below the grid for bowed arrows.
  const int64_t margin = arrows.empty() ? 0 : size;
  const int64_t width = shown_cols * size + 2, height = shown_rows * size + 2 + 2 * margin;
  auto inside = [&](int64_t b) {
    const auto [r, c] = g.At(b);
    return r >= row0 && r < row0 + shown_rows && c >= col0 && c < col0 + shown_cols;
  };
  auto centre = [&](int64_t b, int64_t* x, int64_t* y) {
    const auto [r, c] = g.At(b);
    *x = (c - col0) * size + size / 2 + 1;
    *y = (r - row0) * size + size / 2 + 1;
  };

  std::ostringstream svg;
  svg << "<svg class=\"blocks\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
      << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " " << height << "\">"
      << "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" "
         "markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\""
      << kColourFoundHere << "\"/></marker></defs><g transform=\"translate(0," << margin << ")\">";
  int64_t differing = 0;
  for (int64_t b = 0; b < blocks; ++b)
    differing += counts[static_cast<size_t>(b)].get<int64_t>() > 0;
  for (int64_t r = row0; r < row0 + shown_rows; ++r) {
    const GridRow& row = g.rows[static_cast<size_t>(r)];
    if (row.boundary && r > row0) {
      svg << "<line x1=\"0\" y1=\"" << (r - row0) * size << "\" x2=\"" << width << "\" y2=\""
          << (r - row0) * size << "\" stroke=\"#000\" stroke-width=\"3\"/>";
    }
    for (int64_t c = col0; c < col0 + shown_cols; ++c) {
      if (c >= row.count) continue;
      const int64_t b = row.first + c;
      const int64_t n = counts[static_cast<size_t>(b)].get<int64_t>();
      svg << "<rect x=\"" << (c - col0) * size + 1 << "\" y=\"" << (r - row0) * size + 1
          << "\" width=\"" << size - 2 << "\" height=\"" << size - 2 << "\" fill=\""
          << (n > 0 ? kColourBlockDiffers : kColourBlockAgrees) << "\""
          << (b == first_block ? " stroke=\"#000\" stroke-width=\"2\"" : "") << "><title>block "
          << b << " ("
          << HtmlEscape(row.label.empty() ? g.row_axis + " " + std::to_string(r) : row.label)
          << ", " << HtmlEscape(g.col_axis) << " " << c << "): " << n << " of " << per_block
          << " elements differ</title></rect>";
    }
  }
  for (const auto& [from, to] : arrows) {
    if (!inside(from) || !inside(to)) continue;
    int64_t x1, y1, x2, y2;
    centre(from, &x1, &y1);
    centre(to, &x2, &y2);
    svg << "<rect x=\"" << x1 - size / 2 + 1 << "\" y=\"" << y1 - size / 2 + 1 << "\" width=\""
        << size - 4 << "\" height=\"" << size - 4 << "\" fill=\"none\" stroke=\""
        << kColourFoundHere << "\" stroke-width=\"3\"/>";
    // Bowed, so that arrows along one row of blocks stay apart.
    const double dx = static_cast<double>(x2 - x1), dy = static_cast<double>(y2 - y1);
    const double length = std::max(std::hypot(dx, dy), 1.0);
    const double bow = std::min(length / 4, static_cast<double>(margin) - 2);
    const auto cx = static_cast<int64_t>((x1 + x2) / 2.0 + dy / length * bow);
    const auto cy = static_cast<int64_t>((y1 + y2) / 2.0 - dx / length * bow);
    svg << "<path d=\"M" << x1 << "," << y1 << " Q" << cx << "," << cy << " " << x2 << "," << y2
        << "\" fill=\"none\" stroke=\"" << kColourFoundHere
        << "\" stroke-width=\"2\" marker-end=\"url(#arrow)\"/>";
  }
  svg << "</g></svg>";

  std::ostringstream out;
  out << "<figure class=\"picture\">" << svg.str() << "<figcaption>Storage blocks of <code>"
      << HtmlEscape(evidence.value("output", std::string())) << "</code> ("
      << HtmlEscape(evidence.value("dtype", std::string())) << ", " << per_block
      << " elements a block): " << differing << " of " << blocks
      << " blocks differ. Rows: " << HtmlEscape(g.row_axis.empty() ? "one" : g.row_axis) << " ("
      << grid_rows << "), columns: " << HtmlEscape(g.col_axis) << " (" << g.cols << ").";
  bool segments = false;
  for (const GridRow& row : g.rows) segments |= row.boundary;
  if (segments) out << " A black line: the start of the next K segment.";
  if (shown_rows < grid_rows || shown_cols < g.cols) {
    out << " <b>Window</b>: rows " << row0 << "–" << row0 + shown_rows - 1 << ", columns " << col0
        << "–" << col0 + shown_cols - 1 << " around the first mismatch.";
  }
  out << "<br>" << Swatch(kColourBlockDiffers, "differs") << Swatch(kColourBlockAgrees, "agrees")
      << "black outline: first mismatch";
  if (!arrows.empty()) {
    out << " · " << Swatch(kColourFoundHere, "arrow")
        << "a value, from the block that holds it to the block where it is expected (blue "
           "outline)";
  }
  out << "</figcaption></figure>";
  return out.str();
}

std::string BlockCellsSvg(const nlohmann::json& evidence) {
  if (!evidence.is_object() || !evidence.contains("first_block") ||
      !evidence["first_block"].is_object()) {
    return "";
  }
  const auto& fb = evidence["first_block"];
  const std::string cells = fb.value("cells", std::string());
  if (cells.empty()) return "";
  int64_t cols = std::max<int64_t>(IntOr(fb, "cols", 1), 1);
  if (cols > 128) cols = 64;  // one long row (a row-major tensor's row) wrapped
  const int64_t count = static_cast<int64_t>(cells.size());
  if (!evidence.contains("block_mismatches")) cols = std::min(cols, count);  // a short row
  const int64_t rows = (count + cols - 1) / cols;
  const bool nibbles = evidence.value("dtype", std::string()) == "INT4";
  const int64_t size = std::clamp<int64_t>(720 / cols, 4, 16);
  const int64_t byte_gap = nibbles ? 2 : 0;  // INT4: two nibbles a byte, bytes apart
  const int64_t per_block = std::max<int64_t>(
      IntOr(fb, "elements", IntOr(evidence, "block_elements", static_cast<int64_t>(count))), 1);
  int64_t first_cell = -1;
  if (evidence.contains("first") && evidence["first"].is_array() && !evidence["first"].empty()) {
    first_cell =
        IntOr(evidence["first"][0], "storage_index", 0) - IntOr(fb, "block", 0) * per_block;
  }
  auto x_of = [&](int64_t c) { return c * size + (c / 2) * byte_gap + 1; };
  const int64_t width = x_of(cols) + 2, height = rows * size + 2;
  std::map<char, int64_t> tally;
  std::ostringstream svg;
  svg << "<svg class=\"cells\" xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width
      << "\" height=\"" << height << "\" viewBox=\"0 0 " << width << " " << height << "\">";
  for (int64_t i = 0; i < count; ++i) {
    const char cell = cells[static_cast<size_t>(i)];
    ++tally[cell];
    const char* colour = cell == '.'   ? kColourBlockAgrees
                         : cell == '_' ? kColourPadding
                         : cell == 's' ? kColourNibbleSwapped
                         : cell == 'u' ? kColourUnwritten
                         : cell == 'n' ? kColourFoundHere
                         : cell == '-' ? kColourNotCompared
                                       : kColourBlockDiffers;
    const int64_t r = i / cols, c = i % cols;
    svg << "<rect x=\"" << x_of(c) << "\" y=\"" << r * size + 1 << "\" width=\""
        << std::max<int64_t>(size - 1, 1) << "\" height=\"" << std::max<int64_t>(size - 1, 1)
        << "\" fill=\"" << colour << "\"" << (i == first_cell ? " stroke=\"#000\"" : "") << "/>";
  }
  svg << "</svg>";
  std::ostringstream out;
  out << "<figure class=\"picture\">" << svg.str() << "<figcaption>";
  if (evidence.contains("block_mismatches")) {
    out << "Block " << IntOr(fb, "block", 0) << " element by element";
  } else {
    const int64_t start = IntOr(fb, "block", 0) * per_block;
    out << "Elements " << start << "–" << start + count - 1 << " of <code>"
        << HtmlEscape(evidence.value("output", std::string())) << "</code>";
  }
  out << " (" << rows << " × " << cols << (IntOr(fb, "cols", 1) > 128 ? ", wrapped" : "")
      << (nibbles ? ", nibbles paired by byte" : "") << "): ";
  const std::vector<std::pair<char, std::pair<const char*, const char*>>> legend = {
      {'.', {kColourBlockAgrees, "agrees"}},
      {'_', {kColourPadding, "padding, agrees"}},
      {'x', {kColourBlockDiffers, "differs"}},
      {'s', {kColourNibbleSwapped, "holds the other nibble's value (nibble order swapped)"}},
      {'n', {kColourFoundHere, "expected value found in a neighbouring block"}},
      {'u', {kColourUnwritten, "never written (runner's fill)"}},
      {'-', {kColourNotCompared, "not compared by this property"}},
  };
  for (const auto& [key, entry] : legend) {
    if (tally[key] == 0) continue;
    out << Swatch(entry.first, std::string(entry.second) + " " + std::to_string(tally[key]));
  }
  out << "</figcaption></figure>";
  return out.str();
}

}  // namespace npuconf::report
