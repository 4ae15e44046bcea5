// Where each storage element of an output sits, as data: the storage block it
// belongs to, its place inside the block, and the logical element it holds (or
// padding). A layout describes itself through a StorageMap so that a mismatch
// names "C1 block 1, N1 block 0; row 3 of 16, col 5 of 16 = ND [n 3, k 21]",
// never just a flat index, and a report can draw which blocks differ.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "core/shape.h"

namespace npuconf::verify {

// One named coordinate: "row 3 of 16".
struct Coord {
  std::string axis;
  int64_t index = 0;
  int64_t extent = 0;
  bool operator==(const Coord&) const = default;
};

struct Place {
  bool padding = false;
  std::vector<Coord> block;    // which storage block, outermost first
  std::vector<Coord> within;   // where inside the block
  std::vector<Coord> logical;  // the logical element held (empty for padding)
  // "C1 block 1 of 3, N1 block 0 of 2; row 3 of 16, col 5 of 16 = ND [batch 0, n 3, k 21]".
  std::string Text(const std::string& logical_name) const;
  nlohmann::json ToJson() const;
};

// A row of blocks for a picture: `count` blocks from block `first`.
struct BlockRow {
  int64_t first = 0, count = 0;
  std::string label;      // "segment 1, N1 block 0"
  bool boundary = false;  // the first row of a new outer unit (a K segment)
};

class StorageMap {
 public:
  virtual ~StorageMap() = default;
  virtual int64_t elements() const = 0;
  // The name of the logical tensor in messages: "ND", "B", "A".
  virtual std::string logical_name() const = 0;
  virtual Place Locate(int64_t storage_index) const = 0;
  // Elements per storage block (the unit a picture colours): 16·C0 for
  // FRACTAL_NZ, subN·subK for NATIVE B. Blocks are contiguous runs of this many
  // elements in storage order.
  virtual int64_t block_elements() const { return elements(); }
  int64_t blocks() const;
  // Storage elements at the same place in the blocks just before and after
  // `storage_index`'s, for "the expected value is in a neighbouring block".
  virtual std::vector<int64_t> Neighbours(int64_t storage_index) const;
  // Rows of blocks for a picture where the blocks are no rectangle (a
  // segmented NATIVE B: one row per K segment and N1 block, rows of unequal
  // length); empty when the block coordinates give the grid.
  virtual std::vector<BlockRow> BlockRows() const { return {}; }
  // What a row and a column of BlockRows are: "segment × N1 block", "K1 block".
  virtual std::pair<std::string, std::string> BlockRowAxes() const { return {}; }
};

// A plain row-major tensor: no padding, one block per innermost row.
class RowMajorMap : public StorageMap {
 public:
  // `axes`: one name per dim ("n", "k"); `logical_name`: "ND", "B".
  RowMajorMap(Shape shape, std::vector<std::string> axes, std::string logical_name);
  int64_t elements() const override { return elements_; }
  std::string logical_name() const override { return logical_name_; }
  Place Locate(int64_t storage_index) const override;
  int64_t block_elements() const override;

 private:
  Shape shape_;
  std::vector<std::string> axes_;
  std::string logical_name_;
  int64_t elements_ = 0;
};

}  // namespace npuconf::verify
