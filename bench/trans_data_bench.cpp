// cann.trans_data of the reference (spec layouts.md §A.1, §A.3), beside memcpy
// and the vector copy of the same bytes, from 64 KiB to 256 MiB, and — when
// oneDNN is installed — its reorder of the same bytes as a peer where one of
// its format tags is the same layout:
//   NCHW → NC1HWC0 with C0 16 is oneDNN nchw → nChw16c, with C0 8 nchw → nChw8c;
//   NHWC → NC1HWC0 (C0 16) is nhwc → nChw16c; the inverses likewise.
//   NCDHW / NDHWC → NDC1HWC0 (C0 16) is ncdhw / ndhwc → nCdhw16c.
// FRACTAL_Z has no oneDNN tag (its C1·H·W outer axis puts H and W outside the
// N1 blocks); it is timed as a strided 6-D reorder of the same bytes, and
// FRACTAL_Z_3D as a 7-D one. FRACTAL_Z_C04 (§A.5) has no peer.
// 16-bit rows ask oneDNN for bf16, as the other benches do: the same bytes
// move, and its f16 reorders are a reference path on some builds.
//
// Names (the ratio checker pairs them by the `/<bytes>` suffix):
//   BM_Memcpy/<bytes>, BM_VectorCopy/<bytes>,
//   BM_RowTurnsCopy/<bytes>                      the yardsticks (bench_common.h)
//   BM_TransData<NCHW_to_NC1HWC0_fp16>/<bytes> …  the reference, one per case below
//   BM_OneDnn<NCHW_to_NC1HWC0_fp16>/<bytes> …     the peer, same case name
// Feature maps are [1, 64, H, 64] with H = bytes / (64 · 64 · element bytes)
// (3-D: [1, 64, 4, H, 64]), weights [Cout, 64, 4, 4] (3-D: [Cout, 64, 2, 4, 4];
// FRACTAL_Z_C04: [Cout, 4, 4, 4]): C a multiple of C0 and Cout of 16, so the
// blocked side holds exactly <bytes> and no padding.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/bench_common.h"
#include "reference/cann_transdata/trans_data.h"

namespace npuconf::cann_transdata {
namespace {

using bench::Destination;
using bench::Source;

constexpr int64_t kMinBytes = int64_t{64} << 10;   // 64 KiB
constexpr int64_t kMaxBytes = int64_t{256} << 20;  // 256 MiB
constexpr int64_t kInCacheMaxBytes = int64_t{256} << 10;
constexpr int64_t kChannels = 64;
constexpr int64_t kDepth = 4;        // D of the 3-D feature maps (NDC1HWC0, §A.6)
constexpr int64_t kWeightDepth = 2;  // D of the 3-D weights (FRACTAL_Z_3D, §A.7): Cout % 16 == 0

struct Case {
  const char* name;  // "NCHW_to_NC1HWC0_fp16"
  Format plain, blocked;
  DType dtype;
  int64_t c0;
  bool pack;
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"NCHW_to_NC1HWC0_fp16", Format::kNchw, Format::kNc1hwc0, DType::kFloat16, 16, true},
      {"NC1HWC0_to_NCHW_fp16", Format::kNchw, Format::kNc1hwc0, DType::kFloat16, 16, false},
      {"NCHW_to_NC1HWC0_fp32_c0_8", Format::kNchw, Format::kNc1hwc0, DType::kFloat, 8, true},
      {"NCHW_to_NC1HWC0_fp32_c0_16", Format::kNchw, Format::kNc1hwc0, DType::kFloat, 16, true},
      {"NHWC_to_NC1HWC0_fp16", Format::kNhwc, Format::kNc1hwc0, DType::kFloat16, 16, true},
      {"NC1HWC0_to_NHWC_fp16", Format::kNhwc, Format::kNc1hwc0, DType::kFloat16, 16, false},
      {"NCHW_to_FRACTAL_Z_fp16", Format::kNchw, Format::kFractalZ, DType::kFloat16, 16, true},
      {"FRACTAL_Z_to_NCHW_fp16", Format::kNchw, Format::kFractalZ, DType::kFloat16, 16, false},
      {"NCDHW_to_NDC1HWC0_fp16", Format::kNcdhw, Format::kNdc1hwc0, DType::kFloat16, 16, true},
      {"NDC1HWC0_to_NCDHW_fp16", Format::kNcdhw, Format::kNdc1hwc0, DType::kFloat16, 16, false},
      {"NDHWC_to_NDC1HWC0_fp16", Format::kNdhwc, Format::kNdc1hwc0, DType::kFloat16, 16, true},
      {"NCDHW_to_FRACTAL_Z_3D_fp16", Format::kNcdhw, Format::kFractalZ3d, DType::kFloat16, 16,
       true},
      {"FRACTAL_Z_3D_to_NCDHW_fp16", Format::kNcdhw, Format::kFractalZ3d, DType::kFloat16, 16,
       false},
      {"NCHW_to_FRACTAL_Z_C04_fp16", Format::kNchw, Format::kFractalZC04, DType::kFloat16, 16,
       true},
      {"FRACTAL_Z_C04_to_NCHW_fp16", Format::kNchw, Format::kFractalZC04, DType::kFloat16, 16,
       false},
  };
  return cases;
}

// The plain side's shape in its own axis order, of exactly `bytes`.
Shape ShapeFor(const Case& c, int64_t bytes) {
  const int64_t elems = bytes / (Bits(c.dtype) / 8);
  if (c.blocked == Format::kFractalZ) return Shape{elems / (kChannels * 16), kChannels, 4, 4};
  if (c.blocked == Format::kFractalZ3d) {
    return Shape{elems / (kChannels * kWeightDepth * 16), kChannels, kWeightDepth, 4, 4};
  }
  // FRACTAL_Z_C04: C = 4 (its limit, §A.5), 4 × 4 taps, so 4·H·W fills whole C0 rows.
  if (c.blocked == Format::kFractalZC04) return Shape{elems / 64, 4, 4, 4};
  if (c.blocked == Format::kNdc1hwc0) {
    const int64_t h = elems / (kChannels * kDepth * 64);
    return c.plain == Format::kNdhwc ? Shape{1, kDepth, h, 64, kChannels}
                                     : Shape{1, kChannels, kDepth, h, 64};
  }
  const int64_t h = elems / (kChannels * 64);
  return c.plain == Format::kNhwc ? Shape{1, h, 64, kChannels} : Shape{1, kChannels, h, 64};
}

TransDataPlan PlanFor(const Case& c, int64_t bytes) {
  TransDataFacts facts;
  facts.c0[c.dtype] = c.c0;
  TransDataArgs args;
  args.src = c.pack ? c.plain : c.blocked;
  args.dst = c.pack ? c.blocked : c.plain;
  args.shape = ShapeFor(c, bytes);
  args.dtype = c.dtype;
  args.c0 = c.c0;
  TransDataPlan plan;
  if (PlanTransData(facts, args, &plan) != 0 || plan.src_bytes != static_cast<uint64_t>(bytes) ||
      plan.dst_bytes != static_cast<uint64_t>(bytes)) {
    std::fprintf(stderr, "trans_data_bench: no exact plan for %s at %lld bytes\n", c.name,
                 static_cast<long long>(bytes));
    std::exit(2);
  }
  return plan;
}

void BM_TransData(benchmark::State& state, const Case& c) {
  const int64_t bytes = state.range(0);
  const TransDataPlan plan = PlanFor(c, bytes);
  const uint8_t* src = Source().Reserve(plan.src_bytes, true);
  uint8_t* dst = Destination().Reserve(plan.dst_bytes, false);
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    RunTransData(plan, src, dst);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * bytes);
  std::string dims;
  for (int64_t d : plan.storage) dims += (dims.empty() ? "" : ",") + std::to_string(d);
  state.SetLabel("storage [" + dims + "]");
}

#if NPUCONF_HAVE_DNNL
using dnnl::memory;

void BM_OneDnn(benchmark::State& state, const Case& c) {
  const int64_t bytes = state.range(0);
  const Shape s = ShapeFor(c, bytes);
  const auto type = Bits(c.dtype) == 32 ? memory::data_type::f32 : memory::data_type::bf16;
  memory::desc plain, blocked;
  if (c.blocked == Format::kNdc1hwc0) {
    // oneDNN's logical dims are N, C, D, H, W whatever the memory order.
    const bool ndhwc = c.plain == Format::kNdhwc;
    const memory::dims dims = ndhwc ? memory::dims{s[0], s[4], s[1], s[2], s[3]}
                                    : memory::dims{s[0], s[1], s[2], s[3], s[4]};
    plain = memory::desc(dims, type, ndhwc ? memory::format_tag::ndhwc : memory::format_tag::ncdhw);
    blocked = memory::desc(dims, type, memory::format_tag::nCdhw16c);
  } else if (c.blocked == Format::kFractalZ3d) {
    // FRACTAL_Z_3D [D, C1, H, W, N1, 16, C0] dense, read from NCDHW [N, C, D, H, W].
    const int64_t n = s[0], ch = s[1], d = s[2], h = s[3], w = s[4];
    const memory::dims dims{d, ch / c.c0, h, w, n / 16, 16, c.c0};
    blocked = memory::desc(dims, type, memory::format_tag::abcdefg);
    plain = memory::desc(dims, type,
                         memory::dims{h * w, c.c0 * d * h * w, w, 1, 16 * ch * d * h * w,
                                      ch * d * h * w, d * h * w});
  } else if (c.blocked == Format::kNc1hwc0) {
    // oneDNN's logical dims are N, C, H, W whatever the memory order.
    const bool nhwc = c.plain == Format::kNhwc;
    const memory::dims dims =
        nhwc ? memory::dims{s[0], s[3], s[1], s[2]} : memory::dims{s[0], s[1], s[2], s[3]};
    plain = memory::desc(dims, type, nhwc ? memory::format_tag::nhwc : memory::format_tag::nchw);
    blocked = memory::desc(dims, type,
                           c.c0 == 16 ? memory::format_tag::nChw16c : memory::format_tag::nChw8c);
  } else {
    // FRACTAL_Z [C1, H, W, N1, 16, C0] dense, read from NCHW [N, C, H, W].
    const int64_t n = s[0], ch = s[1], h = s[2], w = s[3];
    const memory::dims dims{ch / c.c0, h, w, n / 16, 16, c.c0};
    blocked = memory::desc(dims, type, memory::format_tag::abcdef);
    plain = memory::desc(dims, type,
                         memory::dims{c.c0 * h * w, w, 1, 16 * ch * h * w, ch * h * w, h * w});
  }
  bench::OneDnnReorder(state, c.pack ? plain : blocked, c.pack ? blocked : plain, bytes);
}
#endif

void RegisterAll() {
  for (int64_t size_bytes = kMinBytes; size_bytes <= kMaxBytes; size_bytes *= 4) {
    bench::RegisterYardsticks(size_bytes, kInCacheMaxBytes);
    for (const Case& c : Cases()) {
      const std::string t = std::string("<") + c.name + ">";
      bench::RegisterAt("BM_TransData" + t, size_bytes, BM_TransData, c);
#if NPUCONF_HAVE_DNNL
      // FRACTAL_Z_C04 flattens (h, w, c) into its rows: no oneDNN layout is it.
      if (c.blocked != Format::kFractalZC04) {
        bench::RegisterAt("BM_OneDnn" + t, size_bytes, BM_OneDnn, c);
      }
#endif
    }
  }
}

}  // namespace
}  // namespace npuconf::cann_transdata

int main(int argc, char** argv) {
  return npuconf::bench::Main(argc, argv, npuconf::cann_transdata::RegisterAll);
}
