// Element-wise comparison of tensors held as bytes, and messages that name the
// logical element and the storage block (STYLE.md, XNNPACK testers).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "core/dtype.h"
#include "core/shape.h"

namespace npuconf {

// Raw bits of element `e` (INT4: the nibble, even element in the low nibble).
uint64_t ElementBits(std::span<const uint8_t> data, DType dtype, int64_t e);

// First element index in [0, count) whose bits differ, or nullopt.
std::optional<int64_t> FirstMismatch(std::span<const uint8_t> got, std::span<const uint8_t> want,
                                     DType dtype, int64_t count);

std::string Hex(uint64_t bits, DType dtype);

// "NZ element 1234 = batch 0, C1 block 1, N1 block 0, row 3 of 16, col 5 of C0 16
// → ND [0, 3, 21]" (or "→ padding").
std::string DescribeNzElement(const Shape& nd_shape, int64_t c0, int64_t e);
std::string DescribeNdElement(const Shape& nd_shape, int64_t e);

}  // namespace npuconf
