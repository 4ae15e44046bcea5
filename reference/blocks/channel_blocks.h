// The inner move of every channel-blocked layout from or to NCHW: CANN's
// NC1HWC0 and FRACTAL_Z (spec layouts.md §A.1, §A.3, C0 channels a block) and
// RKNN's NC1HWC2 (§B.2, C2 channels). Up to C0 channel planes, each `cols`
// contiguous elements (H·W of NCHW), ↔ `cols` blocked rows of C0 elements
// (NC1HWC0 / NC1HWC2: consecutive rows; FRACTAL_Z: rows Np·C0 elements
// apart). Element j of plane r is element r of blocked row j. "C0" below is
// the block, C2 for RKNN. It is a transpose, so it is done in register tiles where the
// running path has them (AVX2: 8-bit C0 16 / 32, 16-bit C0 8 / 16, 32-bit C0
// 8 / 16), else element by element.
#pragma once

#include <cstdint>

namespace npuconf::blocks {

// Plane → blocked. `planes` in [1, c0] planes of `cols` elements, plane r at
// plain + r · plain_stride bytes; blocked row j at blocked + j · blocked_stride
// bytes, c0 · elem_bytes bytes long. Lanes [planes, c0) of every blocked row
// are written 0 (the vendor's padding, §A.1). elem_bytes is 1, 2 or 4.
void PlanesToC0(const uint8_t* plain, int64_t plain_stride, int64_t planes, int64_t cols,
                int64_t c0, int64_t elem_bytes, uint8_t* blocked, int64_t blocked_stride);

// The inverse: the first `planes` lanes of every blocked row back into the
// planes; the padding lanes are not read.
void C0ToPlanes(const uint8_t* blocked, int64_t blocked_stride, int64_t planes, int64_t cols,
                int64_t c0, int64_t elem_bytes, uint8_t* plain, int64_t plain_stride);

}  // namespace npuconf::blocks
