// Explicit cases of the RKNN properties: the tables of spec rknn.md §7 and §2.4
// with their expected answers, edge shapes per sub-block, the other readings
// of the layout choices, and the real model shapes (vectors/real/).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "conformance/harness/property.h"
#include "core/shape.h"

namespace npuconf::rknn_props {

// A row of spec rknn.md §7.1 for one layout pair: the io_attr the spec gives.
// Empty dims / nullopt bytes: the spec gives no number for that tensor.
struct DocumentedAttr {
  Case c;  // rknn.matmul_create
  Shape a_dims, b_dims, c_dims;
  std::optional<uint64_t> a_bytes, b_bytes, c_bytes;
  std::string source;
};
std::vector<DocumentedAttr> DocumentedAttrs(const Profile& profile);
const DocumentedAttr* FindDocumentedAttr(const Case& c, const Profile& profile);

// A create info the spec says must be rejected (−5), and where it says so.
struct DocumentedInvalid {
  Case c;  // rknn.matmul_create
  std::string source;
};
// spec rknn.md §7.3 (create-time rows), §6 issues, and infos derived from §1.1–§3.2.
std::vector<DocumentedInvalid> DocumentedInvalidCases(const Profile& profile);
const DocumentedInvalid* FindDocumentedInvalid(const Case& c, const Profile& profile);

// A create that a device really ran (spec rknn.md §3.2a: runtime logs users
// posted), which outranks any document: the profile's default readings must
// agree with every row (issue 17 item 2).
struct DeviceRow {
  Case c;                                             // rknn.matmul_create
  bool created;                                       // create returned 0 (else it failed: -5)
  std::optional<uint64_t> a_bytes, b_bytes, c_bytes;  // sizes the log shows
  std::string source;                                 // the log
};
std::vector<DeviceRow> DeviceRows(const Profile& profile);
const DeviceRow* FindDeviceRow(const Case& c, const Profile& profile);

// Edge shapes of a layout routine for every supported type, plus the other
// readings of rknn.native.c_sub_n_other_outputs, rknn.native.mixed_b_layout and
// rknn.int4.native_b_nibble as case params.
std::vector<Case> EdgeLayoutCases(const std::string& routine, const Profile& profile);
// K at the segment thresholds (§3.3, §7.2) with N small; empty without segmentation.
std::vector<Case> SegmentCases(const std::string& routine, const Profile& profile,
                               bool documented_large);

// Real model shapes [out, in] as B (K = in, N = out) for each distinct B row of
// the profile whose create accepts them (M = 1, NATIVE B); A/C with M ∈ {1, 4, 64}.
std::vector<Case> RealLayoutCases(const std::string& routine, const PropertyContext& ctx);
// Real shapes as create cases: M ∈ {1, 4, 64} × supported types × layouts.
std::vector<Case> RealCreateCases(const PropertyContext& ctx);
// Create cases for the coverage classes random draws rarely reach
// (conformance/rknn/coverage.cpp): zero M/K/N, each dim past 2^16, K at the
// segment length, every B_quant_type, an io_attr size past 2^31 bytes.
std::vector<Case> CoverageCreateCases(const Profile& profile);

}  // namespace npuconf::rknn_props
