// Shared pieces of the dequant properties (cann.antiquant,
// cann.gather_dequant_int8[_quantize], rknn.dequant_b): the deterministic
// param data of a case (scales, zero points by named distribution), calling the
// port, the oracle's answer for a materialized case, and bit compares that
// treat every NaN as equal to every NaN.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "conformance/harness/call.h"
#include "conformance/harness/expected.h"
#include "conformance/harness/property.h"
#include "conformance/ports/port.h"
#include "core/routines/quant.h"
#include "oracles/quant/quant_oracle.h"

namespace npuconf::quant_props {

inline constexpr const char* kGather = routines::quant::kGatherDequantInt8;
inline constexpr const char* kGenData = routines::quant::kGatherDequantInt8Quantize;
inline constexpr const char* kAntiquant = routines::quant::kAntiquant;
inline constexpr const char* kRknnB = routines::quant::kRknnDequantB;

// Choices (profile "choices" when present, else these defaults; see
// docs in conformance/quant_routines.cpp).
inline constexpr char kChoiceGatherValidation[] = "cann.gather_dequant.validation";
inline constexpr char kChoiceGatherEmbed[] = "cann.gather_dequant.embed_dim";
inline constexpr char kChoiceConstantRow[] = "cann.gather_dequant.constant_row";
inline constexpr char kChoiceChannel2d[] = "cann.antiquant.channel_scale_2d";
inline constexpr char kChoiceGroupOrder[] = "rknn.quant.group_order";
inline constexpr char kChoiceZeroPoint[] = "rknn.quant.zero_point";
inline constexpr char kChoiceGroupSize[] = "rknn.quant.group_size";

// ---- deterministic data of a case ---------------------------------------------

// `kind`: mixed (default), positive, ordinary, tiny, subnormal, huge, exact,
// index (value i+1), ones. Magnitudes: ordinary 2^[-10,-2) random mantissa;
// tiny 2^[-14,-11); subnormal k·2^-24 (fp16 subnormals); huge 2^[6,12); exact
// 2^k, k in [-8, 2]. mixed draws a kind per value and makes 1 in 8 negative, so
// neighbouring groups and channels never share a scale by construction.
std::vector<double> ScaleValues(uint64_t seed, int64_t count, const std::string& kind);
// `kind`: zero, integer (in [lo, hi]), fractional (k/8 steps and random fp16
// mantissas in [lo-8, hi+8]), mixed (default).
std::vector<double> ZeroPointValues(uint64_t seed, int64_t count, const std::string& kind,
                                    int64_t lo, int64_t hi);
// Float weights: normal (randn·0.1 like gen_data.py §3.5) or uniform [-1, 1).
std::vector<float> WeightValues(uint64_t seed, int64_t count, const std::string& kind);
uint16_t Bits16(double value, DType dtype);  // FLOAT16 or BF16, RNE from fp32
double Value16(uint16_t bits, DType dtype);
std::vector<int32_t> IndexValues(uint64_t seed, int64_t count, int64_t vocab);

// ---- calling and comparing ----------------------------------------------------

using npuconf::Called;
// Materializes and calls; a Verdict when the port did not answer. A port that
// answers "unclaimed" for a case that asks for a non-default reading of a choice
// (`reading_param` set in the case) gets a Skip, not a Fail.
std::optional<Verdict> CallQuantPort(const PropertyContext& ctx, const Case& c, Called* out);
std::optional<Verdict> CallQuantPort(const PropertyContext& ctx, Invocation inv, Called* out);

// The reading a property checks: the port's claimed choice, else the profile's
// value, else `fallback`.
std::string Reading(const PropertyContext& ctx, const std::string& choice,
                    const std::string& fallback);

std::string StatusText(const std::string& routine, int64_t status);
// Output bytes unchanged from what the runner handed in.
std::optional<Verdict> CheckUntouched(const Called& k, const std::string& why);

// First element whose 16-bit (fp16/bf16) or 32-bit (fp32) value differs; NaN
// equals NaN whatever its payload.
std::optional<int64_t> FirstDiff16(const uint8_t* got, const std::vector<uint16_t>& want,
                                   DType dtype);
std::optional<int64_t> FirstDiff32(const uint8_t* got, const std::vector<float>& want);
std::string Hex16(uint16_t bits);
std::string Hex32(float value);

std::vector<uint16_t> Words16(const std::vector<uint8_t>& bytes);
std::vector<uint16_t> Words16(const uint8_t* data, int64_t count);

// ---- the oracle's view of a materialized case -----------------------------------

oracle::quant::AntiquantCall AntiquantCallOf(const Case& c, const Invocation& inv,
                                             const Profile& profile);
oracle::quant::RknnCall RknnCallOf(const PropertyContext& ctx, const Case& c,
                                   const Invocation& inv);
// The same with the readings a case names, else the profile's (no port claims).
oracle::quant::RknnCall RknnCallOfProfile(const Case& c, const Invocation& inv,
                                          const Profile& profile);
oracle::quant::GatherCall GatherCallOf(const Invocation& inv, const Case& c);

// Which B_quant_type × B dtype pairs rknn.dequant_b checks on a platform (issue
// #9 item 7): the B dtypes (INT8/INT4) of the platform's supported matmul types
// (spec rknn.md §3.1 via the profile's supported_types, §1.1 type table);
// per-layer (0) everywhere, asymmetric per-layer (1) where the profile's
// quant_types says B_quant_type exists (§1.2: added in v2.1.0); per-channel
// (2, 3) only with the B dtypes of the profile's per_channel_types (§5.4, #550;
// none where not known); per-group (4, 5) only with the B dtypes of the
// profile's per_group_types that it supports (the DEMO's types, §5.4). Other
// pairs are skipped, naming this.
struct RknnDequantCombos {
  std::map<int64_t, std::vector<DType>> by_quant_type;
  std::vector<DType> DTypesFor(int64_t quant_type) const;
  bool AnyQuantType(DType dtype) const;
  bool Supports(int64_t quant_type, DType dtype) const;
};
inline constexpr char kRknnDequantSupportSource[] =
    "spec rknn.md §1.2, §3.1, §5.4 (profile supported_types, quant_types, per_channel_types, "
    "per_group_types)";
RknnDequantCombos RknnDequantSupport(const Profile& profile);
std::vector<int32_t> IndicesOf(const Invocation& inv);

// The oracle's answer of each routine, for vector files (gather_properties.cpp,
// weight_properties.cpp).
Expected ExpectGatherAnswer(const PropertyContext& ctx, const Invocation& inv);
Expected ExpectWeightAnswer(const PropertyContext& ctx, const Invocation& inv);

// Registration of each routine's properties (conformance/quant_*_properties.cpp).
void AddGatherProperties(std::vector<Property>* out);
void AddAntiquantProperties(std::vector<Property>* out);
void AddRknnDequantProperties(std::vector<Property>* out);

}  // namespace npuconf::quant_props
