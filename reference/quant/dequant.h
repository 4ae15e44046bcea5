// Generic dequantization y = (q − zp) · scale and its inverse quantize, for
// int8, uint8 and packed int4 weights with per-tensor, per-channel or per-group
// params. The vendor routines (reference/quant/{gather_dequant_int8,
// cann_antiquant,rknn_dequant}.h) are thin specialisations of these two.
#pragma once

#include <cstdint>

#include "core/dtype.h"
#include "core/float16.h"
#include "core/rknn_facts.h"  // NibbleOrder

namespace npuconf::quant {

// Storage of q. kInt4: two's complement nibbles, two per byte; the nibble of
// element e is chosen by NibbleOrder (CANN §4.4 and RKNN v2.x §2.4: low first).
enum class QType { kInt8, kUint8, kInt4 };

// Weights are [rows, cols] row-major: rows = the reduction axis (K / k), cols =
// the output channels (N / n), cols contiguous. Per-channel: one param per col.
// Per-group: `group_size` consecutive rows of one col share a param; the last
// group may be short (CANN §4.5 step 3: rows [g·gs, min((g+1)·gs, k))).
enum class Granularity { kPerTensor, kPerChannel, kPerGroup };

// Where the param of (group g, col n) sits among the G·N per-group params:
// kGroupMajor g·N + n (RKNN DEMO dynshape §5.2; CANN (ceil(k/gs), n) §4.2),
// kChannelMajor n·G + g (the alternative reading of RKNN §5.2).
enum class GroupOrder { kGroupMajor, kChannelMajor };

struct QuantGeometry {
  int64_t rows = 0;
  int64_t cols = 0;
  Granularity granularity = Granularity::kPerTensor;
  int64_t group_size = 0;  // rows per group; per-group only
  GroupOrder order = GroupOrder::kGroupMajor;

  int64_t Groups() const;      // ceil(rows / group_size), 1 unless per-group
  int64_t ParamCount() const;  // 1, cols, or Groups()·cols
  // Index of the scale / zp that element (r, c) uses: 0 per-tensor, c per-channel,
  // per-group g·cols + c (kGroupMajor, spec rknn.md §5.2) or c·Groups() + g.
  int64_t ParamIndex(int64_t r, int64_t c) const {
    if (granularity == Granularity::kPerChannel) return c;
    if (granularity != Granularity::kPerGroup) return 0;
    const int64_t group = r / group_size;
    return order == GroupOrder::kGroupMajor ? group * cols + c : c * Groups() + group;
  }
  // rows > 0, cols > 0, group_size > 0 for per-group, and every count fits int64.
  bool Valid() const;
};

// The rounding sequence:
//   kFp32Once — d = fp32(q − zp), y = fp32(d · scale), then ONE rounding to the
//               output type (RKNN §5.5 golden; exact when zp is an integer).
//   kPerStep  — t = RN_out(q − zp), y = RN_out(t · scale): rounded to the output
//               type after the subtraction and after the multiply (GatherDequantInt8
//               §3.3, WeightQuantBatchMatmulV2 antiquant §4.5). Computed as fp32 op
//               then RN_out, which equals one correct rounding of each op when zp
//               and scale are values of the output type (24 ≥ 2·11+2 bits).
enum class Rounding { kFp32Once, kPerStep };
enum class OutType { kFloat, kFloat16, kBf16 };

struct DequantArgs {
  const uint8_t* q = nullptr;
  QType qtype = QType::kInt8;
  NibbleOrder nibbles = NibbleOrder::kLowFirst;
  QuantGeometry geometry;
  const float* scale = nullptr;       // ParamCount() values
  const float* zero_point = nullptr;  // ParamCount() values, or nullptr for 0
  Rounding rounding = Rounding::kPerStep;
  OutType out_type = OutType::kFloat;
};

// Writes rows·cols elements of out_type (fp32, or fp16/bf16 bits) to `out`.
// Returns false (writing nothing) when the geometry is invalid.
bool Dequantize(const DequantArgs& args, void* out);

// The same result computed element by element, straight from the definition
// above: slow, and kept so tests can hold Dequantize's fast paths (lookup
// tables, vectorised rows, AVX-512) to it bit for bit.
bool DequantizeElementwise(const DequantArgs& args, void* out);

// One row of `count` q with a single (scale, zero_point): the gather kernel.
// `q_offset` is the element index of q[0] within the packed stream (int4 parity).
template <typename Out>
void DequantRow(const uint8_t* q, QType qtype, NibbleOrder nibbles, int64_t q_offset, int64_t count,
                float scale, float zero_point, Rounding rounding, Out* out);

// Quantize: q = clip(RNE(x / scale + zp), qmin, qmax), per the geometry's params,
// computed in double. Writes rows·cols q (int4 packed per `nibbles`).
bool Quantize(const float* x, const QuantGeometry& geometry, const float* scale,
              const float* zero_point, QType qtype, NibbleOrder nibbles, uint8_t* q);

// Params from the min/max of each tensor / channel / group of x.
// Symmetric (int8/int4 only): scale = max|x| / qmax, zp = 0.
// Asymmetric: the range [min(x,0), max(x,0)] onto [qmin, qmax]:
//   scale = (hi − lo) / (qmax − qmin), zp = clip(RNE(qmin − lo / scale), qmin, qmax).
// An all-zero set gets scale 1 (no division by zero). Returns false for an
// invalid geometry or symmetric uint8.
bool ChooseParams(const float* x, const QuantGeometry& geometry, QType qtype, bool symmetric,
                  float* scale, float* zero_point);

// Integer range of a QType: int8 [−128, 127], uint8 [0, 255], int4 [−8, 7].
int32_t QMin(QType qtype);
int32_t QMax(QType qtype);

// Round-to-nearest-even double → fp16 bits, one correct rounding (a cast
// through float would round twice); overflow to ±inf, NaN kept.
uint16_t HalfBitsFromDouble(double value);

}  // namespace npuconf::quant
