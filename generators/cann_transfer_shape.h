// RapidCheck generators of cann.transfer_shape cases (spec layouts.md §A.0.2):
// an origin format, a target it can take, a dtype, groups and M0, then a shape
// at the block edges (C mod C0 in {0, 1, C0-1}, N mod 16 likewise), all drawn
// inside the port's claims (PickIn), so every case shrinks toward a small one.
#pragma once

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/case.h"
#include "core/profile.h"
#include "core/routines/cann_transfer_shape.h"
#include "generators/shapes.h"

namespace npuconf::gen::cann_transfer_shape {

namespace ids = routines::cann_transfer_shape;

// What a property draws: any case (matches_oracle), every dim >= 1 with groups
// <= 1 (the -1 and trans_data laws derive their cases from it), or a rank below
// the origin's axis need (§A.0.2 step 5).
enum class Draw { kAny, kKnownDims, kBelowNeed };

inline const std::vector<std::string>& Origins() {
  static const std::vector<std::string> v = {"NCHW",  "NHWC",  "HWCN",  "CHWN", "ND",
                                             "NCDHW", "NDHWC", "DHWCN", "DHWNC"};
  return v;
}
inline size_t NeedOf(const std::string& origin) {
  return origin.find('D') != std::string::npos && origin != "ND" ? 5 : 4;
}

// The targets a case of `origin` is drawn with: a 4-D origin is not paired with
// the targets that read D beyond NDC1HWC0 (their 4-D answer is not pinned).
inline std::vector<std::string> TargetsOf(const std::string& origin, Draw draw) {
  std::vector<std::string> out;
  for (const char* f : ids::kFormats) {
    const std::string t = f;
    if (t == "RESERVED" || t == "END") continue;
    const bool reads_d = t == "NCDHW" || t == "NDHWC" || t == "DHWCN" || t == "DHWNC" ||
                         t == "FRACTAL_Z_3D" || t == "FRACTAL_Z_3D_TRANSPOSE";
    if (NeedOf(origin) == 4 && reads_d) continue;
    if (draw == Draw::kBelowNeed && (t.rfind("FRACTAL_NZ", 0) == 0 || t == "FRACTAL_Z")) continue;
    // FRACTAL_ZN_LSTM with C < N / 4 is outside the rules (kNotModelled): the
    // laws that need a true answer leave it to matches_oracle.
    if (draw != Draw::kAny && t == "FRACTAL_ZN_LSTM") continue;
    const bool plain =
        t == "ND" || std::find(Origins().begin(), Origins().end(), t) != Origins().end();
    if (origin == "ND" && plain) continue;  // the identity (step 1): the explicit cases have it
    out.push_back(t);
  }
  return out;
}

inline std::vector<std::string> ValidDTypes() {
  std::vector<std::string> out;
  for (const char* d : ids::kDTypes) {
    if (std::string(d) != "UNDEFINED" && std::string(d) != "MAX") out.push_back(d);
  }
  return out;
}

// The profile's K0 per dtype ("default" for the rest), read once per generator.
using K0Table = std::map<std::string, int64_t>;
inline K0Table K0Of(const Profile& profile) {
  K0Table out;
  for (const auto& [dtype, k0] : profile.raw.at("transfer_shape").at("k0").at("value").items())
    out[dtype] = k0.get<int64_t>();
  return out;
}

// C0 the target takes (§A.0.1), only to put dims at its edges.
inline int64_t EdgeC0(const K0Table& k0, const std::string& target, const std::string& dtype) {
  if (target == "NC1HWC0_C04") return 4;
  if (auto at = target.rfind("_C0_"); at != std::string::npos)
    return std::stoll(target.substr(at + 4));
  auto it = k0.find(dtype);
  return it != k0.end() ? it->second : k0.at("default");
}

// m·block + {1, block-1, block}, m small first.
inline rc::Gen<int64_t> BlockEdge(int64_t block) {
  const auto blocks = WeightedOneOf<int64_t>(
      {{3, rc::gen::inRange<int64_t>(0, 3)}, {1, rc::gen::inRange<int64_t>(3, 12)}});
  return rc::gen::mapcat(blocks, [block](int64_t m) {
    return rc::gen::map(Pick<int64_t>({1, block - 1, block}),
                        [block, m](int64_t r) { return std::max<int64_t>(1, m * block + r); });
  });
}

inline rc::Gen<int64_t> Plane() {
  return WeightedOneOf<int64_t>(
      {{3, rc::gen::inRange<int64_t>(1, 4)}, {1, rc::gen::inRange<int64_t>(4, 9)}});
}

// The dims of `letters` (an origin's axis names, ND read as NCHW) with C at the
// C0 edges and N at the 16 edges (grouped: N = g·cout + r).
inline rc::Gen<Shape> AxisShape(const std::string& letters, int64_t c0, int64_t groups) {
  auto n = groups > 1 ? rc::gen::map(rc::gen::pair(rc::gen::inRange<int64_t>(1, 6),
                                                   rc::gen::inRange<int64_t>(0, groups)),
                                     [groups](std::pair<int64_t, int64_t> p) {
                                       return groups * p.first + p.second;
                                     })
                      : BlockEdge(16);
  return rc::gen::map(rc::gen::tuple(n, BlockEdge(c0), Plane(), Plane(), Plane()),
                      [letters](const std::tuple<int64_t, int64_t, int64_t, int64_t, int64_t>& t) {
                        Shape s;
                        for (char l : letters) {
                          s.push_back(l == 'N'   ? std::get<0>(t)
                                      : l == 'C' ? std::get<1>(t)
                                      : l == 'H' ? std::get<2>(t)
                                      : l == 'W' ? std::get<3>(t)
                                                 : std::get<4>(t));
                        }
                        return s;
                      });
}

// NZ: rank 1-4, the last dim at the C0 edges, the second-last at the M0 edges.
inline rc::Gen<Shape> NzShape(int64_t c0, int64_t m0) {
  return rc::gen::mapcat(rc::gen::inRange<int>(1, 5), [c0, m0](int rank) {
    return rc::gen::map(rc::gen::tuple(rc::gen::container<Shape>(rank > 2 ? rank - 2 : 0, Plane()),
                                       BlockEdge(m0), BlockEdge(c0)),
                        [rank](const std::tuple<Shape, int64_t, int64_t>& t) {
                          Shape s = std::get<0>(t);
                          if (rank >= 2) s.push_back(std::get<1>(t));
                          s.push_back(std::get<2>(t));
                          return s;
                        });
  });
}

// One in four shapes gets a -1 at a drawn place (§A.0.2 step 5).
inline rc::Gen<Shape> MaybeUnknown(rc::Gen<Shape> shape) {
  return rc::gen::mapcat(std::move(shape), [](Shape s) {
    return rc::gen::map(rc::gen::inRange<size_t>(0, 4 * s.size()), [s](size_t at) {
      Shape out = s;
      if (at < out.size()) out[at] = -1;
      return out;
    });
  });
}

inline rc::Gen<Shape> ShapeFor(const K0Table& k0, const std::string& origin,
                               const std::string& target, const std::string& dtype, int64_t groups,
                               int64_t m0, Draw draw) {
  const int64_t c0 = EdgeC0(k0, target, dtype);
  if (draw == Draw::kBelowNeed) {
    return rc::gen::mapcat(rc::gen::inRange<size_t>(1, NeedOf(origin)),
                           [](size_t rank) { return rc::gen::container<Shape>(rank, Plane()); });
  }
  rc::Gen<Shape> known =
      target.rfind("FRACTAL_NZ", 0) == 0 ? NzShape(c0, m0)
      : target == "FRACTAL_Z" && groups <= 1 && draw == Draw::kAny
          ? WeightedOneOf<Shape>({{3, AxisShape(origin == "ND" ? "NCHW" : origin, c0, groups)},
                                  {1, rc::gen::container<Shape>(2, BlockEdge(c0))}})
          : AxisShape(origin == "ND" ? "NCHW" : origin, c0, groups);
  return draw == Draw::kAny ? MaybeUnknown(std::move(known)) : known;
}

inline rc::Gen<Case> TransferShapeCase(const Profile& profile, const CaseDomain& domain,
                                       Draw draw) {
  const std::string name = profile.name;
  const K0Table k0 = K0Of(profile);
  return rc::gen::mapcat(PickIn(domain, "src_format", Origins()), [=](std::string origin) {
    return rc::gen::mapcat(PickIn(domain, "dst_format", TargetsOf(origin, draw)), [=](std::string
                                                                                          target) {
      const bool fz = target == "FRACTAL_Z" || target == "FRACTAL_Z_3D";
      const std::vector<int64_t> groups = fz && draw == Draw::kAny
                                              ? std::vector<int64_t>{1, 0, 2, 3, 4, 16}
                                              : std::vector<int64_t>{1};
      auto head =
          rc::gen::tuple(PickIn(domain, "dtype", ValidDTypes()), PickIn(domain, "groups", groups),
                         PickIn(domain, "m0", std::vector<int64_t>{16, 1}));
      return rc::gen::mapcat(head, [=](const std::tuple<std::string, int64_t, int64_t>& h) {
        // Named copies, not a structured binding: clang 14 (the fuzz build) cannot
        // capture a structured binding in a lambda.
        const std::string dtype = std::get<0>(h);
        const int64_t g = std::get<1>(h), m0 = std::get<2>(h);
        return rc::gen::map(ShapeFor(k0, origin, target, dtype, g, m0, draw), [=](Shape s) {
          Case c(ids::kTransferShape, name);
          c.Set("src_format", origin).Set("dst_format", target).Set("dtype", dtype).Set("shape", s);
          if (g != 1) c.Set("groups", g);
          if (m0 != 16) c.Set("m0", m0);
          return c;
        });
      });
    });
  });
}

}  // namespace npuconf::gen::cann_transfer_shape
