#include "oracles/cann_transdata/trans_data_oracle.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <numeric>
#include <set>
#include <unsupported/Eigen/CXX11/Tensor>

namespace npuconf::oracle::cann_transdata {
namespace {

using Index = Eigen::Index;
template <int R>
using T = Eigen::Tensor<int64_t, R, Eigen::RowMajor, Index>;
using Pairs4 = Eigen::array<std::pair<Index, Index>, 4>;

constexpr int64_t kOk = 0, kFormat = 145020, kShape = 145021, kDtype = 145022;
constexpr int64_t kN0 = 16;

Index Up(Index x, Index a) { return (x + a - 1) / a * a; }

// Axis order of each plain format over (N, C, H, W): where each NCHW axis sits.
std::optional<std::array<int, 4>> NchwAxesOf(const std::string& format) {
  if (format == "NCHW") return std::array<int, 4>{0, 1, 2, 3};
  if (format == "NHWC") return std::array<int, 4>{0, 3, 1, 2};
  if (format == "HWCN") return std::array<int, 4>{3, 2, 0, 1};
  return std::nullopt;
}

// The 3-D formats over (N, C, D, H, W), as NchwAxesOf (spec layouts.md §A.6, §A.7).
std::optional<std::array<int, 5>> NcdhwAxesOf(const std::string& format) {
  if (format == "NCDHW") return std::array<int, 5>{0, 1, 2, 3, 4};
  if (format == "NDHWC") return std::array<int, 5>{0, 4, 1, 2, 3};
  if (format == "DHWCN") return std::array<int, 5>{4, 3, 0, 1, 2};
  return std::nullopt;
}

bool IsPlainFormat(const std::string& f) {
  return NchwAxesOf(f).has_value() || NcdhwAxesOf(f).has_value();
}

// Every (plain, blocked) pair GE and the aclnn support map register (§A.1–A.7).
bool IsRegisteredPair(const std::string& plain, const std::string& blocked) {
  static const std::set<std::pair<std::string, std::string>> kPairs = {
      {"NCHW", "NC1HWC0"},       {"NHWC", "NC1HWC0"},       {"NCHW", "NC1HWC0_C04"},
      {"NHWC", "NC1HWC0_C04"},   {"NCHW", "FRACTAL_Z"},     {"NHWC", "FRACTAL_Z"},
      {"HWCN", "FRACTAL_Z"},     {"NCHW", "FRACTAL_Z_C04"}, {"HWCN", "FRACTAL_Z_C04"},
      {"NCDHW", "NDC1HWC0"},     {"NDHWC", "NDC1HWC0"},     {"NCDHW", "FRACTAL_Z_3D"},
      {"DHWCN", "FRACTAL_Z_3D"}, {"NDHWC", "FRACTAL_Z_3D"}};
  return kPairs.count({plain, blocked}) > 0;
}

struct Facts {
  std::map<std::string, int64_t> c0, nz_c0;
  std::string groups_exceed_n, nz_1d, fz_c04_c0, fz_c04_c_over_4;
};

bool IsNzFormat(const std::string& f) {
  return f == "FRACTAL_NZ" || f == "FRACTAL_NZ_C0_16" || f == "FRACTAL_NZ_C0_32";
}

Facts FactsOf(const nlohmann::json& raw) {
  Facts f;
  const auto& td = raw.at("trans_data");
  for (const auto& [k, v] : td.at("c0").at("value").items()) f.c0[k] = v.get<int64_t>();
  f.groups_exceed_n = td.at("groups_exceed_n").at("value").get<std::string>();
  f.nz_1d = td.at("nz_1d").at("value").get<std::string>();
  f.fz_c04_c0 = td.at("fz_c04_c0").at("value").get<std::string>();
  f.fz_c04_c_over_4 = td.at("fz_c04_c_over_4").at("value").get<std::string>();
  for (const auto& [k, v] : raw.at("fractal_nz").at("c0").at("value").items())
    f.nz_c0[k] = v.get<int64_t>();
  return f;
}

// 1 + flat index of every element of the plain tensor, as NCHW.
T<4> NchwIndex(const Shape& shape, const std::array<int, 4>& axes) {
  T<4> plain(shape[0], shape[1], shape[2], shape[3]);
  std::iota(plain.data(), plain.data() + plain.size(), int64_t{1});
  Eigen::array<Index, 4> to_nchw;
  for (int i = 0; i < 4; ++i) to_nchw[i] = axes[i];
  return plain.shuffle(to_nchw);
}

// 1 + flat index of every element of the plain 3-D tensor, as NCDHW.
T<5> NcdhwIndex(const Shape& shape, const std::array<int, 5>& axes) {
  T<5> plain(shape[0], shape[1], shape[2], shape[3], shape[4]);
  std::iota(plain.data(), plain.data() + plain.size(), int64_t{1});
  Eigen::array<Index, 5> to_ncdhw;
  for (int i = 0; i < 5; ++i) to_ncdhw[i] = axes[i];
  return plain.shuffle(to_ncdhw);
}

// NDC1HWC0 (§A.6): pad C → reshape [N, C1, C0, D, H, W] → shuffle to [N, D, C1, H, W, C0].
T<6> Ndc1hwc0(const T<5>& x, Index c0) {
  const auto d = x.dimensions();
  Eigen::array<std::pair<Index, Index>, 5> pad{
      {{0, 0}, {0, Up(d[1], c0) - d[1]}, {0, 0}, {0, 0}, {0, 0}}};
  Eigen::array<Index, 6> split{d[0], Up(d[1], c0) / c0, c0, d[2], d[3], d[4]};
  return x.pad(pad).reshape(split).shuffle(Eigen::array<Index, 6>{0, 3, 1, 4, 5, 2});
}

// FRACTAL_Z_3D, one group (§A.7): pad N to 16, C to C0 → reshape [N', C1, C0, D, H, W]
// → shuffle to [D, C1, H, W, N', C0].
T<6> FractalZ3d(const T<5>& x, Index c0) {
  const auto d = x.dimensions();
  Eigen::array<std::pair<Index, Index>, 5> pad{
      {{0, Up(d[0], kN0) - d[0]}, {0, Up(d[1], c0) - d[1]}, {0, 0}, {0, 0}, {0, 0}}};
  Eigen::array<Index, 6> split{Up(d[0], kN0), Up(d[1], c0) / c0, c0, d[2], d[3], d[4]};
  return x.pad(pad).reshape(split).shuffle(Eigen::array<Index, 6>{3, 1, 4, 5, 0, 2});
}

// Grouped FRACTAL_Z_3D (§A.4, §A.7), and grouped FRACTAL_Z as its D = 1, as
// block-diagonal algebra over [N, C, D, H·W]: the g groups [g, cout, Cin, D, HW]
// cut into G' blocks of e, each block the block-diagonal matrix diag(W_0 … W_{e-1})
// of shape [e·cout, e·Cin, D, HW], padded to [Cout', C1'·C0] and laid out as
// [G', D, C1', HW, Cout', C0] (D outside C1', H and W together).
T<6> GroupedFractalZ3d(const T<5>& x, Index groups, Index e, Index c0) {
  const auto dims = x.dimensions();
  const Index cout = dims[0] / groups, cin = dims[1], depth = dims[2], hw = dims[3] * dims[4];
  const Index blocks = (groups + e - 1) / e;
  T<5> g5 = x.slice(Eigen::array<Index, 5>{0, 0, 0, 0, 0},
                    Eigen::array<Index, 5>{groups * cout, cin, depth, dims[3], dims[4]})
                .reshape(Eigen::array<Index, 5>{groups, cout, cin, depth, hw});
  Eigen::array<std::pair<Index, Index>, 5> pad_g{
      {{0, blocks * e - groups}, {0, 0}, {0, 0}, {0, 0}, {0, 0}}};
  T<6> by_block = g5.pad(pad_g).reshape(Eigen::array<Index, 6>{blocks, e, cout, cin, depth, hw});
  T<7> diag(blocks, e, cout, e, cin, depth, hw);
  diag.setZero();
  for (Index a = 0; a < e; ++a) {
    diag.slice(Eigen::array<Index, 7>{0, a, 0, a, 0, 0, 0},
               Eigen::array<Index, 7>{blocks, 1, cout, 1, cin, depth, hw}) =
        by_block
            .slice(Eigen::array<Index, 6>{0, a, 0, 0, 0, 0},
                   Eigen::array<Index, 6>{blocks, 1, cout, cin, depth, hw})
            .reshape(Eigen::array<Index, 7>{blocks, 1, cout, 1, cin, depth, hw});
  }
  const Index co = Up(e * cout, kN0), ci = Up(e * cin, c0);
  Eigen::array<std::pair<Index, Index>, 5> pad{
      {{0, 0}, {0, co - e * cout}, {0, ci - e * cin}, {0, 0}, {0, 0}}};
  return diag.reshape(Eigen::array<Index, 5>{blocks, e * cout, e * cin, depth, hw})
      .pad(pad)
      .reshape(Eigen::array<Index, 6>{blocks, co, ci / c0, c0, depth, hw})
      .shuffle(Eigen::array<Index, 6>{0, 4, 2, 5, 1, 3});
}

// FRACTAL_Z_C04 (§A.5, GE fz_c04.cc's own steps): pad C to 4 (to 4·C1 blocks under
// the reading accepted of D8, MS) → [N, C1, 4, H, W] → shuffle to [N, C1, H, W, 4] →
// reshape [N, F] → pad N to 16, F to C0 → reshape [N', V, C0] → shuffle to [V, N', C0].
T<3> FractalZC04(const T<4>& x, Index c0, Index blocks_of_4) {
  const auto d = x.dimensions();
  Pairs4 pad_c{{{0, 0}, {0, 4 * blocks_of_4 - d[1]}, {0, 0}, {0, 0}}};
  const Index f = blocks_of_4 * d[2] * d[3] * 4;
  T<2> nf = x.pad(pad_c)
                .reshape(Eigen::array<Index, 5>{d[0], blocks_of_4, 4, d[2], d[3]})
                .shuffle(Eigen::array<Index, 5>{0, 1, 3, 4, 2})
                .reshape(Eigen::array<Index, 2>{d[0], f});
  Eigen::array<std::pair<Index, Index>, 2> pad{{{0, Up(d[0], kN0) - d[0]}, {0, Up(f, c0) - f}}};
  return nf.pad(pad)
      .reshape(Eigen::array<Index, 3>{Up(d[0], kN0), Up(f, c0) / c0, c0})
      .shuffle(Eigen::array<Index, 3>{1, 0, 2});
}

// NC1HWC0: pad C → reshape [N, C1, C0, H, W] → shuffle to [N, C1, H, W, C0].
T<5> Nc1hwc0(const T<4>& x, Index c0) {
  const auto d = x.dimensions();
  Pairs4 pad{{{0, 0}, {0, Up(d[1], c0) - d[1]}, {0, 0}, {0, 0}}};
  Eigen::array<Index, 5> split{d[0], Up(d[1], c0) / c0, c0, d[2], d[3]};
  return x.pad(pad).reshape(split).shuffle(Eigen::array<Index, 5>{0, 1, 3, 4, 2});
}

// FRACTAL_Z, one group: pad N to 16, C to C0 → reshape [N', C1, C0, H, W] →
// shuffle to [C1, H, W, N', C0].
T<5> FractalZ(const T<4>& x, Index c0) {
  const auto d = x.dimensions();
  Pairs4 pad{{{0, Up(d[0], kN0) - d[0]}, {0, Up(d[1], c0) - d[1]}, {0, 0}, {0, 0}}};
  Eigen::array<Index, 5> split{Up(d[0], kN0), Up(d[1], c0) / c0, c0, d[2], d[3]};
  return x.pad(pad).reshape(split).shuffle(Eigen::array<Index, 5>{1, 3, 4, 0, 2});
}

// FRACTAL_NZ (cann.md §2.5): [B, n, k] → pad to [B, N1·16, C1·C0] → reshape
// [B, N1·16, C1, C0] → shuffle to [B, C1, N1·16, C0].
T<4> FractalNz(Index batch, Index n, Index k, Index c0) {
  T<3> nd(batch, n, k);
  std::iota(nd.data(), nd.data() + nd.size(), int64_t{1});
  Eigen::array<std::pair<Index, Index>, 3> pad{{{0, 0}, {0, Up(n, kN0) - n}, {0, Up(k, c0) - k}}};
  return nd.pad(pad)
      .reshape(Eigen::array<Index, 4>{batch, Up(n, kN0), Up(k, c0) / c0, c0})
      .shuffle(Eigen::array<Index, 4>{0, 2, 1, 3});
}

template <typename Tensor>
std::vector<int64_t> Flat(const Tensor& t) {
  return std::vector<int64_t>(t.data(), t.data() + t.size());
}

// FRACTAL_Z_C04's blocks of 4 channels: 1 for C <= 4 (C = 0 too: GE pads C to 4),
// ceil(C/4) for C > 4 (MS NCHW_TO_FRAC_ZC04, the reading accepted of D8).
Index BlocksOf4(Index c) { return std::max<Index>(1, Up(c, 4) / 4); }

// The group factor e as TSU writes it (spec layouts.md §A.0 item 1): the lcm of
// the two enlargements, then the min with groups, in every vendor component
// read. cann.md §2.7's three-way min is implemented by none (§A.12 D3).
Index GroupFactor(Index cin, Index cout, Index c0, Index groups) {
  const Index a = c0 / std::gcd(cin, c0), b = kN0 / std::gcd(cout, kN0);
  return std::min(std::lcm(a, b), groups);
}

}  // namespace

// ND <-> FRACTAL_NZ(_C0_16/_C0_32) (§A.8): its own checks, in the same order.
TransDataExpect ExpectNz(const Facts& f, const TransDataCall& call) {
  TransDataExpect x;
  x.pack = call.src_format == "ND";
  const std::string nz = x.pack ? call.dst_format : call.src_format;
  const Shape& s = call.shape;
  __int128 items = 1;
  for (int64_t d : s)
    items = std::min<__int128>(items * std::max<int64_t>(d, 0), __int128{1} << 41);
  const std::string dtype(Name(call.dtype));
  const int64_t c0 = nz == "FRACTAL_NZ_C0_16"   ? 16
                     : nz == "FRACTAL_NZ_C0_32" ? 32
                     : call.c0                  ? *call.c0
                     : f.nz_c0.count(dtype)     ? f.nz_c0.at(dtype)
                                                : 0;
  const std::vector<std::pair<const char*, std::pair<int64_t, bool>>> checks = {
      {"the shape has rank >= 1", {kShape, s.empty()}},
      {"no dim is negative",
       {kShape, std::any_of(s.begin(), s.end(), [](int64_t d) { return d < 0; })}},
      {"at most 2^40 elements", {kShape, items > (__int128{1} << 40)}},
      {"the dtype has a byte size and a C0", {kDtype, Bits(call.dtype) % 8 != 0 || c0 <= 0}},
      {"no groups on FRACTAL_NZ", {kShape, call.groups > 1 || call.groups < 0}},
  };
  for (const auto& [rule, check] : checks) {
    if (check.second) {
      x.status = check.first;
      x.rule = rule;
      return x;
    }
  }
  x.c0 = c0;
  x.elem_bytes = Bits(call.dtype) / 8;
  Index batch = 1, n = 1, k = 1;
  if (s.size() == 1) {
    (f.nz_1d == "column" ? n : k) = s[0];
  } else {
    n = s[s.size() - 2];
    k = s.back();
    for (size_t i = 0; i + 2 < s.size(); ++i) batch *= s[i];
  }
  x.storage.assign(s.begin(), s.size() >= 2 ? s.end() - 2 : s.begin());
  x.storage.insert(x.storage.end(), {Up(k, c0) / c0, Up(n, kN0) / kN0, kN0, c0});
  int64_t storage_elems = 1;
  for (int64_t d : x.storage) storage_elems *= d;
  x.src_elems = x.pack ? static_cast<int64_t>(items) : storage_elems;
  x.dst_elems = x.pack ? storage_elems : static_cast<int64_t>(items);
  x.dst_dims = x.pack ? x.storage : s;
  x.groups = 1;
  x.cout = 1;  // every element is read (no output channels past g·cout)
  x.nz_batch = batch;
  x.nz_rows = n;
  x.nz_cols = k;
  return x;
}

TransDataExpect ExpectTransData(const nlohmann::json& raw, const TransDataCall& call) {
  const Facts f = FactsOf(raw);
  if ((call.src_format == "ND" && IsNzFormat(call.dst_format)) ||
      (call.dst_format == "ND" && IsNzFormat(call.src_format))) {
    return ExpectNz(f, call);
  }
  TransDataExpect x;
  const bool src_plain = IsPlainFormat(call.src_format);
  const std::string plain = src_plain ? call.src_format : call.dst_format;
  const std::string blocked = src_plain ? call.dst_format : call.src_format;
  x.pack = src_plain;
  const Shape& s = call.shape;
  const bool three_d = NcdhwAxesOf(plain).has_value();
  const size_t rank = three_d ? 5 : 4;
  // The logical (N, C, D, H, W); D = 1 for the 4-D formats.
  std::array<Index, 5> ncdhw{0, 0, 1, 0, 0};
  if (s.size() == rank && three_d) {
    for (int i = 0; i < 5; ++i) ncdhw[i] = s[(*NcdhwAxesOf(plain))[i]];
  } else if (s.size() == rank && NchwAxesOf(plain)) {
    for (int i : {0, 1, 3, 4}) ncdhw[i] = s[(*NchwAxesOf(plain))[i < 2 ? i : i - 1]];
  }
  const Index n = ncdhw[0], c = ncdhw[1];
  __int128 items = 1;
  // Saturating at 2^41: past 2^40 is a rejection anyway.
  for (int64_t d : s)
    items = std::min<__int128>(items * std::max<int64_t>(d, 0), __int128{1} << 41);
  // NC1HWC0_C04 (§A.2): C0 4 for every dtype; otherwise the format word's or the table's.
  const std::string dtype_name(Name(call.dtype));
  // FRACTAL_Z_C04 (§A.5, D7) takes no C0 from the caller (GE's fz_c04 ignores the
  // format word's C0 bits): the dtype's cube, or 16 for every dtype (MS) under fixed_16.
  const bool c04 = blocked == "FRACTAL_Z_C04";
  const std::optional<int64_t> supplied = c04 ? std::nullopt : call.c0;
  int64_t c0 = supplied.value_or(f.c0.count(dtype_name) ? f.c0.at(dtype_name) : 0);
  if (blocked == "NC1HWC0_C04" && c0 > 0) c0 = 4;
  if (c04 && c0 > 0 && f.fz_c04_c0 == "fixed_16") c0 = 16;
  const int64_t g = std::max<int64_t>(call.groups, 1);
  // The checks in GE's order (§A.1 steps 1–2, §A.3, §A.4), the first that fails decides.
  struct Check {
    const char* rule;
    int64_t status;
    std::function<bool()> fails;
  };
  const std::vector<Check> checks = {
      {"the (src, dst) pair is registered (§A.1 step 1)", kFormat,
       [&] { return !IsRegisteredPair(plain, blocked); }},
      {three_d ? "the shape has rank 5 (§A.6)" : "the shape has rank 4 (§A.1 step 2)", kShape,
       [&] { return s.size() != rank; }},
      {"no dim is negative (§A.1 step 2)", kShape,
       [&] { return std::any_of(s.begin(), s.end(), [](int64_t d) { return d < 0; }); }},
      {"at most 2^40 elements (§A.1 step 2, kShapeItemNumMAX)", kShape,
       [&] { return items > (__int128{1} << 40); }},
      {"the dtype has a byte size and a C0 (§A.1 step 2)", kDtype,
       [&] { return Bits(call.dtype) % 8 != 0 || c0 <= 0; }},
      {"groups >= 0 (§A.0.1 sub-format)", kShape, [&] { return call.groups < 0; }},
      {"groups > 1 only with FRACTAL_Z and FRACTAL_Z_3D (§A.4; FRACTAL_Z_C04 §A.5)", kShape,
       [&] { return g > 1 && blocked != "FRACTAL_Z" && blocked != "FRACTAL_Z_3D"; }},
      {"a grouped Cin is not 0 (§A.3 CheckDimOri)", kShape, [&] { return g > 1 && c == 0; }},
      {"N >= groups (§A.4 hazard 3, choice cann.trans_data.groups_exceed_n)", kShape,
       [&] { return g > 1 && n < g && f.groups_exceed_n == "rejected"; }},
      {"FRACTAL_Z_C04 has C <= 4 (§A.5, choice cann.trans_data.fz_c04_c_over_4)", kShape,
       [&] { return blocked == "FRACTAL_Z_C04" && c > 4 && f.fz_c04_c_over_4 == "rejected"; }},
  };
  for (const Check& check : checks) {
    if (check.fails()) {
      x.status = check.status;
      x.rule = check.rule;
      return x;
    }
  }
  x.c0 = c0;
  x.elem_bytes = Bits(call.dtype) / 8;
  x.groups = n < g ? 1 : g;
  x.cout = n / x.groups;
  const Index depth = ncdhw[2], h = ncdhw[3], w = ncdhw[4];
  if (blocked == "NC1HWC0" || blocked == "NC1HWC0_C04") {
    x.storage = {n, Up(c, c0) / c0, h, w, c0};
  } else if (blocked == "NDC1HWC0") {
    x.storage = {n, depth, Up(c, c0) / c0, h, w, c0};
  } else if (blocked == "FRACTAL_Z_C04") {
    x.storage = {Up(4 * BlocksOf4(c) * h * w, c0) / c0, Up(n, kN0) / kN0, kN0, c0};
  } else if (x.groups == 1) {
    x.storage = {Up(c, c0) / c0 * depth * h * w, Up(n, kN0) / kN0, kN0, c0};
  } else {
    const Index e = GroupFactor(c, x.cout, c0, x.groups);
    x.storage = {(x.groups + e - 1) / e * depth * (Up(e * c, c0) / c0) * h * w,
                 Up(e * x.cout, kN0) / kN0, kN0, c0};
  }
  int64_t storage_elems = 1;
  for (int64_t d : x.storage) storage_elems *= d;
  const int64_t plain_elems = static_cast<int64_t>(items);
  x.src_elems = x.pack ? plain_elems : storage_elems;
  x.dst_elems = x.pack ? storage_elems : plain_elems;
  x.dst_dims = x.pack ? x.storage : s;
  return x;
}

std::vector<int64_t> UngroupedFractalZ(const Shape& nchw, int64_t c0) {
  if (nchw.size() == 5) return Flat(FractalZ3d(NcdhwIndex(nchw, {0, 1, 2, 3, 4}), c0));
  return Flat(FractalZ(NchwIndex(nchw, {0, 1, 2, 3}), c0));
}

std::vector<int64_t> DstSources(const nlohmann::json& raw, const TransDataCall& call) {
  const TransDataExpect x = ExpectTransData(raw, call);
  if (x.status != kOk) return {};
  const std::string plain = x.pack ? call.src_format : call.dst_format;
  const std::string blocked = x.pack ? call.dst_format : call.src_format;
  // Storage position → 1 + plain index (0: padding).
  std::vector<int64_t> storage;
  if (x.src_elems == 0 || x.dst_elems == 0) {
    storage.assign(static_cast<size_t>(x.pack ? x.dst_elems : x.src_elems), 0);
  } else {
    if (plain == "ND") {
      storage = Flat(T<4>(FractalNz(x.nz_batch, x.nz_rows, x.nz_cols, x.c0)));
    } else if (NcdhwAxesOf(plain)) {
      const T<5> ncdhw = NcdhwIndex(call.shape, *NcdhwAxesOf(plain));
      if (blocked == "NDC1HWC0") {
        storage = Flat(T<6>(Ndc1hwc0(ncdhw, x.c0)));
      } else if (x.groups == 1) {
        storage = Flat(T<6>(FractalZ3d(ncdhw, x.c0)));
      } else {
        const Index e = GroupFactor(ncdhw.dimension(1), x.cout, x.c0, x.groups);
        storage = Flat(T<6>(GroupedFractalZ3d(ncdhw, x.groups, e, x.c0)));
      }
    } else {
      const T<4> nchw = NchwIndex(call.shape, *NchwAxesOf(plain));
      if (blocked == "FRACTAL_Z_C04") {
        storage = Flat(T<3>(FractalZC04(nchw, x.c0, BlocksOf4(nchw.dimension(1)))));
      } else if (blocked == "NC1HWC0" || blocked == "NC1HWC0_C04") {
        storage = Flat(T<5>(Nc1hwc0(nchw, x.c0)));
      } else if (x.groups == 1) {
        storage = Flat(T<5>(FractalZ(nchw, x.c0)));
      } else {
        // Grouped FRACTAL_Z is grouped FRACTAL_Z_3D's algebra at D = 1 (§A.4 states
        // both as one map): [N, C, 1, H, W], the same storage order.
        const Facts f = FactsOf(raw);
        const Index e = GroupFactor(nchw.dimension(1), x.cout, x.c0, x.groups);
        const T<5> one_deep = nchw.reshape(Eigen::array<Index, 5>{
            nchw.dimension(0), nchw.dimension(1), 1, nchw.dimension(2), nchw.dimension(3)});
        storage = Flat(T<6>(GroupedFractalZ3d(one_deep, x.groups, e, x.c0)));
      }
    }
  }
  if (x.pack) return storage;
  // Unpack: invert the map (a plain element no storage slot holds reads 0).
  std::vector<int64_t> plain_from(static_cast<size_t>(x.dst_elems), 0);
  for (size_t slot = 0; slot < storage.size(); ++slot) {
    if (storage[slot] > 0)
      plain_from[static_cast<size_t>(storage[slot] - 1)] = static_cast<int64_t>(slot) + 1;
  }
  return plain_from;
}

std::vector<uint8_t> TransData(const nlohmann::json& raw, const TransDataCall& call,
                               const std::vector<uint8_t>& src) {
  const TransDataExpect x = ExpectTransData(raw, call);
  const std::vector<int64_t> from = DstSources(raw, call);
  std::vector<uint8_t> dst(static_cast<size_t>(x.dst_elems * x.elem_bytes), 0);
  const size_t b = static_cast<size_t>(x.elem_bytes);
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] > 0) std::memcpy(&dst[i * b], &src[static_cast<size_t>(from[i] - 1) * b], b);
  }
  return dst;
}

}  // namespace npuconf::oracle::cann_transdata
