#include "core/dtype.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace npuconf {
namespace {

// C0 = 32 B cube block / element size (spec cann.md §0.2 "ubblock_size 32",
// §2.5 C0 table): 16 for 2-byte types, 32 for 1-byte types, 8 for 4-byte
// types (`CalcC0Format`; §5.6 lists the README's 16 as the other reading),
// 64 for INT4 (§2.5, §5.7).
constexpr std::array<DTypeInfo, 12> kInfos = {{
    {DType::kFloat16, "FLOAT16", 16, 16},
    {DType::kBf16, "BF16", 16, 16},
    {DType::kFloat, "FLOAT", 32, 8},
    {DType::kInt8, "INT8", 8, 32},
    {DType::kUint8, "UINT8", 8, 32},
    {DType::kInt32, "INT32", 32, 8},
    {DType::kFloat8E4M3Fn, "FLOAT8_E4M3FN", 8, 32},
    {DType::kHiFloat8, "HIFLOAT8", 8, 32},
    {DType::kInt4, "INT4", 4, 64},
    {DType::kInt16, "INT16", 16, 16},
    {DType::kInt64, "INT64", 64, 0},
    {DType::kUint64, "UINT64", 64, 0},
}};

std::string Upper(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return out;
}

}  // namespace

const DTypeInfo* AllDTypes(int* count) {
  *count = static_cast<int>(kInfos.size());
  return kInfos.data();
}

const DTypeInfo& Info(DType dtype) {
  for (const auto& info : kInfos) {
    if (info.dtype == dtype) return info;
  }
  return kInfos[0];  // unreachable for enum values
}

std::string_view Name(DType dtype) { return Info(dtype).name; }
int Bits(DType dtype) { return Info(dtype).bits; }

std::optional<DType> ParseDType(std::string_view name) {
  const std::string up = Upper(name);
  for (const auto& info : kInfos) {
    if (up == info.name) return info.dtype;
  }
  if (up == "FP16" || up == "HALF") return DType::kFloat16;
  if (up == "BFLOAT16") return DType::kBf16;
  if (up == "FP32" || up == "FLOAT32") return DType::kFloat;
  if (up == "FP8" || up == "FP8_E4M3FN") return DType::kFloat8E4M3Fn;
  if (up == "HIF8") return DType::kHiFloat8;
  return std::nullopt;
}

std::optional<DType> DTypeFromAbi(int32_t value) {
  for (const auto& info : kInfos) {
    if (static_cast<int32_t>(info.dtype) == value) return info.dtype;
  }
  return std::nullopt;
}

std::optional<uint64_t> BytesForElems(DType dtype, uint64_t elems) {
  const int bits = Bits(dtype);
  if (bits == 4) return elems / 2 + (elems % 2);
  const uint64_t bytes_per = static_cast<uint64_t>(bits) / 8;
  if (elems > UINT64_MAX / bytes_per) return std::nullopt;
  return elems * bytes_per;
}

}  // namespace npuconf
