#include "verify/storage_map.h"

namespace npuconf::verify {
namespace {

std::string Coords(const std::vector<Coord>& coords, bool with_extent, const char* separator) {
  std::string out;
  for (const auto& c : coords) {
    out += (out.empty() ? "" : separator) + c.axis + " " + std::to_string(c.index);
    if (with_extent) out += " of " + std::to_string(c.extent);
  }
  return out;
}

nlohmann::json CoordsJson(const std::vector<Coord>& coords) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& c : coords)
    out.push_back({{"axis", c.axis}, {"index", c.index}, {"extent", c.extent}});
  return out;
}

}  // namespace

std::string Place::Text(const std::string& logical_name) const {
  std::string out;
  if (!block.empty()) out += Coords(block, true, ", ");
  if (!within.empty()) out += (out.empty() ? "" : "; ") + Coords(within, true, ", ");
  const std::string held =
      padding ? "padding" : logical_name + " [" + Coords(logical, false, ", ") + "]";
  return out.empty() ? held : out + " = " + held;
}

nlohmann::json Place::ToJson() const {
  return {{"padding", padding},
          {"block", CoordsJson(block)},
          {"within", CoordsJson(within)},
          {"logical", CoordsJson(logical)}};
}

int64_t StorageMap::blocks() const {
  const int64_t per_block = block_elements();
  return per_block <= 0 ? 0 : elements() / per_block + (elements() % per_block != 0);
}

std::vector<int64_t> StorageMap::Neighbours(int64_t storage_index) const {
  std::vector<int64_t> out;
  const int64_t step = block_elements();
  if (step <= 0 || step >= elements()) return out;
  if (storage_index - step >= 0) out.push_back(storage_index - step);
  if (storage_index + step < elements()) out.push_back(storage_index + step);
  return out;
}

RowMajorMap::RowMajorMap(Shape shape, std::vector<std::string> axes, std::string logical_name)
    : shape_(std::move(shape)), axes_(std::move(axes)), logical_name_(std::move(logical_name)) {
  elements_ = NumElements(shape_).value_or(0);
  axes_.resize(shape_.size(), "d");
}

Place RowMajorMap::Locate(int64_t storage_index) const {
  Place place;
  place.logical.resize(shape_.size());
  int64_t rest = storage_index;
  for (size_t i = shape_.size(); i-- > 0;) {
    const int64_t dim = std::max<int64_t>(shape_[i], 1);
    place.logical[i] = {axes_[i], rest % dim, shape_[i]};
    rest /= dim;
  }
  return place;
}

int64_t RowMajorMap::block_elements() const {
  return shape_.empty() ? 1 : std::max<int64_t>(shape_.back(), 1);
}

}  // namespace npuconf::verify
