// The one JSON form of a case (docs/case.schema.json), used by `npuconf case
// --json`, reports, vector files and the subprocess port protocol:
//
//   {"schema": "npuconf-case", "schema_version": 1,
//    "routine": "cann.nd_to_nz", "profile": "ascend910b",
//    "params": {"dtype": "FLOAT16", "seed": 7, "shape": [17, 33]},
//    "inputs": {"nd": {"dtype": "FLOAT16", "shape": [17, 33], "bytes": 1122,
//                      "encoding": "base64", "data": "…", "sha256": "…"}}}
//
// Params are typed by JSON type: null, integer, number with a fraction or
// exponent (float), string, array of integers. `inputs` is optional: without
// it the inputs come from the params (the `seed`). Keys are sorted, so equal
// cases serialize to equal text.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "core/case.h"
#include "core/invocation.h"

namespace npuconf {

inline constexpr char kCaseSchema[] = "npuconf-case";
inline constexpr int kCaseSchemaVersion = 1;

nlohmann::json ToJson(const ParamValue& value);
nlohmann::json ToJson(const Case& c);
// {"dtype", "shape", "bytes", "encoding": "base64", "data", "sha256"}.
nlohmann::json TensorToJson(const InputTensor& tensor);

// Each returns "" on success, else a message naming the JSON path and value
// (e.g. "params.shape: [2,\"x\"] is not an integer list").
std::string ParamFromJson(const nlohmann::json& value, const std::string& path, ParamValue* out);
std::string TensorFromJson(const nlohmann::json& value, const std::string& path, InputTensor* out);
std::string CaseFromJson(const nlohmann::json& doc, Case* out);

// An invocation (a case made concrete) on the wire: the case JSON with every
// input listed, plus "outputs": [{"name", "dtype", "capacity_bytes", "null",
// "initial" (tensor form, in-place routines only)}].
nlohmann::json ToJson(const Invocation& invocation);
std::string InvocationFromJson(const nlohmann::json& doc, Invocation* out);

}  // namespace npuconf
