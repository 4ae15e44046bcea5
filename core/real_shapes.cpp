#include "core/real_shapes.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "core/conv_shapes.h"
#include "core/embedded.h"

namespace npuconf {
namespace {

std::optional<std::vector<RealShape>>& Override() {
  static std::optional<std::vector<RealShape>> shapes;
  return shapes;
}

}  // namespace

std::vector<RealShape> ParseRealShapes(const nlohmann::json& doc) {
  std::vector<RealShape> out;
  if (!doc.contains("models") || !doc.at("models").is_array()) {
    throw std::runtime_error("expected a top-level \"models\" array");
  }
  size_t index = 0;
  for (const auto& model : doc.at("models")) {
    const std::string where = "models[" + std::to_string(index++) + "]";
    if (!model.is_object()) throw std::runtime_error(where + " is not an object");
    if (model.contains("model") && !model.at("model").is_string())
      throw std::runtime_error(where + ".model " + model.at("model").dump() + " is not a string");
    const std::string name = model.value("model", "?");
    if (!model.contains("weights") || !model.at("weights").is_object()) {
      throw std::runtime_error("model '" + name + "' has no \"weights\" object");
    }
    for (const auto& [tensor, dims] : model.at("weights").items()) {
      if (!dims.is_array() || dims.empty()) {
        throw std::runtime_error(name + "." + tensor + ": shape must be a non-empty array");
      }
      Shape shape;
      int64_t elems = 1;
      for (const auto& d : dims) {
        if (!d.is_number_integer() || d.get<int64_t>() <= 0) {
          throw std::runtime_error(name + "." + tensor + ": dim " + d.dump() +
                                   " is not a positive integer");
        }
        shape.push_back(d.get<int64_t>());
        // Every consumer multiplies the dims: a shape whose product overflows is bad input.
        if (__builtin_mul_overflow(elems, shape.back(), &elems)) {
          throw std::runtime_error(name + "." + tensor + ": shape " + dims.dump() +
                                   " has more elements than a 64-bit count holds");
        }
      }
      out.push_back({name, tensor, shape});
    }
  }
  return out;
}

const std::vector<RealShape>& RealShapes() {
  if (Override()) return *Override();
  static const std::vector<RealShape> builtin = [] {
    std::vector<RealShape> out;
    for (int i = 0; i < kEmbeddedRealShapesCount; ++i) {
      const auto doc = nlohmann::json::parse(kEmbeddedRealShapes[i].text);
      if (!doc.contains("models") && doc.contains(kConvModelsKey))
        continue;  // conv_shapes.json: ConvShapes()
      auto more = ParseRealShapes(doc);
      out.insert(out.end(), more.begin(), more.end());
    }
    return out;
  }();
  return builtin;
}

void SetRealShapes(std::vector<RealShape> shapes) { Override() = std::move(shapes); }

void UseRealShapesDocument(const nlohmann::json& doc) {
  const bool matmul = doc.is_object() && doc.contains("models");
  const bool conv = doc.is_object() && doc.contains(kConvModelsKey);
  if (!matmul && !conv) {
    throw std::runtime_error(std::string("expected a top-level \"models\" array (matmul weights, "
                                         "model_shapes.json's form) or \"") +
                             kConvModelsKey +
                             "\" array (conv weights and feature maps, conv_shapes.json's form)");
  }
  std::optional<std::vector<RealShape>> shapes;
  std::optional<RealConvShapes> conv_shapes;
  if (matmul) shapes = ParseRealShapes(doc);
  if (conv) conv_shapes = ParseRealConvShapes(doc);
  if (shapes) SetRealShapes(std::move(*shapes));
  if (conv_shapes) SetConvShapes(std::move(*conv_shapes));
}

std::vector<RealShape> DistinctRealShapes() {
  std::vector<RealShape> out;
  for (const auto& s : RealShapes()) {
    if (std::none_of(out.begin(), out.end(),
                     [&](const RealShape& o) { return o.shape == s.shape; })) {
      out.push_back(s);
    }
  }
  return out;
}

}  // namespace npuconf
