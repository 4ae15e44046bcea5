#include "vectors/vector_file.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "core/case_json.h"
#include "core/npy.h"

namespace npuconf::vectors {
namespace {

nlohmann::json CaseToJson(const VectorCase& v) {
  nlohmann::json doc = ToJson(v.c);  // the case JSON: schema, routine, profile, params, inputs
  nlohmann::json out = nlohmann::json::object();
  out["profile"] = doc["profile"];
  out["params"] = doc["params"];
  out["inputs"] = doc.contains("inputs") ? doc["inputs"] : nlohmann::json::object();
  out["choices"] = v.choices;
  nlohmann::json outputs = nlohmann::json::object();
  for (const auto& o : v.outputs) {
    nlohmann::json t = TensorToJson(o.tensor);
    t["compare"] = o.compare.ToString();
    if (o.reported_dims) t["reported_dims"] = *o.reported_dims;
    outputs[o.tensor.name] = t;
  }
  out["expected"] = {{"status", v.status},
                     {"status_name", v.status_name},
                     {"rule", v.rule},
                     {"outputs", outputs},
                     {"untouched", v.untouched}};
  out["provenance"] = v.provenance;
  return out;
}

std::string CaseFromJson(const nlohmann::json& j, const std::string& routine, VectorCase* out) {
  if (!j.is_object()) return "a case must be an object";
  for (const char* key : {"profile", "params", "expected", "provenance"}) {
    if (!j.contains(key)) return std::string("missing \"") + key + "\"";
  }
  for (const auto& [key, value] : j.items()) {
    if (key != "profile" && key != "params" && key != "inputs" && key != "choices" &&
        key != "expected" && key != "provenance") {
      return "unknown key \"" + key + "\" in a case";
    }
  }
  nlohmann::json case_doc = {{"schema", kCaseSchema},
                             {"schema_version", kCaseSchemaVersion},
                             {"routine", routine},
                             {"profile", j["profile"]},
                             {"params", j["params"]}};
  if (j.contains("inputs")) case_doc["inputs"] = j["inputs"];
  VectorCase v;
  if (auto error = npuconf::CaseFromJson(case_doc, &v.c); !error.empty()) return error;
  if (j.contains("choices")) {
    if (!j["choices"].is_object()) return "choices: expected an object of name: reading";
    for (const auto& [name, reading] : j["choices"].items()) {
      if (!reading.is_string()) return "choices." + name + ": expected a string";
      v.choices[name] = reading.get<std::string>();
    }
  }
  const nlohmann::json& e = j["expected"];
  if (!e.is_object()) return "expected: expected an object";
  if (!e.contains("status") || !e["status"].is_number_integer())
    return "expected.status: expected an integer";
  v.status = e["status"].get<int64_t>();
  v.status_name = e.value("status_name", "");
  v.rule = e.value("rule", "");
  if (e.contains("outputs")) {
    if (!e["outputs"].is_object()) return "expected.outputs: expected an object of tensors";
    for (const auto& [name, t] : e["outputs"].items()) {
      const std::string path = "expected.outputs." + name;
      if (!t.is_object() || !t.contains("compare") || !t["compare"].is_string())
        return path + ".compare: expected a compare mode (\"exact\", \"ulp(2)\", ...)";
      auto mode = CompareMode::Parse(t["compare"].get<std::string>());
      if (!mode) return path + ".compare: unknown compare mode " + t["compare"].dump();
      nlohmann::json plain = t;
      plain.erase("compare");
      VectorOutput o;
      if (t.contains("reported_dims")) {
        const auto& d = t["reported_dims"];
        if (!d.is_array()) return path + ".reported_dims: expected a list of dims";
        Shape dims;
        for (const auto& x : d) {
          if (!x.is_number_integer()) return path + ".reported_dims: expected a list of integers";
          dims.push_back(x.get<int64_t>());
        }
        o.reported_dims = dims;
        plain.erase("reported_dims");
      }
      o.tensor.name = name;
      o.compare = *mode;
      if (auto error = TensorFromJson(plain, path, &o.tensor); !error.empty()) return error;
      v.outputs.push_back(std::move(o));
    }
  }
  if (e.contains("untouched")) {
    if (!e["untouched"].is_array()) return "expected.untouched: expected a list of output names";
    for (const auto& name : e["untouched"]) {
      if (!name.is_string()) return "expected.untouched: expected a list of output names";
      v.untouched.push_back(name.get<std::string>());
    }
  }
  if (!j["provenance"].is_object() || !j["provenance"].contains("source") ||
      !j["provenance"]["source"].is_string()) {
    return "provenance: expected an object with a \"source\" string";
  }
  v.provenance = j["provenance"];
  *out = std::move(v);
  return "";
}

}  // namespace

nlohmann::json ToJson(const VectorFile& file) {
  nlohmann::json cases = nlohmann::json::array();
  for (const auto& v : file.cases) cases.push_back(CaseToJson(v));
  return {{"schema", kVectorSchema},
          {"schema_version", kVectorSchemaVersion},
          {"routine", file.routine},
          {"suite_version", file.suite_version},
          {"cases", cases}};
}

std::vector<Problem> FromJson(const nlohmann::json& doc, VectorFile* out,
                              std::vector<int64_t>* kept) {
  std::vector<Problem> problems;
  auto file_problem = [&](std::string what) {
    problems.push_back({-1, std::move(what)});
    return problems;
  };
  if (!doc.is_object()) return file_problem("a vector file must be a JSON object");
  if (!doc.contains("schema") || doc["schema"] != kVectorSchema)
    return file_problem("schema: expected \"" + std::string(kVectorSchema) + "\"");
  if (!doc.contains("schema_version") || doc["schema_version"] != kVectorSchemaVersion) {
    return file_problem(
        "schema_version: expected " + std::to_string(kVectorSchemaVersion) + ", got " +
        (doc.contains("schema_version") ? doc["schema_version"].dump() : "nothing"));
  }
  if (!doc.contains("routine") || !doc["routine"].is_string())
    return file_problem("routine: expected a string");
  if (!doc.contains("cases") || !doc["cases"].is_array())
    return file_problem("cases: expected an array");
  for (const auto& [key, value] : doc.items()) {
    if (key != "schema" && key != "schema_version" && key != "routine" && key != "suite_version" &&
        key != "cases") {
      return file_problem("unknown key \"" + key + "\" in a vector file");
    }
  }
  out->routine = doc["routine"].get<std::string>();
  out->suite_version = doc.value("suite_version", "");
  out->cases.clear();
  if (kept) kept->clear();
  for (size_t i = 0; i < doc["cases"].size(); ++i) {
    VectorCase v;
    if (auto error = CaseFromJson(doc["cases"][i], out->routine, &v); !error.empty()) {
      problems.push_back({static_cast<int64_t>(i), error});
      continue;
    }
    out->cases.push_back(std::move(v));
    if (kept) kept->push_back(static_cast<int64_t>(i));
  }
  return problems;
}

std::string WriteVectorFile(const std::string& path, const VectorFile& file,
                            const std::string& npy_dir) {
  std::ofstream f(path, std::ios::binary);
  f << ToJson(file).dump(1) << "\n";
  if (!f) return "cannot write " + path;
  if (npy_dir.empty()) return "";
  auto npy_shape = [](const InputTensor& t) {
    return Bits(t.dtype) == 4 ? Shape{static_cast<int64_t>(t.bytes.size())} : t.shape;
  };
  for (size_t i = 0; i < file.cases.size(); ++i) {
    const std::string dir = npy_dir + "/" + std::to_string(i);
    std::error_code ec;
    for (const char* sub : {"/inputs", "/expected"}) {
      std::filesystem::create_directories(dir + sub, ec);
      if (ec) return "cannot create " + dir + sub + ": " + ec.message();
    }
    for (const auto& t : file.cases[i].c.inputs) {
      if (auto e = WriteNpy(dir + "/inputs/" + t.name + ".npy", t.dtype, npy_shape(t), t.bytes);
          !e.empty())
        return e;
    }
    for (const auto& o : file.cases[i].outputs) {
      const InputTensor& t = o.tensor;
      if (auto e = WriteNpy(dir + "/expected/" + t.name + ".npy", t.dtype, npy_shape(t), t.bytes);
          !e.empty())
        return e;
    }
  }
  return "";
}

std::string ListVectorFiles(const std::string& path, std::vector<std::string>* files) {
  std::error_code ec;
  files->clear();
  if (std::filesystem::is_regular_file(path, ec)) {
    files->push_back(path);
    return "";
  }
  if (!std::filesystem::is_directory(path, ec))
    return "'" + path + "' is neither a vector file nor a directory";
  for (auto it = std::filesystem::recursive_directory_iterator(path, ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".json")
      files->push_back(it->path().string());
  }
  if (ec) return "cannot read '" + path + "': " + ec.message();
  std::sort(files->begin(), files->end());
  return "";
}

}  // namespace npuconf::vectors
