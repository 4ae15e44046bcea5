// ND → FRACTAL_NZ pack and NZ → ND unpack of the CANN reference, beside memcpy
// of the same ND bytes, from 64 KiB to 256 MiB (DESIGN.md: "compare with
// memcpy"), and — when oneDNN is installed — its reorder of the same bytes as
// a peer: ab → BA16a32b (int8) / BA16a16b (16-bit) is FRACTAL_NZ of [n, k].
//
// Names (the ratio checker pairs them by the `/<nd bytes>` suffix):
//   BM_Memcpy/<bytes>                   memcpy of <bytes>
//   BM_VectorCopy/<bytes>               a plain vector copy of <bytes> (bench_common.h),
//                                        the in-cache yardstick, at 64 and 256 KiB
//   BM_RowTurnsCopy/<bytes>             the same copy over 16 rows in turn: the
//                                        in-cache access-order floor (bench_common.h)
//   BM_PackNdToNz<fp16|int8>/<bytes>     n × k weight, k a multiple of C0
//   BM_PackNdToNzRaggedK<fp16|int8>/<bytes>  same n, k + C0/2: a half-full last
//                                        fractal column per row (tail path);
//                                        moves slightly MORE than <bytes>
//   BM_UnpackNzToNd<fp16|int8>/<bytes>   inverse of the aligned pack
//   BM_TransMatmulWeight<fp16|int8>/<bytes>  aclnnTransMatmulWeight in place
//                                        (ascend910b facts): validation, the ND
//                                        copy and the pack (spec cann.md §2.2)
//   BM_OneDnnNdToNz<fp16|int8>/<bytes>, BM_OneDnnNzToNd<…>   the peer
// <bytes> is the nominal ND input size; the label gives the exact shape.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/bench_common.h"
#include "core/profile.h"
#include "reference/cann/fractal_nz.h"
#include "reference/cann/trans_matmul_weight.h"

namespace npuconf::cann {
namespace {

using bench::Destination;
using bench::Source;

constexpr int64_t kMinBytes = int64_t{64} << 10;   // 64 KiB
constexpr int64_t kMaxBytes = int64_t{256} << 20;  // 256 MiB
// The L2-resident sizes (64 and 256 KiB), gated against BM_VectorCopy.
constexpr int64_t kInCacheMaxBytes = int64_t{256} << 10;
constexpr int64_t kWideK = 4096;  // hidden size of a 7B-class LLM
constexpr int64_t kMinRows = 64;

struct Workload {
  const char* dtype_name;
  DType dtype;
  int64_t c0;  // spec cann.md §2.5: 32 bytes of k per cube row
  bool ragged_k;
};

// A matmul weight [n, k] of about `nd_bytes`: k = 4096 once there are at least
// 64 such rows, else k = nd_elems / 64; n is then a multiple of 16, so the
// aligned shapes have no padding and NZ bytes == ND bytes.
NzGeometry GeometryFor(const Workload& w, int64_t nd_bytes) {
  const int64_t elem_bytes = Bits(w.dtype) / 8;
  const int64_t nd_elems = nd_bytes / elem_bytes;
  const int64_t k = nd_elems >= kMinRows * kWideK ? kWideK : nd_elems / kMinRows;
  const int64_t n = nd_elems / k;
  auto g = NzGeometryFor(Shape{n, w.ragged_k ? k + w.c0 / 2 : k}, w.dtype, w.c0);
  if (!g) {
    std::fprintf(stderr, "nz_pack_bench: no NZ geometry for %lld x %lld\n",
                 static_cast<long long>(n), static_cast<long long>(k));
    std::exit(1);
  }
  return *g;
}

std::string Label(const NzGeometry& g) {
  char text[128];
  std::snprintf(text, sizeof text, "n=%lld k=%lld c0=%lld nd=%.2fMiB nz=%.2fMiB",
                static_cast<long long>(g.n), static_cast<long long>(g.k),
                static_cast<long long>(g.c0), g.nd_bytes / 1048576.0, g.storage_bytes / 1048576.0);
  return text;
}

void BM_Pack(benchmark::State& state, Workload w) {
  const NzGeometry g = GeometryFor(w, state.range(0));
  const uint8_t* nd = Source().Reserve(g.nd_bytes, true);
  uint8_t* nz = Destination().Reserve(g.storage_bytes, false);
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    PackNdToNz(nd, nz, g);
    benchmark::DoNotOptimize(nz);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(g.nd_bytes));
  state.SetLabel(Label(g));
}

void BM_Unpack(benchmark::State& state, Workload w) {
  const NzGeometry g = GeometryFor(w, state.range(0));
  const uint8_t* nz = Source().Reserve(g.storage_bytes, true);
  uint8_t* nd = Destination().Reserve(g.nd_bytes, false);
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    UnpackNzToNd(nz, nd, g);
    benchmark::DoNotOptimize(nd);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(g.nd_bytes));
  state.SetLabel(Label(g));
}

// In place on the destination buffer; each iteration converts the previous
// one's bytes again (the conversion does not depend on the values).
void BM_Trans(benchmark::State& state, Workload w) {
  const NzGeometry g = GeometryFor(w, state.range(0));
  const Profile* profile = FindProfile("ascend910b");
  if (!profile || !profile->cann) {
    state.SkipWithError("no ascend910b profile");
    return;
  }
  uint8_t* data = Destination().Reserve(g.storage_bytes, false);
  const TransMatmulWeightArgs args{.dtype = w.dtype,
                                   .view_shape = Shape{g.n, g.k},
                                   .data = data,
                                   .capacity_bytes = g.storage_bytes};
  Shape storage;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    if (TransMatmulWeight(*profile->cann, args, &storage) != 0) {
      state.SkipWithError("TransMatmulWeight refused the case");
      return;
    }
    benchmark::DoNotOptimize(data);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(g.nd_bytes));
  state.SetLabel(Label(g));
}

#if NPUCONF_HAVE_DNNL
// The same [n, k] as oneDNN memory: plain `ab`, and BA16a32b / BA16a16b, whose
// blocks of 16 rows × 32 (16) columns ordered column-block-major are exactly
// FRACTAL_NZ's [C1, N1, 16, C0]. 16-bit data as bf16: a reorder moves the
// same bytes whatever the 16-bit type.
void BM_OneDnn(benchmark::State& state, Workload w, bool to_nz) {
  using dnnl::memory;
  const NzGeometry g = GeometryFor(w, state.range(0));
  const bool int8 = Bits(w.dtype) == 8;
  const memory::data_type type = int8 ? memory::data_type::s8 : memory::data_type::bf16;
  const memory::desc plain({g.n, g.k}, type, memory::format_tag::ab);
  const memory::desc nz({g.n, g.k}, type,
                        int8 ? memory::format_tag::BA16a32b : memory::format_tag::BA16a16b);
  bench::OneDnnReorder(state, to_nz ? plain : nz, to_nz ? nz : plain, g.nd_bytes);
}
#endif

// Size-major registration; random interleaving (bench::Main) then spreads
// every benchmark's repetitions over the run.
void RegisterAll() {
  const Workload fp16{"fp16", DType::kFloat16, 16, false};
  const Workload int8{"int8", DType::kInt8, 32, false};
  for (int64_t size_bytes = kMinBytes; size_bytes <= kMaxBytes; size_bytes *= 4) {
    bench::RegisterYardsticks(size_bytes, kInCacheMaxBytes);
    for (Workload w : {fp16, int8}) {
      const std::string t = std::string("<") + w.dtype_name + ">";
      Workload ragged = w;
      ragged.ragged_k = true;
      bench::RegisterAt("BM_PackNdToNz" + t, size_bytes, BM_Pack, w);
      bench::RegisterAt("BM_PackNdToNzRaggedK" + t, size_bytes, BM_Pack, ragged);
      bench::RegisterAt("BM_UnpackNzToNd" + t, size_bytes, BM_Unpack, w);
      bench::RegisterAt("BM_TransMatmulWeight" + t, size_bytes, BM_Trans, w);
#if NPUCONF_HAVE_DNNL
      bench::RegisterAt("BM_OneDnnNdToNz" + t, size_bytes, BM_OneDnn, w, true);
      bench::RegisterAt("BM_OneDnnNzToNd" + t, size_bytes, BM_OneDnn, w, false);
#endif
    }
  }
}

}  // namespace
}  // namespace npuconf::cann

int main(int argc, char** argv) {
  return npuconf::bench::Main(argc, argv, npuconf::cann::RegisterAll);
}
