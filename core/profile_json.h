// Reading profile JSON: every vendor fact is {"value": …, "source": "…"}, and a
// fact without a source is an error (every vendor fact cites its source).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/dtype.h"

namespace npuconf {

// The "value" of obj[key]; throws std::runtime_error naming `where`.key when the
// key is missing or is not a {"value", "source"} object with a non-empty source.
const nlohmann::json& ProfileFact(const nlohmann::json& obj, const std::string& key,
                                  const std::string& where);

// A dtype name of a profile; throws std::runtime_error naming `where` and the text.
DType ProfileDType(const std::string& text, const std::string& where);

}  // namespace npuconf
