// RKNN B NORM → NATIVE (rknn_B_normal_layout_to_native_layout semantics, spec
// rknn.md §2.1, §3.3) of the reference, beside memcpy of the same bytes and a
// straight transcription of the vendor guide's loop (the §2.1 index map, one
// element at a time). RK3588 sub-blocks: int8 [32, 32], fp16 [16, 32]; 64 MiB.
//
// Names (bench_ratio pairs them by the `/<bytes>` suffix):
//   BM_Memcpy/<bytes>
//   BM_BNormToNative<int8|fp16>/<bytes>         K = 8192 (one segment)
//   BM_BNormToNativeSegmented<int8|fp16>/<bytes> K = 16384 (two segments of 8192)
//   BM_BNormToNativeNaive<int8|fp16>/<bytes>    the element-wise index map, K = 8192
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "core/prng.h"
#include "reference/rknn/native_layout.h"

namespace npuconf::rknn {
namespace {

constexpr int64_t kBytes = int64_t{64} << 20;

struct Geometry {
  int64_t k, n, sub_n, sub_k, elem;
};

Geometry GeometryFor(int elem, int64_t k) {
  const int64_t n = kBytes / (k * elem);
  return elem == 1 ? Geometry{k, n, 32, 32, 1} : Geometry{k, n, 16, 32, 2};
}

std::vector<uint8_t>& Source() {
  static std::vector<uint8_t> src = [] {
    std::vector<uint8_t> v(static_cast<size_t>(kBytes));
    FillRandomBytes(1, v.data(), v.size());
    return v;
  }();
  return src;
}

std::vector<uint8_t>& Destination(size_t bytes) {
  static std::vector<uint8_t> dst;
  if (dst.size() < bytes) dst.assign(bytes, 1);
  return dst;
}

void BM_Memcpy(benchmark::State& state) {
  auto& src = Source();
  auto& dst = Destination(src.size());
  for (auto _ : state) {
    std::memcpy(dst.data(), src.data(), src.size());
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
}

template <int kElem>
void Reference(benchmark::State& state, int64_t k) {
  const Geometry g = GeometryFor(kElem, k);
  const auto geometry = *BNativeGeometryFor(g.k, g.n, g.sub_n, g.sub_k, 8192, kElem == 1 ? DType::kInt8 : DType::kFloat16);
  auto& src = Source();
  auto& dst = Destination(geometry.native_bytes);
  for (auto _ : state) {
    BPlainToNative(src.data(), dst.data(), geometry, false, NibbleOrder::kLowFirst, NibbleOrder::kLowFirst);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
  state.SetLabel("K=" + std::to_string(g.k) + " N=" + std::to_string(g.n));
}

// The §2.1 map transcribed: for every NATIVE position, the NORM element or 0.
template <typename T>
void NaiveLoop(const T* b, T* out, const Geometry& g) {
  const int64_t n1 = (g.n + g.sub_n - 1) / g.sub_n, k1 = (g.k + g.sub_k - 1) / g.sub_k;
  for (int64_t i = 0; i < n1; ++i) {
    for (int64_t j = 0; j < k1; ++j) {
      for (int64_t x = 0; x < g.sub_n; ++x) {
        for (int64_t y = 0; y < g.sub_k; ++y) {
          const int64_t k = j * g.sub_k + y, n = i * g.sub_n + x;
          out[((i * k1 + j) * g.sub_n + x) * g.sub_k + y] = (k < g.k && n < g.n) ? b[k * g.n + n] : T{0};
        }
      }
    }
  }
}

template <int kElem>
void BM_BNormToNative(benchmark::State& state) { Reference<kElem>(state, 8192); }
template <int kElem>
void BM_BNormToNativeSegmented(benchmark::State& state) { Reference<kElem>(state, 16384); }

template <int kElem>
void BM_BNormToNativeNaive(benchmark::State& state) {
  using T = std::conditional_t<kElem == 1, uint8_t, uint16_t>;
  const Geometry g = GeometryFor(kElem, 8192);
  auto& src = Source();
  auto& dst = Destination(static_cast<size_t>(kBytes));
  for (auto _ : state) {
    NaiveLoop(reinterpret_cast<const T*>(src.data()), reinterpret_cast<T*>(dst.data()), g);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
}

BENCHMARK(BM_Memcpy)->Name("BM_Memcpy/67108864")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BNormToNative<1>)->Name("BM_BNormToNative<int8>/67108864")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BNormToNative<2>)->Name("BM_BNormToNative<fp16>/67108864")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BNormToNativeSegmented<1>)->Name("BM_BNormToNativeSegmented<int8>/67108864")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BNormToNativeSegmented<2>)->Name("BM_BNormToNativeSegmented<fp16>/67108864")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BNormToNativeNaive<1>)->Name("BM_BNormToNativeNaive<int8>/67108864")->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BNormToNativeNaive<2>)->Name("BM_BNormToNativeNaive<fp16>/67108864")->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace npuconf::rknn

BENCHMARK_MAIN();
