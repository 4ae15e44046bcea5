// The case as data: the routine table validates cases, the one JSON form of a
// case round-trips exactly and names what is wrong in a bad document, and what
// the CLI prints validates against the schemas in docs/.
#include "core/case_json.h"

#include <gtest/gtest.h>

#include <fstream>

#include "cli/families.h"
#include "core/codec.h"
#include "core/json_text.h"
#include "core/npy.h"
#include "core/routines/cann.h"
#include "test_util.h"

namespace npuconf {
namespace {

using testing::RunNpuconf;
using testing::RunShell;
using testing::TempDir;

const RoutineSpec& Spec(const std::string& id) { return *BuiltinSuite().FindRoutine(id)->spec; }

TEST(Codec, Base64AndSha256OfKnownVectors) {
  // RFC 4648 §10 and FIPS 180-2 ("abc").
  const std::string foobar = "foobar";
  const Bytes bytes(foobar.begin(), foobar.end());
  EXPECT_EQ(Base64Encode(bytes), "Zm9vYmFy");
  EXPECT_EQ(Base64Encode(Bytes(bytes.begin(), bytes.begin() + 4)), "Zm9vYg==");
  EXPECT_EQ(Base64Decode("Zm9vYg=="), Bytes(bytes.begin(), bytes.begin() + 4));
  EXPECT_EQ(Base64Decode("Zm9vYmE="), Bytes(bytes.begin(), bytes.begin() + 5));
  EXPECT_FALSE(Base64Decode("Zm9v!mE="));
  EXPECT_FALSE(Base64Decode("Zm9"));
  EXPECT_EQ(Sha256Hex(Bytes{'a', 'b', 'c'}),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(CaseJson, RoundTripsEveryParamKindAndExplicitInputs) {
  Case c(routines::cann::kNdToNz, "ascend910b");
  c.Set("shape", Shape{17, 33}).Set("dtype", "FLOAT16").Set("seed", int64_t{7});
  c.Set("nothing", ParamValue::Null())
      .Set("ratio", ParamValue::Float(0.5))
      .Set("big", int64_t{INT64_MIN});
  c.inputs.push_back({"nd", DType::kFloat16, {1, 3}, {1, 2, 3, 4, 5, 6}});
  const nlohmann::json doc = ToJson(c);
  Case back;
  ASSERT_EQ(CaseFromJson(doc, &back), "");
  EXPECT_EQ(back, c);
  EXPECT_EQ(ToJson(back).dump(), doc.dump());  // canonical: equal cases, equal text
  EXPECT_TRUE(nlohmann::json::parse(doc.dump())["params"]["ratio"].is_number_float());
}

TEST(CaseJson, BadDocumentsNameThePathAndValue) {
  auto error_of = [](const std::string& text) {
    Case c;
    return CaseFromJson(nlohmann::json::parse(text), &c);
  };
  const std::string head =
      R"("schema":"npuconf-case","schema_version":1,"routine":"cann.nd_to_nz","profile":"p")";
  EXPECT_NE(error_of("{" + head + R"(,"params":{"shape":[2,"x"]}})").find("params.shape"),
            std::string::npos);
  EXPECT_NE(error_of("{" + head + R"(,"params":{"shape":{"a":1}}})").find("params.shape"),
            std::string::npos);
  EXPECT_NE(
      error_of(R"({"schema":"npuconf-case","schema_version":2,"routine":"a.b","profile":"p"})")
          .find("schema_version"),
      std::string::npos);
  EXPECT_NE(error_of("{" + head + R"(,"colour":1})").find("colour"), std::string::npos);
  EXPECT_NE(error_of("{" + head + R"(,"inputs":{"nd":{"dtype":"FLOAT16","shape":[1],"data":"A"}}})")
                .find("inputs.nd"),
            std::string::npos);
  const std::string bad_hash =
      R"(,"inputs":{"nd":{"dtype":"FLOAT16","shape":[1],"data":"AAA=","sha256":"00"}}})";
  EXPECT_NE(error_of("{" + head + bad_hash).find("sha256"), std::string::npos);
  // Found by fuzz/case_json_fuzz.cpp: a key of the wrong type threw nlohmann's
  // type_error, which ended `npuconf case --from` on std::terminate.
  EXPECT_EQ(error_of(R"({"schema":{"a":1},"schema_version":1})"),
            "schema: expected \"npuconf-case\"");
  EXPECT_EQ(
      error_of("{" + head +
               R"(,"inputs":{"nd":{"dtype":"INT8","shape":[1],"data":"AA==","encoding":7}}})"),
      "inputs.nd.encoding: 7 (only \"base64\")");
}

TEST(CaseJson, InvocationRoundTrips) {
  const Profile& profile = *FindProfile("ascend910b");
  Case c(routines::cann::kTransMatmulWeight, profile.name);
  c.Set("shape", Shape{3, 5}).Set("dtype", "FLOAT16").Set("seed", int64_t{2});
  const Invocation inv = BuiltinSuite().Materialize(c, profile);
  Invocation back;
  ASSERT_EQ(InvocationFromJson(ToJson(inv), &back), "");
  EXPECT_EQ(back.c, inv.c);
  ASSERT_EQ(back.outputs.size(), 1u);
  EXPECT_EQ(back.outputs[0].initial, inv.outputs[0].initial);
  EXPECT_EQ(back.outputs[0].capacity_bytes, inv.outputs[0].capacity_bytes);
}

TEST(RoutineSpec, ValidationNamesTheKeyAndTheValue) {
  Case c(routines::cann::kNdToNz, "ascend910b");
  c.Set("shape", Shape{2, 2}).Set("dtype", "FLOAT16").Set("colour", "red");
  EXPECT_NE(ValidateCase(Spec(c.routine), &c).find("'colour' is not a param"), std::string::npos);
  c.params.erase("colour");
  c.Set("c0", int64_t{0});
  EXPECT_NE(ValidateCase(Spec(c.routine), &c).find("c0=0"), std::string::npos);
  c.Set("c0", "sixteen");
  EXPECT_NE(ValidateCase(Spec(c.routine), &c).find("must be an integer"), std::string::npos);
  c.Set("c0", int64_t{16});
  EXPECT_EQ(ValidateCase(Spec(c.routine), &c), "");
}

TEST(RoutineSpec, TextFormIntegersBecomeStringsWhereTheParamIsText) {
  // `format=1` cannot be told from the integer 1 in the text form.
  Case c(routines::cann::kTransMatmulWeight, "ascend910b");
  c.Set("shape", Shape{2, 2}).Set("dtype", "FLOAT16").Set("format", int64_t{1});
  EXPECT_NE(ValidateCase(Spec(c.routine), &c).find("format must be one of"), std::string::npos);
  EXPECT_EQ(c.Find("format")->kind, ParamValue::Kind::kString);
}

TEST(RoutineSpec, NullOnlyForNullableParamsAndOutputs) {
  Case c(routines::cann::kCalculateMatmulWeightSize, "ascend910b");
  c.SetNull("shape").SetNull("weight_tensor_size");
  EXPECT_EQ(ValidateCase(Spec(c.routine), &c), "");
  c.Set("weight_tensor_size", int64_t{3});
  EXPECT_NE(ValidateCase(Spec(c.routine), &c).find("only be given as null"), std::string::npos);
}

TEST(RoutineSpec, EveryRoutineIsMaterializableFromItsDocumentedDefaults) {
  // Every spec names its vendor, source and outputs; every output has a compare mode.
  for (const RoutineSpec* spec : BuiltinSuite().specs()) {
    EXPECT_FALSE(spec->source.empty()) << spec->id;
    EXPECT_FALSE(spec->outputs.empty()) << spec->id;
    EXPECT_TRUE(spec->vendor == "cann" || spec->vendor == "rknn") << spec->id;
    for (const auto& p : spec->params) {
      EXPECT_FALSE(p.doc.empty()) << spec->id << "." << p.key;
      if (p.type == ParamType::kEnum) {
        EXPECT_FALSE(p.values.empty()) << spec->id << "." << p.key;
      }
    }
  }
}

TEST(Suite, ExplicitInputsReplaceSeededOnesAndMustFit) {
  const Profile& profile = *FindProfile("ascend910b");
  Case c(routines::cann::kNdToNz, profile.name);
  c.Set("shape", Shape{1, 3}).Set("dtype", "FLOAT16");
  c.inputs.push_back({"nd", DType::kFloat16, {1, 3}, {1, 0, 2, 0, 3, 0}});
  EXPECT_EQ(BuiltinSuite().Materialize(c, profile).Input("nd")->bytes, c.inputs[0].bytes);
  c.inputs[0].shape = {3, 1};
  EXPECT_THROW(BuiltinSuite().Materialize(c, profile), CaseError);
  c.inputs[0] = {"weights", DType::kFloat16, {1, 3}, {1, 0, 2, 0, 3, 0}};
  EXPECT_THROW(BuiltinSuite().Materialize(c, profile), CaseError);
}

std::string Python() {
  return "/usr/bin/python3 " + std::string(NPUCONF_SOURCE_DIR) + "/tests/tools/";
}
std::string Schema(const char* name) { return std::string(NPUCONF_SOURCE_DIR) + "/docs/" + name; }

TEST(CliJson, ListRoutinesValidatesAgainstItsSchema) {
  TempDir dir("routines-json");
  const std::string file = dir.path() + "/routines.json";
  const auto list = RunShell(std::string(NPUCONF_BINARY) + " list routines --json > " + file);
  ASSERT_EQ(list.exit_code, 0) << list.output;
  const auto check =
      RunShell(Python() + "check_schema.py " + Schema("routines.schema.json") + " " + file);
  EXPECT_EQ(check.exit_code, 0) << check.output;
  const auto doc = testing::ReadJson(file);
  EXPECT_EQ(doc["routines"].size(), BuiltinSuite().specs().size());
}

TEST(CliJson, CaseJsonValidatesAndReplaysThroughFrom) {
  TempDir dir("case-json");
  const std::vector<std::string> cases = {
      "cann.nd_to_nz profile=ascend910b dtype=INT4 'shape=[3,70]' seed=4",
      "cann.calculate_matmul_weight_size profile=ascend910b shape=null",
      "rknn.matmul_create profile=rk3588 type=2 M=4 K=64 N=32",
      "cann.gather_dequant_int8 profile=ascend910b vocab=5 embed=32 seed=1",
  };
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string file = dir.path() + "/answer" + std::to_string(i) + ".json";
    const auto run =
        RunShell(std::string(NPUCONF_BINARY) + " case --json " + cases[i] + " > " + file);
    ASSERT_EQ(run.exit_code, 0) << cases[i] << "\n" << run.output;
    const auto check =
        RunShell(Python() + "check_schema.py " + Schema("case.schema.json") + " " + file);
    EXPECT_EQ(check.exit_code, 0) << check.output;
    // The case inside, inputs and all, replays to the same outputs.
    const auto answer = testing::ReadJson(file);
    const std::string case_file = dir.path() + "/case" + std::to_string(i) + ".json";
    std::ofstream(case_file) << answer["case"].dump();
    const std::string replay_file = dir.path() + "/replay" + std::to_string(i) + ".json";
    const auto replay = RunShell(std::string(NPUCONF_BINARY) + " case --json --from " + case_file +
                                 " > " + replay_file);
    ASSERT_EQ(replay.exit_code, 0) << replay.output;
    EXPECT_EQ(testing::ReadJson(replay_file)["outputs"], answer["outputs"]) << cases[i];
  }
}

TEST(CliJson, DumpWritesNpyFilesNumpyReads) {
  TempDir dir("dump");
  for (const std::string c :
       {"cann.nd_to_nz profile=ascend910b dtype=FLOAT16 'shape=[2,17,33]' seed=3",
        "rknn.b_norm_to_native profile=rk3588 type=10 K=64 N=70 seed=2",
        "cann.antiquant profile=ascend910b k=64 n=16 weight_dtype=INT8 x_dtype=BF16 seed=1"}) {
    const std::string out = dir.path() + "/" + c.substr(0, c.find(' '));
    const auto run = RunNpuconf("case --dump " + out + " " + c);
    ASSERT_EQ(run.exit_code, 0) << run.output;
    const auto read = RunShell(Python() + "read_npy.py " + out);
    EXPECT_EQ(read.exit_code, 0) << c << "\n" << read.output;
  }
}

// A .npy header of `length` bytes of `text`, padded with spaces.
std::vector<uint8_t> NpyWithHeader(const std::string& text, size_t length) {
  std::vector<uint8_t> file = {0x93,
                               'N',
                               'U',
                               'M',
                               'P',
                               'Y',
                               1,
                               0,
                               static_cast<uint8_t>(length),
                               static_cast<uint8_t>(length >> 8)};
  std::string header = text;
  header.resize(length, ' ');
  file.insert(file.end(), header.begin(), header.end());
  return file;
}

TEST(Npy, AHeaderPastKMaxNpyHeaderBytesIsRefusedNamingTheLimit) {
  const std::string dict = "{'descr': '|u1', 'fortran_order': False, 'shape': (2,), }";
  NpyArray array;
  EXPECT_EQ(ParseNpy(NpyWithHeader(dict, kMaxNpyHeaderBytes), &array), "");
  EXPECT_EQ(array.shape, Shape{2});
  EXPECT_EQ(ParseNpy(NpyWithHeader(dict, kMaxNpyHeaderBytes + 1), &array),
            "header of 4097 bytes, beyond kMaxNpyHeaderBytes (4096)");
}

std::string Nested(size_t depth, const std::string& inner = "0") {
  return std::string(depth, '[') + inner + std::string(depth, ']');
}

TEST(JsonText, NestingPastKMaxJsonDepthIsRefusedNamingTheDepth) {
  std::string error;
  EXPECT_TRUE(ParseJsonText(Nested(kMaxJsonDepth), &error)) << error;
  EXPECT_FALSE(ParseJsonText(Nested(kMaxJsonDepth + 1), &error));
  EXPECT_EQ(error, "an array nested 65 levels deep, beyond kMaxJsonDepth (64)");
  // Objects count as arrays do, and a document far deeper stops at the first
  // level past the limit instead of exhausting the stack.
  EXPECT_FALSE(
      ParseJsonText(std::string(63, '[') + R"({"a":{"b":1}})" + std::string(63, ']'), &error));
  EXPECT_EQ(error, "an object nested 65 levels deep, beyond kMaxJsonDepth (64)");
  EXPECT_FALSE(ParseJsonText(Nested(1000000), &error));
  EXPECT_EQ(error, "an array nested 65 levels deep, beyond kMaxJsonDepth (64)");
  EXPECT_FALSE(ParseJsonText("{not json", &error));
  EXPECT_NE(error.find("parse error at line 1, column 3"), std::string::npos) << error;
}

// Found by fuzz/case_json_fuzz.cpp: nlohmann's lexer ends the input at a NUL
// byte, so whatever followed one was never read.
TEST(JsonText, ANulByteIsNotTheEndOfTheText) {
  std::string error;
  EXPECT_FALSE(ParseJsonText(std::string_view("{\"a\": 1}\0{{{", 12), &error));
  EXPECT_EQ(error, "a NUL byte at byte 8 (JSON text holds none)");
  EXPECT_FALSE(ParseJsonText(std::string_view("\"a\0b\"", 5), &error));
  EXPECT_TRUE(ParseJsonText(R"("a\u0000b")", &error)) << error;
}

TEST(JsonText, CborNestingPastKMaxJsonDepthIsRefusedNamingTheDepth) {
  // 0x81: an array of one element; a million of them would recurse a million
  // frames deep in nlohmann's CBOR reader.
  std::vector<uint8_t> cbor(kMaxJsonDepth, 0x81);
  cbor.push_back(0x00);
  std::string error;
  EXPECT_TRUE(ParseCbor(cbor, &error)) << error;
  cbor.assign(1000000, 0x81);
  cbor.push_back(0x00);
  EXPECT_FALSE(ParseCbor(cbor, &error));
  EXPECT_EQ(error, "an array nested 65 levels deep, beyond kMaxJsonDepth (64)");
}

TEST(CliJson, ACaseFileNestedTooDeepNamesTheLimit) {
  TempDir dir("deep-case");
  const std::string file = dir.path() + "/case.json";
  std::ofstream(file) << R"({"schema":"npuconf-case","schema_version":1,"routine":"cann.nd_to_nz",)"
                      << R"("profile":"ascend910b","params":{"shape":)" << Nested(100000) << "}}";
  const auto run = RunNpuconf("case --from " + file);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("is not JSON: an array nested 65 levels deep, beyond kMaxJsonDepth "
                            "(64)"),
            std::string::npos)
      << run.output;
}

TEST(CliJson, BadCaseFilesAreBadInput) {
  TempDir dir("bad-case");
  const std::string file = dir.path() + "/case.json";
  std::ofstream(file)
      << R"({"schema":"npuconf-case","schema_version":1,"routine":"cann.nd_to_nz","profile":"ascend910b","params":{"shape":"[2,2]"}})";
  const auto run = RunNpuconf("case --from " + file);
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_NE(run.output.find("shape must be an int list"), std::string::npos) << run.output;
  std::ofstream(file) << "{not json";
  EXPECT_EQ(RunNpuconf("case --from " + file).exit_code, 2);
  EXPECT_EQ(RunNpuconf("case --from " + file + " cann.nd_to_nz").exit_code, 2);
}

}  // namespace
}  // namespace npuconf
