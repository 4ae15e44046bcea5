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

}  // namespace npuconf::report
