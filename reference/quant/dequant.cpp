#include "reference/quant/dequant.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>
#include <vector>

#include "core/shape.h"

namespace npuconf::quant {
namespace {

// ---- q decoders: one per storage, chosen once per call --------------------------

struct Int8Q {
  static int32_t At(const uint8_t* q, int64_t e) { return static_cast<int8_t>(q[e]); }
};
struct Uint8Q {
  static int32_t At(const uint8_t* q, int64_t e) { return q[e]; }
};
template <bool kEvenHigh>
struct Int4Q {
  static int32_t At(const uint8_t* q, int64_t e) {
    const uint8_t byte = q[e >> 1];
    const bool high = ((e & 1) == 0) == kEvenHigh;
    const int32_t nibble = high ? (byte >> 4) : (byte & 0xF);
    return nibble >= 8 ? nibble - 16 : nibble;  // two's complement (§4.4, rknn §2.4)
  }
};

// ---- output element types ------------------------------------------------------

template <typename Out>
inline Out Round(float v) {
  if constexpr (std::is_same_v<Out, float>) {
    return v;
  } else {
    return Out(v);  // Eigen::half / bfloat16: round to nearest even from fp32
  }
}

// The rounding sequence, per element. Everything in fp32; RN_out where the
// sequence says so.
template <Rounding kRounding, typename Out>
inline Out Apply(int32_t q, float scale, float zero_point) {
  if constexpr (kRounding == Rounding::kPerStep && !std::is_same_v<Out, float>) {
    const float t = static_cast<float>(Round<Out>(static_cast<float>(q) - zero_point));
    return Round<Out>(t * scale);
  } else {
    return Round<Out>((static_cast<float>(q) - zero_point) * scale);
  }
}

// How the params of one row are laid out across its cols.
enum class Stride { kBroadcast, kUnit, kStrided };

template <typename Decoder, Rounding kRounding, typename Out, Stride kStride>
void Rows(const DequantArgs& a, Out* out) {
  const QuantGeometry& g = a.geometry;
  const int64_t groups = g.Groups();
  const float zero = 0.0f;
  for (int64_t r = 0; r < g.rows; ++r) {
    const int64_t group = g.granularity == Granularity::kPerGroup ? r / g.group_size : 0;
    int64_t base = 0;
    int64_t stride = 0;
    if (g.granularity == Granularity::kPerChannel) {
      stride = 1;
    } else if (g.granularity == Granularity::kPerGroup) {
      base = g.order == GroupOrder::kGroupMajor ? group * g.cols : group;
      stride = g.order == GroupOrder::kGroupMajor ? 1 : groups;
    }
    const float* s = a.scale + base;
    const float* z = a.zero_point ? a.zero_point + base : &zero;
    const int64_t z_stride = a.zero_point ? stride : 0;
    const int64_t row_start = r * g.cols;
    Out* y = out + row_start;
    if constexpr (kStride == Stride::kBroadcast) {
      const float s0 = s[0], z0 = z[0];
      for (int64_t c = 0; c < g.cols; ++c) {
        y[c] = Apply<kRounding, Out>(Decoder::At(a.q, row_start + c), s0, z0);
      }
    } else if constexpr (kStride == Stride::kUnit) {
      for (int64_t c = 0; c < g.cols; ++c) {
        y[c] = Apply<kRounding, Out>(Decoder::At(a.q, row_start + c), s[c], z[c * z_stride]);
      }
    } else {
      for (int64_t c = 0; c < g.cols; ++c) {
        y[c] = Apply<kRounding, Out>(Decoder::At(a.q, row_start + c), s[c * stride],
                                     z[c * z_stride]);
      }
    }
  }
}

template <typename Decoder, Rounding kRounding, typename Out>
void ByStride(const DequantArgs& a, Out* out) {
  const QuantGeometry& g = a.geometry;
  if (g.granularity == Granularity::kPerTensor) {
    Rows<Decoder, kRounding, Out, Stride::kBroadcast>(a, out);
  } else if (g.granularity == Granularity::kPerChannel || g.order == GroupOrder::kGroupMajor) {
    Rows<Decoder, kRounding, Out, Stride::kUnit>(a, out);
  } else {
    Rows<Decoder, kRounding, Out, Stride::kStrided>(a, out);
  }
}

template <typename Decoder, typename Out>
void ByRounding(const DequantArgs& a, Out* out) {
  if (a.rounding == Rounding::kPerStep) {
    ByStride<Decoder, Rounding::kPerStep, Out>(a, out);
  } else {
    ByStride<Decoder, Rounding::kFp32Once, Out>(a, out);
  }
}

template <typename Out>
void ByDecoder(const DequantArgs& a, Out* out) {
  switch (a.qtype) {
    case QType::kInt8: return ByRounding<Int8Q, Out>(a, out);
    case QType::kUint8: return ByRounding<Uint8Q, Out>(a, out);
    case QType::kInt4:
      if (a.nibbles == NibbleOrder::kHighFirst) return ByRounding<Int4Q<true>, Out>(a, out);
      return ByRounding<Int4Q<false>, Out>(a, out);
  }
}

template <typename Decoder, Rounding kRounding, typename Out>
void RowKernel(const uint8_t* q, int64_t q_offset, int64_t count, float scale, float zero_point,
               Out* out) {
  for (int64_t e = 0; e < count; ++e) {
    out[e] = Apply<kRounding, Out>(Decoder::At(q, q_offset + e), scale, zero_point);
  }
}

template <typename Decoder, typename Out>
void RowByRounding(const uint8_t* q, int64_t q_offset, int64_t count, float scale,
                   float zero_point, Rounding rounding, Out* out) {
  if (rounding == Rounding::kPerStep) {
    RowKernel<Decoder, Rounding::kPerStep, Out>(q, q_offset, count, scale, zero_point, out);
  } else {
    RowKernel<Decoder, Rounding::kFp32Once, Out>(q, q_offset, count, scale, zero_point, out);
  }
}

void StoreQ(uint8_t* q, int64_t e, int32_t value, QType qtype, NibbleOrder nibbles) {
  if (qtype != QType::kInt4) {
    q[e] = static_cast<uint8_t>(value);
    return;
  }
  const uint8_t nibble = static_cast<uint8_t>(value) & 0xF;
  const bool high = ((e & 1) == 0) == (nibbles == NibbleOrder::kHighFirst);
  uint8_t& byte = q[e >> 1];
  byte = high ? static_cast<uint8_t>((byte & 0x0F) | (nibble << 4))
              : static_cast<uint8_t>((byte & 0xF0) | nibble);
}

}  // namespace

int64_t QuantGeometry::Groups() const {
  if (granularity != Granularity::kPerGroup || group_size <= 0) return 1;
  return CeilDiv(rows, group_size);
}

int64_t QuantGeometry::ParamCount() const {
  switch (granularity) {
    case Granularity::kPerTensor: return 1;
    case Granularity::kPerChannel: return cols;
    case Granularity::kPerGroup: return CheckedMul(Groups(), cols).value_or(-1);
  }
  return -1;
}

bool QuantGeometry::Valid() const {
  if (rows <= 0 || cols <= 0 || !CheckedMul(rows, cols)) return false;
  if (granularity == Granularity::kPerGroup && group_size <= 0) return false;
  return ParamCount() > 0;
}

bool Dequantize(const DequantArgs& a, void* out) {
  if (!a.geometry.Valid() || !a.q || !a.scale || !out) return false;
  switch (a.out_type) {
    case OutType::kFloat: ByDecoder(a, static_cast<float*>(out)); break;
    case OutType::kFloat16: ByDecoder(a, static_cast<Half*>(out)); break;
    case OutType::kBf16: ByDecoder(a, static_cast<BFloat16*>(out)); break;
  }
  return true;
}

template <typename Out>
void DequantRow(const uint8_t* q, QType qtype, NibbleOrder nibbles, int64_t q_offset,
                int64_t count, float scale, float zero_point, Rounding rounding, Out* out) {
  switch (qtype) {
    case QType::kInt8:
      return RowByRounding<Int8Q, Out>(q, q_offset, count, scale, zero_point, rounding, out);
    case QType::kUint8:
      return RowByRounding<Uint8Q, Out>(q, q_offset, count, scale, zero_point, rounding, out);
    case QType::kInt4:
      if (nibbles == NibbleOrder::kHighFirst) {
        return RowByRounding<Int4Q<true>, Out>(q, q_offset, count, scale, zero_point, rounding, out);
      }
      return RowByRounding<Int4Q<false>, Out>(q, q_offset, count, scale, zero_point, rounding, out);
  }
}

template void DequantRow<float>(const uint8_t*, QType, NibbleOrder, int64_t, int64_t, float, float,
                                Rounding, float*);
template void DequantRow<Half>(const uint8_t*, QType, NibbleOrder, int64_t, int64_t, float, float,
                               Rounding, Half*);
template void DequantRow<BFloat16>(const uint8_t*, QType, NibbleOrder, int64_t, int64_t, float,
                                   float, Rounding, BFloat16*);

int32_t QMin(QType qtype) {
  return qtype == QType::kInt8 ? -128 : qtype == QType::kUint8 ? 0 : -8;
}
int32_t QMax(QType qtype) {
  return qtype == QType::kInt8 ? 127 : qtype == QType::kUint8 ? 255 : 7;
}

bool Quantize(const float* x, const QuantGeometry& g, const float* scale, const float* zero_point,
              QType qtype, NibbleOrder nibbles, uint8_t* q) {
  if (!g.Valid() || !x || !scale || !q) return false;
  const int32_t lo = QMin(qtype), hi = QMax(qtype);
  for (int64_t r = 0; r < g.rows; ++r) {
    for (int64_t c = 0; c < g.cols; ++c) {
      const int64_t p = g.ParamIndex(r, c);
      const double zp = zero_point ? zero_point[p] : 0.0;
      const double v = std::nearbyint(static_cast<double>(x[r * g.cols + c]) / scale[p] + zp);
      const int32_t clipped =
          std::isnan(v) ? 0 : static_cast<int32_t>(std::clamp<double>(v, lo, hi));
      StoreQ(q, r * g.cols + c, clipped, qtype, nibbles);
    }
  }
  return true;
}

bool ChooseParams(const float* x, const QuantGeometry& g, QType qtype, bool symmetric,
                  float* scale, float* zero_point) {
  if (!g.Valid() || !x || !scale || (symmetric && qtype == QType::kUint8)) return false;
  const int64_t count = g.ParamCount();
  std::vector<double> lo(static_cast<size_t>(count), 0.0), hi(static_cast<size_t>(count), 0.0);
  for (int64_t r = 0; r < g.rows; ++r) {
    for (int64_t c = 0; c < g.cols; ++c) {
      const int64_t p = g.ParamIndex(r, c);
      const double v = x[r * g.cols + c];
      lo[p] = std::min(lo[p], v);
      hi[p] = std::max(hi[p], v);
    }
  }
  const double qmin = QMin(qtype), qmax = QMax(qtype);
  for (int64_t p = 0; p < count; ++p) {
    double s = 0, zp = 0;
    if (symmetric) {
      s = std::max(-lo[p], hi[p]) / qmax;
    } else {
      s = (hi[p] - lo[p]) / (qmax - qmin);
    }
    if (s == 0) s = 1;
    if (!symmetric) zp = std::clamp(std::nearbyint(qmin - lo[p] / s), qmin, qmax);
    scale[p] = static_cast<float>(s);
    if (zero_point) zero_point[p] = static_cast<float>(zp);
  }
  return true;
}

uint16_t HalfBitsFromDouble(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return sign | 0x7E00;
  const double a = std::fabs(value);
  // 65520 is the midpoint between 65504 (max half) and 2^16; the tie goes to
  // the even neighbour 2^16, i.e. overflow.
  if (a >= 65520.0) return sign | 0x7C00;
  int e = 0;
  std::frexp(a, &e);  // a = m · 2^e, m ∈ [0.5, 1)
  const int exponent = std::max(e - 1, -14);          // subnormals share 2^-14's quantum
  const double quantum = std::ldexp(1.0, exponent - 10);  // 11 significant bits
  const double m = std::nearbyint(a / quantum);           // exact scaling, then RNE
  const float rounded = static_cast<float>(m * quantum);  // a half value: exact in float
  return static_cast<uint16_t>(sign | HalfBits(Half(rounded)));
}

}  // namespace npuconf::quant
