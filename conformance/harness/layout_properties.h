// One description of a layout routine yields its properties (issue 7 item 5):
// matches_oracle, padding_is_zero, no_write_past_capacity and round_trip, the
// same call → guards → status → dims → oracle sequence for FRACTAL_NZ,
// TransMatmulWeight and the RKNN NATIVE layouts alike. A family describes each
// layout case (LayoutInstance: tensors, codecs, the oracle's answer, the storage
// map) and its cases; the template does the calling and the verifying.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "conformance/harness/oracle_tiles.h"
#include "conformance/harness/property.h"
#include "verify/compare.h"
#include "verify/storage_map.h"

namespace npuconf {

// One layout case made concrete by its family.
struct LayoutInstance {
  // The tensor the layout reads: an input, or for an in-place routine the
  // output whose initial content it is.
  std::string input;
  std::string output;
  verify::ElementCodec input_codec, output_codec;  // dtype and int4 nibble order of each side
  int64_t input_elems = 0;
  int64_t output_elems = 0;  // the layout's elements, padding included
  Shape output_dims;         // the dims the port must report
  // The vendor leaves the reported dims open for this case (a choice's
  // reading, e.g. rknn.segment.b_dims = unknown): they are not checked.
  bool output_dims_open = false;
  // The output the oracle gives for an input (output_elems elements, padding 0).
  std::function<Bytes(const Bytes& input)> oracle;
  // Optional, for large outputs: the oracle's output one tile at a time, each
  // tile a contiguous run of output bytes at its offset, the tiles in any
  // order (the one that reads the input best) covering the layout's bytes
  // exactly, without overlap (conformance/harness/oracle_tiles.h).
  // matches_oracle then needs O(tile) memory beyond the port's buffers.
  int64_t oracle_tiles = 0;
  std::function<OracleTile(std::span<const uint8_t> input, int64_t tile)> oracle_tile;
  std::shared_ptr<const verify::StorageMap> output_map;  // places of the output's elements
  std::shared_ptr<const verify::StorageMap> input_map;   // places of the input's elements
};

struct LayoutRoutine {
  std::string routine;  // its id (core/routines/)
  std::string inverse;  // the routine that undoes it, or "" (no round_trip)
  std::string vendor;   // "cann" / "rknn": for status names
  int64_t success = 0;  // the vendor's success status (ACLNN_SUCCESS, RKNN_SUCC)
  std::string what;     // "ND -> FRACTAL_NZ", for descriptions
  // True when the output is the blocked side (padding_is_zero applies).
  bool output_has_padding = true;
  // The vendor leaves the padding's content unspecified (RKNN NC1HWC2 pad
  // lanes): matches_oracle and round_trip compare the logical elements only,
  // and there is no padding_is_zero.
  bool padding_unspecified = false;
  std::vector<std::string> choices;  // profile choices the verdicts depend on
  std::function<std::string(const Profile&)> not_applicable;
  std::function<std::string(const Profile&)> not_covered;  // Property::not_covered
  // Throws CaseError for a case that is not a valid layout case.
  std::function<LayoutInstance(const Case&, const Profile&)> instance;
  // Explicit cases of every property (edge shapes, spec examples).
  std::function<std::vector<Case>(const PropertyContext&)> edge_cases;
  // More explicit cases for matches_oracle only (real model shapes: it compares
  // every byte, padding and guards included, so the others would repeat it).
  std::function<std::vector<Case>(const PropertyContext&)> real_cases;
  std::function<rc::Gen<Case>(const PropertyContext&)> generator;
  // Cases of no_write_past_capacity when they differ from `generator` (an
  // in-place routine that validates: its invalid calls must not write either).
  std::function<rc::Gen<Case>(const PropertyContext&)> capacity_generator;
};

// Appends ROUTINE.matches_oracle, .no_write_past_capacity, .padding_is_zero
// (output_has_padding) and .round_trip (inverse set).
void AddLayoutProperties(const LayoutRoutine& layout, std::vector<Property>* out);

// The checks behind those properties, for a family that adds more of its own.
Verdict CheckLayoutMatchesOracle(const LayoutRoutine& layout, const PropertyContext& ctx,
                                 const Case& c);
Verdict CheckLayoutPadding(const LayoutRoutine& layout, const PropertyContext& ctx, const Case& c);
Verdict CheckLayoutCapacity(const LayoutRoutine& layout, const PropertyContext& ctx, const Case& c);
Verdict CheckLayoutRoundTrip(const LayoutRoutine& layout, const PropertyContext& ctx,
                             const Case& c);

// A failing verdict from a comparison: the first mismatch's text, how many
// elements differ, and the structured evidence (with the blocks that differ
// when `map` is given).
Verdict FailFrom(const verify::Comparison& comparison, DType dtype, const verify::StorageMap* map,
                 const std::string& context = "");

}  // namespace npuconf
