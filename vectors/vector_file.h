// Vector files (docs/vector-format.md, docs/vector.schema.json): stored cases of
// one routine, each with the oracle's expected answer and where it comes from,
// for a device tester to replay anywhere. Reading and writing only; making and
// replaying vectors is cli/vectors_cmd.cpp's.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/case.h"
#include "core/routine.h"
#include "core/tensor.h"

namespace npuconf::vectors {

inline constexpr char kVectorSchema[] = "npuconf-vectors";
inline constexpr int kVectorSchemaVersion = 1;

// An expected output: the bytes the routine leaves in the buffer's head
// (`tensor.shape` is the STORAGE shape in elements, padding included) and how
// a port's bytes are compared with them.
struct VectorOutput {
  InputTensor tensor;
  CompareMode compare;
  // The dims the port must report (rank and dims of the output descriptor),
  // for routines that report them; nullopt: none checked.
  std::optional<Shape> reported_dims;
};

struct VectorCase {
  Case c;  // routine (the file's), profile, params, every input tensor
  // The profile choices (name -> reading) the expected answer was derived
  // under; a port claiming another reading of one of them skips the case.
  std::map<std::string, std::string> choices;
  int64_t status = 0;       // the vendor status the call must return
  std::string status_name;  // e.g. "ACLNN_SUCCESS", for a person
  std::vector<VectorOutput> outputs;
  std::vector<std::string> untouched;  // outputs the call must leave as handed over
  std::string rule;                    // the rule that decided the status (spec section)
  // {"source": "generated" | "spec cann.md §1.7 …", "seed", "generator", "note"}
  nlohmann::json provenance = nlohmann::json::object();
};

struct VectorFile {
  std::string routine;
  std::string suite_version;
  std::vector<VectorCase> cases;
};

nlohmann::json ToJson(const VectorFile& file);

// One problem of a file: its case index (-1 for the file itself) and what.
struct Problem {
  int64_t case_index = -1;
  std::string what;
};

// Parses a vector document. Cases that do not parse (schema error, malformed
// base64, a SHA-256 that does not match the data) are left out of out->cases
// and listed in the result; `kept` maps each kept case to its index in the
// file.
std::vector<Problem> FromJson(const nlohmann::json& doc, VectorFile* out,
                              std::vector<int64_t>* kept);

// Writes `file` to `path` (2-space indented JSON, keys sorted, newline at the
// end: the same file for the same content). With npy_dir non-empty also
// writes npy_dir/<case index>/{inputs,expected}/NAME.npy. Returns "" or why not.
std::string WriteVectorFile(const std::string& path, const VectorFile& file,
                            const std::string& npy_dir = "");

// The *.json files under `path` (a file, or a directory searched recursively),
// sorted. Returns "" or why `path` cannot be read.
std::string ListVectorFiles(const std::string& path, std::vector<std::string>* files);

}  // namespace npuconf::vectors
