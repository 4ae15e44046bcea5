// `npuconf case` output: an answer decoded for a person (statuses by name, sizes
// with their units, struct-like outputs by field, small tensors as nested
// arrays), as JSON (`--json`), or as files (`--dump DIR`: case.json,
// answer.json and every input and output tensor as .npy).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "conformance/ports/port.h"
#include "core/routine.h"

namespace npuconf {

void PrintAnswer(const RoutineSpec& spec, const Invocation& inv, const Answer& answer,
                 std::ostream& out);

// {"case": <case JSON with its inputs>, "port": name, "call_result", "status",
//  "status_name", "message", "outputs": [{"name", "dtype", "capacity_bytes",
//  "null", "dims", "guards_intact", "data", "sha256", "values"?}]}
nlohmann::json AnswerToJson(const RoutineSpec& spec, const Invocation& inv, const Answer& answer,
                            const std::string& port_name);

// Writes DIR/case.json, DIR/answer.json, DIR/inputs/NAME.npy, DIR/outputs/NAME.npy.
// Returns "" or what could not be written.
std::string DumpAnswer(const std::string& dir, const RoutineSpec& spec, const Invocation& inv,
                       const Answer& answer, const std::string& port_name);

}  // namespace npuconf
