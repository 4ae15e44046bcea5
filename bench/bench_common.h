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

#if NPUCONF_HAVE_AVX512_KERNELS
#include <immintrin.h>
#endif
#if NPUCONF_HAVE_NEON_KERNELS
#include <arm_neon.h>
#endif

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

// The in-cache yardstick (issue 18 item 8): a plain sequential copy, one load
// and one store of the measured path's vector width per step (AVX-512 64 B,
// AVX2 32 B, NEON and portable 16 B), four steps per iteration, then a byte
// tail. At 64-256 KiB glibc's memcpy is one `rep movsb` whose stores the core
// hides; no kernel that loads and stores vectors gets near it, so the L2-resident
// rows are gated against this instead, and the memcpy ratio stays beside them.
// The empty asm with a memory clobber keeps the compiler from turning the loop
// back into a memcpy call.
namespace vector_copy {
#if NPUCONF_HAVE_AVX512_KERNELS
NPUCONF_AVX512 inline uint64_t Avx512(const uint8_t* src, uint8_t* dst, uint64_t bytes) {
  uint64_t i = 0;
  for (; i + 256 <= bytes; i += 256) {
    for (int v = 0; v < 4; ++v) {
      _mm512_storeu_si512(dst + i + 64 * v, _mm512_loadu_si512(src + i + 64 * v));
    }
    asm volatile("" ::: "memory");
  }
  return i;
}
NPUCONF_AVX2 inline uint64_t Avx2(const uint8_t* src, uint8_t* dst, uint64_t bytes) {
  uint64_t i = 0;
  for (; i + 128 <= bytes; i += 128) {
    for (int v = 0; v < 4; ++v) {
      const auto* from = reinterpret_cast<const __m256i*>(src + i + 32 * v);
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i + 32 * v), _mm256_loadu_si256(from));
    }
    asm volatile("" ::: "memory");
  }
  return i;
}
#endif
inline uint64_t Lanes16(const uint8_t* src, uint8_t* dst, uint64_t bytes) {
  uint64_t i = 0;
  for (; i + 64 <= bytes; i += 64) {
    for (int v = 0; v < 4; ++v) {
#if NPUCONF_HAVE_NEON_KERNELS
      vst1q_u8(dst + i + 16 * v, vld1q_u8(src + i + 16 * v));
#else
      using Lanes = uint8_t __attribute__((vector_size(16)));
      Lanes lanes;
      std::memcpy(&lanes, src + i + 16 * v, sizeof lanes);
      std::memcpy(dst + i + 16 * v, &lanes, sizeof lanes);
#endif
    }
    asm volatile("" ::: "memory");
  }
  return i;
}
}  // namespace vector_copy

inline void VectorCopy(const uint8_t* src, uint8_t* dst, uint64_t bytes) {
  uint64_t done = 0;
  switch (simd::ActiveIsa()) {
#if NPUCONF_HAVE_AVX512_KERNELS
    case simd::Isa::kAvx512:
      done = vector_copy::Avx512(src, dst, bytes);
      break;
    case simd::Isa::kAvx2:
      done = vector_copy::Avx2(src, dst, bytes);
      break;
#endif
    default:
      done = vector_copy::Lanes16(src, dst, bytes);
  }
  for (; done < bytes; ++done) dst[done] = src[done];
}

// The access-order floor of the in-cache rows: the same bytes copied by the
// same vector loop (VectorCopy), but read from 16 equal rows in turn, 1 KiB
// (16 lines) of each row per turn, and written back to back. No shuffle at
// all: what is left is the cost of reading 16 streams instead of one. The
// layouts of these benches read or write C0 = 16 planes (or the 16 rows of an
// NZ fractal) in turn, mostly in runs of one or two lines; BM_RowTurnsCopy /
// BM_VectorCopy is printed beside the in-cache rows (bench/run_benchmarks.sh)
// to show where their 1.5 goal stands against it. Measured while writing it
// (AVX-512, 256 KiB, × the sequential copy): runs of 1 line 3.3, 4 lines
// 2.0, 16 lines 1.9, 64 lines 1.5; the 16 rows written in turn instead of
// read, 2.0-2.4. The ND → NZ pack itself: runs of 4 lines a row (its own)
// 2.0-2.2, 8 or 16 lines 2.1-5.0 (as many fractals open on the write side),
// read column-wise (one stream down the rows, NZ written in order) 2.5-3.6.
constexpr int kRowTurns = 16;
constexpr uint64_t kRowTurnBytes = 1024;
inline void RowTurnsCopy(const uint8_t* src, uint8_t* dst, uint64_t bytes) {
  const uint64_t row = bytes / kRowTurns;
  uint64_t o = 0;
  for (; o + kRowTurnBytes <= row; o += kRowTurnBytes) {
    for (int r = 0; r < kRowTurns; ++r, dst += kRowTurnBytes) {
      VectorCopy(src + r * row + o, dst, kRowTurnBytes);
    }
  }
  for (int r = 0; r < kRowTurns && o < row; ++r, dst += row - o) {
    VectorCopy(src + r * row + o, dst, row - o);
  }
}

// BM_VectorCopy/<bytes> and BM_RowTurnsCopy/<bytes>: kCopy of the same bytes
// as BM_Memcpy/<bytes>.
template <void (*kCopy)(const uint8_t*, uint8_t*, uint64_t)>
void BM_Copy(benchmark::State& state) {
  const auto size_bytes = static_cast<uint64_t>(state.range(0));
  const uint8_t* src = Source().Reserve(size_bytes, true);
  uint8_t* dst = Destination().Reserve(size_bytes, false);
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    kCopy(src, dst, size_bytes);
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(size_bytes));
}

// Registers `fn(state, args...)` as `name`/<size_bytes>, timed in µs.
template <typename Fn, typename... Args>
void RegisterAt(const std::string& name, int64_t size_bytes, Fn fn, const Args&... args) {
  benchmark::RegisterBenchmark(name.c_str(), fn, args...)
      ->Arg(size_bytes)
      ->Unit(benchmark::kMicrosecond);
}

// The yardsticks of a size: BM_Memcpy/<size_bytes> and, at in-cache sizes
// (≤ in_cache_max_bytes), BM_VectorCopy/<size_bytes> and the access-order
// floor BM_RowTurnsCopy/<size_bytes>.
inline void RegisterYardsticks(int64_t size_bytes, int64_t in_cache_max_bytes) {
  RegisterAt("BM_Memcpy", size_bytes, BM_Memcpy);
  if (size_bytes <= in_cache_max_bytes) {
    RegisterAt("BM_VectorCopy", size_bytes, BM_Copy<VectorCopy>);
    RegisterAt("BM_RowTurnsCopy", size_bytes, BM_Copy<RowTurnsCopy>);
  }
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
