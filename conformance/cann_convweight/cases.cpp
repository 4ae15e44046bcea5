// The explicit cases of the conv-weight and format-cast routines: the doc
// example and the derived rows of spec layouts.md §A.9 and §A.4, real conv
// weights, padding edges, and one invalid call per check of §A.9 and §A.10,
// each citing its source. Their expected answers come from the oracle, except
// DocumentedSizes, whose sizes are the spec's own numbers.
#include "conformance/cann_convweight/family.h"
#include "core/conv_shapes.h"
#include "core/routines/cann_convweight.h"

namespace npuconf::cann_convweight_props {
namespace {

namespace ids = routines::cann_convweight;

Case Size(const Profile& p, const Shape& s, int64_t groups) {
  Case c(ids::kCalculateConvolutionWeightSize, p.name);
  return c.Set("shape", s).Set("groups", groups).Set("dtype", DType::kFloat16);
}

Case Trans(const Profile& p, const Shape& s, int64_t groups, DType dtype = DType::kFloat16) {
  Case c(ids::kTransConvolutionWeight, p.name);
  return c.Set("shape", s).Set("groups", groups).Set("dtype", dtype).Set("seed", int64_t{7});
}

Case Cast(const Profile& p, const Shape& s, const char* src, const char* dst, DType dtype) {
  Case c(ids::kNpuFormatCastCalculateSizeAndFormat, p.name);
  return c.Set("shape", s).Set("src_format", src).Set("dst_format", dst).Set("dtype", dtype);
}

}  // namespace

std::vector<DocumentedSize> DocumentedSizes(const Profile& p) {
  return {
      // docs/aclnnCalculateConvolutionWeightSize.md (§A.9): [2,4,8,8] → FZ [64,1,16,16].
      {Size(p, {2, 4, 8, 8}, 1), 16384, "§A.9 doc example"},
      // §A.9 [derived]: (2,2,32,16) g=1 → (512,1,16,16).
      {Size(p, {2, 2, 32, 16}, 1), 131072, "§A.9 [derived]"},
      // §A.4 [derived]: the last element of (128,2,3,3) g=8 is 18431 = size − 1.
      {Size(p, {128, 2, 3, 3}, 8), 18432, "§A.4 [derived], (127,1,2,2) → 18431"},
      // §A.4 [derived]: NCHW (16,8,1,1) g=4 → e=4 → (2,1,16,16).
      {Size(p, {16, 8, 1, 1}, 4), 512, "§A.4 [derived]"},
      // §A.4 TSU-UT: (48,512,5,5) g=16 → fp16 (12800,3,16,16).
      {Size(p, {48, 512, 5, 5}, 16), 12800u * 3 * 256, "§A.4 TSU-UT"},
      // §A.4 GE-UT fp16_1c_1n_with_groups: HWCN (1,1,1,2) g=2 (NCHW (2,1,1,1)) → (1,1,16,16).
      {Size(p, {2, 1, 1, 1}, 2), 256, "§A.4 GE-UT fp16_1c_1n_with_groups"},
      // §A.4 GE-UT fp16_4c_8n_with_groups_02: HWCN (3,3,4,8) g=2 (NCHW (8,4,3,3)) → (9,1,16,16).
      {Size(p, {8, 4, 3, 3}, 2), 2304, "§A.4 GE-UT fp16_4c_8n_with_groups_02"},
      // §A.9: any dim == 0 → size 0, SUCCESS.
      {Size(p, {0, 4, 8, 8}, 1), 0, "§A.9 a dim == 0"},
  };
}

std::vector<Case> SizeEdgeCases(const Profile& p, bool real_shapes) {
  std::vector<Case> out;
  for (const auto& row : DocumentedSizes(p)) out.push_back(row.c);
  // Real conv weights: the first of each model of vectors/real/conv_shapes.json
  // (cann.trans_data packs every one; this routine sizes the same grouped FRACTAL_Z).
  if (real_shapes) {
    for (const RealConvWeight& w : FirstConvWeightPerModel())
      out.push_back(Size(p, w.shape, w.groups));
  }
  // Padding edges (Cin, cout mod 16 in {0, 1, 15}), N not a multiple of groups
  // (§A.4 hazard 4), the largest groups §A.9 admits, a dim past 2^16.
  out.push_back(Size(p, {17, 15, 1, 1}, 1));
  out.push_back(Size(p, {31, 17, 2, 2}, 1));
  out.push_back(Size(p, {17, 3, 2, 3}, 4));
  out.push_back(Size(p, {65535, 1, 1, 1}, 65535));
  out.push_back(Size(p, {16, 70000, 1, 1}, 1));
  // §A.9 (D13 as shipped): a zero dim exits with size 0 before TransData sees groups > 65535.
  out.push_back(Size(p, {2, 0, 8, 8}, 70000));
  return out;
}

std::vector<Case> SizeInvalidCases(const Profile& p) {
  const Shape ok = {2, 4, 8, 8};
  return {
      // §A.9: tensorShape == nullptr → 161001.
      Size(p, ok, 1).SetNull("shape"),
      // §A.9: size == nullptr → 161001, before the rank check.
      Size(p, ok, 1).SetNull("weight_tensor_size"),
      Size(p, {2, 4, 8}, 1).SetNull("weight_tensor_size"),
      // §A.9: rank ≠ 4 → 161002.
      Size(p, {2, 4, 8}, 1),
      Size(p, {2, 4, 8, 8, 1}, 1),
      // §A.9: transposed → 161002.
      Size(p, ok, 1).Set("transposed", int64_t{1}),
      // §A.9: groups == 0 → 161002.
      Size(p, ok, 0),
      // §A.9/§A.12 D13: groups > 65535 → 561103 after the dim checks (as shipped), 161002 at
      // the groups check (as documented).
      Size(p, ok, 65536),
      Size(p, ok, 70000),
      // §A.9 doc range [1,65535] (D13 as documented: 161002); as shipped npuconf's own 161002.
      Size(p, ok, -1),
      // §A.9: dataType ≠ FLOAT16 → 161002, before the zero-dim exit and TransData.
      Size(p, ok, 1).Set("dtype", DType::kFloat),
      Size(p, ok, 1).Set("dtype", DType::kBf16),
      Size(p, {0, 4, 8, 8}, 1).Set("dtype", DType::kFloat),
      Size(p, ok, 70000).Set("dtype", DType::kFloat),
      // §A.9: a dim < 0 → 161002, before TransData.
      Size(p, {2, -4, 8, 8}, 1),
      Size(p, {2, -4, 8, 8}, 70000),
      // npuconf's own (undefined upstream, §A.4 hazard 3): N < groups → 161002.
      Size(p, {2, 4, 1, 1}, 4),
  };
}

std::vector<Case> TransEdgeCases(const Profile& p, bool real_shapes) {
  std::vector<Case> out = {
      // §A.9 doc example shape, fp16 and fp32 (cast first, round to nearest even).
      Trans(p, {2, 4, 8, 8}, 1),
      Trans(p, {2, 4, 8, 8}, 1, DType::kFloat),
      // §A.4 GE-UT grouped golds as NCHW and the derived rows.
      Trans(p, {2, 1, 1, 1}, 2),
      Trans(p, {8, 4, 3, 3}, 2),
      Trans(p, {128, 2, 3, 3}, 8),
      Trans(p, {16, 8, 1, 1}, 4, DType::kFloat),
  };
  // Real weights (see SizeEdgeCases), FLOAT16 and FLOAT in turn (§A.9: weightIn is either).
  if (real_shapes) {
    bool fp32 = false;
    for (const RealConvWeight& w : FirstConvWeightPerModel()) {
      out.push_back(Trans(p, w.shape, w.groups, fp32 ? DType::kFloat : DType::kFloat16));
      fp32 = !fp32;
    }
  }
  // Padding edges; N mod groups ≠ 0.
  out.insert(out.end(), {Trans(p, {31, 17, 2, 2}, 1), Trans(p, {17, 3, 2, 3}, 4),
                         Trans(p, {33, 16, 1, 1}, 2, DType::kFloat)});
  return out;
}

std::vector<Case> TransInvalidCases(const Profile& p) {
  const Shape ok = {2, 4, 8, 8};
  return {
      // §A.9: weightIn == nullptr → 161001; weightOut == nullptr → 161001.
      Trans(p, ok, 1).SetNull("shape"),
      Trans(p, ok, 1).SetNull("weight_out"),
      Trans(p, {2, 4, 8}, 1).SetNull("weight_out"),
      // §A.9 CheckParams: rank ≠ 4, transposed, groups == 0 → 161002.
      Trans(p, {2, 4, 8}, 1),
      Trans(p, ok, 1).Set("transposed", int64_t{1}),
      Trans(p, ok, 0),
      // §A.9/§A.12 D13: groups > 65535 → 561103 as shipped, 161002 as documented.
      Trans(p, ok, 65536),
      // §A.9: weightIn dtype ∉ {FLOAT16, FLOAT}, weightOut dtype ≠ FLOAT16 → 161002,
      // before TransData (so 161002 with groups > 65535 too).
      Trans(p, ok, 1, DType::kInt8),
      Trans(p, ok, 1, DType::kBf16),
      Trans(p, ok, 1).Set("out_dtype", DType::kFloat),
      Trans(p, ok, 70000).Set("out_dtype", DType::kFloat),
      // §A.9: both view formats NCHW, weightOut contiguous → else 161002.
      Trans(p, ok, 1).Set("in_format", "NHWC"),
      Trans(p, ok, 1).Set("out_format", "HWCN"),
      Trans(p, ok, 1).Set("out_contiguous", int64_t{0}),
      // §A.9: one side empty and the other not → 161002.
      Trans(p, {0, 4, 8, 8}, 1).Set("out_shape", ok),
      Trans(p, ok, 1).Set("out_shape", Shape{2, 0, 8, 8}),
      // npuconf's own (undefined upstream): a negative dim; N < groups (§A.4 hazard 3).
      Trans(p, {2, -4, 8, 8}, 1),
      Trans(p, {2, 4, 1, 1}, 4),
  };
}

std::vector<Case> TransEmptyCases(const Profile& p) {
  // §A.9: both sides empty → workspace 0, SUCCESS, weightOut untouched; the
  // empty exit comes before TransData (groups > 65535 does not matter, D13 as shipped).
  return {Trans(p, {0, 4, 8, 8}, 1), Trans(p, {2, 4, 0, 8}, 1, DType::kFloat),
          Trans(p, {0, 4, 8, 8}, 70000)};
}

std::vector<Case> CastEdgeCases(const Profile& p) {
  return {
      // §A.10 with §A.1: NCHW fp16 (4,33,7,7) → NC1HWC0, C0 = 32/2 = 16; fp32 C0 = 32/4 = 8
      // (§A.0.1 NFC); int8 → FRACTAL_Z with C0 32 (tests/cann_convweight_test.cpp).
      Cast(p, {4, 33, 7, 7}, "NCHW", "NC1HWC0", DType::kFloat16),
      Cast(p, {4, 33, 7, 7}, "NCHW", "NC1HWC0", DType::kFloat),
      Cast(p, {4, 33, 7, 7}, "NCHW", "FRACTAL_Z", DType::kInt8),
      Cast(p, {17, 7, 7, 33}, "NHWC", "NC1HWC0", DType::kBf16),
      Cast(p, {3, 3, 31, 17}, "HWCN", "FRACTAL_Z", DType::kFloat),
      // §A.10 with §A.6/§A.7: the 5-D branches.
      Cast(p, {2, 17, 3, 4, 5}, "NCDHW", "NDC1HWC0", DType::kFloat16),
      Cast(p, {2, 3, 4, 5, 17}, "NDHWC", "NDC1HWC0", DType::kInt8),
      Cast(p, {2, 17, 3, 4, 5}, "NCDHW", "FRACTAL_Z_3D", DType::kFloat),
      Cast(p, {3, 4, 5, 17, 2}, "DHWCN", "FRACTAL_Z_3D", DType::kHiFloat8),
      // §A.10: additionalDtype decides C0 (NFC GetC0ByAdditionalDtype): fp16 with INT8 → 32.
      Cast(p, {4, 33, 7, 7}, "NCHW", "NC1HWC0", DType::kFloat16)
          .Set("additional_dtype", DType::kInt8),
      // §A.10: a reverse branch returns the view shape.
      Cast(p, {4, 3, 7, 7, 16}, "NC1HWC0", "NCHW", DType::kFloat16),
      Cast(p, {98, 1, 16, 32}, "FRACTAL_Z", "HWCN", DType::kInt8),
      // §A.10: the empty-tensor fallback is non-950 only: on 950 an empty tensor is sized.
      Cast(p, {0, 33, 7, 7}, "NCHW", "NC1HWC0", DType::kFloat16),
  };
}

std::vector<Case> CastInvalidCases(const Profile& p) {
  const Shape ok = {4, 33, 7, 7};
  return {
      // §A.10/§A.12 D12: srcTensor == nullptr → 161002 as shipped (choice
      // cann.format_cast.null_src; nullptr_161001: 161001), before the dtype check.
      Cast(p, ok, "NCHW", "NC1HWC0", DType::kFloat16).SetNull("shape"),
      Cast(p, ok, "NCHW", "NC1HWC0", DType::kInt16).SetNull("shape"),
      // §A.10: src dtype outside the list → 161002, before the empty and pair checks.
      Cast(p, ok, "NCHW", "NC1HWC0", DType::kInt16),
      Cast(p, {0, 33, 7, 7}, "NCHW", "NDC1HWC0", DType::kInt64),
      // §A.10: a pair outside the branches → 361001.
      Cast(p, ok, "NCHW", "NDC1HWC0", DType::kFloat16),
      Cast(p, ok, "NHWC", "FRACTAL_Z", DType::kFloat16),
      Cast(p, {2, 17, 3, 4, 5}, "NCDHW", "NC1HWC0", DType::kFloat16),
      // §A.10: an empty tensor on non-950 → 361001 (on 950 it is sized: CastEdgeCases).
      Cast(p, {4, 0, 7, 7}, "NCHW", "FRACTAL_Z", DType::kFloat16),
      // npuconf's own (§A.10 "no rank check"): a rank other than the src format's; a
      // negative dim → 161002.
      Cast(p, {4, 33, 7}, "NCHW", "NC1HWC0", DType::kFloat16),
      Cast(p, {4, 33, 7, 7}, "NCDHW", "NDC1HWC0", DType::kFloat16),
      Cast(p, {4, -33, 7, 7}, "NCHW", "NC1HWC0", DType::kFloat16),
  };
}

}  // namespace npuconf::cann_convweight_props
