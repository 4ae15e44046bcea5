// aclnnCalculateConvolutionWeightSize / aclnnTransConvolutionWeight (310P conv
// weights, spec layouts.md §A.9) and aclnnNpuFormatCastCalculateSizeAndFormat
// (§A.10): check order, status codes and the grouped FRACTAL_Z of §A.4.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf::cann_convweight {

// The profile's conv_weight section (profiles/cann/*.json), readings applied.
struct ConvWeightFacts {
  bool conv_weight_supported = false;  // §A.9: SoC == ASCEND310P
  // choice cann.conv_weight.groups_range (D13): false (as_shipped) rejects only
  // groups == 0 up front and > 65535 later as 561103; true (as_documented)
  // rejects groups outside [1,65535] with 161002 at the groups check.
  bool groups_as_documented = false;
  bool format_cast_supported = false;            // §A.10: 950, 910_93, 910B
  bool format_cast_empty_fallback = true;        // §A.10: non-950 empty tensor → 361001
  int64_t format_cast_null_src_status = 161002;  // choice cann.format_cast.null_src (D12)
};
ConvWeightFacts ReadConvWeightFacts(const nlohmann::json& raw);

// The grouped FRACTAL_Z geometry of §A.4 for an NCHW weight (N = Cout total,
// C = Cin per group) with C0 16 (fp16, §A.9).
struct ConvFzGeometry {
  int64_t n = 0, cin = 0, h = 0, w = 0, groups = 1;
  int64_t cout = 0;         // N div groups (the rest of N is dropped, §A.4 hazard 4)
  int64_t e = 1;            // groups sharing one (Cin', Cout') tile
  int64_t c1 = 0;           // Cin' / 16
  int64_t cout_padded = 0;  // Cout'
  int64_t g_blocks = 0;     // G' = ceil(groups / e)
  Shape storage;            // (G'·C1'·H·W, Cout'/16, 16, 16)
  int64_t storage_elems = 0;
};
// False when cout = 0 (N < groups) or a product overflows int64.
bool ConvFzGeometryFor(const Shape& nchw, int64_t groups, ConvFzGeometry* g);

// Checks in code order (§A.9): shape null → 161001; size null → 161001; rank ≠ 4
// → 161002; transposed → 161002; groups == 0 (as_documented: outside [1,65535])
// → 161002; SoC not ASCEND310P → 161002; dtype not FLOAT16 → 161002; a dim < 0
// → 161002; a dim == 0 → size 0, SUCCESS; groups > 65535 → 561103 (TransData's
// nullptr). npuconf's own rejections (161002; undefined upstream): negative
// groups under as_shipped, N < groups, an int64 overflow. On error *size_elems
// is untouched.
int64_t CalculateConvolutionWeightSize(const ConvWeightFacts& facts, const Shape* shape,
                                       bool transposed, int64_t groups, DType dtype,
                                       uint64_t* size_elems);

struct TransConvolutionWeightArgs {
  bool null_in = false, null_out = false;  // weightIn / weightOut == nullptr
  Shape shape;                             // weightIn's NCHW view shape
  DType dtype = DType::kFloat16, out_dtype = DType::kFloat16;
  bool transposed = false;
  int64_t groups = 1;
  std::string in_format = "NCHW", out_format = "NCHW";
  bool out_contiguous = true;
  Shape out_shape;  // weightOut's view shape (only its emptiness is checked)
  const uint8_t* in = nullptr;
  uint64_t in_bytes = 0;
  uint8_t* out = nullptr;  // fp16 FRACTAL_Z storage
  uint64_t out_bytes = 0;
};

// The size API's checks up to the SoC (§A.9 "the same CheckParams"), then
// weightIn FLOAT16/FLOAT, weightOut FLOAT16, both view formats NCHW, weightOut
// contiguous → else 161002; one side empty, the other not → 161002; both empty
// → SUCCESS, weightOut untouched; groups > 65535 → 561103. Then fp32 is cast to
// fp16 (round to nearest even) and packed as grouped FRACTAL_Z; `storage`
// receives its dims. npuconf's own 161002: a negative dim, negative groups
// under as_shipped, N < groups, buffers smaller than the shapes.
int64_t TransConvolutionWeight(const ConvWeightFacts& facts, const TransConvolutionWeightArgs& a,
                               Shape* storage);

struct FormatCastArgs {
  bool null_src = false;
  Shape shape;  // srcTensor's view shape
  std::string src_format, dst_format;
  DType dtype = DType::kFloat16;
  std::optional<DType> additional_dtype;  // nullopt: -1, the src dtype
};
struct FormatCastResult {
  Shape dst_shape;
  int32_t actual_format = 0;
};

// §A.10: SoC not 950/910_93/910B → 161002; srcTensor null → the null_src
// reading (161002 as shipped); src dtype outside the list → 161002; an empty
// tensor on non-950 → 361001; the forward branches NCHW/NHWC → NC1HWC0,
// NCHW/HWCN → FRACTAL_Z, NCDHW/NDHWC → NDC1HWC0, NCDHW/DHWCN → FRACTAL_Z_3D
// with C0 = 32 / sizeof(additional or src dtype); their reverses return the
// view shape; any other pair → 361001. npuconf's own 161002 (undefined
// upstream, §A.10 "no rank check"): a rank other than the src format's, a
// negative dim, an additional dtype outside the list.
int64_t NpuFormatCastCalculateSizeAndFormat(const ConvWeightFacts& facts, const FormatCastArgs& a,
                                            FormatCastResult* result);

}  // namespace npuconf::cann_convweight
