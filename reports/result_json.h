// A PropertyResult as data on the wire: the report.json item of one result
// (reports/report.h ToJson) and back, so a worker process of the parallel
// runner (conformance/harness/parallel.h) can hand its result to the parent.
#pragma once

#include <nlohmann/json.hpp>

#include "reports/report.h"

namespace npuconf::report {

// The item report.json lists for `result` (every field, `seconds` included).
nlohmann::json ResultToJson(const PropertyResult& result);

// Inverse of ResultToJson: every field of PropertyResult is read back.
// Throws std::runtime_error naming the field that is missing or mistyped.
PropertyResult ResultFromJson(const nlohmann::json& item);

// A whole report.json back into a RunReport (report merge, report diff):
// every field ToJson writes. Throws std::runtime_error naming what is wrong.
RunReport RunReportFromJson(const nlohmann::json& doc);

nlohmann::json WaiverNoteToJson(const WaiverNote& waiver);
WaiverNote WaiverNoteFromJson(const nlohmann::json& waiver);

}  // namespace npuconf::report
