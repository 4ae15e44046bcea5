// Reading profile JSON: every vendor fact is {"value": …, "source": "…"}, and a
// fact without a source is an error (every vendor fact cites its source).
// Every reader here throws std::runtime_error naming where the bad value is
// ("rk3588.limits.k_max: 1.5 is not an integer"), never nlohmann's type_error
// or out_of_range, which name no key, and never converts a number that does
// not fit (a float or a too large integer into an int is undefined behaviour).
#pragma once

#include <cstdint>
#include <limits>
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

// obj[key] of a profile object `where`; throws when `obj` is no object or has no `key`.
const nlohmann::json& ProfileMember(const nlohmann::json& obj, const std::string& key,
                                    const std::string& where);
// `value` itself when it is an object (an array); else throws naming `where` and the value.
const nlohmann::json& ProfileObject(const nlohmann::json& value, const std::string& where);
const nlohmann::json& ProfileArray(const nlohmann::json& value, const std::string& where);
// `value` as a string, a bool, an integer in [min, max]; else throws naming `where` and the value.
std::string ProfileString(const nlohmann::json& value, const std::string& where);
bool ProfileBool(const nlohmann::json& value, const std::string& where);
int64_t ProfileInt(const nlohmann::json& value, const std::string& where,
                   int64_t min = std::numeric_limits<int64_t>::min(),
                   int64_t max = std::numeric_limits<int64_t>::max());

}  // namespace npuconf
