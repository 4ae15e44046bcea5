// Real inputs: weight and embedding-table shapes of public models
// (vectors/real/model_shapes.json, embedded), for explicit cases.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/shape.h"

namespace npuconf {

struct RealShape {
  std::string model;   // "Qwen/Qwen2.5-0.5B"
  std::string tensor;  // "down_proj", "embed_tokens"
  Shape shape;         // [out_features, in_features] / [vocab, hidden]
};

// Parses the model_shapes.json form; throws std::runtime_error naming the bad entry.
std::vector<RealShape> ParseRealShapes(const nlohmann::json& doc);

// The shapes in use: the embedded file, unless SetRealShapes replaced them.
const std::vector<RealShape>& RealShapes();
void SetRealShapes(std::vector<RealShape> shapes);

// Each distinct shape once, first occurrence kept, in file order.
std::vector<RealShape> DistinctRealShapes();

}  // namespace npuconf
