// Real inputs: weight and embedding-table shapes of public models
// (vectors/real/model_shapes.json, embedded), for explicit cases. The conv
// shapes beside it are core/conv_shapes.h.
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

// Parses the model_shapes.json form (top-level "models"); throws
// std::runtime_error naming the bad entry.
std::vector<RealShape> ParseRealShapes(const nlohmann::json& doc);

// The shapes in use: the embedded file, unless SetRealShapes replaced them.
const std::vector<RealShape>& RealShapes();
void SetRealShapes(std::vector<RealShape> shapes);

// Applies a --real-shapes document by its top-level keys: "models" (this form)
// replaces RealShapes(), "conv_models" (core/conv_shapes.h) replaces ConvShapes();
// a document may hold both, and one with neither is refused. Throws
// std::runtime_error naming the bad entry, before replacing anything.
void UseRealShapesDocument(const nlohmann::json& doc);

// Each distinct shape once, first occurrence kept, in file order.
std::vector<RealShape> DistinctRealShapes();

}  // namespace npuconf
