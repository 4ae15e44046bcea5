// Element types of the vendors' routines: name, bit width, and the CANN cube
// block width C0 of the default FRACTAL_NZ (spec cann.md §2.5).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "npuconf/port.h"

namespace npuconf {

enum class DType : int32_t {
  kFloat16 = NPUCONF_DT_FLOAT16,
  kBf16 = NPUCONF_DT_BF16,
  kFloat = NPUCONF_DT_FLOAT,
  kInt8 = NPUCONF_DT_INT8,
  kUint8 = NPUCONF_DT_UINT8,
  kInt32 = NPUCONF_DT_INT32,
  kFloat8E4M3Fn = NPUCONF_DT_FLOAT8_E4M3FN,
  kHiFloat8 = NPUCONF_DT_HIFLOAT8,
  kInt4 = NPUCONF_DT_INT4,
  kInt16 = NPUCONF_DT_INT16,
  kInt64 = NPUCONF_DT_INT64,
  kUint64 = NPUCONF_DT_UINT64,
};

struct DTypeInfo {
  DType dtype;
  std::string_view name;  // CANN spelling: FLOAT16, BF16, INT4, …
  int bits;               // storage bits per element
  // C0 of the default ND→FRACTAL_NZ for this dtype: 32 bytes * 8 / bits
  // (spec cann.md §2.5 table, `CalcC0Format`); 0 where NZ does not apply.
  int c0;
};

// Every dtype npuconf knows, in enum order.
const DTypeInfo* AllDTypes(int* count);

const DTypeInfo& Info(DType dtype);
std::string_view Name(DType dtype);
int Bits(DType dtype);

// Parses a dtype name (case-insensitive; "FP16"/"fp16", "BF16", "INT4", …).
std::optional<DType> ParseDType(std::string_view name);
// Accepts the raw ABI value; nullopt for values outside the enum.
std::optional<DType> DTypeFromAbi(int32_t value);

// Bytes occupied by `elems` elements; int4 packs two per byte (rounded up).
// Returns nullopt on overflow.
std::optional<uint64_t> BytesForElems(DType dtype, uint64_t elems);

}  // namespace npuconf
