// A PropertyResult as data on the wire: the report.json item of one result
// (reports/report.h ToJson) and back, so a worker process of the parallel
// runner (conformance/harness/parallel.h) can hand its result to the parent.
#pragma once

#include <nlohmann/json.hpp>
#include <span>
#include <string_view>

#include "reports/report.h"

namespace npuconf::report {

// The item report.json lists for `result` (every field, `seconds` included).
nlohmann::json ResultToJson(const PropertyResult& result);

// Inverse of ResultToJson: every field of PropertyResult is read back.
// Throws std::runtime_error naming the field that is missing or mistyped.
PropertyResult ResultFromJson(const nlohmann::json& item);

// A worker's result frame (the CBOR of ResultToJson) back, within
// core/json_text.h's limits. Throws std::runtime_error naming what is wrong.
PropertyResult ResultFromCbor(std::span<const uint8_t> bytes);

// A whole report.json back into a RunReport (report merge, report diff):
// every field ToJson writes. Throws std::runtime_error naming what is wrong.
RunReport RunReportFromJson(const nlohmann::json& doc);

// A report.json's text (a shard's for `report merge`, a run's for `report
// diff`), within core/json_text.h's limits; *complete (if given) is its
// "complete" field. Throws std::runtime_error naming what is wrong.
RunReport RunReportFromText(std::string_view text, bool* complete = nullptr);

// The digest a report.json carries of itself ("digest": "xxh3-64:HEX"): of
// the document without that key, as compact JSON. It catches a corrupted or
// naively edited file; it is no signature (anyone can compute it again).
std::string ReportDigest(const nlohmann::json& doc);
// "" when `doc`'s "digest" is its ReportDigest, else why not (missing, or
// the file was changed after it was written).
std::string CheckReportDigest(const nlohmann::json& doc);

nlohmann::json WaiverNoteToJson(const WaiverNote& waiver);
WaiverNote WaiverNoteFromJson(const nlohmann::json& waiver);

}  // namespace npuconf::report
