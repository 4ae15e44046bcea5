// RKNN NC1HWC2 conversions of the reference (spec layouts.md §B.2), beside
// memcpy and the vector copy of the same bytes, from 64 KiB to 256 MiB, and —
// when oneDNN is installed — its reorder of the same bytes as a peer: NCHW →
// NC1HWC2 with C2 16 (RK3588 int8, UG Table 4-6) is oneDNN nchw → nChw16c
// (s8), with C2 8 (RK3588 fp16) nchw → nChw8c (bf16: the same bytes move);
// NHWC → NC1HWC2 is nhwc → nChw16c; the inverses likewise.
//
// Names (the ratio checker pairs them by the `/<bytes>` suffix):
//   BM_Memcpy/<bytes>, BM_VectorCopy/<bytes>,
//   BM_RowTurnsCopy/<bytes>                      the yardsticks (bench_common.h)
//   BM_Nc1hwc2<NCHW_to_NC1HWC2_int8>/<bytes> …    the reference, one per case below
//   BM_OneDnn<NCHW_to_NC1HWC2_int8>/<bytes> …     the peer, same case name
// Feature maps are [1, 64, H, 64] (NCHW order) with H = bytes / (64 · 64 ·
// element bytes): C a multiple of C2, so both sides hold exactly <bytes>.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench/bench_common.h"
#include "reference/rknn_native/nc1hwc2.h"

namespace npuconf::rknn_native {
namespace {

using bench::Destination;
using bench::Source;

constexpr int64_t kMinBytes = int64_t{64} << 10;   // 64 KiB
constexpr int64_t kMaxBytes = int64_t{256} << 20;  // 256 MiB
constexpr int64_t kInCacheMaxBytes = int64_t{256} << 10;
constexpr int64_t kChannels = 64, kWidth = 64;

struct Case {
  const char* name;
  bool nhwc, to_native;
  int64_t elem_bytes, c2;
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      {"NCHW_to_NC1HWC2_int8", false, true, 1, 16}, {"NC1HWC2_to_NCHW_int8", false, false, 1, 16},
      {"NCHW_to_NC1HWC2_fp16", false, true, 2, 8},  {"NC1HWC2_to_NCHW_fp16", false, false, 2, 8},
      {"NHWC_to_NC1HWC2_int8", true, true, 1, 16},  {"NC1HWC2_to_NHWC_int8", true, false, 1, 16},
  };
  return cases;
}

Nc1hwc2Geometry GeometryFor(const Case& c, int64_t bytes) {
  const int64_t h = bytes / (kChannels * kWidth * c.elem_bytes);
  auto g = Nc1hwc2GeometryFor(1, kChannels, h, kWidth, c.c2, c.elem_bytes);
  if (!g || g->plain_bytes != static_cast<uint64_t>(bytes) ||
      g->native_bytes != static_cast<uint64_t>(bytes)) {
    std::fprintf(stderr, "nc1hwc2_bench: no exact geometry for %s at %lld bytes\n", c.name,
                 static_cast<long long>(bytes));
    std::exit(2);
  }
  return *g;
}

void BM_Nc1hwc2(benchmark::State& state, const Case& c) {
  const int64_t bytes = state.range(0);
  const Nc1hwc2Geometry g = GeometryFor(c, bytes);
  const uint8_t* src = Source().Reserve(g.plain_bytes, true);
  uint8_t* dst = Destination().Reserve(g.native_bytes, false);
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    if (c.to_native) {
      c.nhwc ? NhwcToNc1hwc2(src, dst, g) : NchwToNc1hwc2(src, dst, g);
    } else {
      c.nhwc ? Nc1hwc2ToNhwc(src, dst, g) : Nc1hwc2ToNchw(src, dst, g);
    }
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * bytes);
  state.SetLabel("[1," + std::to_string(kChannels) + "," + std::to_string(g.h) + "," +
                 std::to_string(kWidth) + "] C2 " + std::to_string(c.c2));
}

#if NPUCONF_HAVE_DNNL
using dnnl::memory;

void BM_OneDnn(benchmark::State& state, const Case& c) {
  const int64_t bytes = state.range(0);
  const Nc1hwc2Geometry g = GeometryFor(c, bytes);
  const auto type = c.elem_bytes == 1 ? memory::data_type::s8 : memory::data_type::bf16;
  const memory::dims dims{g.n, g.c, g.h, g.w};
  const memory::desc plain(dims, type,
                           c.nhwc ? memory::format_tag::nhwc : memory::format_tag::nchw);
  const memory::desc native(dims, type,
                            c.c2 == 16 ? memory::format_tag::nChw16c : memory::format_tag::nChw8c);
  bench::OneDnnReorder(state, c.to_native ? plain : native, c.to_native ? native : plain, bytes);
}
#endif

void RegisterAll() {
  for (int64_t size_bytes = kMinBytes; size_bytes <= kMaxBytes; size_bytes *= 4) {
    bench::RegisterYardsticks(size_bytes, kInCacheMaxBytes);
    for (const Case& c : Cases()) {
      const std::string t = std::string("<") + c.name + ">";
      bench::RegisterAt("BM_Nc1hwc2" + t, size_bytes, BM_Nc1hwc2, c);
#if NPUCONF_HAVE_DNNL
      bench::RegisterAt("BM_OneDnn" + t, size_bytes, BM_OneDnn, c);
#endif
    }
  }
}

}  // namespace
}  // namespace npuconf::rknn_native

int main(int argc, char** argv) {
  return npuconf::bench::Main(argc, argv, npuconf::rknn_native::RegisterAll);
}
