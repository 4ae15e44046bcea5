// Pictures of a failing output's storage, drawn from a failure's structured
// evidence (verify/compare.h, the JSON FailFrom builds) as inline SVG for
// report.html: one cell per storage block (a FRACTAL_NZ fractal, a NATIVE tile,
// a row of a row-major tensor) with the differing blocks coloured and arrows from
// the block where an expected value was found instead; and the first differing
// block element by element (swapped nibbles, unwritten elements, padding).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace npuconf::report {

// Colours the pictures and the screenshot test agree on.
inline constexpr const char* kColourBlockDiffers = "#d93025";
inline constexpr const char* kColourBlockAgrees = "#cde9d3";
inline constexpr const char* kColourFoundHere = "#1a73e8";
inline constexpr const char* kColourNibbleSwapped = "#8e24aa";
inline constexpr const char* kColourUnwritten = "#f9ab00";
inline constexpr const char* kColourPadding = "#e8e8e8";
inline constexpr const char* kColourNotCompared = "#ffffff";

// At most this many block rows and columns are drawn: a window around the first
// mismatch, and the picture says which part it shows.
inline constexpr int kMaxPictureBlockRows = 24;
inline constexpr int kMaxPictureBlockCols = 32;

// The block grid: `evidence` needs "block_elements" and "block_mismatches";
// the first mismatch's place.block coordinates (outermost first) give the grid
// its shape (the last coordinate across). Empty string when not drawable.
std::string BlockGridSvg(const nlohmann::json& evidence);
// The first differing block, one cell per element (evidence "first_block":
// rows, cols, cells as verify::BlockCells). Empty string when absent.
std::string BlockCellsSvg(const nlohmann::json& evidence);

}  // namespace npuconf::report
