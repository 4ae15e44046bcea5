#include "core/conv_shapes.h"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "core/embedded.h"

namespace npuconf {
namespace {

std::optional<RealConvShapes>& Override() {
  static std::optional<RealConvShapes> shapes;
  return shapes;
}

[[noreturn]] void Bad(const std::string& where, const std::string& what) {
  throw std::runtime_error(where + ": " + what);
}

std::string StringField(const nlohmann::json& entry, const char* key, const std::string& where) {
  if (!entry.contains(key) || !entry.at(key).is_string() ||
      entry.at(key).get<std::string>().empty()) {
    Bad(where, std::string("needs a non-empty string \"") + key + "\"" +
                   (entry.contains(key) ? ", got " + entry.at(key).dump() : ""));
  }
  return entry.at(key).get<std::string>();
}

// Four positive dims whose product fits a 64-bit count (every consumer multiplies them).
Shape Rank4Shape(const nlohmann::json& entry, const std::string& where, const char* form) {
  const std::string want = std::string("\"shape\" must be 4 positive integers ") + form;
  if (!entry.contains("shape") || !entry.at("shape").is_array() || entry.at("shape").size() != 4)
    Bad(where, want + (entry.contains("shape") ? ", got " + entry.at("shape").dump() : ""));
  Shape shape;
  int64_t elems = 1;
  for (const auto& d : entry.at("shape")) {
    if (!d.is_number_integer() || d.get<int64_t>() <= 0)
      Bad(where, want + ", got " + entry.at("shape").dump());
    shape.push_back(d.get<int64_t>());
    if (__builtin_mul_overflow(elems, shape.back(), &elems))
      Bad(where,
          "shape " + entry.at("shape").dump() + " has more elements than a 64-bit count holds");
  }
  return shape;
}

// The entries of model[key], an optional array of objects, each named in errors
// as conv_models[i] (model).key[j] "name".
template <typename Fn>
void ForEachEntry(const nlohmann::json& model, const char* key, const std::string& where, Fn fn) {
  if (!model.contains(key)) return;
  if (!model.at(key).is_array()) Bad(where, std::string("\"") + key + "\" is not an array");
  size_t index = 0;
  for (const auto& entry : model.at(key)) {
    std::string at = where + "." + key + "[" + std::to_string(index++) + "]";
    if (!entry.is_object()) Bad(at, "is not an object");
    at += " \"" + StringField(entry, "name", at) + "\"";
    fn(entry, at);
  }
}

}  // namespace

RealConvShapes ParseRealConvShapes(const nlohmann::json& doc) {
  if (!doc.is_object() || !doc.contains(kConvModelsKey) || !doc.at(kConvModelsKey).is_array())
    throw std::runtime_error(std::string("expected a top-level \"") + kConvModelsKey + "\" array");
  RealConvShapes out;
  size_t index = 0;
  for (const auto& model : doc.at(kConvModelsKey)) {
    std::string where = std::string(kConvModelsKey) + "[" + std::to_string(index++) + "]";
    if (!model.is_object()) Bad(where, "is not an object");
    const std::string name = StringField(model, "model", where);
    where += " (" + name + ")";
    (void)StringField(model, "source", where);  // every shape says where it comes from
    if (!model.contains("conv_weights") && !model.contains("feature_maps"))
      Bad(where, "has neither \"conv_weights\" nor \"feature_maps\"");
    ForEachEntry(model, "conv_weights", where, [&](const nlohmann::json& e, const std::string& at) {
      RealConvWeight w{.model = name, .tensor = e.at("name").get<std::string>()};
      w.shape = Rank4Shape(e, at, "[Cout, Cin / groups, kH, kW]");
      if (e.contains("groups")) {
        const auto& g = e.at("groups");
        if (!g.is_number_integer() || g.get<int64_t>() <= 0)
          Bad(at, "\"groups\" must be a positive integer, got " + g.dump());
        w.groups = g.get<int64_t>();
      }
      // nn.Conv2d: out_channels must be divisible by groups.
      if (w.shape[0] % w.groups != 0)
        Bad(at, "Cout " + std::to_string(w.shape[0]) + " is not a multiple of groups " +
                    std::to_string(w.groups));
      out.weights.push_back(std::move(w));
    });
    ForEachEntry(model, "feature_maps", where, [&](const nlohmann::json& e, const std::string& at) {
      out.feature_maps.push_back({.model = name,
                                  .tensor = e.at("name").get<std::string>(),
                                  .shape = Rank4Shape(e, at, "NCHW [N, C, H, W]")});
    });
  }
  return out;
}

const RealConvShapes& ConvShapes() {
  if (Override()) return *Override();
  static const RealConvShapes builtin = [] {
    RealConvShapes out;
    for (int i = 0; i < kEmbeddedRealShapesCount; ++i) {
      const auto doc = nlohmann::json::parse(kEmbeddedRealShapes[i].text);
      if (!doc.contains(kConvModelsKey)) continue;  // model_shapes.json's form
      auto more = ParseRealConvShapes(doc);
      out.weights.insert(out.weights.end(), more.weights.begin(), more.weights.end());
      out.feature_maps.insert(out.feature_maps.end(), more.feature_maps.begin(),
                              more.feature_maps.end());
    }
    return out;
  }();
  return builtin;
}

void SetConvShapes(RealConvShapes shapes) { Override() = std::move(shapes); }

std::vector<RealConvWeight> FirstConvWeightPerModel() {
  std::vector<RealConvWeight> out;
  for (const auto& w : ConvShapes().weights) {
    if (std::none_of(out.begin(), out.end(),
                     [&](const RealConvWeight& o) { return o.model == w.model; }))
      out.push_back(w);
  }
  return out;
}

}  // namespace npuconf
