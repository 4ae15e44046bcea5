// The conv-weight and format-cast size APIs (spec layouts.md §A.9, §A.10) as
// the oracle states them: checks as ordered rule tables, grouped FRACTAL_Z as
// block-diagonal tiles of Eigen tensors (slice per group → reshape → shuffle),
// sizes as products of those tiles' dims. Written apart from reference/.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/case.h"
#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf::oracle::cann_convweight {

// Grouped FRACTAL_Z dims of an NCHW fp16 weight with C0 16, by TSU's form of
// the factor: e = min(lcm(16/gcd(Cin,16), 16/gcd(cout,16)), g) (§A.0 item 1).
// nullopt when cout = N div g is 0, a dim is < 1 or an extent leaves int64.
std::optional<Shape> GroupedFzDims(const Shape& nchw, int64_t groups);

// The fp16 FRACTAL_Z storage (bit patterns) of an NCHW weight given as fp16
// bits or fp32 (cast to Eigen::half first: round to nearest even).
std::vector<uint16_t> GroupedFz(const Bytes& weight, DType dtype, const Shape& nchw,
                                int64_t groups);

// What a routine's case must get: the status and the rule that decided it.
struct Expect {
  int64_t status = 0;
  std::string rule;
  // calculate_convolution_weight_size: size in elements; trans: storage dims
  // (empty: the both-empty exit, weightOut untouched); format cast: dst dims.
  uint64_t size = 0;
  Shape dims;
  int32_t actual_format = 0;
};

// `raw`: the profile document (its soc_version and conv_weight section).
Expect ExpectConvolutionWeightSize(const nlohmann::json& raw, const Case& c);
Expect ExpectTransConvolutionWeight(const nlohmann::json& raw, const Case& c);
Expect ExpectFormatCast(const nlohmann::json& raw, const Case& c);

}  // namespace npuconf::oracle::cann_convweight
