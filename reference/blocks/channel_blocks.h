// The inner move of every channel-blocked layout from or to NCHW: CANN's
// NC1HWC0 and FRACTAL_Z (spec layouts.md §A.1, §A.3, C0 channels a block) and
// RKNN's NC1HWC2 (§B.2, C2 channels). Up to C0 channel planes, each `cols`
// contiguous elements (H·W of NCHW), ↔ `cols` blocked rows of C0 elements
// (NC1HWC0 / NC1HWC2: consecutive rows; FRACTAL_Z: rows Np·C0 elements
// apart). Element j of plane r is element r of blocked row j. "C0" below is
// the block, C2 for RKNN. It is a transpose, so it is done in register tiles where the
// running path has them (AVX2: 8-bit C0 16 / 32, 16-bit C0 4 / 8 / 16, 32-bit
// C0 8 / 16; 16-bit C0 4 with blocked rows back to back; AVX-512 besides:
// 8-bit and 16-bit C0 16 with blocked rows back to back, whole lines of every
// plane, and the cached 16-bit C0 16 pack), else element by element.
#pragma once

#include <cstdint>

namespace npuconf::blocks {

// Plane → blocked. `planes` in [1, c0] planes of `cols` elements, plane r at
// plain + r · plain_stride bytes; blocked row j at blocked + j · blocked_stride
// bytes, c0 · elem_bytes bytes long. Lanes [planes, c0) of every blocked row
// are written 0 (the vendor's padding, §A.1). elem_bytes is 1, 2 or 4.
// stream: the caller's whole output is large (simd::kStreamMinBytes or more)
// and leaves the caches anyway, so the register-tile paths may write it with
// non-temporal stores where its alignment allows (whole blocked rows back to
// back); the caller calls FinishStreaming() after its last call.
void PlanesToC0(const uint8_t* plain, int64_t plain_stride, int64_t planes, int64_t cols,
                int64_t c0, int64_t elem_bytes, uint8_t* blocked, int64_t blocked_stride,
                bool stream);

// The inverse: the first `planes` lanes of every blocked row back into the
// planes; the padding lanes are not read. stream as above (where `plain` and
// `plain_stride` are multiples of 32 bytes).
void C0ToPlanes(const uint8_t* blocked, int64_t blocked_stride, int64_t planes, int64_t cols,
                int64_t c0, int64_t elem_bytes, uint8_t* plain, int64_t plain_stride, bool stream);

// `images` moves of one geometry in one call (FRACTAL_Z's chunk of n, whose
// H·W columns are few, so that the per-call choice of tile would cost a third
// of the time): move i is PlanesToC0 / C0ToPlanes of plain + i · plain_image
// and blocked + i · blocked_image bytes. stream as above; streamed stores need
// the image strides 32-byte aligned too.
void PlanesToC0Images(int64_t images, int64_t plain_image, int64_t blocked_image,
                      const uint8_t* plain, int64_t plain_stride, int64_t planes, int64_t cols,
                      int64_t c0, int64_t elem_bytes, uint8_t* blocked, int64_t blocked_stride,
                      bool stream);
void C0ToPlanesImages(int64_t images, int64_t blocked_image, int64_t plain_image,
                      const uint8_t* blocked, int64_t blocked_stride, int64_t planes, int64_t cols,
                      int64_t c0, int64_t elem_bytes, uint8_t* plain, int64_t plain_stride,
                      bool stream);

// FRACTAL_Z_C04, 2-byte elements, C0 16, straight to and from its blocked rows
// (layouts.md §A.5: each n's (h, w, c4) flattened row in C0-runs, run k of
// every n side by side in row k). `images` consecutive n, each `planes` ≤ 4
// channel planes of `cols` pixels (cols a multiple of 16), plane r of image i
// at plain + i · plain_image + r · plain_stride bytes ↔ run k of image i at
// runs + k · run_stride + i · 32 bytes (32 = C0 16 · 2 bytes), holding pixels
// 4k … 4k + 3 with their 4 lanes; lanes [planes, 4) are written 0, and back
// are not read. Returns false, having done nothing, where the running path has
// no register tile for it (portable, NEON: the caller then builds the rows in
// a scratch).
// stream: PlanesToC04Runs' stores non-temporal where runs and run_stride are
// 32-byte aligned (FinishStreaming after).
bool PlanesToC04Runs(int64_t images, int64_t plain_image, const uint8_t* plain,
                     int64_t plain_stride, int64_t planes, int64_t cols, uint8_t* runs,
                     int64_t run_stride, bool stream);
bool C04RunsToPlanes(int64_t images, int64_t plain_image, const uint8_t* runs, int64_t run_stride,
                     int64_t planes, int64_t cols, uint8_t* plain, int64_t plain_stride);

// FRACTAL_Z (_3D) with 2-byte elements, C0 16 and a full block of 16 planes,
// straight to (to_c0) or from its blocked rows (layouts.md §A.3, §A.7: blocked
// row (d, c1, j) is [n][C0] over all Np): `images` consecutive n, plane r of
// image i at plain + i · plain_image + r · plain_stride bytes, `cols` columns
// (elements) each ↔ the 32-byte run of image i for column j = b · block_cols +
// k at runs + b · block_stride + k · run_stride + i · 32 bytes. block_cols is
// a multiple of 16 and divides cols (FRACTAL_Z_3D: H·W per d). On AVX-512 the
// images go in pairs, each pair's run of a row one 64-byte store or load; on
// AVX2 one image at a time. Returns false, having done nothing, on the other
// paths, off those shapes, and where the direct stores measured slower than
// the caller's scratch (rows many to an L1 set for a cached pack, half plane
// lines for a streamed unpack, a streamed AVX2 pack; channel_blocks.cpp says
// which and by how much): the caller then goes through PlanesToC0Images /
// C0ToPlanesImages. stream: non-temporal stores where the written side is
// aligned for them (FinishStreaming after).
bool C0RunPairs(bool to_c0, int64_t images, int64_t plain_image, uint8_t* plain,
                int64_t plain_stride, int64_t planes, int64_t cols, int64_t block_cols,
                int64_t elem_bytes, int64_t c0, uint8_t* runs, int64_t run_stride,
                int64_t block_stride, bool stream);

// `bytes` from `from` to `to`; with stream (as above) non-temporal where `to`
// is 32-byte aligned and `bytes` a multiple of 32, else memcpy.
void CopyRun(uint8_t* to, const uint8_t* from, int64_t bytes, bool stream);

// `count` runs of `run_bytes`, run i at from + i · from_stride, to `to` back
// to back (count · run_bytes bytes). stream as for PlanesToC0: non-temporal
// where `to` is 32-byte aligned and run_bytes a multiple of 32. Runs of 16, 32
// or 64 bytes are fixed-size moves; others memcpy.
void GatherRuns(const uint8_t* from, int64_t from_stride, int64_t count, int64_t run_bytes,
                uint8_t* to, bool stream);

// The inverse, cached: `count` runs of `run_bytes` back to back at `from`, run
// i to to + i · to_stride.
void ScatterRuns(const uint8_t* from, int64_t count, int64_t run_bytes, uint8_t* to,
                 int64_t to_stride);

// Orders the non-temporal stores of streamed calls before any later store
// (sfence); a no-op on the paths that do not stream.
void FinishStreaming();

// Channels-last (NHWC) ↔ channel blocks: `pixels` pixels of `c_bytes` each
// (C · element bytes, contiguous) ↔ ceil(c_bytes / block_bytes) planes, plane
// b at blocked + b · plane_stride bytes, holding each pixel's bytes
// [b · block_bytes, (b + 1) · block_bytes) as one `block_bytes` row (C0 · or
// C2 · element bytes). Pixels go in runs of a few dozen, every plane per run:
// the pixels are read once, in order, and each plane is written in order.
// Where a pixel is whole 64-byte chunks and the blocks are 16 or 32 bytes,
// the AVX-512 path moves 64 / block_bytes pixels at a time with a lane
// transpose (each plane one 64-byte store); AVX2 pairs pixels for 16-byte
// blocks (cached only).
// To blocks writes the pad bytes of the last plane's rows 0; back ignores them.
// stream as for PlanesToC0 (where the blocks are 32 or 64 bytes, C is whole
// blocks and both sides are 32-byte aligned; back then goes pixel by pixel).
void PixelsToBlocks(const uint8_t* pixels, int64_t count, int64_t c_bytes, int64_t block_bytes,
                    uint8_t* blocked, int64_t plane_stride, bool stream);
void BlocksToPixels(const uint8_t* blocked, int64_t plane_stride, int64_t count, int64_t c_bytes,
                    int64_t block_bytes, uint8_t* pixels, bool stream);

}  // namespace npuconf::blocks
