// RapidCheck generators of the RKNN NC1HWC2 cases (spec layouts.md Part B): a
// dtype of the platform's C2 table first, then C drawn near its C2 (C mod C2 in
// {0, 1, C2 - 1}, and 1), H and W with 1 often, N small, so the native tensor
// stays under an element budget by construction. The C2 per dtype comes from the
// caller (the profile's facts); shrinking goes toward one full C2 block, H = W = 1.
#pragma once

#include <rapidcheck.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/case.h"
#include "core/dtype.h"
#include "generators/shapes.h"

namespace npuconf::gen::rknn_native {

// Random cases stay within these many native elements (the run's time); the
// real feature-map shapes cover the large ones.
inline constexpr int64_t kMaxNativeElems = int64_t{1} << 17;

// C at a C2 edge: m·C2 + {0, 1, -1} for m in 1..4, and 1 (a single lane).
inline rc::Gen<int64_t> ChannelsNear(int64_t c2) {
  return WeightedOneOf<int64_t>({
      {6, rc::gen::mapcat(rc::gen::inRange<int64_t>(1, 5),
                          [c2](int64_t m) {
                            return rc::gen::map(Pick<int64_t>({0, 1, -1}), [c2, m](int64_t off) {
                              return std::max<int64_t>(1, m * c2 + off);
                            });
                          })},
      {1, rc::gen::just<int64_t>(1)},
      {1, rc::gen::inRange<int64_t>(1, 4 * c2 + 2)},
  });
}

// H or W: 1 often, small, a few near 16.
inline rc::Gen<int64_t> PlaneDim(int64_t max) {
  std::vector<int64_t> dims;
  for (int64_t d : {1, 1, 2, 3, 5, 7, 8, 13, 15, 16, 17, 20, 40}) {
    if (d <= max) dims.push_back(d);
  }
  return Pick(dims);
}

// [N, C, H, W] (or NHWC order) for a C2, under kMaxNativeElems by construction.
inline rc::Gen<Shape> LogicalShape(int64_t c2, bool nhwc) {
  return rc::gen::mapcat(ChannelsNear(c2), [=](int64_t c) {
    const int64_t lanes = (c + c2 - 1) / c2 * c2;
    const int64_t plane_max = std::max<int64_t>(1, kMaxNativeElems / lanes);
    return rc::gen::mapcat(PlaneDim(plane_max), [=](int64_t h) {
      return rc::gen::mapcat(PlaneDim(std::max<int64_t>(1, plane_max / h)), [=](int64_t w) {
        const int64_t n_max = std::max<int64_t>(1, plane_max / (h * w));
        return rc::gen::map(
            Pick<int64_t>({1, 1, 1, std::min<int64_t>(2, n_max), std::min<int64_t>(3, n_max),
                           std::min<int64_t>(4, n_max)}),
            [=](int64_t n) {
              return nhwc ? Shape{n, h, w, c} : Shape{n, c, h, w};
            });
      });
    });
  });
}

// A valid layout case: dtype among `c2_by_dtype` (the claim's admitted ones), a
// shape at a C2 edge, a data seed.
inline rc::Gen<Case> LayoutCase(const std::string& profile, const std::string& routine, bool nhwc,
                                std::map<DType, int64_t> c2_by_dtype, const CaseDomain& domain) {
  std::vector<DType> dtypes;
  for (const auto& [d, c2] : c2_by_dtype) dtypes.push_back(d);
  return rc::gen::mapcat(PickIn(domain, "dtype", dtypes), [=](DType dtype) {
    return rc::gen::mapcat(LogicalShape(c2_by_dtype.at(dtype), nhwc), [=](const Shape& shape) {
      return rc::gen::map(DataSeed(), [=](int64_t seed) {
        Case c(routine, profile);
        c.Set("shape", shape).Set("dtype", dtype).Set("seed", seed);
        return c;
      });
    });
  });
}

// The dequant: an NCHW shape for int8's C2, a scale among values whose
// products round (1/255, 0.1, 1/3, ...), a zero point across int8's range
// most often, else across int32's.
inline rc::Gen<Case> DequantCase(const std::string& profile, const std::string& routine,
                                 int64_t c2) {
  return rc::gen::mapcat(LogicalShape(c2, false), [=](const Shape& shape) {
    return rc::gen::mapcat(
        Pick<double>({0.125, 0.00392156862745098, 0.1, 1.0 / 3.0, 17.5, 0.0078125, 1.0}),
        [=](double scale) {
          // int8's range most often, then any int32 (rknn_tensor_attr.zp is an int32):
          // past 2^24 only an integer subtraction stays exact.
          const auto zps = WeightedOneOf<int64_t>(
              {{3, Pick<int64_t>({0, -128, -1, 1, 5, 127, -17})},
               {1, Pick<int64_t>({(int64_t{1} << 24) + 1, -(int64_t{1} << 24) - 3, INT32_MIN,
                                  INT32_MAX, 1000003})},
               {1, rc::gen::inRange<int64_t>(INT32_MIN, int64_t{INT32_MAX} + 1)}});
          return rc::gen::mapcat(zps, [=](int64_t zp) {
            return rc::gen::map(DataSeed(), [=](int64_t seed) {
              Case c(routine, profile);
              c.Set("shape", shape)
                  .Set("scale", ParamValue::Float(scale))
                  .Set("zp", zp)
                  .Set("seed", seed);
              return c;
            });
          });
        });
  });
}

// The size routine: any dtype of the table, shapes with large dims too.
inline rc::Gen<Case> SizeCase(const std::string& profile, const std::string& routine,
                              std::map<DType, int64_t> c2_by_dtype, const CaseDomain& domain) {
  std::vector<DType> dtypes;
  for (const auto& [d, c2] : c2_by_dtype) dtypes.push_back(d);
  // Named lists: inline in the nested calls below, they made clang-format take
  // 25 s on this file (half of `make format-check`).
  const std::vector<int64_t> heights = {1, 2, 20, 40, 80, 160, 640, 1000};
  const std::vector<int64_t> widths = {1, 2, 7, 8, 15, 16, 17, 20, 24, 40, 80, 640, 1001};
  const std::vector<int64_t> batches = {1, 1, 2, 4};
  return rc::gen::mapcat(PickIn(domain, "dtype", dtypes), [=](DType dtype) {
    const int64_t c2 = c2_by_dtype.at(dtype);
    return rc::gen::mapcat(ChannelsNear(c2), [=](int64_t c) {
      return rc::gen::mapcat(Pick(heights), [=](int64_t h) {
        return rc::gen::mapcat(Pick(widths), [=](int64_t w) {
          return rc::gen::map(Pick(batches), [=](int64_t n) {
            Case k(routine, profile);
            k.Set("shape", Shape{n, c, h, w}).Set("dtype", dtype);
            return k;
          });
        });
      });
    });
  });
}

// ---- zero-copy NHWC inputs (spec layouts.md §B.4) ---------------------------------

// w_stride for a width W: W, align(W, a) (the runtime's padded row), one more
// alignment step, W plus a few pixels, and 0 ("equal to width", §B.1).
inline rc::Gen<int64_t> WStrideFor(int64_t w, int64_t a) {
  const int64_t aligned = (w + a - 1) / a * a;
  return WeightedOneOf<int64_t>({
      {3, rc::gen::just(aligned)},
      {2, rc::gen::just(w)},
      {1, rc::gen::just(aligned + a)},
      {1, rc::gen::map(rc::gen::inRange<int64_t>(1, 2 * a + 1),
                       [w](int64_t extra) { return w + extra; })},
      {1, rc::gen::just<int64_t>(0)},
  });
}

// The rest of a zero-copy case once dtype, C, W and w_stride are drawn: H from
// `heights` while the stored rows fit `max_elems` (H = 1 always fits a drawn
// row), N up to 3 within the same budget, and the data seed (the pack) or fmt
// NHWC (the size routine, `size` true).
inline rc::Gen<Case> ZeroCopyRows(const std::string& profile, const std::string& routine,
                                  DType dtype, int64_t c, int64_t w, int64_t ws,
                                  const std::vector<int64_t>& heights, int64_t max_elems,
                                  bool size) {
  const int64_t row = std::max(w, ws) * c;
  std::vector<int64_t> hs = {1};
  for (int64_t h : heights) {
    if (h > 1 && h * row <= max_elems) hs.push_back(h);
  }
  return rc::gen::mapcat(Pick(hs), [=](int64_t h) {
    const int64_t n_max = std::max<int64_t>(1, max_elems / (h * row));
    const std::vector<int64_t> ns = {1, 1, std::min<int64_t>(2, n_max),
                                     std::min<int64_t>(3, n_max)};
    return rc::gen::mapcat(Pick(ns), [=](int64_t n) {
      return rc::gen::map(DataSeed(), [=](int64_t seed) {
        Case k(routine, profile);
        k.Set("shape", Shape{n, h, w, c}).Set("dtype", dtype).Set("w_stride", ws);
        if (size) {
          k.Set("fmt", std::string("NHWC"));
        } else {
          k.Set("seed", seed);
        }
        return k;
      });
    });
  });
}

// A valid zero-copy case: a dtype and a C of the profile's zero-copy
// conditions, H and W small (W often unaligned), N up to 3, w_stride from
// WStrideFor, the stored buffer under `max_elems` (the pack) or any size (the
// NHWC size, `size` true: fmt NHWC and no seed).
inline rc::Gen<Case> ZeroCopyCase(const std::string& profile, const std::string& routine,
                                  std::vector<DType> dtypes, std::vector<int64_t> channels,
                                  int64_t w_align, const CaseDomain& domain, bool size) {
  const int64_t max_elems = size ? (int64_t{1} << 40) : kMaxNativeElems;
  const std::vector<int64_t> heights = size ? std::vector<int64_t>{1, 2, 20, 224, 480, 640, 1080}
                                            : std::vector<int64_t>{1, 1, 2, 3, 5, 7, 8, 13, 16, 17};
  const std::vector<int64_t> widths =
      size ? std::vector<int64_t>{1, 7, 15, 16, 17, 224, 513, 640, 1001, 1920}
           : std::vector<int64_t>{1, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 20, 33};
  const auto rows = [=](DType dtype, int64_t c, int64_t w) {
    return rc::gen::mapcat(WStrideFor(w, w_align), [=](int64_t ws) {
      return ZeroCopyRows(profile, routine, dtype, c, w, ws, heights, max_elems, size);
    });
  };
  return rc::gen::mapcat(PickIn(domain, "dtype", dtypes), [=](DType dtype) {
    return rc::gen::mapcat(Pick(channels), [=](int64_t c) {
      return rc::gen::mapcat(Pick(widths), [=](int64_t w) { return rows(dtype, c, w); });
    });
  });
}

}  // namespace npuconf::gen::rknn_native
