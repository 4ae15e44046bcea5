// TSU's TransferShape, step by step (spec layouts.md §A.0.2). Every rule cites
// the TSU function it restates; nothing here is shared with oracles/.
#include "reference/cann_transfer_shape/transfer_shape.h"

#include <array>
#include <limits>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>

#include "core/routines/cann_transfer_shape.h"

namespace npuconf::cann_transfer_shape {
namespace {

using routines::cann_transfer_shape::kFalse;
using routines::cann_transfer_shape::kNotModelled;
using routines::cann_transfer_shape::kTrue;

constexpr int64_t kUnknownDim = -1;   // TSU UNKNOWN_SHAPE_VALUE
constexpr int64_t kUnknownRank = -2;  // TSU-UT line 598: {-2} stays {-2}
constexpr int64_t kLstmGates = 4;     // TSU LSTM_NI

// Where N, C, H, W, D sit in an origin format (TSU kFormatIndexMap), and the
// rank its axis read needs (4-D formats 4, 5-D formats 5; §A.0.2 step 5).
struct AxisMap {
  std::array<size_t, 5> index;  // N, C, H, W, D
  size_t need;
};
const std::map<std::string, AxisMap>& AxisMaps() {
  static const std::map<std::string, AxisMap> maps = {
      {"NCHW", {{0, 1, 2, 3, 4}, 4}},  {"NHWC", {{0, 3, 1, 2, 4}, 4}},
      {"HWCN", {{3, 2, 0, 1, 4}, 4}},  {"CHWN", {{3, 0, 1, 2, 4}, 4}},
      {"ND", {{0, 1, 2, 3, 4}, 4}},    {"NCDHW", {{0, 1, 3, 4, 2}, 5}},
      {"NDHWC", {{0, 4, 2, 3, 1}, 5}}, {"DHWCN", {{4, 3, 1, 2, 0}, 5}},
      {"DHWNC", {{3, 4, 1, 2, 0}, 5}}};
  return maps;
}

bool IsOriginFormat(const std::string& f) { return AxisMaps().count(f) > 0; }  // kOriginFormatVec

bool IsNz(const std::string& f) { return f.rfind("FRACTAL_NZ", 0) == 0; }  // kFormatNZSet

bool IsFiveDPlain(const std::string& f) {
  return f == "NCDHW" || f == "NDHWC" || f == "DHWCN" || f == "DHWNC";
}

// TSU DivisionCeiling as the UT pins it on unknown dims: -1 stays -1.
int64_t CeilDiv(int64_t x, int64_t d) { return x == kUnknownDim ? kUnknownDim : (x + d - 1) / d; }

// A product TSU takes through MUL_OVERFLOW; nullopt past int64.
std::optional<int64_t> Mul(int64_t a, int64_t b) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// C0 (TSU GetC0Value): the fixed-C0 formats first, then the dtype's K0.
int64_t C0Of(const TransferShapeFacts& facts, const std::string& format, const std::string& dtype) {
  if (format == "FRACTAL_NZ_C0_2") return 2;
  if (format == "NC1HWC0_C04" || format == "FRACTAL_NZ_C0_4") return 4;
  if (format == "FRACTAL_NZ_C0_8") return 8;
  if (format == "FRACTAL_NZ_C0_16") return 16;
  if (format == "FRACTAL_NZ_C0_32") return 32;
  auto it = facts.k0.find(dtype);
  return it == facts.k0.end() ? facts.k0_default : it->second;
}

// FRACTAL_NZ (TSU GetFractalNzShape): batch dims kept, the last axis split by
// C0, the second-last by M0; a 1-D [k] is the column [k, 1].
Shape NzShape(const Shape& s, int64_t c0, int64_t m0) {
  Shape out;
  if (s.size() == 1) return {1, CeilDiv(s[0], m0), m0, c0};
  out.assign(s.begin(), s.end() - 2);
  out.push_back(CeilDiv(s[s.size() - 1], c0));
  out.push_back(CeilDiv(s[s.size() - 2], m0));
  out.push_back(m0);
  out.push_back(c0);
  return out;
}

// FRACTAL_Z / FRACTAL_Z_3D (TSU GetFractalZShape / GetFractalZ3DShape, §A.4):
// the first axis G'·C1'·(D)·H·W, -1 when C, (D,) H or W is unknown; N < groups
// or an unknown N is ungrouped.
int64_t FractalZ(const TransferShapeFacts& facts, int64_t n, int64_t c, int64_t h, int64_t w,
                 int64_t d, bool has_d, int64_t c0, int64_t groups, Shape* out) {
  int64_t first = kUnknownDim;
  const bool unknown =
      c == kUnknownDim || h == kUnknownDim || w == kUnknownDim || (has_d && d == kUnknownDim);
  if (!unknown) {
    int64_t g_blocks = 1, c1 = 0;
    if (groups > 1 && n >= groups) {
      n /= groups;
      if (c == 0) return kNotModelled;  // GetAsisEnlargeValue 0, then a division by it
      const int64_t e = std::min<int64_t>(
          std::lcm(c0 / std::gcd(c, c0), facts.n0 / std::gcd(n, facts.n0)), groups);
      g_blocks = CeilDiv(groups, e);
      auto ce = Mul(c, e), ne = Mul(n, e);
      if (!ce || !ne) return kNotModelled;
      c = *ce;
      n = *ne;
    }
    c1 = CeilDiv(c, c0);
    std::optional<int64_t> p = Mul(g_blocks, c1);
    if (p && has_d) p = Mul(*p, d);
    if (p) p = Mul(*p, h);
    if (p) p = Mul(*p, w);
    if (!p) return kNotModelled;
    first = *p;
  }
  *out = {first, CeilDiv(n, facts.n0), facts.n0, c0};
  return kTrue;
}

}  // namespace

TransferShapeFacts ReadTransferShapeFacts(const nlohmann::json& raw) {
  if (!raw.contains("transfer_shape")) throw std::runtime_error("no transfer_shape section");
  const auto& section = raw.at("transfer_shape");
  TransferShapeFacts f;
  auto table = [](const nlohmann::json& value, std::map<std::string, int64_t>* into,
                  int64_t* fallback) {
    for (const auto& [name, v] : value.items()) {
      if (!v.is_number_integer() || v.get<int64_t>() < 1)
        throw std::runtime_error("transfer_shape: bad entry " + name);
      if (name == "default") {
        *fallback = v.get<int64_t>();
      } else {
        (*into)[name] = v.get<int64_t>();
      }
    }
  };
  table(section.at("k0").at("value"), &f.k0, &f.k0_default);
  table(section.at("m0").at("value"), &f.m0, &f.m0_default);
  f.n0 = section.at("n0").at("value").get<int64_t>();
  return f;
}

int64_t TransferShape(const TransferShapeFacts& facts, const TransferShapeArgs& a, Shape* out) {
  const Shape& s = a.shape;
  // 1. ND to an origin format, a scalar, an unknown rank: unchanged, true
  //    (TSU IsNeedTransferShape; TSU-UT lines 177, 179, 598).
  if ((a.origin_format == "ND" && IsOriginFormat(a.format)) || s.empty() ||
      (s.size() == 1 && s[0] == kUnknownRank)) {
    *out = s;
    return kTrue;
  }
  // 2. The bounds of ge::Format and ge::DataType (TSU CheckInputParam).
  if (a.origin_format == "RESERVED" || a.origin_format == "END" || a.format == "RESERVED" ||
      a.format == "END" || a.dtype == "UNDEFINED" || a.dtype == "MAX") {
    return kFalse;
  }
  // Outside the snapshot: DivisionCeiling of a dim below -1, ranks past the output's room.
  for (int64_t d : s) {
    if (d < kUnknownDim) return kNotModelled;
  }
  if (s.size() > static_cast<size_t>(routines::cann_transfer_shape::kMaxRank)) return kNotModelled;
  // 3. groups = sub-format; C0 (§A.0.1); M0 from [DtypeMKN] unless the case sets it.
  const int64_t groups = a.groups;
  const int64_t c0 = C0Of(facts, a.format, a.dtype);
  int64_t m0 = a.m0;
  if (m0 <= 0) {
    auto it = facts.m0.find(a.dtype);
    m0 = it == facts.m0.end() ? facts.m0_default : it->second;
  }
  // 4a. The shape as given (TSU IsNeedAxisValue false: the NZ family, FRACTAL_Z of a 2-D origin).
  if (IsNz(a.format)) {
    *out = NzShape(s, c0, m0);
    return kTrue;
  }
  if (a.format == "FRACTAL_Z" && s.size() == 2) {  // TSU GetFractalZShape(c0, ...)
    *out = {CeilDiv(s[0], c0), CeilDiv(s[1], facts.n0), facts.n0, c0};
    return kTrue;
  }
  // 4b. N, C, H, W, D through the origin's axis map; an origin without one, or
  //     a rank below its need (5), leaves the shape as it is.
  auto map = AxisMaps().find(a.origin_format);
  if (map == AxisMaps().end() || s.size() < map->second.need) {
    *out = s;
    return kTrue;
  }
  const auto& ix = map->second.index;
  const bool four_d = s.size() == 4;
  const int64_t n = s[ix[0]], c = s[ix[1]], h = s[ix[2]], w = s[ix[3]];
  // A 4-D origin's D: 1 for NDC1HWC0 (TSU GetNDC1HWC0Shape, TSU-UT line 577); the
  // other targets that read D are not pinned for a 4-D origin (§A.0.2).
  const int64_t d = four_d ? 1 : s[ix[4]];
  const std::string& f = a.format;
  if (four_d && (IsFiveDPlain(f) || f == "FRACTAL_Z_3D" || f == "FRACTAL_Z_3D_TRANSPOSE"))
    return kNotModelled;
  if (f == "NCHW")
    *out = {n, c, h, w};
  else if (f == "NHWC")
    *out = {n, h, w, c};
  else if (f == "HWCN")
    *out = {h, w, c, n};
  else if (f == "CHWN")
    *out = {c, h, w, n};
  else if (f == "NCDHW")
    *out = {n, c, d, h, w};
  else if (f == "NDHWC")
    *out = {n, d, h, w, c};
  else if (f == "DHWCN")
    *out = {d, h, w, c, n};
  else if (f == "DHWNC")
    *out = {d, h, w, n, c};
  else if (f == "NC1HWC0" || f == "NC1HWC0_C04")
    *out = {n, CeilDiv(c, c0), h, w, c0};
  else if (f == "C1HWC0")
    *out = {CeilDiv(n, c0), h, w, c0};
  else if (f == "NDC1HWC0")
    *out = {n, d, CeilDiv(c, c0), h, w, c0};
  else if (f == "C1HWNCoC0")
    *out = {CeilDiv(c, c0), h, w, CeilDiv(n, facts.n0), c0, c0};
  else if (f == "FRACTAL_Z")
    return FractalZ(facts, n, c, h, w, 1, false, c0, groups, out);
  else if (f == "FRACTAL_Z_3D")
    return FractalZ(facts, n, c, h, w, d, true, c0, groups, out);
  else if (f == "FRACTAL_Z_C04") {  // TSU GetFractalZC04Shape: C is not read
    int64_t first = kUnknownDim;
    if (h != kUnknownDim && w != kUnknownDim) {
      auto p = Mul(4, h);
      if (p) p = Mul(*p, w);
      if (!p) return kNotModelled;
      first = CeilDiv(*p, c0);
    }
    *out = {first, CeilDiv(n, facts.n0), facts.n0, c0};
  } else if (f == "FRACTAL_Z_3D_TRANSPOSE") {  // TSU GetFractalZ3DTransposeShape
    int64_t first = kUnknownDim;
    if (n != kUnknownDim && h != kUnknownDim && w != kUnknownDim && d != kUnknownDim) {
      auto p = Mul(CeilDiv(n, facts.n0), d);
      if (p) p = Mul(*p, h);
      if (p) p = Mul(*p, w);
      if (!p) return kNotModelled;
      first = *p;
    }
    *out = {first, CeilDiv(c, c0), facts.n0, c0};
  } else if (f ==
             "FRACTAL_ZN_LSTM") {  // TSU GetFractalZLstmShape: N = 4·hidden, C = input + hidden
    if (n == kUnknownDim || c == kUnknownDim) {
      *out = {kUnknownDim, kUnknownDim, facts.n0, facts.n0};
    } else {
      const int64_t hidden = n / kLstmGates, input = c - hidden;
      if (input < 0) return kNotModelled;  // DivisionCeiling of a negative count
      *out = {CeilDiv(input, facts.n0) + CeilDiv(hidden, facts.n0),
              CeilDiv(hidden, facts.n0) * kLstmGates, facts.n0, facts.n0};
    }
  } else {
    *out = s;  // ND and any format TSU has no rule for: unchanged, true
  }
  return kTrue;
}

}  // namespace npuconf::cann_transfer_shape
