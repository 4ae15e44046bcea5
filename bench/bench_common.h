// Shared pieces of the bench/ programs: page-aligned, pre-faulted buffers
// that live for the whole run, memcpy of the same bytes (the yardstick of
// every layout routine), the optional oneDNN peer, and a main() whose defaults
// make ratios fair on a shared machine.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "reference/simd/isa.h"

#if NPUCONF_HAVE_DNNL
#include <dlfcn.h>

#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace npuconf::bench {

// A 4 KiB-aligned buffer whose every byte was written once (so no timed loop
// pays a page fault). `Reserve` grows it; a source gets varied content.
class Buffer {
 public:
  uint8_t* Reserve(uint64_t want_bytes, bool source) {
    if (want_bytes <= size_bytes_) return data_.get();
    const uint64_t alloc_bytes = (want_bytes + 4095) / 4096 * 4096;
    data_.reset(static_cast<uint8_t*>(std::aligned_alloc(4096, alloc_bytes)));
    if (!data_) {
      std::fprintf(stderr, "bench: cannot allocate %llu bytes\n",
                   static_cast<unsigned long long>(alloc_bytes));
      std::exit(1);
    }
    size_bytes_ = alloc_bytes;
    for (uint64_t i = 0; i < alloc_bytes; ++i) {
      data_[i] = source ? static_cast<uint8_t>((i * 2654435761u) >> 24) : uint8_t{0xA5};
    }
    return data_.get();
  }

 private:
  struct Free {
    void operator()(uint8_t* p) const { std::free(p); }
  };
  std::unique_ptr<uint8_t[], Free> data_;
  uint64_t size_bytes_ = 0;
};

// One source and one destination per program: memcpy and the routine of a
// ratio touch the same (already faulted-in) pages.
inline Buffer& Source() {
  static Buffer buffer;
  return buffer;
}
inline Buffer& Destination() {
  static Buffer buffer;
  return buffer;
}

// BM_Memcpy/<bytes>: the denominator of every layout ratio.
inline void BM_Memcpy(benchmark::State& state) {
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

#if NPUCONF_HAVE_DNNL
// oneDNN's reorder from `from` to `to` (same dims), on the buffers above; one
// thread, as memcpy and the reference use one.
inline void OneDnnReorder(benchmark::State& state, const dnnl::memory::desc& from,
                          const dnnl::memory::desc& to, uint64_t label_bytes) {
  // libgomp (oneDNN's threading on Debian) is already loaded with libdnnl.
  using SetThreads = void (*)(int);
  if (auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"))) set(1);
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  static dnnl::stream stream(engine);
  const uint64_t from_bytes = from.get_size(), to_bytes = to.get_size();
  dnnl::memory src(from, engine, Source().Reserve(from_bytes, true));
  dnnl::memory dst(to, engine, Destination().Reserve(to_bytes, false));
  const dnnl::reorder::primitive_desc pd(engine, from, engine, to);
  dnnl::reorder reorder(pd);
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    reorder.execute(stream, src, dst);
    stream.wait();
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(label_bytes));
  state.SetLabel(pd.impl_info_str());
}
#endif

// main() of every bench program. Defaults, overridden by the same flags on the
// command line (later flags win): 0.1 s per repetition keeps a 5-repetition
// run short; random interleaving spreads each benchmark's repetitions over the
// run, so both sides of a ratio see the same machine load.
// NPUCONF_ISA picks the kernel path measured (bench/run_benchmarks.sh runs
// each): a path the CPU lacks exits 2 before anything runs, and the path is in
// the JSON's context ("isa").
inline int Main(int argc, char** argv, void (*register_all)()) {
  if (const std::string error = simd::IsaEnvironmentError(); !error.empty()) {
    std::fprintf(stderr, "bench: %s\n", error.c_str());
    return 2;
  }
  benchmark::AddCustomContext("isa", simd::IsaName(simd::ActiveIsa()));
  register_all();
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

}  // namespace npuconf::bench
