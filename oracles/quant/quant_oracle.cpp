#include "oracles/quant/quant_oracle.h"

#include <Eigen/Core>
#include <cmath>
#include <cstring>
#include <functional>

#include "core/float16.h"
#include "core/status.h"

namespace npuconf::oracle::quant {
namespace {

using Eigen::Dynamic;
using Eigen::RowMajor;
template <typename T>
using Grid = Eigen::Array<T, Dynamic, Dynamic, RowMajor>;
using Col = Eigen::Array<float, Dynamic, 1>;

// Round every element to fp16 / bf16 and back: the explicit rounding step.
Grid<float> RoundTo(const Grid<float>& a, DType dtype) {
  if (dtype == DType::kBf16) return a.cast<Eigen::bfloat16>().cast<float>();
  return a.cast<Eigen::half>().cast<float>();
}

std::vector<uint16_t> BitsOf(const Grid<float>& a, DType dtype) {
  std::vector<uint16_t> out(static_cast<size_t>(a.size()));
  for (Eigen::Index i = 0; i < a.size(); ++i) {
    const float v = a.data()[i];
    out[i] = dtype == DType::kBf16 ? BFloat16Bits(BFloat16(v)) : HalfBits(Half(v));
  }
  return out;
}

float FromBits(uint16_t bits, DType dtype) {
  return dtype == DType::kBf16 ? static_cast<float>(BFloat16FromBits(bits))
                               : static_cast<float>(HalfFromBits(bits));
}

// The first rule that fails decides the status (every rule is evaluated: guard divisions).
struct Rule {
  bool broken;
  int64_t status;
  const char* text;
};
Expectation FirstBroken(std::initializer_list<Rule> rules, int64_t ok_status) {
  for (const Rule& r : rules) {
    if (r.broken) return {r.status, r.text};
  }
  return {ok_status, "valid"};
}

}  // namespace

std::vector<int32_t> DecodeQ(const std::vector<uint8_t>& bytes, DType dtype, int64_t count,
                             bool even_high) {
  std::vector<int32_t> out(static_cast<size_t>(count));
  if (dtype == DType::kInt4 || dtype == DType::kInt32) {
    // Each byte → [first, second] nibble pair, flattened row-major.
    const Eigen::Index n_bytes = static_cast<Eigen::Index>(bytes.size());
    Eigen::Map<const Eigen::Array<uint8_t, Dynamic, 1>> b(bytes.data(), n_bytes);
    Grid<int32_t> pairs(n_bytes, 2);
    const Eigen::Array<int32_t, Dynamic, 1> low =
        b.cast<int32_t>().unaryExpr([](int32_t v) { return v & 0xF; });
    const Eigen::Array<int32_t, Dynamic, 1> high =
        b.cast<int32_t>().unaryExpr([](int32_t v) { return v >> 4; });
    pairs.col(0) = even_high ? high : low;
    pairs.col(1) = even_high ? low : high;
    const Grid<int32_t> signed_pairs =
        pairs.unaryExpr([](int32_t v) { return v >= 8 ? v - 16 : v; });
    std::memcpy(out.data(), signed_pairs.data(), static_cast<size_t>(count) * sizeof(int32_t));
  } else if (dtype == DType::kInt8) {
    for (int64_t i = 0; i < count; ++i) out[i] = static_cast<int8_t>(bytes[i]);
  } else {
    for (int64_t i = 0; i < count; ++i) out[i] = bytes[i];
  }
  return out;
}

std::vector<uint8_t> EncodeQ(const std::vector<int32_t>& values, DType dtype, bool even_high) {
  if (dtype != DType::kInt4 && dtype != DType::kInt32) {
    std::vector<uint8_t> out(values.size());
    for (size_t i = 0; i < values.size(); ++i) out[i] = static_cast<uint8_t>(values[i]);
    return out;
  }
  std::vector<uint8_t> out((values.size() + 1) / 2, 0);
  for (size_t i = 0; i < values.size(); ++i) {
    const uint8_t nibble = static_cast<uint8_t>(values[i]) & 0xF;
    const bool high = (i % 2 == 0) == even_high;
    out[i / 2] |= high ? static_cast<uint8_t>(nibble << 4) : nibble;
  }
  return out;
}

uint16_t NearestHalfBits(double x) {
  if (std::isnan(x)) return 0x7E00;
  const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
  const double a = std::fabs(x);
  if (a >= 65520.0) return sign | 0x7C00;
  const uint16_t guess = HalfBits(Half(static_cast<float>(a)));  // may be one ulp off
  uint16_t best = guess;
  double best_err = std::fabs(static_cast<double>(static_cast<float>(HalfFromBits(guess))) - a);
  for (int delta : {-1, 1}) {
    const int candidate = static_cast<int>(guess) + delta;
    if (candidate < 0 || candidate > 0x7BFF) continue;
    const auto bits = static_cast<uint16_t>(candidate);
    const double err = std::fabs(static_cast<double>(static_cast<float>(HalfFromBits(bits))) - a);
    if (err < best_err || (err == best_err && (bits & 1) == 0)) {
      best = bits;
      best_err = err;
    }
  }
  return static_cast<uint16_t>(sign | best);
}

std::vector<uint16_t> GatherDequantInt8(const std::vector<uint8_t>& table, int64_t vocab,
                                        int64_t embed, const std::vector<int32_t>& indices,
                                        const std::vector<uint16_t>& scale_bits,
                                        const std::vector<uint16_t>& zero_point_bits) {
  Eigen::Map<const Grid<uint8_t>> t(table.data(), vocab, embed);
  const std::vector<int> rows(indices.begin(), indices.end());
  const Grid<float> q = t(rows, Eigen::all).cast<float>();  // half(q) is exact (§3.3 step 1)
  Col zp(rows.size()), s(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    zp(i) = FromBits(zero_point_bits[rows[i]], DType::kFloat16);
    s(i) = FromBits(scale_bits[rows[i]], DType::kFloat16);
  }
  const Grid<float> diff = RoundTo(q.colwise() - zp, DType::kFloat16);  // step 2: RN16
  const Grid<float> y = RoundTo(diff.colwise() * s, DType::kFloat16);   // step 3: RN16
  return BitsOf(y, DType::kFloat16);
}

GenData GenDataQuantize(const std::vector<float>& weight, int64_t vocab, int64_t embed) {
  Eigen::Map<const Grid<float>> w32(weight.data(), vocab, embed);
  const Grid<double> w = w32.cast<double>();
  const Eigen::ArrayXd vmin = w.rowwise().minCoeff();
  const Eigen::ArrayXd vmax = w.rowwise().maxCoeff();
  Eigen::ArrayXd scale = (vmax - vmin) / 255.0;
  scale = (scale == 0.0).select(Eigen::ArrayXd::Constant(vocab, 1e-8), scale);
  const Eigen::ArrayXd zp = -vmin / scale;
  const Grid<double> q = ((w.colwise() / scale).colwise() + zp)
                             .unaryExpr([](double v) { return std::nearbyint(v); })
                             .cwiseMax(0.0)
                             .cwiseMin(255.0);
  GenData out;
  out.table.resize(static_cast<size_t>(vocab * embed));
  for (Eigen::Index i = 0; i < q.size(); ++i) out.table[i] = static_cast<uint8_t>(q.data()[i]);
  for (int64_t v = 0; v < vocab; ++v) {
    out.scale64.push_back(scale(v));
    out.zero_point64.push_back(zp(v));
    out.scale_bits.push_back(NearestHalfBits(scale(v)));
    out.zero_point_bits.push_back(NearestHalfBits(zp(v)));
  }
  return out;
}

std::vector<int64_t> ParamIndexMap(int64_t rows, int64_t cols, int64_t group_size,
                                   int64_t param_count, bool groups_major) {
  using Index = Grid<int64_t>;
  const Eigen::Array<int64_t, 1, Dynamic> c =
      Eigen::Array<int64_t, 1, Dynamic>::LinSpaced(cols, 0, cols - 1);
  Index idx;
  if (param_count == 1) {
    idx = Index::Zero(rows, cols);
  } else if (group_size <= 0) {
    idx = c.replicate(rows, 1);
  } else {
    const int64_t groups = rows / group_size + (rows % group_size != 0);
    const Eigen::Array<int64_t, Dynamic, 1> g =
        Eigen::Array<int64_t, Dynamic, 1>::LinSpaced(rows, 0, rows - 1) / group_size;
    idx = groups_major ? Index(g.replicate(1, cols) * cols + c.replicate(rows, 1))
                       : Index(c.replicate(rows, 1) * groups + g.replicate(1, cols));
  }
  return std::vector<int64_t>(idx.data(), idx.data() + idx.size());
}

Expectation ExpectAntiquant(const AntiquantCall& c) {
  using namespace cann;
  const bool arch_ok = c.soc_supported;
  const int64_t kn_max = c.kn_max;
  const int64_t gs = c.group_size;
  const Shape s = c.scale_shape.value_or(Shape{});
  const int64_t groups = gs > 0 && c.k > 0 ? c.k / gs + (c.k % gs != 0) : 1;
  bool shape_ok = false;
  if (s.size() == 1) shape_ok = gs == 0 && (s[0] == 1 || s[0] == c.n);
  if (s.size() == 2) {
    const Shape per_channel = c.channel_scale_n_by_1 ? Shape{c.n, 1} : Shape{1, c.n};
    shape_ok = gs == 0 ? (s == Shape{1, 1} || s == per_channel) : s == Shape{groups, c.n};
  }
  return FirstBroken(
      {
          {!arch_ok, kAclnnErrRuntimeError, "arch has no WeightQuantBatchMatmulV2 (§4.1a step 1)"},
          {c.null_weight || !c.scale_shape || c.null_y, kAclnnErrParamNullptr,
           "null weight/scale/y (§4.1a step 2)"},
          {c.x_dtype != DType::kFloat16 && c.x_dtype != DType::kBf16, kAclnnErrParamInvalid,
           "x dtype (§4.5)"},
          {c.weight_dtype != DType::kInt8 && c.weight_dtype != DType::kInt4 &&
               c.weight_dtype != DType::kInt32,
           kAclnnErrParamInvalid, "weight dtype"},
          {c.k < 1 || c.n < 1 || c.k > kn_max || c.n > kn_max, kAclnnErrParamInvalid,
           "k/n range (§4.3)"},
          {c.weight_dtype == DType::kInt4 && c.n % 2 != 0, kAclnnErrParamInvalid,
           "INT4 needs even n (§4.4)"},
          {c.weight_dtype == DType::kInt32 && c.n % 8 != 0, kAclnnErrParamInvalid,
           "INT32 carrier needs n % 8 == 0 (§4.4)"},
          {gs < 0, kAclnnErrParamInvalid, "group size < 0 (§4.3 rule 2)"},
          {gs % 32 != 0, kAclnnErrParamInvalid, "group size % 32 != 0 (§4.3 rule 3)"},
          {gs != 0 && gs + 1 > c.k, kAclnnErrParamInvalid, "group size + 1 > k (§4.3 rule 5)"},
          {!shape_ok, kAclnnErrParamInvalid, "antiquantScale shape (§4.2)"},
          {c.offset_shape && *c.offset_shape != s, kAclnnErrParamInvalid,
           "offset shape != scale shape (§4.2)"},
      },
      kAclnnSuccess);
}

std::vector<uint16_t> Antiquant(const AntiquantCall& c, const std::vector<uint8_t>& weight,
                                const std::vector<uint16_t>& scale_bits,
                                const std::vector<uint16_t>& offset_bits) {
  const DType dtype_i = c.x_dtype;
  const std::vector<int32_t> q = DecodeQ(weight, c.weight_dtype, c.k * c.n);
  // §4.5 step 1: w_f = RN_I(weight), exact for int8/int4 but stated anyway.
  const Grid<float> w =
      RoundTo(Eigen::Map<const Grid<int32_t>>(q.data(), c.k, c.n).cast<float>(), dtype_i);
  const Shape& s = *c.scale_shape;
  const int64_t numel = s.size() == 1 ? s[0] : s[0] * s[1];
  const std::vector<int64_t> map = ParamIndexMap(c.k, c.n, c.group_size, numel, true);
  Grid<float> scale(c.k, c.n), offset(c.k, c.n);
  for (size_t i = 0; i < map.size(); ++i) {
    scale.data()[i] = FromBits(scale_bits[map[i]], dtype_i);  // §4.5 step 2: to fp32
    offset.data()[i] = c.offset_shape ? FromBits(offset_bits[map[i]], dtype_i) : 0.0f;
  }
  const Grid<float> y = c.offset_shape ? RoundTo(RoundTo(w + offset, dtype_i) * scale, dtype_i)
                                       : RoundTo(w * scale, dtype_i);  // §4.5 step 3
  return BitsOf(y, dtype_i);
}

Expectation ExpectRknn(const RknnCall& c) {
  const bool per_group = c.quant_type == 4 || c.quant_type == 5;
  const int64_t want = c.quant_type <= 1   ? 1
                       : c.quant_type <= 3 ? c.n
                                           : (c.group_size > 0 ? c.k / c.group_size * c.n : -1);
  constexpr int64_t kInvalid = -5;
  return FirstBroken(
      {
          {c.quant_type < 0 || c.quant_type > 5, kInvalid,
           "quant_type is not an rknn_matmul_quant_type (§1.2)"},
          {c.b_dtype != DType::kInt8 && c.b_dtype != DType::kInt4, kInvalid, "B dtype"},
          {c.k < 1 || c.n < 1, kInvalid, "K, N >= 1"},
          {c.scale_len < 1, kInvalid, "scale_len must > 0 (§5.4)"},
          {per_group && c.group_size < 1, kInvalid, "group_size >= 1 (§5.3)"},
          {per_group && c.group_size > 0 && c.k % c.group_size != 0, kInvalid,
           "K must align group size (§5.3)"},
          {per_group && c.group_size_32_only && c.group_size != 32, kInvalid,
           "group_size 32 only (choice)"},
          {c.scale_len != want || c.zp_len != want, kInvalid,
           "scale_len/zp_len per quant type (§5.1)"},
          {c.any_nonzero_zp && !c.asymmetric, kInvalid, "only zp 0 (§5.4)"},
      },
      0);
}

std::vector<float> RknnDequantB(const RknnCall& c, const std::vector<uint8_t>& b,
                                const std::vector<float>& scale, const std::vector<int32_t>& zp) {
  const std::vector<int32_t> q = DecodeQ(b, c.b_dtype, c.k * c.n, c.even_high);
  const bool per_group = c.quant_type >= 4;
  const std::vector<int64_t> map = ParamIndexMap(c.k, c.n, per_group ? c.group_size : 0,
                                                 static_cast<int64_t>(scale.size()), !c.n_major);
  Grid<int64_t> z(c.k, c.n);
  Grid<float> s(c.k, c.n);
  for (size_t i = 0; i < map.size(); ++i) {
    z.data()[i] = zp[map[i]];
    s.data()[i] = scale[map[i]];
  }
  const Grid<int64_t> qa = Eigen::Map<const Grid<int32_t>>(q.data(), c.k, c.n).cast<int64_t>();
  const Grid<float> y = (qa - z).cast<float>() * s;  // exact int diff, fp32 cast, one fp32 product
  return std::vector<float>(y.data(), y.data() + y.size());
}

Expectation ExpectGather(const GatherCall& c) {
  using namespace cann;
  bool bad_index = false;
  for (int32_t i : c.indices) bad_index |= i < 0 || i >= c.vocab;
  constexpr int64_t kU32 = 0xFFFFFFFFll;
  return FirstBroken(
      {
          {c.null_input || c.null_y, kAclnnErrParamNullptr, "a null tensor"},
          {c.vocab < 1 || c.embed < 1 || c.vocab > kU32 || c.embed > kU32, kAclnnErrParamInvalid,
           "V, E in [1, 2^32-1] (uint32 tiling, §3.2)"},
          {c.scale_len != c.vocab || c.zero_point_len != c.vocab, kAclnnErrParamInvalid,
           "scale and zero_point are [V] (§3.1)"},
          {bad_index, kAclnnErrParamInvalid, "an index outside [0, V) (undefined upstream, §3.4)"},
      },
      kAclnnSuccess);
}

}  // namespace npuconf::oracle::quant
