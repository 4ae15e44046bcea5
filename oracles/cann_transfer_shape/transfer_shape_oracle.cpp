// Each target format is data: a row of terms, each term a product of
// ceil(axis / divisor) factors, optionally split again by an outer divisor. An
// unknown (-1) axis in a term makes the term -1. The origin's axes come from the
// letters of its name (ND reads as NCHW). Products are taken in __int128.
#include "oracles/cann_transfer_shape/transfer_shape_oracle.h"

#include <array>
#include <map>
#include <numeric>
#include <vector>

#include "core/routines/cann_transfer_shape.h"

namespace npuconf::oracle::cann_transfer_shape {
namespace {

namespace ids = routines::cann_transfer_shape;

enum Sym { kN, kC, kH, kW, kD, kG, kC0, kN0, kM0, kFour, kOne, kSymCount };

struct Factor {
  Sym axis;
  Sym div = kOne;
};
struct Term {
  std::vector<Factor> factors;
  Sym outer = kOne;  // ceil(product / outer)
};
using Row = std::vector<Term>;

Term A(Sym s) { return {{{s}}}; }
Term Split(Sym s, Sym by) { return {{{s, by}}}; }

// spec layouts.md §A.0.2 table; TSU Get*Shape for the formats the table leaves out.
const std::map<std::string, Row>& Rows() {
  static const std::map<std::string, Row> rows = {
      {"NC1HWC0", {A(kN), Split(kC, kC0), A(kH), A(kW), A(kC0)}},
      {"NC1HWC0_C04", {A(kN), Split(kC, kC0), A(kH), A(kW), A(kC0)}},
      {"C1HWC0", {Split(kN, kC0), A(kH), A(kW), A(kC0)}},
      {"NDC1HWC0", {A(kN), A(kD), Split(kC, kC0), A(kH), A(kW), A(kC0)}},
      {"C1HWNCoC0", {Split(kC, kC0), A(kH), A(kW), Split(kN, kN0), A(kC0), A(kC0)}},
      {"FRACTAL_Z", {{{{kG}, {kC, kC0}, {kH}, {kW}}}, Split(kN, kN0), A(kN0), A(kC0)}},
      {"FRACTAL_Z_3D", {{{{kG}, {kC, kC0}, {kD}, {kH}, {kW}}}, Split(kN, kN0), A(kN0), A(kC0)}},
      {"FRACTAL_Z_C04", {{{{kFour}, {kH}, {kW}}, kC0}, Split(kN, kN0), A(kN0), A(kC0)}},
      {"FRACTAL_Z_3D_TRANSPOSE", {{{{kN, kN0}, {kD}, {kH}, {kW}}}, Split(kC, kC0), A(kN0), A(kC0)}},
  };
  return rows;
}

const char* const kPlainLetters[] = {"NCHW",  "NHWC",  "HWCN",  "CHWN",
                                     "NCDHW", "NDHWC", "DHWCN", "DHWNC"};
bool IsPlainLetters(const std::string& f) {
  for (const char* p : kPlainLetters) {
    if (f == p) return true;
  }
  return false;
}
std::string LettersOf(const std::string& origin) { return origin == "ND" ? "NCHW" : origin; }

Sym SymOfLetter(char l) {
  switch (l) {
    case 'N':
      return kN;
    case 'C':
      return kC;
    case 'H':
      return kH;
    case 'W':
      return kW;
    default:
      return kD;
  }
}

int64_t Fact(const nlohmann::json& raw, const char* name, const std::string& dtype) {
  const auto& table = raw.at("transfer_shape").at(name).at("value");
  return table.contains(dtype) ? table.at(dtype).get<int64_t>()
                               : table.at("default").get<int64_t>();
}

int64_t Up(__int128 x, __int128 d) { return static_cast<int64_t>((x + d - 1) / d); }

TransferShapeAnswer Done(Shape s, std::string rule) {
  return {ids::kTrue, std::move(s), std::move(rule)};
}
TransferShapeAnswer Status(int64_t status, std::string rule) {
  return {status, {}, std::move(rule)};
}

}  // namespace

int64_t C0OfQuery(const nlohmann::json& raw, const TransferShapeQuery& q) {
  const std::string& f = q.dst_format;
  if (f == "NC1HWC0_C04") return 4;
  const std::string tag = "_C0_";
  if (auto at = f.rfind(tag); at != std::string::npos && f.rfind("FRACTAL_NZ", 0) == 0)
    return std::stoll(f.substr(at + tag.size()));
  return Fact(raw, "k0", q.dtype);
}

TransferShapeAnswer ExpectTransferShape(const nlohmann::json& raw, const TransferShapeQuery& q) {
  const Shape& s = q.shape;
  const std::string &from = q.src_format, &to = q.dst_format;
  const bool to_origin_kind = IsPlainLetters(to) || to == "ND";
  if (s.empty()) return Done(s, "§A.0.2 step 1: a scalar is left as it is");
  if (s == Shape{-2}) return Done(s, "TSU-UT line 598: an unknown rank [-2] is left as it is");
  if (from == "ND" && to_origin_kind)
    return Done(s, "§A.0.2 step 1: ND to an origin format is the identity");
  for (const std::string& f : {from, to}) {
    if (f == "RESERVED" || f == "END") return Status(ids::kFalse, "§A.0.2 step 2: format " + f);
  }
  if (q.dtype == "UNDEFINED" || q.dtype == "MAX")
    return Status(ids::kFalse, "§A.0.2 step 2: dtype " + q.dtype);
  for (int64_t d : s) {
    if (d < -1) return Status(ids::kNotModelled, "a dim below -1 (TSU DivisionCeiling unread)");
  }
  if (static_cast<int64_t>(s.size()) > ids::kMaxRank)
    return Status(ids::kNotModelled, "rank above the routine's 8");

  std::array<__int128, kSymCount> v{};
  v.fill(1);
  v[kC0] = C0OfQuery(raw, q);
  v[kN0] = raw.at("transfer_shape").at("n0").at("value").get<int64_t>();
  v[kM0] = q.m0 > 0 ? q.m0 : Fact(raw, "m0", q.dtype);
  v[kFour] = 4;

  // The shape as given: NZ is [..., m, k] -> [..., k/C0, m/M0, M0, C0] with [k]
  // read as the column [k, 1]; a 2-D FRACTAL_Z is NZ's roles transposed.
  if (to.rfind("FRACTAL_NZ", 0) == 0) {
    Shape nd = s.size() == 1 ? Shape{s[0], 1} : s;
    const int64_t m = nd[nd.size() - 2], k = nd[nd.size() - 1];
    Shape out(nd.begin(), nd.end() - 2);
    out.push_back(k < 0 ? -1 : Up(k, v[kC0]));
    out.push_back(m < 0 ? -1 : Up(m, v[kM0]));
    out.push_back(static_cast<int64_t>(v[kM0]));
    out.push_back(static_cast<int64_t>(v[kC0]));
    return Done(out, "§A.0.2 FRACTAL_NZ row (TSU GetFractalNzShape)");
  }
  if (to == "FRACTAL_Z" && s.size() == 2) {
    return Done({s[0] < 0 ? -1 : Up(s[0], v[kC0]), s[1] < 0 ? -1 : Up(s[1], v[kN0]),
                 static_cast<int64_t>(v[kN0]), static_cast<int64_t>(v[kC0])},
                "§A.0.2 FRACTAL_Z 2-D row: the first axis split by C0");
  }
  if (!IsPlainLetters(from) && from != "ND")
    return Done(s, "§A.0.2 step 4: an origin without an axis map is left as it is");
  const std::string letters = LettersOf(from);
  if (s.size() < letters.size())
    return Done(s, "§A.0.2 step 5: a rank below the origin's " + std::to_string(letters.size()));
  for (size_t i = 0; i < letters.size(); ++i) v[SymOfLetter(letters[i])] = s[i];
  const bool d_read = letters.find('D') != std::string::npos || s.size() > 4;
  if (letters.find('D') == std::string::npos && s.size() > 4)
    v[kD] = s[4];  // kFormatIndexMap D = 4
  const bool reads_d = (IsPlainLetters(to) && to.find('D') != std::string::npos) ||
                       to == "FRACTAL_Z_3D" || to == "FRACTAL_Z_3D_TRANSPOSE";
  if (reads_d && !d_read)
    return Status(ids::kNotModelled, "a 4-D origin read as 5-D by " + to + " (not pinned)");

  if (IsPlainLetters(to)) {
    Shape out;
    for (char l : to) out.push_back(static_cast<int64_t>(v[SymOfLetter(l)]));
    return Done(out, "§A.0.2 origin-format permutation (TSU Get" + to + "Shape)");
  }
  if (to == "FRACTAL_ZN_LSTM") {
    if (v[kN] < 0 || v[kC] < 0)
      return Done({-1, -1, static_cast<int64_t>(v[kN0]), static_cast<int64_t>(v[kN0])},
                  "TSU GetFractalZLstmShape, unknown N or C");
    const __int128 hidden = v[kN] / 4, input = v[kC] - hidden;
    if (input < 0) return Status(ids::kNotModelled, "FRACTAL_ZN_LSTM with C < N / 4");
    return Done({Up(input, v[kN0]) + Up(hidden, v[kN0]), Up(hidden, v[kN0]) * 4,
                 static_cast<int64_t>(v[kN0]), static_cast<int64_t>(v[kN0])},
                "TSU GetFractalZLstmShape: N = 4 hidden, C = input + hidden");
  }
  auto row = Rows().find(to);
  if (row == Rows().end()) return Done(s, "§A.0.2: no rule for " + to + ", left as it is");

  // §A.4 grouping, as the spec writes it, for FRACTAL_Z(_3D) with every axis of
  // the first term known and N >= g: C -> e·Cin, N -> e·cout, G -> ceil(g / e).
  const bool fz = to == "FRACTAL_Z" || to == "FRACTAL_Z_3D";
  const bool first_known =
      v[kC] >= 0 && v[kH] >= 0 && v[kW] >= 0 && (to == "FRACTAL_Z" || v[kD] >= 0);
  if (fz && q.groups > 1 && first_known && v[kN] >= q.groups) {
    const int64_t cin = static_cast<int64_t>(v[kC]), cout = static_cast<int64_t>(v[kN]) / q.groups;
    if (cin == 0) return Status(ids::kNotModelled, "grouped FRACTAL_Z with Cin 0");
    const int64_t c0 = static_cast<int64_t>(v[kC0]), n0 = static_cast<int64_t>(v[kN0]);
    const int64_t e =
        std::min<int64_t>(std::lcm(std::lcm(cin, c0) / cin, std::lcm(cout, n0) / cout), q.groups);
    v[kC] = static_cast<__int128>(e) * cin;
    v[kN] = static_cast<__int128>(e) * cout;
    v[kG] = Up(q.groups, e);
  }
  Shape out;
  for (const Term& t : row->second) {
    bool unknown = false;
    for (const Factor& f : t.factors) unknown = unknown || v[f.axis] < 0;
    if (unknown) {
      out.push_back(-1);
      continue;
    }
    __int128 p = 1;
    for (const Factor& f : t.factors) {
      p *= Up(v[f.axis], v[f.div]);
      if (p > INT64_MAX) return Status(ids::kNotModelled, "a storage dim past int64");
    }
    out.push_back(Up(p, v[t.outer]));
  }
  return Done(out, "§A.0.2 " + to + " row");
}

}  // namespace npuconf::oracle::cann_transfer_shape
