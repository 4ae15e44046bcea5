// Real conv inputs: conv-weight and feature-map shapes of public vision models
// (vectors/real/conv_shapes.json, embedded), for explicit cases.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/shape.h"

namespace npuconf {

struct RealConvWeight {
  std::string model;   // "torchvision/resnet50"
  std::string tensor;  // "layer1.0.conv2.weight"
  Shape shape;         // [Cout, Cin / groups, kH, kW], as nn.Conv2d.weight
  int64_t groups = 1;
};

struct RealFeatureMap {
  std::string model;   // "ultralytics/yolov5s"
  std::string tensor;  // "P3 output (stride 8)"
  Shape shape;         // NCHW [N, C, H, W]
};

struct RealConvShapes {
  std::vector<RealConvWeight> weights;       // in file order
  std::vector<RealFeatureMap> feature_maps;  // in file order
};

// The top-level key of the conv_shapes.json form; model_shapes.json's is "models".
inline constexpr const char* kConvModelsKey = "conv_models";

// Parses the conv_shapes.json form; throws std::runtime_error naming the bad entry.
RealConvShapes ParseRealConvShapes(const nlohmann::json& doc);

// The shapes in use: the embedded file, unless SetConvShapes replaced them.
const RealConvShapes& ConvShapes();
void SetConvShapes(RealConvShapes shapes);

// The first conv weight of each model, in file order: one real shape per model
// for the routines whose every case costs what cann.trans_data's does.
std::vector<RealConvWeight> FirstConvWeightPerModel();

}  // namespace npuconf
