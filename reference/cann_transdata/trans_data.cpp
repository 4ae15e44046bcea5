// Host TransData (spec layouts.md §A.1, §A.3, §A.4). NCHW with groups 1 and
// NHWC ↔ NC1HWC0 run on the channel-block kernels (ChannelBlocks,
// reference/blocks). Every other pair takes one loop nest: for each (n, c) of
// the weight, the H·W plane is copied with the two sides' strides; where the
// plain side holds C contiguously (NHWC) the copy runs along C instead, one
// memcpy per C0 run (every run lies inside one C0 block). No index division
// inside the copy loops.
#include "reference/cann_transdata/trans_data.h"

#include <algorithm>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "core/routines/cann_transdata.h"
#include "reference/blocks/channel_blocks.h"

namespace npuconf::cann_transdata {
namespace {

using namespace routines::cann_transdata;

// GE's kShapeItemNumMAX (spec layouts.md §A.1 step 2).
constexpr int64_t kMaxShapeItems = int64_t{1} << 40;
constexpr int64_t kCubeN = 16;  // §A.3: the N axis is split by 16

bool IsPlain(Format f) {
  return f == Format::kNchw || f == Format::kNhwc || f == Format::kHwcn || f == Format::kNd;
}
bool IsNz(Format f) {
  return f == Format::kFractalNz || f == Format::kFractalNz16 || f == Format::kFractalNz32;
}

// The pairs GE and the aclnn support map register (§A.1, §A.3).
bool Registered(Format plain, Format blocked) {
  // NC1HWC0_C04: the aclnn support map's NCHW/NHWC <-> 5HD_C04 (§A.2).
  if (blocked == Format::kNc1hwc0 || blocked == Format::kNc1hwc0C04)
    return plain == Format::kNchw || plain == Format::kNhwc;
  if (blocked == Format::kFractalZ) return IsPlain(plain) && plain != Format::kNd;
  return IsNz(blocked) && plain == Format::kNd;  // §A.8
}

struct Strides {
  int64_t n, c, h, w;
};

Strides PlainStrides(const TransDataPlan& p) {
  switch (p.plain) {
    case Format::kNchw:
      return {p.c * p.h * p.w, p.h * p.w, p.w, 1};
    case Format::kNhwc:
      return {p.h * p.w * p.c, 1, p.w * p.c, p.c};
    default:  // HWCN
      return {1, p.n, p.w * p.c * p.n, p.c * p.n};
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
  const bool fz = p.blocked == Format::kFractalZ;       // else NC1HWC0 or NC1HWC0_C04
  const int64_t bw = fz ? p.cout_padded * p.c0 : p.c0;  // blocked stride of w
  const int64_t bh = p.w * bw;
  const int64_t n_valid = fz ? p.groups * p.cout : p.n;
  auto blocked_base = [&](int64_t n, int64_t c) {
    if (!fz) return ((n * p.c1 + c / p.c0) * p.h * p.w) * p.c0 + c % p.c0;
    const int64_t g = n / p.cout, ev = g % p.e;
    const int64_t ci = ev * p.c + c, co = ev * p.cout + n % p.cout;
    return ((g / p.e) * p.c1 + ci / p.c0) * p.h * p.w * bw + co * p.c0 + ci % p.c0;
  };
  auto copy = [&](int64_t plain_off, int64_t blocked_off, int64_t elems) {
    const uint8_t* from = src + (p.pack ? plain_off : blocked_off) * kBytes;
    uint8_t* to = dst + (p.pack ? blocked_off : plain_off) * kBytes;
    std::memcpy(to, from, static_cast<size_t>(elems) * kBytes);
  };
  if (s.c == 1) {
    // NHWC: runs along C, split where the blocked C0 index wraps.
    for (int64_t n = 0; n < n_valid; ++n) {
      for (int64_t c = 0; c < p.c;) {
        const int64_t ci = fz && p.groups > 1 ? (n / p.cout % p.e) * p.c + c : c;
        const int64_t run = std::min(p.c - c, p.c0 - ci % p.c0);
        const int64_t base = blocked_base(n, c);
        for (int64_t h = 0; h < p.h; ++h) {
          for (int64_t w = 0; w < p.w; ++w) {
            copy(n * s.n + c + h * s.h + w * s.w, base + h * bh + w * bw, run);
          }
        }
        c += run;
      }
    }
    return;
  }
  // Otherwise the H·W plane of each (n, c), both sides strided.
  const int64_t from_h = (p.pack ? s.h : bh) * kBytes, from_w = (p.pack ? s.w : bw) * kBytes;
  const int64_t to_h = (p.pack ? bh : s.h) * kBytes, to_w = (p.pack ? bw : s.w) * kBytes;
  for (int64_t n = 0; n < n_valid; ++n) {
    for (int64_t c = 0; c < p.c; ++c) {
      const int64_t plain_off = (n * s.n + c * s.c) * kBytes;
      const int64_t blocked_off = blocked_base(n, c) * kBytes;
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

// NCHW ↔ FRACTAL_Z, groups 1 (§A.3): blocked row (c1, j) is [n][C0] over all
// Np, so per C0 block of channels it is a transpose of the rows (n, c0) and
// the H·W columns j. It goes through an L1 scratch of kFzCols columns × a
// chunk of n whose C0 runs together fill kFzRunBytes: each transposed n
// lands in the scratch, and each blocked row's chunk moves whole (full cache
// lines). Written straight into the rows, one n at a time, every n wrote a
// half line into each of H·W rows Np·C0 elements apart, a multiple of 4 KiB
// from Np 128 on: one L1 set, evicted before the next n filled the other
// half (2.75× memcpy to pack and 5× to unpack at 64 MiB, 4.4× to pack at
// 1 MiB; README, Speed).
constexpr int64_t kFzRunBytes = 256;
constexpr int64_t kFzCols = 64;

void FractalZBlocks(const TransDataPlan& p, const uint8_t* src, uint8_t* dst) {
  const int64_t e = p.elem_bytes, hw = p.h * p.w, run = p.c0 * e;
  const int64_t chunk = std::max<int64_t>(1, kFzRunBytes / run);  // n per chunk
  const int64_t row_bytes = p.cout_padded * run;                  // one blocked row
  if (p.pack && p.cout_padded > p.n) {  // the pad rows n >= N of every blocked row
    for (int64_t row = 0; row < p.c1 * hw; ++row) {
      std::memset(dst + row * row_bytes + p.n * run, 0,
                  static_cast<size_t>((p.cout_padded - p.n) * run));
    }
  }
  std::vector<uint8_t> scratch(static_cast<size_t>(kFzCols * chunk * run));
  uint8_t* const tile = scratch.data();
  const int64_t tile_stride = chunk * run;  // one column's chunk in the scratch
  for (int64_t c1 = 0; c1 < p.c1; ++c1) {
    const int64_t planes = std::min(p.c0, p.c - c1 * p.c0);
    for (int64_t n0 = 0; n0 < p.n; n0 += chunk) {
      const int64_t count = std::min(chunk, p.n - n0);
      for (int64_t j0 = 0; j0 < hw; j0 += kFzCols) {
        const int64_t cols = std::min(kFzCols, hw - j0);
        const int64_t plane_at = ((n0 * p.c + c1 * p.c0) * hw + j0) * e;
        const int64_t rows_at = (c1 * hw + j0) * row_bytes + n0 * run;
        if (p.pack) {
          for (int64_t i = 0; i < count; ++i) {
            blocks::PlanesToC0(src + plane_at + i * p.c * hw * e, hw * e, planes, cols, p.c0, e,
                               tile + i * run, tile_stride);
          }
          for (int64_t j = 0; j < cols; ++j) {
            std::memcpy(dst + rows_at + j * row_bytes, tile + j * tile_stride,
                        static_cast<size_t>(count * run));
          }
        } else {
          for (int64_t j = 0; j < cols; ++j) {
            std::memcpy(tile + j * tile_stride, src + rows_at + j * row_bytes,
                        static_cast<size_t>(count * run));
          }
          for (int64_t i = 0; i < count; ++i) {
            blocks::C0ToPlanes(tile + i * run, tile_stride, planes, cols, p.c0, e,
                               dst + plane_at + i * p.c * hw * e, hw * e);
          }
        }
      }
    }
  }
}

// NHWC ↔ NC1HWC0: each pixel's C0-runs go to their planes. NCHW with groups
// 1: each (n, C0 block) of channel planes is one transpose
// to or from its blocked rows (reference/blocks: register tiles where the path
// has them): NC1HWC0 rows follow each other, FRACTAL_Z rows are Np · C0
// elements apart (§A.3). Writes every output byte: the pad lanes of a block,
// and for FRACTAL_Z the pad rows n ≥ N, are set to 0 here.
bool ChannelBlocks(const TransDataPlan& p, const uint8_t* src, uint8_t* dst) {
  const int64_t e = p.elem_bytes, hw = p.h * p.w;
  if (p.plain == Format::kNhwc && p.blocked == Format::kNc1hwc0) {
    // NHWC: each pixel's C0-runs to their planes (§A.1).
    const int64_t image = hw * p.c * e, blocked_image = p.c1 * hw * p.c0 * e;
    for (int64_t n = 0; n < p.n; ++n) {
      if (p.pack) {
        blocks::PixelsToBlocks(src + n * image, hw, p.c * e, p.c0 * e, dst + n * blocked_image,
                               hw * p.c0 * e);
      } else {
        blocks::BlocksToPixels(src + n * blocked_image, hw * p.c0 * e, hw, p.c * e, p.c0 * e,
                               dst + n * image);
      }
    }
    return true;
  }
  if (p.plain != Format::kNchw || p.groups != 1 || p.elem_bytes > 4) return false;
  if (p.blocked == Format::kFractalZ) {
    FractalZBlocks(p, src, dst);
    return true;
  }
  for (int64_t n = 0; n < p.n; ++n) {
    for (int64_t c1 = 0; c1 < p.c1; ++c1) {
      const int64_t planes = std::min(p.c0, p.c - c1 * p.c0);
      const int64_t plane_at = (n * p.c + c1 * p.c0) * hw * e;
      const int64_t block_at = (n * p.c1 + c1) * hw * p.c0 * e;
      if (p.pack) {
        blocks::PlanesToC0(src + plane_at, hw * e, planes, hw, p.c0, e, dst + block_at, p.c0 * e);
      } else {
        blocks::C0ToPlanes(src + block_at, p.c0 * e, planes, hw, p.c0, e, dst + plane_at, hw * e);
      }
    }
  }
  return true;
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
      {"NC1HWC0_C04", Format::kNc1hwc0C04}};
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
  facts.three_way_min = section.at("group_factor").at("value") == "three_way_min";
  facts.groups_exceed_n_ungrouped = section.at("groups_exceed_n").at("value") == "ungrouped";
  facts.nz_1d_column = section.at("nz_1d").at("value") == "column";
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
  // 2. The shape: rank 4, no negative dim, the product checked step by step (§A.1 step 2).
  const Shape& s = args.shape;
  if (s.size() != 4) return kGeShapeInvalid;
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
    default:
      p.h = s[0], p.w = s[1], p.c = s[2], p.n = s[3];
  }
  // 3. The dtype: a byte-sized type with a C0 (§A.1 step 2; C0 from the format word, §A.0.1).
  auto it = facts.c0.find(args.dtype);
  if (Bits(args.dtype) % 8 != 0 || (args.c0 <= 0 && it == facts.c0.end()))
    return kGeDatatypeInvalid;
  // NC1HWC0_C04: C0 is 4 whatever the dtype, and C is not checked against it (§A.2).
  p.c0 = p.blocked == Format::kNc1hwc0C04 ? 4 : args.c0 > 0 ? args.c0 : it->second;
  p.elem_bytes = Bits(args.dtype) / 8;
  const bool five_hd = p.blocked == Format::kNc1hwc0 || p.blocked == Format::kNc1hwc0C04;
  // 4. Groups (§A.4): 0 and 1 mean ungrouped.
  if (args.groups < 0) return kGeShapeInvalid;
  p.groups = std::max<int64_t>(args.groups, 1);
  if (p.groups > 1 && p.blocked != Format::kFractalZ) return kGeShapeInvalid;
  if (p.groups > 1 && p.c == 0) return kGeShapeInvalid;
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
  if (five_hd) {
    p.storage = {p.n, p.c1, p.h, p.w, p.c0};
  } else {
    p.storage = {p.g_blocks * p.c1 * p.h * p.w, p.cout_padded / kCubeN, kCubeN, p.c0};
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
