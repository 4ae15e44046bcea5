#include "oracles/cann_convweight/conv_weight_oracle.h"

#include <cstring>
#include <functional>
#include <map>
#include <numeric>
#include <unsupported/Eigen/CXX11/Tensor>

namespace npuconf::oracle::cann_convweight {
namespace {

using Index = Eigen::Index;
template <int R, typename S = uint16_t>
using T = Eigen::Tensor<S, R, Eigen::RowMajor, Index>;

// aclnn status codes (spec cann.md §0.1, as layouts.md §0 uses them).
constexpr int64_t kOk = 0, kNullptr = 161001, kInvalid = 161002, kRuntime = 361001,
                  kInnerNullptr = 561103;

// Rounds x up to a multiple of m (x >= 0).
int64_t Up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

bool IsNull(const Case& c, const char* key) {
  const ParamValue* p = c.Find(key);
  return p && p->kind == ParamValue::Kind::kNull;
}

std::string Soc(const nlohmann::json& raw) { return raw.at("soc_version").at("value"); }
const nlohmann::json& Facts(const nlohmann::json& raw) { return raw.at("conv_weight"); }
bool Documented(const nlohmann::json& raw) {
  return Facts(raw).at("groups_range").at("value") == "as_documented";
}

// An ordered rule table: the first rule whose condition holds decides.
struct Rule {
  std::function<bool()> holds;
  int64_t status;
  std::string why;
};
std::optional<Expect> FirstOf(const std::vector<Rule>& rules) {
  for (const Rule& r : rules) {
    if (r.holds()) return Expect{.status = r.status, .rule = r.why};
  }
  return std::nullopt;
}

bool Has(const Shape& s, const std::function<bool(int64_t)>& p) {
  for (int64_t d : s) {
    if (p(d)) return true;
  }
  return false;
}

// §A.9 CheckParams after the null pointers (the same in both conv-weight APIs).
std::vector<Rule> ConvParamRules(const nlohmann::json& raw, const Shape& shape, bool transposed,
                                 int64_t groups) {
  return {
      {[&] { return shape.size() != 4; }, kInvalid, "§A.9: rank of tensorShape ≠ 4"},
      {[=] { return transposed; }, kInvalid, "§A.9: transposed is not supported"},
      {[=] { return groups == 0; }, kInvalid, "§A.9: groups == 0"},
      {[&, groups] { return Documented(raw) && (groups < 1 || groups > 65535); }, kInvalid,
       "§A.9 doc (choice cann.conv_weight.groups_range = as_documented): groups outside "
       "[1,65535]"},
      {[&] { return Soc(raw) != "ASCEND310P"; }, kInvalid, "§A.9: SoC is not ASCEND310P"},
  };
}

// After the empty exit: TransData (§A.4 hazard 5) and the undefined domain.
std::vector<Rule> TransDataRules(const Shape& shape, int64_t groups) {
  return {
      {[=] { return groups > 65535; }, kInnerNullptr,
       "§A.9/§A.4 hazard 5: groups > 65535, TransData returns nullptr (D13 as_shipped)"},
      {[=] { return groups < 0; }, kInvalid, "npuconf's own: negative groups (undefined, D13)"},
      {[&, groups] { return !GroupedFzDims(shape, groups); }, kInvalid,
       "npuconf's own: N < groups or a size past int64 (undefined upstream, §A.4 hazard 3)"},
  };
}

uint64_t Product(const Shape& s) {
  uint64_t p = 1;
  for (int64_t d : s) p *= static_cast<uint64_t>(d);
  return p;
}

}  // namespace

std::optional<Shape> GroupedFzDims(const Shape& nchw, int64_t groups) {
  if (nchw.size() != 4 || groups < 1) return std::nullopt;
  const int64_t n = nchw[0], cin = nchw[1], h = nchw[2], w = nchw[3];
  const int64_t cout = n / groups;
  if (cout < 1 || cin < 1 || h < 1 || w < 1) return std::nullopt;
  const int64_t e = std::min<int64_t>(
      std::lcm(16 / std::gcd(cin, int64_t{16}), 16 / std::gcd(cout, int64_t{16})), groups);
  const __int128 cin_tile = Up(e * cin, 16), cout_tile = Up(e * cout, 16);
  const __int128 blocks = (groups + e - 1) / e;
  const __int128 rows = blocks * (cin_tile / 16) * h * w;
  if (rows * (cout_tile / 16) * 256 > INT64_MAX) return std::nullopt;
  return Shape{static_cast<int64_t>(rows), static_cast<int64_t>(cout_tile / 16), 16, 16};
}

std::vector<uint16_t> GroupedFz(const Bytes& weight, DType dtype, const Shape& nchw,
                                int64_t groups) {
  const Index n = nchw[0], cin = nchw[1], h = nchw[2], w = nchw[3];
  const Index elems = n * cin * h * w;
  // The fp16 source: as given, or the fp32 tensor cast (Eigen::half: RNE).
  T<4> src(n, cin, h, w);
  if (dtype == DType::kFloat) {
    Eigen::TensorMap<const T<4, float>> f(reinterpret_cast<const float*>(weight.data()), n, cin, h,
                                          w);
    T<4, Eigen::half> halves = f.cast<Eigen::half>();
    std::memcpy(src.data(), halves.data(), static_cast<size_t>(elems) * 2);
  } else {
    std::memcpy(src.data(), weight.data(), static_cast<size_t>(elems) * 2);
  }
  const Shape dims = *GroupedFzDims(nchw, groups);
  const Index cout = n / groups;
  const Index cout_tile = dims[1] * 16;
  // e from the tile: the tile holds e groups' Cout columns, so e·cout ≤ Cout' (and
  // the factor itself is recomputed the TSU way, as the dims were).
  const Index e = std::min<Index>(
      std::lcm(16 / std::gcd(cin, Index{16}), 16 / std::gcd(cout, Index{16})), groups);
  const Index cin_tile = Up(e * cin, 16);
  const Index blocks = (groups + e - 1) / e;
  std::vector<uint16_t> out;
  out.reserve(static_cast<size_t>(blocks * cin_tile * h * w * cout_tile));
  for (Index b = 0; b < blocks; ++b) {
    // One block-diagonal tile [Cin', H, W, Cout']: group b·e + k at (k·Cin, k·cout).
    T<4> tile(cin_tile, h, w, cout_tile);
    tile.setZero();
    for (Index k = 0; k < e && b * e + k < groups; ++k) {
      const Eigen::array<Index, 4> from{(b * e + k) * cout, 0, 0, 0}, size{cout, cin, h, w};
      const Eigen::array<Index, 4> to{k * cin, 0, 0, k * cout}, placed{cin, h, w, cout};
      tile.slice(to, placed) = src.slice(from, size).shuffle(Eigen::array<Index, 4>{1, 2, 3, 0});
    }
    // [Cin', H, W, Cout'] → reshape [C1', C0, H, W, Cout'] → shuffle to [C1', H, W, Cout', C0].
    T<5> fz = tile.reshape(Eigen::array<Index, 5>{cin_tile / 16, 16, h, w, cout_tile})
                  .shuffle(Eigen::array<Index, 5>{0, 2, 3, 4, 1});
    out.insert(out.end(), fz.data(), fz.data() + fz.size());
  }
  return out;
}

Expect ExpectConvolutionWeightSize(const nlohmann::json& raw, const Case& c) {
  const bool null_shape = IsNull(c, "shape");
  const Shape shape = c.IntList("shape").value_or(Shape{});
  const bool transposed = c.Int("transposed").value_or(0) != 0;
  const int64_t groups = c.Int("groups").value_or(1);
  const DType dtype = c.DTypeParam("dtype").value_or(DType::kFloat16);
  std::vector<Rule> rules = {
      {[=] { return null_shape; }, kNullptr, "§A.9: tensorShape == nullptr"},
      {[&] { return IsNull(c, "weight_tensor_size"); }, kNullptr, "§A.9: size == nullptr"}};
  for (Rule& r : ConvParamRules(raw, shape, transposed, groups)) rules.push_back(std::move(r));
  rules.push_back(
      {[=] { return dtype != DType::kFloat16; }, kInvalid, "§A.9: dataType is not FLOAT16"});
  rules.push_back(
      {[&] { return Has(shape, [](int64_t d) { return d < 0; }); }, kInvalid, "§A.9: a dim < 0"});
  rules.push_back({[&] { return Has(shape, [](int64_t d) { return d == 0; }); }, kOk,
                   "§A.9: a dim == 0 gives size 0"});
  for (Rule& r : TransDataRules(shape, groups)) rules.push_back(std::move(r));
  if (auto e = FirstOf(rules)) return *e;
  return {.status = kOk,
          .rule = "§A.9/§A.4: the product of the grouped FRACTAL_Z dims (C0 16)",
          .size = Product(*GroupedFzDims(shape, groups)),
          .dims = *GroupedFzDims(shape, groups)};
}

Expect ExpectTransConvolutionWeight(const nlohmann::json& raw, const Case& c) {
  const bool null_in = IsNull(c, "shape");
  const Shape shape = c.IntList("shape").value_or(Shape{});
  const Shape out_shape = c.IntList("out_shape").value_or(shape);
  const bool transposed = c.Int("transposed").value_or(0) != 0;
  const int64_t groups = c.Int("groups").value_or(1);
  const DType dtype = c.DTypeParam("dtype").value_or(DType::kFloat16);
  const DType out_dtype = c.DTypeParam("out_dtype").value_or(DType::kFloat16);
  const std::string in_format = c.String("in_format").value_or("NCHW");
  const std::string out_format = c.String("out_format").value_or("NCHW");
  const bool contiguous = c.Int("out_contiguous").value_or(1) != 0;
  auto empty = [](const Shape& s) { return s.empty() || Has(s, [](int64_t d) { return d == 0; }); };
  std::vector<Rule> rules = {
      {[=] { return null_in; }, kNullptr, "§A.9: weightIn == nullptr"},
      {[&] { return IsNull(c, "weight_out"); }, kNullptr, "§A.9: weightOut == nullptr"}};
  for (Rule& r : ConvParamRules(raw, shape, transposed, groups)) rules.push_back(std::move(r));
  std::vector<Rule> more = {
      {[=] { return dtype != DType::kFloat16 && dtype != DType::kFloat; }, kInvalid,
       "§A.9: weightIn dtype not in {FLOAT16, FLOAT}"},
      {[=] { return out_dtype != DType::kFloat16; }, kInvalid, "§A.9: weightOut dtype not FLOAT16"},
      {[&] { return in_format != "NCHW" || out_format != "NCHW"; }, kInvalid,
       "§A.9: a view format other than NCHW"},
      {[=] { return !contiguous; }, kInvalid, "§A.9: weightOut not contiguous"},
      {[&] {
         return Has(shape, [](int64_t d) { return d < 0; }) ||
                Has(out_shape, [](int64_t d) { return d < 0; });
       },
       kInvalid, "npuconf's own: a negative dim"},
      {[&] { return empty(shape) != empty(out_shape); }, kInvalid,
       "§A.9: one side empty and the other not"},
      {[&] { return empty(shape); }, kOk, "§A.9: both empty, workspace 0, weightOut untouched"}};
  for (Rule& r : more) rules.push_back(std::move(r));
  for (Rule& r : TransDataRules(shape, groups)) rules.push_back(std::move(r));
  if (auto e = FirstOf(rules)) return *e;
  const Shape dims = *GroupedFzDims(shape, groups);
  return {.status = kOk,
          .rule = "§A.9: cast to fp16, then grouped FRACTAL_Z (§A.4, C0 16)",
          .size = Product(dims),
          .dims = dims};
}

Expect ExpectFormatCast(const nlohmann::json& raw, const Case& c) {
  const auto& f = Facts(raw);
  const Shape shape = c.IntList("shape").value_or(Shape{});
  const std::string src = c.String("src_format").value_or(""),
                    dst = c.String("dst_format").value_or("");
  const DType dtype = c.DTypeParam("dtype").value_or(DType::kFloat16);
  // §A.10's dtype list with each sizeof (UINT32 and the FP4 types have no npuconf dtype).
  static const std::map<DType, int64_t> kSizeOf = {
      {DType::kInt8, 1}, {DType::kUint8, 1}, {DType::kFloat, 4},        {DType::kFloat16, 2},
      {DType::kBf16, 2}, {DType::kInt32, 4}, {DType::kFloat8E4M3Fn, 1}, {DType::kHiFloat8, 1}};
  // Each branch: the plain format's axis letters and the blocked format it makes.
  static const std::multimap<std::string, std::string> kForward = {
      {"NCHW", "NC1HWC0"},       {"NHWC", "NC1HWC0"},      {"NCHW", "FRACTAL_Z"},
      {"HWCN", "FRACTAL_Z"},     {"NCDHW", "NDC1HWC0"},    {"NDHWC", "NDC1HWC0"},
      {"NCDHW", "FRACTAL_Z_3D"}, {"DHWCN", "FRACTAL_Z_3D"}};
  auto is_pair = [&](const std::string& a, const std::string& b) {
    auto [lo, hi] = kForward.equal_range(a);
    for (auto it = lo; it != hi; ++it) {
      if (it->second == b) return true;
    }
    return false;
  };
  const bool forward = is_pair(src, dst), reverse = is_pair(dst, src);
  const DType c0_dtype = c.DTypeParam("additional_dtype").value_or(dtype);
  const std::vector<Rule> rules = {
      {[&] { return !f.at("format_cast_supported").at("value").get<bool>(); }, kInvalid,
       "§A.10: SoC not 950, 910_93 or 910B"},
      {[&] { return IsNull(c, "shape"); }, f.at("format_cast_null_src_status").at("value"),
       "§A.10/D12: srcTensor == nullptr (choice cann.format_cast.null_src)"},
      {[&] { return !kSizeOf.count(dtype); }, kInvalid, "§A.10: src dtype not in the list"},
      {[&] {
         return f.at("format_cast_empty_fallback").at("value").get<bool>() &&
                Has(shape, [](int64_t d) { return d == 0; });
       },
       kRuntime, "§A.10: an empty tensor on non-950 (fallback aclop)"},
      {[&] { return !forward && !reverse; }, kRuntime, "§A.10: an unsupported format pair"},
      {[&] { return Has(shape, [](int64_t d) { return d < 0; }); }, kInvalid,
       "npuconf's own: a negative dim"},
      {[&] { return forward && shape.size() != src.size(); }, kInvalid,
       "npuconf's own: a rank other than the src format's (no check upstream, §A.10)"},
      {[&] { return forward && !kSizeOf.count(c0_dtype); }, kInvalid,
       "npuconf's own: additional dtype without a size"},
  };
  if (auto e = FirstOf(rules)) return *e;
  int32_t number = 0;
  {
    static const std::map<std::string, int32_t> kNumbers = {
        {"NCHW", 0},      {"NHWC", 1},   {"ND", 2},        {"NC1HWC0", 3},
        {"FRACTAL_Z", 4}, {"HWCN", 16},  {"NDHWC", 27},    {"FRACTAL_NZ", 29},
        {"NCDHW", 30},    {"DHWCN", 31}, {"NDC1HWC0", 32}, {"FRACTAL_Z_3D", 33}};
    number = kNumbers.at(dst);
  }
  if (reverse) {
    return {.status = kOk,
            .rule = "§A.10: a reverse branch returns the view shape",
            .dims = shape,
            .actual_format = number};
  }
  const int64_t c0 = 32 / kSizeOf.at(c0_dtype);
  std::map<char, int64_t> axis;
  for (size_t i = 0; i < src.size(); ++i) axis[src[i]] = shape[i];
  const int64_t d = axis.count('D') ? axis['D'] : 1;
  const int64_t c1 = Up(axis['C'], c0) / c0, n1 = Up(axis['N'], 16) / 16;
  Shape dims;
  if (dst == "NC1HWC0") dims = {axis['N'], c1, axis['H'], axis['W'], c0};
  if (dst == "NDC1HWC0") dims = {axis['N'], d, c1, axis['H'], axis['W'], c0};
  if (dst == "FRACTAL_Z" || dst == "FRACTAL_Z_3D")
    dims = {d * c1 * axis['H'] * axis['W'], n1, 16, c0};
  return {.status = kOk,
          .rule = "§A.10 with §A.1/§A.3/§A.6/§A.7: C0 = 32 / sizeof = " + std::to_string(c0),
          .dims = dims,
          .actual_format = number};
}

}  // namespace npuconf::oracle::cann_convweight
