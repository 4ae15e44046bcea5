// ND → FRACTAL_NZ pack and NZ → ND unpack of the CANN reference, beside memcpy
// of the same ND bytes, from 64 KiB to 256 MiB (DESIGN.md: "compare with memcpy").
//
// Names (the ratio checker pairs them by the `/<nd bytes>` suffix):
//   BM_Memcpy/<bytes>                   memcpy of <bytes>
//   BM_PackNdToNz<fp16|int8>/<bytes>     n × k weight, k a multiple of C0
//   BM_PackNdToNzRaggedK<fp16|int8>/<bytes>  same n, k + C0/2: a half-full last
//                                        fractal column per row (tail path);
//                                        moves slightly MORE than <bytes>
//   BM_UnpackNzToNd<fp16|int8>/<bytes>   inverse of the aligned pack
// <bytes> is the nominal ND input size; the label gives the exact shape.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "reference/cann/fractal_nz.h"

namespace npuconf::cann {
namespace {

constexpr int64_t kMinBytes = int64_t{64} << 10;   // 64 KiB
constexpr int64_t kMaxBytes = int64_t{256} << 20;  // 256 MiB
constexpr int64_t kWideK = 4096;                   // hidden size of a 7B-class LLM
constexpr int64_t kMinRows = 64;

// Page-aligned buffers that live for the whole run, so memcpy and pack touch
// the same (already faulted-in) pages and no timed loop pays for allocation.
struct Buffer {
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t[], Free> data;
  uint64_t size_bytes = 0;

  // Grows to at least `want_bytes` and writes every byte: a source gets
  // non-constant content, a destination any value (only the page faults matter).
  uint8_t* Reserve(uint64_t want_bytes, bool source) {
    if (want_bytes <= size_bytes) return data.get();
    const uint64_t alloc_bytes = (want_bytes + 4095) / 4096 * 4096;
    data.reset(static_cast<uint8_t*>(std::aligned_alloc(4096, alloc_bytes)));
    if (!data) {
      std::fprintf(stderr, "nz_pack_bench: cannot allocate %llu bytes\n",
                   static_cast<unsigned long long>(alloc_bytes));
      std::exit(1);
    }
    size_bytes = alloc_bytes;
    for (uint64_t i = 0; i < alloc_bytes; ++i) {
      data[i] = source ? static_cast<uint8_t>((i * 2654435761u) >> 24) : uint8_t{0xA5};
    }
    return data.get();
  }
};

Buffer& Source() {
  static Buffer buffer;
  return buffer;
}
Buffer& Destination() {
  static Buffer buffer;
  return buffer;
}

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

void BM_Memcpy(benchmark::State& state) {
  const auto size_bytes = static_cast<uint64_t>(state.range(0));
  const uint8_t* src = Source().Reserve(size_bytes, true);
  uint8_t* dst = Destination().Reserve(size_bytes, false);
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    std::memcpy(dst, src, size_bytes);
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(size_bytes));
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

// Size-major registration: memcpy and the packs of one size run back to back,
// so a load change on a shared machine hits both sides of a ratio alike.
void RegisterAll() {
  const Workload fp16{"fp16", DType::kFloat16, 16, false};
  const Workload int8{"int8", DType::kInt8, 32, false};
  for (int64_t size_bytes = kMinBytes; size_bytes <= kMaxBytes; size_bytes *= 4) {
    benchmark::RegisterBenchmark("BM_Memcpy", BM_Memcpy)
        ->Arg(size_bytes)
        ->Unit(benchmark::kMicrosecond);
    for (Workload w : {fp16, int8}) {
      const std::string t = std::string("<") + w.dtype_name + ">";
      Workload ragged = w;
      ragged.ragged_k = true;
      benchmark::RegisterBenchmark(("BM_PackNdToNz" + t).c_str(), BM_Pack, w)
          ->Arg(size_bytes)
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("BM_PackNdToNzRaggedK" + t).c_str(), BM_Pack, ragged)
          ->Arg(size_bytes)
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("BM_UnpackNzToNd" + t).c_str(), BM_Unpack, w)
          ->Arg(size_bytes)
          ->Unit(benchmark::kMicrosecond);
    }
  }
}

}  // namespace
}  // namespace npuconf::cann

int main(int argc, char** argv) {
  npuconf::cann::RegisterAll();
  // Defaults, overridden by the same flags given on the command line (later
  // flags win): 0.1 s per repetition keeps a 5-repetition run under a minute;
  // random interleaving spreads every benchmark's repetitions over the run, so
  // both sides of a ratio see the same machine load.
  static char default_min_time[] = "--benchmark_min_time=0.1";
  static char default_interleave[] = "--benchmark_enable_random_interleaving=true";
  std::vector<char*> args{argv[0], default_min_time, default_interleave};
  args.insert(args.end(), argv + 1, argv + argc);
  int args_count = static_cast<int>(args.size());
  benchmark::Initialize(&args_count, args.data());
  if (benchmark::ReportUnrecognizedArguments(args_count, args.data())) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
