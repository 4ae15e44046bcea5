// The real conv shapes of vectors/real/conv_shapes.json: the parser names a
// bad entry, the embedded file parses, and the cases the conv families draw
// from it are the ones they hard-coded before it existed (written out here).
#include "core/real_shapes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

#include "conformance/cann_convweight/family.h"
#include "conformance/cann_transdata/family.h"
#include "conformance/rknn_native/support.h"
#include "core/conv_shapes.h"
#include "core/profile.h"
#include "core/routines/cann_convweight.h"
#include "core/routines/cann_transdata.h"
#include "test_util.h"

namespace npuconf {
namespace {

using testing::RunNpuconf;
using testing::TempDir;

// The message ParseRealConvShapes throws for `text`, or "" when it parses.
std::string ConvError(const std::string& text) {
  try {
    (void)ParseRealConvShapes(nlohmann::json::parse(text));
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

const char* kGood = R"({"conv_models": [{"model": "a", "source": "a.py",
  "conv_weights": [{"name": "c1", "shape": [32, 1, 3, 3], "groups": 32}]}]})";

TEST(RealShapes, ConvParserNamesTheBadEntry) {
  EXPECT_EQ(ConvError(kGood), "");
  const std::string head = R"({"conv_models": [{"model": "a", "source": "a.py", "conv_weights":
      [{"name": "ok", "shape": [8, 8, 1, 1]}]}, {"model": "b", "source": "b.py", )";
  const std::string at_w = R"(conv_models[1] (b).conv_weights[0] "w": )";
  const std::string at_f = R"(conv_models[1] (b).feature_maps[0] "f": )";
  EXPECT_EQ(ConvError(head + R"("conv_weights": [{"name": "w", "shape": [10, 1, 3, 3],
      "groups": 3}]}]})"),
            at_w + "Cout 10 is not a multiple of groups 3");
  EXPECT_EQ(ConvError(head + R"("conv_weights": [{"name": "w", "shape": [10, 1, 3]}]}]})"),
            at_w +
                "\"shape\" must be 4 positive integers [Cout, Cin / groups, kH, kW], got "
                "[10,1,3]");
  EXPECT_EQ(ConvError(head + R"("conv_weights": [{"name": "w", "shape": [1, 1, 1, 1],
      "groups": 0}]}]})"),
            at_w + "\"groups\" must be a positive integer, got 0");
  EXPECT_EQ(ConvError(head + R"("feature_maps": [{"name": "f", "shape": [1, -3, 8, 8]}]}]})"),
            at_f + "\"shape\" must be 4 positive integers NCHW [N, C, H, W], got [1,-3,8,8]");
  EXPECT_EQ(ConvError(head + R"("feature_maps": [{"name": "f",
      "shape": [1, 3, 9223372036854775807, 2]}]}]})"),
            at_f + "shape [1,3,9223372036854775807,2] has more elements than a 64-bit count holds");
  EXPECT_EQ(ConvError(head + R"("feature_maps": [{"shape": [1, 3, 8, 8]}]}]})"),
            "conv_models[1] (b).feature_maps[0]: needs a non-empty string \"name\"");
  EXPECT_EQ(ConvError(R"({"conv_models": [{"model": "b", "feature_maps": []}]})"),
            "conv_models[0] (b): needs a non-empty string \"source\"");
  EXPECT_EQ(ConvError(R"({"conv_models": [{"model": "b", "source": "b.py"}]})"),
            "conv_models[0] (b): has neither \"conv_weights\" nor \"feature_maps\"");
  EXPECT_EQ(ConvError(R"({"conv_models": [{"model": 7}]})"),
            "conv_models[0]: needs a non-empty string \"model\", got 7");
  EXPECT_EQ(ConvError(R"({"models": []})"), "expected a top-level \"conv_models\" array");
}

TEST(RealShapes, EmbeddedConvShapesParse) {
  // The file in the tree parses, and is what the binary embeds.
  std::ifstream file(std::string(NPUCONF_SOURCE_DIR) + "/vectors/real/conv_shapes.json");
  const RealConvShapes from_file = ParseRealConvShapes(nlohmann::json::parse(file));
  const RealConvShapes& embedded = ConvShapes();
  ASSERT_EQ(embedded.weights.size(), from_file.weights.size());
  ASSERT_EQ(embedded.feature_maps.size(), from_file.feature_maps.size());
  EXPECT_EQ(embedded.weights.size(), 33u);
  EXPECT_EQ(embedded.feature_maps.size(), 12u);
  EXPECT_EQ(embedded.weights[0].model, "torchvision/resnet50");
  EXPECT_EQ(embedded.weights[0].tensor, "conv1.weight");
  // model_shapes.json's parser leaves the conv file alone, and the other way round.
  EXPECT_FALSE(RealShapes().empty());
  for (const RealShape& s : RealShapes()) EXPECT_EQ(s.shape.size(), 2u) << s.model;
}

// A --real-shapes document replaces the kind its top-level key names, only.
TEST(RealShapes, DocumentReplacesTheKindItHolds) {
  const RealConvShapes conv = ConvShapes();
  const std::vector<RealShape> matmul = RealShapes();
  UseRealShapesDocument(nlohmann::json::parse(kGood));
  EXPECT_EQ(ConvShapes().weights.size(), 1u);
  EXPECT_TRUE(ConvShapes().feature_maps.empty());
  EXPECT_EQ(RealShapes().size(), matmul.size());
  EXPECT_THROW(UseRealShapesDocument(nlohmann::json::parse(R"({"about": "x"})")),
               std::runtime_error);
  SetConvShapes(conv);
  EXPECT_EQ(ConvShapes().weights.size(), 33u);
}

// The list conformance/cann_transdata/cases.cpp held before conv_shapes.json, in
// its order, among the shapes conv_shapes.json added (ResNet-50's other distinct
// bottleneck convs, MobileNetV2's other depthwise widths).
TEST(RealShapes, TransDataRealCasesKeepTheFormerList) {
  const Profile& profile = *FindProfile("ascend910b");
  using Real = std::pair<Shape, int64_t>;  // NCHW, groups
  const std::vector<Real> former = {
      {{64, 3, 7, 7}, 1},    {{64, 64, 1, 1}, 1},   {{64, 64, 3, 3}, 1},    {{256, 64, 1, 1}, 1},
      {{128, 128, 3, 3}, 1}, {{512, 512, 3, 3}, 1}, {{2048, 512, 1, 1}, 1}, {{32, 1, 3, 3}, 32},
      {{96, 1, 3, 3}, 96},   {{144, 1, 3, 3}, 144}, {{960, 1, 3, 3}, 960},  {{255, 128, 1, 1}, 1},
      {{255, 256, 1, 1}, 1}, {{255, 512, 1, 1}, 1}, {{64, 64, 3, 3}, 1},    {{80, 80, 3, 3}, 1},
      {{80, 64, 3, 3}, 1},   {{48, 512, 5, 5}, 16}};
  const std::vector<Real> added = {
      {{64, 256, 1, 1}, 1},   {{128, 256, 1, 1}, 1},  {{512, 128, 1, 1}, 1},
      {{512, 256, 1, 1}, 1},  {{128, 512, 1, 1}, 1},  {{256, 512, 1, 1}, 1},
      {{256, 256, 3, 3}, 1},  {{1024, 256, 1, 1}, 1}, {{1024, 512, 1, 1}, 1},
      {{256, 1024, 1, 1}, 1}, {{512, 1024, 1, 1}, 1}, {{2048, 1024, 1, 1}, 1},
      {{512, 2048, 1, 1}, 1}, {{192, 1, 3, 3}, 192},  {{384, 1, 3, 3}, 384},
      {{576, 1, 3, 3}, 576}};
  std::vector<Case> cases = cann_transdata_props::RealCases(profile);
  ASSERT_EQ(cases.size(), former.size() + added.size() + 2);
  // Then, as before, the §A.7 TSU-UT 3-D weight and ResNet-50's conv1 to FRACTAL_Z_C04.
  int64_t seed = 1000 + static_cast<int64_t>(former.size() + added.size());
  Case fz3d(routines::cann_transdata::kTransData, profile.name);
  fz3d.Set("src_format", "NCDHW").Set("dst_format", "FRACTAL_Z_3D");
  fz3d.Set("shape", Shape{48, 512, 3, 5, 5}).Set("dtype", DType::kFloat16).Set("seed", seed++);
  Case c04(routines::cann_transdata::kTransData, profile.name);
  c04.Set("src_format", "NCHW").Set("dst_format", "FRACTAL_Z_C04");
  c04.Set("shape", Shape{64, 3, 7, 7}).Set("dtype", DType::kFloat16).Set("seed", seed++);
  EXPECT_EQ(cases[cases.size() - 2], fz3d);
  EXPECT_EQ(cases.back(), c04);
  cases.resize(cases.size() - 2);

  std::vector<Real> got_former, got_added;
  seed = 1000;
  for (const Case& c : cases) {
    EXPECT_EQ(c.String("src_format"), "NCHW");
    EXPECT_EQ(c.String("dst_format"), "FRACTAL_Z");
    EXPECT_EQ(c.DTypeParam("dtype"), DType::kFloat16);
    EXPECT_EQ(c.Int("seed"), seed++);
    const Real r{*c.IntList("shape"), c.Int("groups").value_or(1)};
    const bool was = got_former.size() < former.size() && former[got_former.size()] == r;
    (was ? got_former : got_added).push_back(r);
  }
  EXPECT_EQ(got_former, former);
  EXPECT_EQ(got_added, added);
}

// The detection-head loop conformance/rknn_native/cases.cpp held before.
TEST(RealShapes, RknnNativeRealCasesAreTheFormerList) {
  namespace ids = routines::rknn_native;
  const Profile& profile = *FindProfile("rk3588");
  for (const std::string routine : {ids::kNchwToNc1hwc2, ids::kNhwcToNc1hwc2, ids::kNc1hwc2Size,
                                    ids::kNc1hwc2Int8ToNchwFloat}) {
    const auto got = rknn_native_props::RealCases(routine, profile);
    std::vector<std::pair<Shape, std::optional<int64_t>>> have, want;
    for (const Case& c : got) {
      have.push_back({*c.IntList("shape"), c.Int("seed")});
      if (routine != ids::kNc1hwc2Int8ToNchwFloat) {
        EXPECT_EQ(c.DTypeParam("dtype"), DType::kInt8);
      }
    }
    int64_t seed = 101;
    for (int64_t hw : {80, 40, 20}) {
      for (int64_t c : {255, 64, 80, 1}) {
        const bool nhwc = routine == ids::kNhwcToNc1hwc2;
        want.push_back({nhwc ? Shape{1, hw, hw, c} : Shape{1, c, hw, hw},
                        routine == ids::kNc1hwc2Size ? std::nullopt : std::optional(seed)});
        ++seed;
      }
    }
    EXPECT_EQ(have, want) << routine;
  }
}

// The real weights conformance/cann_convweight/cases.cpp held before (now the first
// weight of each model, so YOLOv8n's joins them), present only with real shapes.
TEST(RealShapes, ConvWeightRealCasesKeepTheFormerOnes) {
  namespace ids = routines::cann_convweight;
  const Profile& p = *FindProfile("ascend310p");
  auto size = [&](Shape s, int64_t g) {
    return Case(ids::kCalculateConvolutionWeightSize, p.name)
        .Set("shape", s)
        .Set("groups", g)
        .Set("dtype", DType::kFloat16);
  };
  auto trans = [&](Shape s, int64_t g, DType dtype) {
    return Case(ids::kTransConvolutionWeight, p.name)
        .Set("shape", s)
        .Set("groups", g)
        .Set("dtype", dtype)
        .Set("seed", int64_t{7});
  };
  auto extra = [](std::vector<Case> with, const std::vector<Case>& without) {
    for (const Case& c : without) {
      auto it = std::find(with.begin(), with.end(), c);
      EXPECT_NE(it, with.end()) << c.ToText();
      if (it != with.end()) with.erase(it);
    }
    return with;
  };
  using namespace cann_convweight_props;
  EXPECT_EQ(extra(SizeEdgeCases(p, true), SizeEdgeCases(p, false)),
            (std::vector<Case>{size({64, 3, 7, 7}, 1), size({32, 1, 3, 3}, 32),
                               size({255, 128, 1, 1}, 1), size({64, 64, 3, 3}, 1)}));
  EXPECT_EQ(
      extra(TransEdgeCases(p, true), TransEdgeCases(p, false)),
      (std::vector<Case>{
          trans({64, 3, 7, 7}, 1, DType::kFloat16), trans({32, 1, 3, 3}, 32, DType::kFloat),
          trans({255, 128, 1, 1}, 1, DType::kFloat16), trans({64, 64, 3, 3}, 1, DType::kFloat)}));
}

// `--real-shapes FILE` of the conv form: its feature maps are the RKNN real cases;
// a bad entry is bad input (exit 2) named in a short message.
TEST(RealShapes, CliReadsAConvShapesFile) {
  TempDir dir("conv-shapes");
  const std::string file = dir.path() + "/conv.json";
  std::ofstream(file) << R"({"conv_models": [{"model": "mine", "source": "mine.py",
      "feature_maps": [{"name": "f", "shape": [1, 3, 5, 7]}]}]})";
  const std::string args =
      "run --profile rk3588 --property rknn.nchw_to_nc1hwc2.matches_oracle --cases 0 --quiet ";
  const auto with_file = RunNpuconf(args + "--real-shapes " + file + " --out " + dir.path() + "/a");
  const auto without = RunNpuconf(args + "--no-real-shapes --out " + dir.path() + "/b");
  ASSERT_EQ(with_file.exit_code, 0) << with_file.output;
  ASSERT_EQ(without.exit_code, 0) << without.output;
  auto explicit_cases = [](const std::string& out) {
    return testing::ReadJson(out + "/report.json")["results"][0]["explicit_cases"].get<int>();
  };
  EXPECT_EQ(explicit_cases(dir.path() + "/a"), explicit_cases(dir.path() + "/b") + 1);

  std::ofstream(file) << R"({"conv_models": [{"model": "mine", "source": "mine.py",
      "conv_weights": [{"name": "w", "shape": [10, 1, 3, 3], "groups": 4}]}]})";
  const auto bad = RunNpuconf(args + "--real-shapes " + file + " --out " + dir.path() + "/c");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find(R"(conv_models[0] (mine).conv_weights[0] "w": Cout 10 is not a)"),
            std::string::npos)
      << bad.output;
  std::ofstream(file) << R"({"about": "neither"})";
  const auto neither = RunNpuconf(args + "--real-shapes " + file + " --out " + dir.path() + "/d");
  EXPECT_EQ(neither.exit_code, 2) << neither.output;
  EXPECT_NE(neither.output.find("\"conv_models\""), std::string::npos) << neither.output;
}

}  // namespace
}  // namespace npuconf
