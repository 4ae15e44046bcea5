// Vector files (docs/vector-format.md) through the CLI: generate then check on
// the reference passes; generation is byte-identical; a flipped byte, a
// malformed base64, an unknown routine and a stale expected answer are each
// named with file and case; a mutant's failure vector replays the failure and
// passes on the reference; the doc's Python reader runs; the corpus is current,
// verifies and passes on the reference.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>

#include "cli/families.h"
#include "cli/vectors_cmd.h"
#include "conformance/harness/runner.h"
#include "core/codec.h"
#include "test_util.h"

namespace npuconf {
namespace {

using testing::ReadJson;
using testing::RunNpuconf;
using testing::RunShell;
using testing::TempDir;

const std::string kSmall = "--routine 'cann.*' --profile ascend910b --count 3";

std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteJson(const std::string& path, const nlohmann::json& doc) {
  std::ofstream(path, std::ios::binary) << doc.dump(1) << "\n";
}

std::vector<std::string> FilesUnder(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(std::filesystem::relative(e.path(), dir).string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Vectors, GenerateThenCheckOnReferencePasses) {
  TempDir dir("vectors");
  const auto gen = RunNpuconf("vectors generate --out " + dir.path() + "/v " + kSmall);
  ASSERT_EQ(gen.exit_code, 0) << gen.output;
  const auto check =
      RunNpuconf("vectors check " + dir.path() + "/v --port reference --out " + dir.path() + "/r");
  ASSERT_EQ(check.exit_code, 0) << check.output;
  const auto report = ReadJson(dir.path() + "/r/report.json");
  EXPECT_TRUE(report.at("conformant").get<bool>());
  // Every cann routine with an oracle answer (sizes, trans, ND<->NZ, gather,
  // antiquant, trans_data, the conv-weight size and trans, the format-cast size,
  // transfer_shape): 12 results, each with cases checked.
  ASSERT_EQ(report.at("results").size(), 12u) << report.dump(1);
  for (const auto& r : report.at("results")) {
    EXPECT_EQ(r.at("result"), "pass") << r.dump();
    EXPECT_GT(r.at("explicit_cases").get<int>(), 0) << r.dump();
  }
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/r/junit.xml"));
  EXPECT_TRUE(std::filesystem::exists(dir.path() + "/r/report.md"));
  // Every file validates against docs/vector.schema.json (when jsonschema is there).
  const auto schema = RunShell(
      "/usr/bin/python3 -c 'import jsonschema' && /usr/bin/python3 -c \"import json,sys,glob,"
      "jsonschema; s=json.load(open(sys.argv[1])); [jsonschema.validate(json.load(open(f)),s) for "
      "f in glob.glob(sys.argv[2]+\\\"/*.json\\\")]; print('valid')\" " NPUCONF_SOURCE_DIR
      "/docs/vector.schema.json " +
      dir.path() + "/v");
  if (schema.output.find("No module named") == std::string::npos) {
    EXPECT_EQ(schema.exit_code, 0) << schema.output;
  }
}

TEST(Vectors, TwoGenerationsAreByteIdentical) {
  TempDir dir("vectors-det");
  for (const char* sub : {"/a", "/b"}) {
    const auto gen =
        RunNpuconf("vectors generate --npy --seed 7 --out " + dir.path() + sub + " " + kSmall);
    ASSERT_EQ(gen.exit_code, 0) << gen.output;
  }
  const auto a = FilesUnder(dir.path() + "/a"), b = FilesUnder(dir.path() + "/b");
  ASSERT_EQ(a, b);
  ASSERT_GT(a.size(), 5u);  // the .json files and their .npy side files
  for (const auto& f : a) {
    EXPECT_EQ(ReadText(dir.path() + "/a/" + f), ReadText(dir.path() + "/b/" + f)) << f;
  }
  // Another seed draws other generated cases.
  const auto other = RunNpuconf("vectors generate --seed 8 --out " + dir.path() + "/c " + kSmall);
  ASSERT_EQ(other.exit_code, 0) << other.output;
  EXPECT_NE(ReadText(dir.path() + "/a/cann.nd_to_nz.json"),
            ReadText(dir.path() + "/c/cann.nd_to_nz.json"));
}

class VerifyNames : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto gen = RunNpuconf("vectors generate --out " + dir_.path() + " " + kSmall);
    ASSERT_EQ(gen.exit_code, 0) << gen.output;
    path_ = dir_.path() + "/cann.nd_to_nz.json";
    doc_ = ReadJson(path_);
    ASSERT_GT(doc_.at("cases").size(), 2u);
    const auto clean = RunNpuconf("vectors verify " + dir_.path());
    ASSERT_EQ(clean.exit_code, 0) << clean.output;
  }
  // Verify must exit 1 and name the file and case 2.
  void ExpectNamed(const std::string& what, int check_exit = 2) {
    WriteJson(path_, doc_);
    const auto verify = RunNpuconf("vectors verify " + dir_.path());
    EXPECT_EQ(verify.exit_code, 1) << verify.output;
    EXPECT_NE(verify.output.find(path_ + ": case 2: "), std::string::npos) << verify.output;
    EXPECT_NE(verify.output.find(what), std::string::npos) << verify.output;
    // No other case is named.
    EXPECT_EQ(verify.output.find(": case 1: "), std::string::npos) << verify.output;
    // check refuses a corrupted input and a stale one alike (exit 2, the others
    // still reported): a stale answer would judge the port by the wrong answer.
    const auto check = RunNpuconf("vectors check " + dir_.path() + " --out " + dir_.path() + "/r");
    EXPECT_EQ(check.exit_code, check_exit) << check.output;
  }
  nlohmann::json& Case2() { return doc_["cases"][2]; }
  TempDir dir_{"vectors-verify"};
  std::string path_;
  nlohmann::json doc_;
};

// One byte of the input tensor flipped inside its base64 text.
TEST_F(VerifyNames, AFlippedInputByte) {
  std::string data = Case2()["inputs"]["nd"]["data"].get<std::string>();
  auto bytes = *Base64Decode(data);
  bytes[bytes.size() / 2] ^= 0x01;
  Case2()["inputs"]["nd"]["data"] = Base64Encode(bytes);
  ExpectNamed("inputs.nd.sha256");
}

TEST_F(VerifyNames, AFlippedByteInTheRawFile) {
  // Flip one character of case 2's expected data in the file text itself.
  WriteJson(path_, doc_);
  std::string text = ReadText(path_);
  const std::string data = Case2()["expected"]["outputs"]["nz"]["data"].get<std::string>();
  const size_t at = text.find(data);
  ASSERT_NE(at, std::string::npos);
  char& c = text[at + 4];
  c = c == 'A' ? 'B' : 'A';
  std::ofstream(path_, std::ios::binary) << text;
  const auto verify = RunNpuconf("vectors verify " + dir_.path());
  EXPECT_EQ(verify.exit_code, 1) << verify.output;
  EXPECT_NE(verify.output.find(path_ + ": case 2: expected.outputs.nz.sha256"), std::string::npos)
      << verify.output;
}

TEST_F(VerifyNames, MalformedBase64) {
  Case2()["inputs"]["nd"]["data"] = "!!not base64!!";
  ExpectNamed("not valid base64");
}

TEST_F(VerifyNames, ASchemaError) {
  Case2()["expected"].erase("status");
  ExpectNamed("expected.status");
}

// Data and hash consistent, but not what the oracle gives: a stale answer.
TEST_F(VerifyNames, AStaleExpectedOutput) {
  auto& nz = Case2()["expected"]["outputs"]["nz"];
  auto bytes = *Base64Decode(nz["data"].get<std::string>());
  bytes[0] ^= 0x80;
  nz["data"] = Base64Encode(bytes);
  nz["sha256"] = Sha256Hex(bytes);
  ExpectNamed("stale: expected.outputs.nz differs from the oracle's");
}

TEST_F(VerifyNames, AStaleStatus) {
  Case2()["expected"]["status"] = 161002;
  ExpectNamed("stale: expected.status");
}

// `vectors verify` reads the .npy side files too: a corrupted, truncated,
// reshaped or stray one is named with its case (issue 17 item 4).
TEST(Vectors, VerifyChecksTheNpyFilesAgainstTheirJson) {
  TempDir dir("vectors-npy");
  const std::string v = dir.path() + "/v";
  ASSERT_EQ(RunNpuconf("vectors generate --npy --out " + v + " " + kSmall).exit_code, 0);
  ASSERT_EQ(RunNpuconf("vectors verify " + v).exit_code, 0);
  // The first input of some size (past its header: 64 or 128 bytes).
  std::string npy;
  for (int i = 0; i < 16 && npy.empty(); ++i) {
    const std::string path = v + "/cann.nd_to_nz/" + std::to_string(i) + "/inputs/nd.npy";
    if (std::filesystem::exists(path) && std::filesystem::file_size(path) >= 256) npy = path;
  }
  ASSERT_FALSE(npy.empty());
  const std::string index = npy.substr(v.size() + 15, npy.find("/inputs") - v.size() - 15);
  const std::string original = ReadText(npy);
  const auto expect_named = [&](const std::string& content, const std::string& what) {
    std::ofstream(npy, std::ios::binary) << content;
    const auto verify = RunNpuconf("vectors verify " + v);
    EXPECT_EQ(verify.exit_code, 1) << verify.output;
    EXPECT_NE(verify.output.find("cann.nd_to_nz.json: case " + index + ": " + npy),
              std::string::npos)
        << verify.output;
    EXPECT_NE(verify.output.find(what), std::string::npos) << verify.output;
    std::ofstream(npy, std::ios::binary) << original;
  };
  std::string flipped = original;
  flipped.back() = static_cast<char>(flipped.back() ^ 1);
  expect_named(flipped, "the data differs from the vector's: first differing byte at offset");
  expect_named(original.substr(0, original.size() - 2), "bytes of data, the vector's tensor has");
  expect_named("not numpy", "not a .npy file");
  std::string reshaped = original;
  const size_t shape = reshaped.find("'shape': (");
  ASSERT_NE(shape, std::string::npos);
  reshaped.replace(shape + 10, 1, "9");  // the first dim's first digit
  expect_named(reshaped, "shape [9");
  std::string descr = original;
  const size_t at = descr.find("'descr': '") + 10;
  descr.replace(at, 3, "|b1");
  expect_named(descr, "dtype '|b1'");
  std::filesystem::remove(npy);
  auto verify = RunNpuconf("vectors verify " + v);
  EXPECT_EQ(verify.exit_code, 1);
  EXPECT_NE(verify.output.find("missing " + npy), std::string::npos) << verify.output;
  std::ofstream(npy, std::ios::binary) << original;
  std::ofstream(v + "/cann.nd_to_nz/" + index + "/inputs/extra.npy", std::ios::binary) << original;
  verify = RunNpuconf("vectors verify " + v);
  EXPECT_EQ(verify.exit_code, 1);
  EXPECT_NE(verify.output.find("extra.npy is no tensor of a case"), std::string::npos)
      << verify.output;
}

// The default vectors hold a case for every required coverage class, K-segmented
// B among them (over the 64 KiB cap of the rest): a port that never segments K
// fails them on RK3588 and RK3576.
TEST(Vectors, DefaultVectorsCatchAPortWithoutKSegmentation) {
  TempDir dir("vectors-segments");
  const std::string v = dir.path() + "/v";
  const auto gen = RunNpuconf("vectors generate --routine rknn.b_norm_to_native --out " + v);
  ASSERT_EQ(gen.exit_code, 0) << gen.output;
  const auto doc = ReadJson(v + "/rknn.b_norm_to_native.json");
  std::set<std::string> segmented;
  for (const auto& c : doc.at("cases")) {
    const std::string cls = c.at("provenance").value("coverage_class", "");
    if (cls.rfind("segments.2", 0) == 0) segmented.insert(c.at("profile").get<std::string>());
  }
  EXPECT_TRUE(segmented.count("rk3588")) << gen.output;
  EXPECT_TRUE(segmented.count("rk3576")) << gen.output;
  const auto check = RunNpuconf("vectors check " + v +
                                " --port mutant:rknn-no-k-segmentation --out " + dir.path() + "/r");
  EXPECT_EQ(check.exit_code, 1) << check.output;
  const auto report = ReadJson(dir.path() + "/r/report.json");
  std::set<std::string> failed;
  for (const auto& r : report.at("results"))
    if (r.at("result") == "fail") failed.insert(r.at("profile").get<std::string>());
  EXPECT_TRUE(failed.count("rk3588")) << report.dump(1);
  EXPECT_TRUE(failed.count("rk3576")) << report.dump(1);
  EXPECT_EQ(
      RunNpuconf("vectors check " + v + " --port reference --out " + dir.path() + "/ok").exit_code,
      0);
}

TEST(Vectors, AnUnknownRoutineIsNamed) {
  TempDir dir("vectors-routine");
  ASSERT_EQ(RunNpuconf("vectors generate --out " + dir.path() + " " + kSmall).exit_code, 0);
  auto doc = ReadJson(dir.path() + "/cann.nd_to_nz.json");
  doc["routine"] = "cann.no_such_routine";
  WriteJson(dir.path() + "/cann.nd_to_nz.json", doc);
  const auto verify = RunNpuconf("vectors verify " + dir.path());
  EXPECT_EQ(verify.exit_code, 1) << verify.output;
  EXPECT_NE(verify.output.find("cann.nd_to_nz.json: unknown routine 'cann.no_such_routine'"),
            std::string::npos)
      << verify.output;
}

TEST(Vectors, UnreadableInputIsExitTwo) {
  EXPECT_EQ(RunNpuconf("vectors verify /nonexistent/npuconf-vectors").exit_code, 2);
  EXPECT_EQ(RunNpuconf("vectors check /nonexistent/npuconf-vectors").exit_code, 2);
  TempDir empty("vectors-empty");
  EXPECT_EQ(RunNpuconf("vectors verify " + empty.path()).exit_code, 2);
}

// Exit codes as run's: a port that claims nothing of the vectors checked
// nothing (4), a port that cannot be loaded (3); unclaimed routines are
// reported not_claimed, never pass.
TEST(Vectors, CheckExitCodesFollowRun) {
  TempDir dir("vectors-exit");
  const std::string corpus = NPUCONF_SOURCE_DIR "/vectors/corpus";
  const auto none = RunNpuconf("vectors check " + corpus + "/rknn.int4_pack.json --port " +
                               NPUCONF_TEMPLATE_PORT + " --out " + dir.path() + "/a");
  EXPECT_EQ(none.exit_code, 4) << none.output;
  const auto report = ReadJson(dir.path() + "/a/report.json");
  ASSERT_EQ(report.at("results").size(), 1u);
  EXPECT_EQ(report["results"][0]["result"], "not_claimed");
  const auto missing = RunNpuconf("vectors check " + corpus +
                                  " --port /nonexistent/port.so --out " + dir.path() + "/b");
  EXPECT_EQ(missing.exit_code, 3) << missing.output;
  const auto wrong_abi = RunNpuconf("vectors check " + corpus + " --port " +
                                    NPUCONF_WRONG_ABI_PORT + " --out " + dir.path() + "/c");
  EXPECT_EQ(wrong_abi.exit_code, 3) << wrong_abi.output;
}

// A failing run writes its shrunk counterexample as a vector; the vector fails
// the same port without RapidCheck and passes the reference.
// Under a claimed reading the failure vector holds what the port was judged
// against: a port claiming choice:cann.nz.fp32_c0=16 that writes C0 8 (the
// reference's reading) fails FLOAT cases, and its vector expects C0 16 (a
// tester found no vector at all under claimed readings).
TEST(FailureVectorUnderAClaim, ExpectsTheClaimedReading) {
  std::vector<std::string> claims = {"cann.nd_to_nz:ascend910b:dtype=FLOAT",
                                     "choice:cann.nz.fp32_c0=16"};
  const auto port = MakeReferencePort(claims);
  RunOptions options;
  options.profiles = {"ascend910b"};
  options.property_glob = "cann.nd_to_nz.matches_oracle";
  options.real_shapes = false;
  options.cases = 10;
  const auto report = RunSuite(BuiltinSuite(), *port, options);
  ASSERT_EQ(report.results.size(), 1u);
  ASSERT_EQ(report.results[0].outcome, report::Outcome::kFail) << report.results[0].message;
  TempDir out("vectors-claimed");
  WriteFailureVectors(report, out.path());
  const std::string file = out.path() + "/failures/cann.nd_to_nz.matches_oracle@ascend910b.json";
  ASSERT_TRUE(std::filesystem::exists(file));
  const auto doc = ReadJson(file);
  const auto& v = doc.at("cases").at(0);
  EXPECT_EQ(v.at("choices").at("cann.nz.fp32_c0"), "16") << v.dump().substr(0, 2000);
  const auto& nz = v.at("expected").at("outputs").at("nz");
  EXPECT_EQ(nz.at("reported_dims").back(), 16) << nz.dump().substr(0, 500);
}

class FailureVector : public ::testing::TestWithParam<std::string> {};

TEST_P(FailureVector, ReplaysTheFailureAndPassesOnReference) {
  const Mutant* mutant = FindMutant(GetParam());
  ASSERT_NE(mutant, nullptr);
  const Property* property = BuiltinSuite().FindProperty(mutant->caught_by);
  ASSERT_NE(property, nullptr);
  TempDir out("vectors-failure");
  const auto run =
      RunNpuconf("run --port mutant:" + mutant->name + " --profile " + mutant->profile +
                 " --routine '" + property->routine + "' --property '" + mutant->caught_by +
                 "' --cases 30 --no-real-shapes --quiet --out " + out.path());
  ASSERT_EQ(run.exit_code, 1) << run.output;
  const std::string file =
      out.path() + "/failures/" + mutant->caught_by + "@" + mutant->profile + ".json";
  ASSERT_TRUE(std::filesystem::exists(file)) << run.output;
  const auto doc = ReadJson(file);
  ASSERT_EQ(doc.at("cases").size(), 1u);
  EXPECT_EQ(doc["cases"][0]["provenance"]["source"], "failure");
  EXPECT_EQ(doc["cases"][0]["provenance"]["property"], mutant->caught_by);

  const auto same = RunNpuconf("vectors check " + file + " --port mutant:" + mutant->name +
                               " --out " + out.path() + "/same");
  EXPECT_EQ(same.exit_code, 1) << same.output;
  const auto report = ReadJson(out.path() + "/same/report.json");
  ASSERT_EQ(report.at("results").size(), 1u);
  EXPECT_EQ(report["results"][0]["result"], "fail");
  EXPECT_NE(report["results"][0]["counterexample"].get<std::string>().find(file + " case 0"),
            std::string::npos);
  // Its reproducer replays it.
  const auto again =
      RunShell(std::regex_replace(report["results"][0]["reproduce"].get<std::string>(),
                                  std::regex("^npuconf "), std::string(NPUCONF_BINARY) + " ") +
               " --out " + out.path() + "/again");
  EXPECT_EQ(again.exit_code, 1) << again.output;

  const auto reference =
      RunNpuconf("vectors check " + file + " --port reference --out " + out.path() + "/ref");
  EXPECT_EQ(reference.exit_code, 0) << reference.output;
}

INSTANTIATE_TEST_SUITE_P(Mutants, FailureVector,
                         ::testing::Values("int4-high-nibble", "v2-legacy-rule",
                                           "nz-padding-unwritten", "rknn-subk-subn-swapped"),
                         [](const auto& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(Vectors, TheDocsPythonReaderRuns) {
  const std::string doc = ReadText(NPUCONF_SOURCE_DIR "/docs/vector-format.md");
  const size_t section = doc.find("## Reading a vector in Python");
  ASSERT_NE(section, std::string::npos);
  const size_t start = doc.find("```python\n", section);
  ASSERT_NE(start, std::string::npos);
  const size_t end = doc.find("```", start + 10);
  ASSERT_NE(end, std::string::npos);
  TempDir dir("vectors-python");
  std::ofstream(dir.path() + "/read_vector.py") << doc.substr(start + 10, end - start - 10);
  ASSERT_EQ(RunNpuconf("vectors generate --out " + dir.path() + " " + kSmall).exit_code, 0);
  const auto py = RunShell("/usr/bin/python3 " + dir.path() + "/read_vector.py " + dir.path() +
                           "/cann.nd_to_nz.json");
  EXPECT_EQ(py.exit_code, 0) << py.output;
  EXPECT_NE(py.output.find("cann.nd_to_nz ascend910b 0 status ACLNN_SUCCESS"), std::string::npos)
      << py.output;
  // And it catches a corrupted tensor.
  auto vec = ReadJson(dir.path() + "/cann.nd_to_nz.json");
  auto bytes = *Base64Decode(vec["cases"][0]["inputs"]["nd"]["data"].get<std::string>());
  bytes[0] ^= 1;
  vec["cases"][0]["inputs"]["nd"]["data"] = Base64Encode(bytes);
  WriteJson(dir.path() + "/bad.json", vec);
  const auto bad =
      RunShell("/usr/bin/python3 " + dir.path() + "/read_vector.py " + dir.path() + "/bad.json");
  EXPECT_NE(bad.exit_code, 0) << bad.output;
  EXPECT_NE(bad.output.find("sha256 mismatch"), std::string::npos) << bad.output;
}

// A listed case whose spec row disagrees with the oracle stops generation.
TEST(VectorsCorpus, ASpecRowTheOracleContradictsStopsGeneration) {
  TempDir dir("vectors-spec");
  const nlohmann::json sources = {
      {"schema", "npuconf-vector-sources"},
      {"schema_version", 1},
      {"cases",
       {{{"routine", "cann.calculate_matmul_weight_size"},
         {"profile", "ascend910b"},
         {"params", {{"shape", {32, 16}}}},
         {"source", "a wrong row"},
         {"spec", {{"status", 0}, {"values", {{"weight_tensor_size", {513}}}}}}}}}};
  WriteJson(dir.path() + "/sources.json", sources);
  const auto gen = RunNpuconf("vectors generate --from " + dir.path() + "/sources.json --out " +
                              dir.path() + "/v");
  EXPECT_EQ(gen.exit_code, 1) << gen.output;
  EXPECT_NE(gen.output.find("shape=[32,16] (\"a wrong row\"): the spec gives "
                            "weight_tensor_size = [513], the oracle [512]"),
            std::string::npos)
      << gen.output;
}

TEST(VectorsCorpus, IsCurrentVerifiesAndPassesOnReference) {
  const std::string corpus = NPUCONF_SOURCE_DIR "/vectors/corpus";
  TempDir dir("vectors-corpus");
  const auto gen = RunNpuconf("vectors generate --from " NPUCONF_SOURCE_DIR
                              "/vectors/corpus_sources.json --out " +
                              dir.path());
  ASSERT_EQ(gen.exit_code, 0) << gen.output;
  ASSERT_EQ(FilesUnder(dir.path()), FilesUnder(corpus));
  for (const auto& f : FilesUnder(corpus)) {
    EXPECT_EQ(ReadText(dir.path() + "/" + f), ReadText(corpus + "/" + f))
        << f << " is stale: regenerate vectors/corpus (docs/vector-format.md)";
  }
  const auto verify = RunNpuconf("vectors verify " + corpus);
  EXPECT_EQ(verify.exit_code, 0) << verify.output;
  const auto check =
      RunNpuconf("vectors check " + corpus + " --port reference --out " + dir.path() + "/r");
  EXPECT_EQ(check.exit_code, 0) << check.output;
  // Every file follows docs/vector.schema.json (when jsonschema is installed).
  const auto schema = RunShell(
      "/usr/bin/python3 -c 'import jsonschema' && /usr/bin/python3 -c \"import json,sys,glob,"
      "jsonschema; s=json.load(open(sys.argv[1])); [jsonschema.validate(json.load(open(f)),s) for "
      "f in glob.glob(sys.argv[2]+\\\"/*.json\\\")]; print('valid')\" " NPUCONF_SOURCE_DIR
      "/docs/vector.schema.json " +
      corpus);
  if (schema.output.find("No module named") == std::string::npos) {
    EXPECT_EQ(schema.exit_code, 0) << schema.output;
    EXPECT_NE(schema.output.find("valid"), std::string::npos) << schema.output;
  }
  // Every case cites the spec section it comes from.
  for (const auto& f : FilesUnder(corpus)) {
    // Held by name: a range-for over ReadJson(...).at(...) would outlive the temporary.
    const nlohmann::json doc = ReadJson(corpus + "/" + f);
    for (const auto& c : doc.at("cases")) {
      EXPECT_EQ(c["provenance"]["source"].get<std::string>().rfind("spec ", 0), 0u) << c.dump();
    }
  }
}

}  // namespace
}  // namespace npuconf
