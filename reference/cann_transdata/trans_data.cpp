// Host TransData (spec layouts.md §A.1, §A.3–A.7). NCHW/NCDHW with groups 1
// and NHWC ↔ NC1HWC0, NDHWC ↔ NDC1HWC0 run on the channel-block kernels
// (ChannelBlocks, reference/blocks): NDC1HWC0 is NC1HWC0 with N·D images, and
// FRACTAL_Z_3D is FRACTAL_Z with D·C1 row blocks. Every other pair takes one loop
// nest: for each (n, c, d) of the weight, the H·W plane is copied with the two
// sides' strides; where the plain side holds C contiguously (NHWC, NDHWC) the
// copy runs along C instead, one memcpy per C0 run (every run lies inside one
// C0 block). FRACTAL_Z_C04 is an element loop along its flattened (h, w, c4)
// axis. No index division inside the copy loops.
#include "reference/cann_transdata/trans_data.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "core/routines/cann_transdata.h"
#include "reference/blocks/channel_blocks.h"
#include "reference/simd/isa.h"

namespace npuconf::cann_transdata {
namespace {

using namespace routines::cann_transdata;

// GE's kShapeItemNumMAX (spec layouts.md §A.1 step 2).
constexpr int64_t kMaxShapeItems = int64_t{1} << 40;
constexpr int64_t kCubeN = 16;  // §A.3: the N axis is split by 16

bool IsPlain4d(Format f) { return f == Format::kNchw || f == Format::kNhwc || f == Format::kHwcn; }
bool IsPlain5d(Format f) {
  return f == Format::kNcdhw || f == Format::kNdhwc || f == Format::kDhwcn;
}
bool IsPlain(Format f) { return IsPlain4d(f) || IsPlain5d(f) || f == Format::kNd; }
bool IsFz(Format f) { return f == Format::kFractalZ || f == Format::kFractalZ3d; }
bool IsNz(Format f) {
  return f == Format::kFractalNz || f == Format::kFractalNz16 || f == Format::kFractalNz32;
}

// The pairs GE and the aclnn support map register (§A.1, §A.3, §A.5–A.7).
bool Registered(Format plain, Format blocked) {
  switch (blocked) {
    case Format::kNc1hwc0:
    case Format::kNc1hwc0C04:  // the aclnn support map's NCHW/NHWC <-> 5HD_C04 (§A.2)
      return plain == Format::kNchw || plain == Format::kNhwc;
    case Format::kFractalZ:
      return IsPlain4d(plain);
    case Format::kNdc1hwc0:  // aclnn NCDHW, NDHWC <-> 6HD (§A.6)
      return plain == Format::kNcdhw || plain == Format::kNdhwc;
    case Format::kFractalZ3d:  // §A.7
      return IsPlain5d(plain);
    case Format::kFractalZC04:  // aclnn NCHW/HWCN <-> FZ_C04 (§A.5 Directions)
      return plain == Format::kNchw || plain == Format::kHwcn;
    default:
      return IsNz(blocked) && plain == Format::kNd;  // §A.8
  }
}

// Element strides of the plain side; d is 0 for the 4-D formats (D = 1).
struct Strides {
  int64_t n, c, d, h, w;
};

Strides PlainStrides(const TransDataPlan& p) {
  switch (p.plain) {
    case Format::kNchw:
      return {p.c * p.h * p.w, p.h * p.w, 0, p.w, 1};
    case Format::kNhwc:
      return {p.h * p.w * p.c, 1, 0, p.w * p.c, p.c};
    case Format::kNcdhw:
      return {p.c * p.d * p.h * p.w, p.d * p.h * p.w, p.h * p.w, p.w, 1};
    case Format::kNdhwc:
      return {p.d * p.h * p.w * p.c, 1, p.h * p.w * p.c, p.w * p.c, p.c};
    case Format::kDhwcn:
      return {1, p.n, p.h * p.w * p.c * p.n, p.w * p.c * p.n, p.c * p.n};
    default:  // HWCN
      return {1, p.n, 0, p.w * p.c * p.n, p.c * p.n};
  }
}

template <int kBytes>
inline void CopyElem(const uint8_t* from, uint8_t* to) {
  std::memcpy(to, from, kBytes);
}

// Copies every element of the weight between the plain offset and the
// blocked one; `pack` says which side is read.
template <int kBytes>
void Convert(const TransDataPlan& p, const uint8_t* src, uint8_t* dst) {
  const Strides s = PlainStrides(p);
  const bool fz = IsFz(p.blocked);                      // else NC1HWC0, NC1HWC0_C04 or NDC1HWC0
  const int64_t bw = fz ? p.cout_padded * p.c0 : p.c0;  // blocked stride of w
  const int64_t bh = p.w * bw;
  // D sits outside C1 on both blocked sides (§A.6, §A.7): ((.. · D + d) · C1 + c1) · H · W.
  const int64_t bd = p.c1 * p.h * bh;
  const int64_t n_valid = fz ? p.groups * p.cout : p.n;
  auto blocked_base = [&](int64_t n, int64_t c) {
    if (!fz) return ((n * p.d * p.c1 + c / p.c0) * p.h * p.w) * p.c0 + c % p.c0;
    const int64_t g = n / p.cout, ev = g % p.e;
    const int64_t ci = ev * p.c + c, co = ev * p.cout + n % p.cout;
    return ((g / p.e) * p.d * p.c1 + ci / p.c0) * p.h * p.w * bw + co * p.c0 + ci % p.c0;
  };
  auto copy = [&](int64_t plain_off, int64_t blocked_off, int64_t elems) {
    const uint8_t* from = src + (p.pack ? plain_off : blocked_off) * kBytes;
    uint8_t* to = dst + (p.pack ? blocked_off : plain_off) * kBytes;
    std::memcpy(to, from, static_cast<size_t>(elems) * kBytes);
  };
  if (s.c == 1) {
    // NHWC, NDHWC: runs along C, split where the blocked C0 index wraps.
    for (int64_t n = 0; n < n_valid; ++n) {
      for (int64_t c = 0; c < p.c;) {
        const int64_t ci = fz && p.groups > 1 ? (n / p.cout % p.e) * p.c + c : c;
        const int64_t run = std::min(p.c - c, p.c0 - ci % p.c0);
        const int64_t base = blocked_base(n, c);
        for (int64_t d = 0; d < p.d; ++d) {
          for (int64_t h = 0; h < p.h; ++h) {
            for (int64_t w = 0; w < p.w; ++w) {
              copy(n * s.n + c + d * s.d + h * s.h + w * s.w, base + d * bd + h * bh + w * bw, run);
            }
          }
        }
        c += run;
      }
    }
    return;
  }
  // Otherwise the H·W plane of each (n, c, d), both sides strided.
  const int64_t from_h = (p.pack ? s.h : bh) * kBytes, from_w = (p.pack ? s.w : bw) * kBytes;
  const int64_t to_h = (p.pack ? bh : s.h) * kBytes, to_w = (p.pack ? bw : s.w) * kBytes;
  for (int64_t n = 0; n < n_valid; ++n) {
    for (int64_t c = 0; c < p.c; ++c) {
      for (int64_t d = 0; d < p.d; ++d) {
        const int64_t plain_off = (n * s.n + c * s.c + d * s.d) * kBytes;
        const int64_t blocked_off = (blocked_base(n, c) + d * bd) * kBytes;
        const uint8_t* from_plane = src + (p.pack ? plain_off : blocked_off);
        uint8_t* to_plane = dst + (p.pack ? blocked_off : plain_off);
        for (int64_t h = 0; h < p.h; ++h) {
          const uint8_t* from = from_plane + h * from_h;
          uint8_t* to = to_plane + h * to_h;
          for (int64_t w = 0; w < p.w; ++w, from += from_w, to += to_w) CopyElem<kBytes>(from, to);
        }
      }
    }
  }
}

// FRACTAL_Z_C04 (§A.5): C padded to 4 and flattened with (h, w) as f = (h·W + w)·4 + c
// (under the reading accepted of D8, MS's f = ((c div 4)·H·W + h·W + w)·4 + c mod 4),
// element (n, f) at (f div C0)·N1·16·C0 + n·C0 + f mod C0: each n's flattened row of
// K = rows·C0 elements (rows the first storage dim) cut into C0-runs, run k of every n
// side by side. It goes a chunk of n at a time through an L1 scratch holding the
// chunk's flattened rows back to back: each n's row is built there (pack: its
// pixels' channels side by side, zeros in the pad channels and past 4·C1'·H·W) or
// read from there (unpack), and run k of the whole chunk moves between the
// scratch and blocked row k in one call (blocks::GatherRuns / ScatterRuns).
// Element by element straight into the blocked side it was 10-25× memcpy
// (bench/trans_data_bench, [N, 4, 4, 4] fp16); with each n's row built in a
// line buffer and its runs moved one memcpy each, 7-10× at 1-4 MiB.
constexpr int64_t kC04ChunkBytes = 8 << 10;

template <int kBytes>
void C04Rows(const TransDataPlan& p, const uint8_t* src, uint8_t* dst) {
  const Strides s = PlainStrides(p);
  const int64_t hw = p.h * p.w, rows = p.storage[0], run = p.c0 * kBytes;
  const int64_t line_bytes = rows * run;                                    // one n's flattened row
  const int64_t chunk = std::max<int64_t>(1, kC04ChunkBytes / line_bytes);  // n per chunk
  const int64_t row_bytes = p.cout_padded * run;                            // one blocked row
  const bool stream = p.pack && p.dst_bytes >= simd::kStreamMinBytes;
  const bool planar = p.plain == Format::kNchw && kBytes <= 4;  // blocks:: takes 1, 2, 4
  // The bytes of a row the planar build writes: every pixel's 4 lanes (pad
  // lanes too); the rest of the row is zeroed first.
  const int64_t built = p.c04_c1 * hw * 4 * kBytes;
  if (p.pack && p.cout_padded > p.n) {  // the pad rows n >= N of every blocked row
    for (int64_t k = 0; k < rows; ++k) {
      std::memset(dst + k * row_bytes + p.n * run, 0,
                  static_cast<size_t>((p.cout_padded - p.n) * run));
    }
  }
  // fp16 (C0 16) with H·W a multiple of 16: each 16-pixel tile of an n is
  // runs 4t … 4t + 3 whole, so the tiles write the blocked rows themselves, no
  // scratch (× memcpy, pack / unpack, against the scratch with
  // PlanesToC0Images: 1 MiB 1.91 / 2.33 → 1.02 / 1.05, 64 MiB 1.05 / 1.16 →
  // 0.81 / 1.06; in cache, × the vector copy, 4.0 / 4.8 → 1.3 / 1.5).
  if (planar && kBytes == 2 && p.c0 == 16 && p.c04_c1 == 1 && hw % 16 == 0) {
    const int64_t planes = std::min<int64_t>(4, p.c);
    if (p.pack ? blocks::PlanesToC04Runs(p.n, s.n * kBytes, src, hw * kBytes, planes, hw, dst,
                                         row_bytes, stream)
               : blocks::C04RunsToPlanes(p.n, s.n * kBytes, src, row_bytes, planes, hw, dst,
                                         hw * kBytes)) {
      if (stream) blocks::FinishStreaming();
      return;
    }
  }
  std::vector<uint8_t> scratch(static_cast<size_t>(chunk * line_bytes));
  for (int64_t n0 = 0; n0 < p.n; n0 += chunk) {
    const int64_t count = std::min(chunk, p.n - n0);
    if (!p.pack) {
      for (int64_t k = 0; k < rows; ++k) {
        blocks::ScatterRuns(src + k * row_bytes + n0 * run, count, run, scratch.data() + k * run,
                            line_bytes);
      }
    }
    if (planar) {
      // Each group of 4 channels is 4 planes of H·W ↔ H·W pixels of 4 lanes:
      // channel blocks of C0 4 (pad lanes written 0), the chunk's n in one call.
      if (p.pack && built < line_bytes) {
        for (int64_t i = 0; i < count; ++i) {
          std::memset(scratch.data() + i * line_bytes + built, 0,
                      static_cast<size_t>(line_bytes - built));
        }
      }
      for (int64_t g = 0; g < p.c04_c1; ++g) {
        const int64_t planes = std::min<int64_t>(4, p.c - 4 * g);
        const int64_t plain_at = (n0 * s.n + 4 * g * s.c) * kBytes;
        uint8_t* at = scratch.data() + g * hw * 4 * kBytes;
        if (p.pack) {
          blocks::PlanesToC0Images(count, s.n * kBytes, line_bytes, src + plain_at, hw * kBytes,
                                   planes, hw, 4, kBytes, at, 4 * kBytes, false);
        } else {
          blocks::C0ToPlanesImages(count, line_bytes, s.n * kBytes, at, 4 * kBytes, planes, hw, 4,
                                   kBytes, dst + plain_at, hw * kBytes, false);
        }
      }
    }
    for (int64_t i = 0; i < count && !planar; ++i) {
      const int64_t n = n0 + i;
      uint8_t* line = scratch.data() + i * line_bytes;
      if (p.pack) std::memset(line, 0, static_cast<size_t>(line_bytes));
      for (int64_t c = 0; c < p.c; ++c) {
        uint8_t* at = line + ((c / 4) * hw * 4 + c % 4) * kBytes;
        for (int64_t h = 0; h < p.h; ++h) {
          const uint8_t* plain = (p.pack ? src : dst) + (n * s.n + c * s.c + h * s.h) * kBytes;
          for (int64_t w = 0; w < p.w; ++w, at += 4 * kBytes) {
            const uint8_t* elem = plain + w * s.w * kBytes;
            if (p.pack) {
              CopyElem<kBytes>(elem, at);
            } else {
              CopyElem<kBytes>(at, const_cast<uint8_t*>(elem));
            }
          }
        }
      }
    }
    if (p.pack) {
      for (int64_t k = 0; k < rows; ++k) {
        blocks::GatherRuns(scratch.data() + k * run, line_bytes, count, run,
                           dst + k * row_bytes + n0 * run, stream);
      }
    }
  }
  if (stream) blocks::FinishStreaming();
}

// FRACTAL_NZ (spec cann.md §2.5): row r of batch b, columns [c1·C0, c1·C0 + C0) are
// one contiguous run at ((b·C1 + c1)·N1·16 + r)·C0 on the blocked side.
void ConvertNz(const TransDataPlan& p, const uint8_t* src, uint8_t* dst) {
  const int64_t bytes = p.elem_bytes;
  for (int64_t b = 0; b < p.batch; ++b) {
    for (int64_t r = 0; r < p.rows; ++r) {
      const int64_t plain_row = (b * p.rows + r) * p.cols;
      for (int64_t c1 = 0; c1 < p.c1; ++c1) {
        const int64_t run = std::min(p.c0, p.cols - c1 * p.c0);
        const int64_t plain_off = plain_row + c1 * p.c0;
        const int64_t blocked_off = ((b * p.c1 + c1) * p.cout_padded + r) * p.c0;
        const int64_t from = p.pack ? plain_off : blocked_off,
                      to = p.pack ? blocked_off : plain_off;
        std::memcpy(dst + to * bytes, src + from * bytes, static_cast<size_t>(run * bytes));
      }
    }
  }
}

int64_t PlanNz(const TransDataFacts& facts, const TransDataArgs& args, TransDataPlan* p) {
  // Rank >= 1, no negative dim, at most 2^40 elements (as §A.1 step 2).
  const Shape& s = args.shape;
  if (s.empty()) return kGeShapeInvalid;
  int64_t product = 1;
  for (int64_t d : s) {
    if (d < 0) return kGeShapeInvalid;
    if (d != 0 && product > kMaxShapeItems / d) return kGeShapeInvalid;
    product *= d;
  }
  const Format nz = p->blocked;
  auto it = facts.nz_c0.find(args.dtype);
  if (Bits(args.dtype) % 8 != 0 ||
      (nz == Format::kFractalNz && args.c0 <= 0 && it == facts.nz_c0.end()))
    return kGeDatatypeInvalid;
  if (args.groups > 1 || args.groups < 0) return kGeShapeInvalid;
  // §A.8: _C0_16 / _C0_32 fix C0 whatever the dtype.
  p->c0 = nz == Format::kFractalNz16   ? 16
          : nz == Format::kFractalNz32 ? 32
          : args.c0 > 0                ? args.c0
                                       : it->second;
  p->elem_bytes = Bits(args.dtype) / 8;
  // A rank-1 [k]: one row (AICPU, golden.py) or one column (TSU, torch_npu), §A.0 item 3.
  if (s.size() == 1) {
    p->rows = facts.nz_1d_column ? s[0] : 1;
    p->cols = facts.nz_1d_column ? 1 : s[0];
  } else {
    p->rows = s[s.size() - 2];
    p->cols = s.back();
    for (size_t i = 0; i + 2 < s.size(); ++i) p->batch *= s[i];
  }
  p->c1 = CeilDiv(p->cols, p->c0);
  p->cout_padded = CeilDiv(p->rows, kCubeN) * kCubeN;
  p->storage.assign(s.begin(), s.size() >= 2 ? s.end() - 2 : s.begin());
  p->storage.insert(p->storage.end(), {p->c1, p->cout_padded / kCubeN, kCubeN, p->c0});
  auto storage_elems = NumElements(p->storage);
  if (!storage_elems) return kGeShapeInvalid;
  p->storage_elems = *storage_elems;
  p->plain_elems = product;
  const uint64_t plain_bytes = static_cast<uint64_t>(p->plain_elems * p->elem_bytes);
  const uint64_t storage_bytes = static_cast<uint64_t>(p->storage_elems * p->elem_bytes);
  p->src_bytes = p->pack ? plain_bytes : storage_bytes;
  p->dst_bytes = p->pack ? storage_bytes : plain_bytes;
  p->dst_dims = p->pack ? p->storage : args.shape;
  return kGeSuccess;
}

// NC(D)HW ↔ FRACTAL_Z / FRACTAL_Z_3D, groups 1 (§A.3, §A.7): blocked row
// (d, c1, j) is [n][C0] over all Np, so per C0 block of channels it is a
// transpose of the rows (n, c0) and the D·H·W columns (d, j), column (d, j)
// going to blocked row (d, c1, j).
//
// Full C0 blocks of fp16 with H·W a multiple of 16 go straight to or from the
// rows (blocks::C0RunPairs: on AVX-512 a pair of n at a time, each row's run
// of the pair one 64-byte store or load; on AVX2 one n at a time), except
// where that measured slower and C0RunPairs declines: a cached pack with more
// than 8 of its rows on one L1 set (rows Np·C0·2 bytes apart, e.g. 4 KiB from
// Np 128 on; the lines were evicted before their stores landed: × memcpy at
// 1 MiB 1.9 → 2.5), a streamed unpack that would store half plane lines, the
// streamed AVX2 pack (its rules and figures: channel_blocks.cpp). Direct, in
// the same runs of bench/trans_data_bench (avx512, median of 3–5 interleaved
// runs; × memcpy, × the vector copy at 64 KiB): FRACTAL_Z unpack 64 KiB 3.2 →
// 2.2, 1 MiB 2.0 → 1.6, 4 MiB 2.2 → 1.5, 16 MiB 1.7 → 1.0, 64 MiB 1.2 → 1.0;
// pack 64 KiB 3.2 → 1.9, 16 MiB 1.3 → 1.1; FRACTAL_Z_3D 64 KiB 3.3–3.9 →
// 2.0–2.4, unpack 1 MiB 2.1 → 1.8, streamed 16–256 MiB 1.7–1.9 → 1.2–1.3.
//
// Otherwise through an L1 scratch of kFzCols columns × a chunk of n whose C0
// runs together fill kFzRunBytes: each transposed n lands in the scratch, and
// each blocked row's chunk moves whole (full cache lines). Written straight
// into the rows one n at a time, every n wrote a half line into each of H·W
// rows Np·C0 elements apart, a multiple of 4 KiB from Np 128 on: one L1 set,
// evicted before the next n filled the other half (2.75× memcpy to pack and
// 5× to unpack at 64 MiB, 4.4× to pack at 1 MiB; README, Speed). A cached
// output with few columns takes chunks up to kFzCachedRunBytes (within
// kFzScratchBytes), so each call covers more n (H·W 16, fp16, with
// PlanesToC0Images: 1 MiB 2.2 → 1.9× memcpy, 256 KiB 3.4 → 2.5× the vector
// copy); streamed, the longer runs were slower (FRACTAL_Z 64 MiB pack 1.1 →
// 1.3× memcpy). The columns run over D·H·W, so a plane's line is read or
// written whole across d. This replaced the stage that a streamed
// FRACTAL_Z_3D unpack went through when it went d by d (× memcpy about even:
// 16 MiB 2.0, 64 MiB 1.6–1.8), and the streamed pack's passes d by d (below,
// at prefetch_planes).
constexpr int64_t kFzRunBytes = 256;
constexpr int64_t kFzCachedRunBytes = 512;
constexpr int64_t kFzScratchBytes = int64_t{16} << 10;
constexpr int64_t kFzCols = 64;
constexpr int64_t kFzPrefetchChunks = 4;

void FractalZBlocks(const TransDataPlan& p, const uint8_t* src, uint8_t* dst) {
  const int64_t e = p.elem_bytes, hw = p.h * p.w, run = p.c0 * e;
  // Large outputs are streamed (non-temporal stores; simd::kStreamMinBytes):
  // the packed rows' runs as they leave the scratch (× memcpy at 64 MiB 2.05 →
  // 1.23, 256 MiB 2.43 → 1.36), the unpacked planes as the tiles write them
  // (FRACTAL_Z_3D 16 MiB 5.6 → 2.9, 64 MiB 2.7 → 2.2; FRACTAL_Z 256 MiB
  // within the noise, 2.1 → 2.5 in one run and better in others).
  const bool stream = p.dst_bytes >= simd::kStreamMinBytes;
  const int64_t columns = p.d * hw;  // a channel's D·H·W elements, d by d
  const int64_t run_bytes =
      stream ? kFzRunBytes
             : std::min(kFzCachedRunBytes, kFzScratchBytes / std::min(columns, kFzCols));
  const int64_t chunk = std::max<int64_t>(1, run_bytes / run);  // n per chunk
  const int64_t row_bytes = p.cout_padded * run;                // one blocked row
  const int64_t plane_stride = columns * e;
  const int64_t image = p.c * plane_stride;  // one n of the weight
  if (p.pack && p.cout_padded > p.n) {       // the pad rows n >= N of every blocked row
    for (int64_t row = 0; row < p.d * p.c1 * hw; ++row) {
      std::memset(dst + row * row_bytes + p.n * run, 0,
                  static_cast<size_t>((p.cout_padded - p.n) * run));
    }
  }
  // Unpacking a large FRACTAL_Z reads H·W rows (up to kFzCols) a chunk of n at a
  // time, each row Np·C0 elements from the next: too many strided streams for
  // the hardware prefetchers. The chunk kFzPrefetchChunks ahead is prefetched
  // (× memcpy at 64 MiB 2.10 → 1.20, 256 MiB 2.40 → 1.55; FRACTAL_Z_3D 2.03 →
  // 1.76). Prefetching FRACTAL_Z's planes to pack was slower (64 MiB 1.30 → 1.57;
  // again here 1.2 → 1.4-1.7): those are read in order.
  const bool prefetch = !p.pack && p.src_bytes >= simd::kStreamMinBytes;
  // A streamed FRACTAL_Z_3D pack prefetches its planes kFzPrefetchChunks
  // chunks ahead. When it went d by d, reading half of each plane's line
  // 4 KiB-strided across n, its speed hung on the code's layout (AVX2, ×
  // memcpy at 64 MiB: 1.2-4.5 between builds whose loops were the same);
  // prefetched 2.0-2.2 at 16-256 MiB, and with all D·H·W columns at once
  // (whole lines) 1.2-1.5.
  const bool prefetch_planes = p.pack && stream && p.d > 1;
  // The scratch on a cache line boundary: malloc's 16-byte alignment split
  // its 32-byte runs over two lines.
  std::vector<uint8_t> scratch(static_cast<size_t>(kFzCols * chunk * run + 63));
  uint8_t* const tile =
      scratch.data() + (64 - reinterpret_cast<uintptr_t>(scratch.data()) % 64) % 64;
  const int64_t tile_stride = chunk * run;    // one column's chunk in the scratch
  const int64_t block = p.c0 * plane_stride;  // one n's C0 planes
  // Blocked row (d, c1, j % H·W) of column j (d = j / (H·W)): at row_at[j] +
  // c1 · H·W rows.
  std::vector<int64_t> row_at(static_cast<size_t>(columns));
  for (int64_t j = 0; j < columns; ++j) row_at[j] = (j / hw * p.c1 * hw + j % hw) * row_bytes;
  const auto row_of = [&](int64_t c1, int64_t j) { return row_at[j] + c1 * hw * row_bytes; };
  if (p.c % p.c0 == 0 && hw % 16 == 0) {
    auto* plain = const_cast<uint8_t*>(p.pack ? src : dst);
    auto* rows = const_cast<uint8_t*>(p.pack ? dst : src);
    bool paired = true;  // all C0 blocks or none: the path and shapes decide
    for (int64_t c1 = 0; c1 < p.c1 && paired; ++c1) {
      paired = blocks::C0RunPairs(p.pack, p.n, image, plain + c1 * block, plane_stride, p.c0,
                                  columns, hw, e, p.c0, rows + c1 * hw * row_bytes, row_bytes,
                                  p.c1 * hw * row_bytes, stream);
    }
    if (paired) {
      if (stream) blocks::FinishStreaming();
      return;
    }
  }
  for (int64_t c1 = 0; c1 < p.c1; ++c1) {
    const int64_t planes = std::min(p.c0, p.c - c1 * p.c0);
    for (int64_t n0 = 0; n0 < p.n; n0 += chunk) {
      const int64_t count = std::min(chunk, p.n - n0);
      const int64_t blocks_at = n0 * image + c1 * block;  // the chunk's planes of this block
      for (int64_t j0 = 0; j0 < columns; j0 += kFzCols) {
        const int64_t cols = std::min(kFzCols, columns - j0);
        const int64_t plane_at = j0 * e;
        if (p.pack) {
          if (prefetch_planes && n0 + kFzPrefetchChunks * chunk < p.n) {
            const uint8_t* ahead = src + blocks_at + kFzPrefetchChunks * chunk * image + plane_at;
            for (int64_t i = 0; i < count; ++i) {
              for (int64_t r = 0; r < planes; ++r) {
                __builtin_prefetch(ahead + i * image + r * plane_stride);
              }
            }
          }
          blocks::PlanesToC0Images(count, image, run, src + blocks_at + plane_at, plane_stride,
                                   planes, cols, p.c0, e, tile, tile_stride, false);
          for (int64_t j = 0; j < cols; ++j) {
            blocks::CopyRun(dst + row_of(c1, j0 + j) + n0 * run, tile + j * tile_stride,
                            count * run, stream);
          }
        } else {
          for (int64_t j = 0; j < cols; ++j) {
            const uint8_t* from = src + row_of(c1, j0 + j) + n0 * run;
            if (prefetch && n0 + kFzPrefetchChunks * chunk < p.n) {
              for (int64_t b = 0; b < count * run; b += 64) {
                __builtin_prefetch(from + kFzPrefetchChunks * chunk * run + b);
              }
            }
            std::memcpy(tile + j * tile_stride, from, static_cast<size_t>(count * run));
          }
          blocks::C0ToPlanesImages(count, run, image, tile, tile_stride, planes, cols, p.c0, e,
                                   dst + blocks_at + plane_at, plane_stride, stream);
        }
      }
    }
  }
  if (stream) blocks::FinishStreaming();
}

// NHWC ↔ NC1HWC0 (NDHWC ↔ NDC1HWC0: N·D images, §A.6): each pixel's C0-runs go
// to their planes. NCHW / NCDHW with groups 1: each (n, d, C0 block) of channel
// planes (D·H·W apart in NCDHW) is one transpose to or from its blocked rows
// (reference/blocks: register tiles where the path has them), NC1HWC0 and
// NDC1HWC0 rows following each other; FRACTAL_Z(_3D) goes through
// FractalZBlocks. Writes every output byte: the pad lanes of a block, and for
// FRACTAL_Z(_3D) the pad rows n ≥ N, are set to 0 here.
bool ChannelBlocks(const TransDataPlan& p, const uint8_t* src, uint8_t* dst) {
  const int64_t e = p.elem_bytes, hw = p.h * p.w;
  if ((p.plain == Format::kNhwc && p.blocked == Format::kNc1hwc0) ||
      (p.plain == Format::kNdhwc && p.blocked == Format::kNdc1hwc0)) {
    // NHWC: each pixel's C0-runs to their planes (§A.1).
    const int64_t image = hw * p.c * e, blocked_image = p.c1 * hw * p.c0 * e;
    // Large outputs are streamed (non-temporal stores; simd::kStreamMinBytes).
    const bool stream = p.dst_bytes >= simd::kStreamMinBytes;
    for (int64_t n = 0; n < p.n * p.d; ++n) {
      if (p.pack) {
        blocks::PixelsToBlocks(src + n * image, hw, p.c * e, p.c0 * e, dst + n * blocked_image,
                               hw * p.c0 * e, stream);
      } else {
        blocks::BlocksToPixels(src + n * blocked_image, hw * p.c0 * e, hw, p.c * e, p.c0 * e,
                               dst + n * image, stream);
      }
    }
    if (stream) blocks::FinishStreaming();
    return true;
  }
  if ((p.plain != Format::kNchw && p.plain != Format::kNcdhw) || p.groups != 1 ||
      p.elem_bytes > 4 || p.blocked == Format::kFractalZC04)
    return false;
  if (IsFz(p.blocked)) {
    FractalZBlocks(p, src, dst);
    return true;
  }
  const int64_t plane_stride = p.d * hw * e;  // a channel's D·H·W elements
  // Large outputs are streamed (non-temporal stores; simd::kStreamMinBytes).
  const bool stream = p.dst_bytes >= simd::kStreamMinBytes;
  for (int64_t n = 0; n < p.n; ++n) {
    for (int64_t d = 0; d < p.d; ++d) {
      for (int64_t c1 = 0; c1 < p.c1; ++c1) {
        const int64_t planes = std::min(p.c0, p.c - c1 * p.c0);
        const int64_t plane_at = ((n * p.c + c1 * p.c0) * p.d + d) * hw * e;
        const int64_t block_at = ((n * p.d + d) * p.c1 + c1) * hw * p.c0 * e;
        if (p.pack) {
          blocks::PlanesToC0(src + plane_at, plane_stride, planes, hw, p.c0, e, dst + block_at,
                             p.c0 * e, stream);
        } else {
          blocks::C0ToPlanes(src + block_at, p.c0 * e, planes, hw, p.c0, e, dst + plane_at,
                             plane_stride, stream);
        }
      }
    }
  }
  if (stream) blocks::FinishStreaming();
  return true;
}

// a · b, or nullopt past int64 (a caller's dims, GE's MulOverflow checks).
std::optional<int64_t> Mul(std::initializer_list<int64_t> factors) {
  int64_t out = 1;
  for (int64_t f : factors) {
    if (__builtin_mul_overflow(out, f, &out)) return std::nullopt;
  }
  return out;
}

int64_t Lcm(int64_t a, int64_t b) { return a / std::gcd(a, b) * b; }

}  // namespace

std::optional<Format> ParseFormat(std::string_view name) {
  static const std::pair<const char*, Format> kNames[] = {
      {"NCHW", Format::kNchw},
      {"NHWC", Format::kNhwc},
      {"HWCN", Format::kHwcn},
      {"NC1HWC0", Format::kNc1hwc0},
      {"FRACTAL_Z", Format::kFractalZ},
      {"ND", Format::kNd},
      {"FRACTAL_NZ", Format::kFractalNz},
      {"FRACTAL_NZ_C0_16", Format::kFractalNz16},
      {"FRACTAL_NZ_C0_32", Format::kFractalNz32},
      {"NC1HWC0_C04", Format::kNc1hwc0C04},
      {"NCDHW", Format::kNcdhw},
      {"NDHWC", Format::kNdhwc},
      {"DHWCN", Format::kDhwcn},
      {"NDC1HWC0", Format::kNdc1hwc0},
      {"FRACTAL_Z_3D", Format::kFractalZ3d},
      {"FRACTAL_Z_C04", Format::kFractalZC04}};
  for (const auto& [text, format] : kNames) {
    if (name == text) return format;
  }
  return std::nullopt;
}

TransDataFacts ReadTransDataFacts(const nlohmann::json& raw) {
  TransDataFacts facts;
  if (!raw.contains("trans_data")) return facts;
  const auto& section = raw.at("trans_data");
  for (const auto& [name, c0] : section.at("c0").at("value").items()) {
    auto dtype = ParseDType(name);
    if (!dtype || !c0.is_number_integer())
      throw std::runtime_error("trans_data.c0: bad entry " + name);
    facts.c0[*dtype] = c0.get<int64_t>();
  }
  facts.groups_exceed_n_ungrouped = section.at("groups_exceed_n").at("value") == "ungrouped";
  facts.nz_1d_column = section.at("nz_1d").at("value") == "column";
  facts.fz_c04_fixed_16 = section.at("fz_c04_c0").at("value") == "fixed_16";
  facts.fz_c04_accepts_c_over_4 = section.at("fz_c04_c_over_4").at("value") == "accepted";
  for (const auto& [name, c0] : raw.at("fractal_nz").at("c0").at("value").items()) {
    if (auto dtype = ParseDType(name)) facts.nz_c0[*dtype] = c0.get<int64_t>();
  }
  return facts;
}

int64_t PlanTransData(const TransDataFacts& facts, const TransDataArgs& args, TransDataPlan* out) {
  TransDataPlan p;
  // 1. The pair (§A.1 step 1).
  p.pack = IsPlain(args.src);
  p.plain = p.pack ? args.src : args.dst;
  p.blocked = p.pack ? args.dst : args.src;
  if (!IsPlain(p.plain) || IsPlain(p.blocked) || !Registered(p.plain, p.blocked))
    return kGeFormatInvalid;
  if (p.plain == Format::kNd) {
    const int64_t status = PlanNz(facts, args, &p);
    if (status == kGeSuccess) *out = p;
    return status;
  }
  // 2. The shape: rank 4 (5 for the 3-D formats, §A.6 AICPU), no negative dim, the
  // product checked step by step (§A.1 step 2).
  const Shape& s = args.shape;
  if (s.size() != (IsPlain5d(p.plain) ? 5u : 4u)) return kGeShapeInvalid;
  int64_t product = 1;
  for (int64_t d : s) {
    if (d < 0) return kGeShapeInvalid;
    if (d != 0 && product > kMaxShapeItems / d) return kGeShapeInvalid;
    product *= d;
  }
  if (product > kMaxShapeItems) return kGeShapeInvalid;
  switch (p.plain) {
    case Format::kNchw:
      p.n = s[0], p.c = s[1], p.h = s[2], p.w = s[3];
      break;
    case Format::kNhwc:
      p.n = s[0], p.h = s[1], p.w = s[2], p.c = s[3];
      break;
    case Format::kNcdhw:
      p.n = s[0], p.c = s[1], p.d = s[2], p.h = s[3], p.w = s[4];
      break;
    case Format::kNdhwc:
      p.n = s[0], p.d = s[1], p.h = s[2], p.w = s[3], p.c = s[4];
      break;
    case Format::kDhwcn:
      p.d = s[0], p.h = s[1], p.w = s[2], p.c = s[3], p.n = s[4];
      break;
    default:
      p.h = s[0], p.w = s[1], p.c = s[2], p.n = s[3];
  }
  // 3. The dtype: a byte-sized type with a C0 (§A.1 step 2; C0 from the format word, §A.0.1).
  auto it = facts.c0.find(args.dtype);
  // FRACTAL_Z_C04 takes no C0 from the caller: GE's fz_c04 ignores the format
  // word's C0 bits (§A.5). Every other format takes the format word's C0 first.
  const bool c04 = p.blocked == Format::kFractalZC04;
  const int64_t supplied_c0 = c04 ? 0 : args.c0;
  if (Bits(args.dtype) % 8 != 0 || (supplied_c0 <= 0 && it == facts.c0.end()))
    return kGeDatatypeInvalid;
  // NC1HWC0_C04: C0 is 4 whatever the dtype, and C is not checked against it (§A.2).
  // FRACTAL_Z_C04: the dtype's cube (GE GetCubeSizeByDataType, the table), or 16 for
  // every dtype under the reading fixed_16 of D7 (MS).
  p.c0 = p.blocked == Format::kNc1hwc0C04 ? 4
         : supplied_c0 > 0                ? supplied_c0
         : c04 && facts.fz_c04_fixed_16   ? 16
                                          : it->second;
  p.elem_bytes = Bits(args.dtype) / 8;
  const bool five_hd = p.blocked == Format::kNc1hwc0 || p.blocked == Format::kNc1hwc0C04;
  // 4. Groups (§A.4): 0 and 1 mean ungrouped. FRACTAL_Z_C04 with groups > 1 is GE's
  // UNSUPPORTED (§A.5, UT nchw_fzc04_groups_invalid), which has no ACL_ERROR_GE code:
  // 145021, as for groups on any other format without a sub-format.
  if (args.groups < 0) return kGeShapeInvalid;
  p.groups = std::max<int64_t>(args.groups, 1);
  if (p.groups > 1 && !IsFz(p.blocked)) return kGeShapeInvalid;
  if (p.groups > 1 && p.c == 0) return kGeShapeInvalid;
  // 5. FRACTAL_Z_C04 needs C <= 4 (§A.5: GE PaddingNC 145021), unless the facts
  // accept more (D8: MS packs ceil(C/4) blocks of 4).
  if (c04 && p.c > 4 && !facts.fz_c04_accepts_c_over_4) return kGeShapeInvalid;
  if (p.groups > 1 && p.n < p.groups) {
    if (!facts.groups_exceed_n_ungrouped) return kGeShapeInvalid;
    p.groups = 1;
  }
  p.cout = p.n / p.groups;
  if (p.groups > 1) {
    const int64_t e_cin = Lcm(p.c, p.c0) / p.c, e_cout = Lcm(p.cout, kCubeN) / p.cout;
    p.e = facts.three_way_min ? std::min({e_cin, e_cout, p.groups})
                              : std::min(Lcm(e_cin, e_cout), p.groups);
  }
  p.c1 = CeilDiv(p.e * p.c, p.c0);
  p.cout_padded = CeilDiv(p.e * p.cout, kCubeN) * kCubeN;
  p.g_blocks = CeilDiv(p.groups, p.e);
  std::optional<int64_t> rows;  // the first storage dim of FRACTAL_Z(_3D, _C04)
  if (five_hd) {
    p.storage = {p.n, p.c1, p.h, p.w, p.c0};
  } else if (p.blocked == Format::kNdc1hwc0) {
    p.storage = {p.n, p.d, p.c1, p.h, p.w, p.c0};
  } else if (c04) {
    p.c04_c1 = std::max<int64_t>(1, CeilDiv(p.c, 4));
    if (auto f = Mul({4, p.c04_c1, p.h, p.w})) rows = CeilDiv(*f, p.c0);
  } else {
    rows = Mul({p.g_blocks, p.d, p.c1, p.h, p.w});
  }
  if (!five_hd && p.blocked != Format::kNdc1hwc0) {
    if (!rows) return kGeShapeInvalid;
    p.storage = {*rows, p.cout_padded / kCubeN, kCubeN, p.c0};
  }
  auto storage_elems = NumElements(p.storage);
  if (!storage_elems || *storage_elems > kMaxShapeItems * 64) return kGeShapeInvalid;
  p.storage_elems = *storage_elems;
  p.plain_elems = product;
  const uint64_t plain_bytes = static_cast<uint64_t>(p.plain_elems * p.elem_bytes);
  const uint64_t storage_bytes = static_cast<uint64_t>(p.storage_elems * p.elem_bytes);
  p.src_bytes = p.pack ? plain_bytes : storage_bytes;
  p.dst_bytes = p.pack ? storage_bytes : plain_bytes;
  p.dst_dims = p.pack ? p.storage : args.shape;
  *out = p;
  return kGeSuccess;
}

void RunTransData(const TransDataPlan& p, const uint8_t* src, uint8_t* dst) {
  if (p.dst_bytes == 0) return;
  if (p.plain_elems != 0 && ChannelBlocks(p, src, dst)) return;
  if (p.plain_elems != 0 && p.blocked == Format::kFractalZC04) {  // writes every byte
    switch (p.elem_bytes) {
      case 1:
        return C04Rows<1>(p, src, dst);
      case 2:
        return C04Rows<2>(p, src, dst);
      case 4:
        return C04Rows<4>(p, src, dst);
      default:
        return C04Rows<8>(p, src, dst);
    }
  }
  // Padding (pack) and the rows no group reads (unpack, N not a multiple of g) hold 0.
  if (p.pack || p.groups * p.cout < p.n) std::memset(dst, 0, p.dst_bytes);
  if (p.plain_elems == 0) return;
  if (p.plain == Format::kNd) return ConvertNz(p, src, dst);
  switch (p.elem_bytes) {
    case 1:
      return Convert<1>(p, src, dst);
    case 2:
      return Convert<2>(p, src, dst);
    case 4:
      return Convert<4>(p, src, dst);
    default:
      return Convert<8>(p, src, dst);
  }
}

}  // namespace npuconf::cann_transdata
