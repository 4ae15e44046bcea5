// The dequant routines as Eigen array algebra (DESIGN.md "Reference vs oracle"):
// broadcasting of the params over the weights, with an explicit rounding step
// after every op the vendor rounds. Slow and obviously right; shares no code
// with reference/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf::oracle::quant {

// ---- values --------------------------------------------------------------------

// Decodes n q values from their bytes: INT8, UINT8, or INT4 nibbles (two's
// complement) with the even element in the low nibble (`even_high` false) or the
// high nibble.
std::vector<int32_t> DecodeQ(const std::vector<uint8_t>& bytes, DType dtype, int64_t count,
                             bool even_high = false);
// The inverse (INT4 nibbles packed, odd tail nibble 0).
std::vector<uint8_t> EncodeQ(const std::vector<int32_t>& values, DType dtype,
                             bool even_high = false);

// The fp16 value nearest to x (ties to even mantissa), by comparing the
// neighbours of a first guess in double; ±inf beyond 65520, NaN kept.
uint16_t NearestHalfBits(double x);

// ---- GatherDequantInt8 (spec cann.md §3) ---------------------------------------

// y [N, E] fp16 bits = RN16(RN16(Q − zp) · s) with Q = table[indices, :]; the
// indices must lie in [0, V).
std::vector<uint16_t> GatherDequantInt8(const std::vector<uint8_t>& table, int64_t vocab,
                                        int64_t embed, const std::vector<int32_t>& indices,
                                        const std::vector<uint16_t>& scale_bits,
                                        const std::vector<uint16_t>& zero_point_bits);

// gen_data.py (§3.5), in float64. scale64 / zp64 are the values before the fp16 cast.
struct GenData {
  std::vector<uint8_t> table;
  std::vector<uint16_t> scale_bits, zero_point_bits;
  std::vector<double> scale64, zero_point64;
};
GenData GenDataQuantize(const std::vector<float>& weight, int64_t vocab, int64_t embed);

// ---- WeightQuantBatchMatmulV2 antiquant (spec cann.md §4) -----------------------

struct AntiquantCall {
  std::string npu_arch;
  bool soc_supported = false;  // profile facts (spec cann.md §4.1a step 1, §4.3)
  int64_t kn_max = INT64_MAX;
  DType x_dtype = DType::kFloat16;
  DType weight_dtype = DType::kInt8;  // INT8, INT4, INT32 (INT4Pack)
  int64_t k = 0, n = 0;               // logical
  bool null_weight = false, null_y = false;
  std::optional<Shape> scale_shape;   // nullopt: null
  std::optional<Shape> offset_shape;  // nullopt: absent
  int64_t group_size = 0;
  // The 2-D per-channel scale is (n, 1) as the 310P doc writes it, not the
  // code's (1, n) (spec cann.md §4.2, §5.12; choice cann.antiquant.channel_scale_2d).
  bool channel_scale_n_by_1 = false;
};
struct Expectation {
  int64_t status = 0;
  std::string rule;  // the rule that decides the status
};
Expectation ExpectAntiquant(const AntiquantCall& call);

// W' [k, n] as bits of x_dtype. Valid calls only.
std::vector<uint16_t> Antiquant(const AntiquantCall& call, const std::vector<uint8_t>& weight,
                                const std::vector<uint16_t>& scale_bits,
                                const std::vector<uint16_t>& offset_bits);

// ---- RKNN B dequant (spec rknn.md §5) ---------------------------------------------

struct RknnCall {
  DType b_dtype = DType::kInt8;
  bool even_high = false;  // NORM B nibble order (profile)
  int64_t k = 0, n = 0;
  int64_t quant_type = 0;  // rknn_matmul_quant_type 0..5
  int64_t group_size = 0;
  bool group_size_32_only = false;
  bool n_major = false;     // per-group order n·(K/gs) + g instead of g·N + n
  bool asymmetric = false;  // non-zero zp accepted
  int64_t scale_len = 0, zp_len = 0;
  bool any_nonzero_zp = false;
};
Expectation ExpectRknn(const RknnCall& call);
// y [K, N] fp32 = fp32(q − zp) · s. Valid calls only.
std::vector<float> RknnDequantB(const RknnCall& call, const std::vector<uint8_t>& b,
                                const std::vector<float>& scale, const std::vector<int32_t>& zp);

// Which param (index into scale/zp) element (r, c) of a [rows, cols] weight uses;
// the grouping written as a broadcast index map. `groups_major`: g·cols + c.
std::vector<int64_t> ParamIndexMap(int64_t rows, int64_t cols, int64_t group_size,
                                   int64_t param_count, bool groups_major);

// ---- GatherDequantInt8 validation (npuconf's choice, spec cann.md §3.4) ----------
struct GatherCall {
  bool null_input = false, null_y = false;
  int64_t vocab = 0, embed = 0;
  int64_t scale_len = 0, zero_point_len = 0;
  std::vector<int32_t> indices;
};
Expectation ExpectGather(const GatherCall& call);

}  // namespace npuconf::oracle::quant
