#include "conformance/cann_transdata/layout.h"

#include "conformance/harness/materialize.h"
#include "core/routines/cann_transdata.h"

namespace npuconf::cann_transdata_props {
namespace {

namespace orc = oracle::cann_transdata;

// Axis names of the plain formats, in their own order.
std::vector<std::string> PlainAxes(const std::string& format, size_t rank) {
  if (format == "ND") {
    std::vector<std::string> axes;
    for (size_t i = 0; i < rank; ++i) axes.push_back("d" + std::to_string(i));
    return axes;
  }
  if (format == "NHWC") return {"n", "h", "w", "c"};
  if (format == "HWCN") return {"h", "w", "c", "n"};
  if (format == "NCDHW") return {"n", "c", "d", "h", "w"};
  if (format == "NDHWC") return {"n", "d", "h", "w", "c"};
  if (format == "DHWCN") return {"d", "h", "w", "c", "n"};
  return {"n", "c", "h", "w"};
}

// Each dst element: a block (all dims but the last two of a blocked dst, the
// outer dims of a plain one), the place inside it, and the src element it
// holds (the oracle's position map), or padding.
class TransDataMap : public verify::StorageMap {
 public:
  TransDataMap(const orc::TransDataCall& call, const orc::TransDataExpect& x,
               std::vector<int64_t> from)
      : from_(std::move(from)), dims_(x.dst_dims), pack_(x.pack), shape_(call.shape) {
    const std::string plain = x.pack ? call.src_format : call.dst_format;
    plain_axes_ = PlainAxes(plain, call.shape.size());
    if (plain == "ND") {
      blocked_axes_.assign(x.storage.size() - 4, "batch");
      blocked_axes_.insert(blocked_axes_.end(), {"c1", "n1", "n0", "c0"});
    } else if (x.storage.size() == 5) {
      blocked_axes_ = {"n", "c1", "h", "w", "c0"};
    } else if (x.storage.size() == 6) {
      blocked_axes_ = {"n", "d", "c1", "h", "w", "c0"};
    } else if (plain_axes_.size() == 5) {
      blocked_axes_ = {"dc1hw", "n1", "n0", "c0"};
    } else if ((x.pack ? call.dst_format : call.src_format) == "FRACTAL_Z_C04") {
      blocked_axes_ = {"hwc4", "n1", "n0", "c0"};
    } else {
      blocked_axes_ = {"c1hw", "n1", "n0", "c0"};
    }
  }
  int64_t elements() const override { return static_cast<int64_t>(from_.size()); }
  std::string logical_name() const override { return "plain"; }
  int64_t block_elements() const override {
    return dims_.size() < 2 ? 1 : dims_[dims_.size() - 1] * dims_[dims_.size() - 2];
  }
  verify::Place Locate(int64_t i) const override {
    verify::Place place;
    const auto& axes = pack_ ? blocked_axes_ : plain_axes_;
    int64_t rest = i;
    std::vector<verify::Coord> coords(dims_.size());
    for (size_t d = dims_.size(); d-- > 0;) {
      coords[d] = {d < axes.size() ? axes[d] : "d", dims_[d] ? rest % dims_[d] : 0, dims_[d]};
      rest = dims_[d] ? rest / dims_[d] : 0;
    }
    const size_t split = coords.size() >= 2 ? coords.size() - 2 : 0;
    place.block.assign(coords.begin(), coords.begin() + static_cast<std::ptrdiff_t>(split));
    place.within.assign(coords.begin() + static_cast<std::ptrdiff_t>(split), coords.end());
    const int64_t src = from_[static_cast<size_t>(i)] - 1;
    place.padding = src < 0;
    if (!place.padding) {
      // The plain element: in the source for a pack, the element itself otherwise.
      int64_t plain_index = pack_ ? src : i;
      for (size_t d = shape_.size(); d-- > 0;) {
        place.logical.insert(place.logical.begin(),
                             {plain_axes_[d], plain_index % shape_[d], shape_[d]});
        plain_index /= shape_[d];
      }
    }
    return place;
  }

 private:
  std::vector<int64_t> from_;
  Shape dims_;
  bool pack_;
  Shape shape_;
  std::vector<std::string> plain_axes_, blocked_axes_;
};

}  // namespace

orc::TransDataCall CallOf(const Case& c) {
  orc::TransDataCall call;
  auto src = c.String("src_format"), dst = c.String("dst_format");
  if (!src || !dst) throw CaseError("case needs src_format=F and dst_format=F");
  call.src_format = *src;
  call.dst_format = *dst;
  call.groups = c.Int("groups").value_or(1);
  call.shape = RequireShape(c, "shape");
  call.dtype = RequireDType(c, "dtype");
  call.c0 = c.Int("c0");
  return call;
}

int64_t NOfPlainIndex(const orc::TransDataCall& call, int64_t index) {
  if (call.src_format == "ND" || call.dst_format == "ND") return 0;  // no output channels
  const std::string& src = call.src_format;
  const bool pack = src == "NCHW" || src == "NHWC" || src == "HWCN" || src == "NCDHW" ||
                    src == "NDHWC" || src == "DHWCN";
  const std::string plain = pack ? call.src_format : call.dst_format;
  const Shape& s = call.shape;
  if (plain == "HWCN") return index % s[3];
  if (plain == "DHWCN") return index % s[4];
  int64_t per_n = 1;  // N is the outermost axis of the others
  for (size_t i = 1; i < s.size(); ++i) per_n *= s[i];
  return per_n ? index / per_n : 0;
}

LayoutInstance TransDataInstance(const Case& c, const Profile& profile) {
  const orc::TransDataCall call = CallOf(c);
  const orc::TransDataExpect x = orc::ExpectTransData(profile.raw, call);
  if (x.status != routines::cann_transdata::kGeSuccess)
    throw CaseError("not a valid cann.trans_data call: " + x.rule);
  const uint64_t bytes = static_cast<uint64_t>((x.src_elems + 9 * x.dst_elems) * x.elem_bytes);
  if (bytes > MaxCaseBytes()) throw CaseTooLarge(bytes, MaxCaseBytes());
  LayoutInstance l;
  l.input = "src";
  l.output = "dst";
  l.input_codec = l.output_codec = {call.dtype, false};
  l.input_elems = x.src_elems;
  l.output_elems = x.dst_elems;
  l.output_dims = x.dst_dims;
  auto from = orc::DstSources(profile.raw, call);
  l.output_map = std::make_shared<TransDataMap>(call, x, from);
  const nlohmann::json raw = profile.raw;
  l.oracle = [raw, call](const Bytes& in) { return orc::TransData(raw, call, in); };
  return l;
}

}  // namespace npuconf::cann_transdata_props
