// Throughput of the dequant reference (elements/s): int4 per-group dequant
// (antiquant-style fp16 per-step and RKNN-style fp32) and GatherDequantInt8,
// each beside a plain fp32 multiply-add loop over the same element count.
#include <benchmark/benchmark.h>

#include <cstring>
#include <vector>

#include "core/prng.h"
#include "reference/quant/dequant.h"
#include "reference/quant/gather_dequant_int8.h"

namespace npuconf::quant {
namespace {

std::vector<uint8_t> Random(uint64_t seed, size_t bytes) {
  std::vector<uint8_t> out(bytes);
  FillRandomBytes(seed, out.data(), bytes);
  return out;
}

// [K, N] int4 weights, group 128 along K, params g·N + n.
void Int4PerGroup(benchmark::State& state, OutType out_type, Rounding rounding) {
  const int64_t k = state.range(0), n = state.range(1), gs = 128;
  const auto q = Random(1, static_cast<size_t>(k * n / 2));
  QuantGeometry g{k, n, Granularity::kPerGroup, gs, GroupOrder::kGroupMajor};
  std::vector<float> scale(static_cast<size_t>(g.ParamCount())), zero(scale.size());
  for (size_t i = 0; i < scale.size(); ++i) {
    scale[i] = 0.01f + 0.001f * static_cast<float>(i % 17);
    zero[i] = -static_cast<float>(i % 3);
  }
  std::vector<uint8_t> y(static_cast<size_t>(k * n) * (out_type == OutType::kFloat ? 4 : 2));
  DequantArgs a;
  a.q = q.data();
  a.qtype = QType::kInt4;
  a.geometry = g;
  a.scale = scale.data();
  a.zero_point = zero.data();
  a.rounding = rounding;
  a.out_type = out_type;
  for (auto _ : state) {
    Dequantize(a, y.data());
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * k * n);
  state.SetBytesProcessed(state.iterations() * static_cast<int64_t>(q.size() + y.size()));
}

void BM_Int4PerGroupDequantFp16PerStep(benchmark::State& state) {
  Int4PerGroup(state, OutType::kFloat16, Rounding::kPerStep);
}
void BM_Int4PerGroupDequantFp32(benchmark::State& state) {
  Int4PerGroup(state, OutType::kFloat, Rounding::kFp32Once);
}
BENCHMARK(BM_Int4PerGroupDequantFp16PerStep)->Args({4096, 1024})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Int4PerGroupDequantFp32)->Args({4096, 1024})->Unit(benchmark::kMillisecond);

// GatherDequantInt8: V × E uint8 table, `num` indices across the vocabulary.
void BM_GatherDequantInt8(benchmark::State& state) {
  const int64_t vocab = state.range(0), embed = state.range(1), num = state.range(2);
  const auto table = Random(2, static_cast<size_t>(vocab * embed));
  std::vector<int32_t> idx(static_cast<size_t>(num));
  SplitMix64 rng(3);
  for (auto& i : idx) i = static_cast<int32_t>(rng.Next() % static_cast<uint64_t>(vocab));
  std::vector<uint16_t> scale(static_cast<size_t>(vocab), 0x2004), zp(static_cast<size_t>(vocab), 0x57F8);
  std::vector<uint16_t> y(static_cast<size_t>(num * embed));
  GatherDequantArgs a{table.data(), vocab, embed, idx.data(), num, scale.data(), vocab, zp.data(), vocab,
                      y.data(), y.size()};
  for (auto _ : state) {
    GatherDequantInt8(a, nullptr);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * num * embed);
  state.SetBytesProcessed(state.iterations() * num * embed * 3);
}
BENCHMARK(BM_GatherDequantInt8)->Args({32000, 4096, 1024})->Args({32000, 64, 65536})->Unit(benchmark::kMillisecond);

// The yardstick: y = float(x) · s + b over the same element count (fp32 out).
void BM_Fp32MultiplyAdd(benchmark::State& state) {
  const int64_t count = state.range(0);
  const auto x = Random(4, static_cast<size_t>(count));
  std::vector<float> y(static_cast<size_t>(count));
  const float s = 0.0078125f, b = -1.0f;
  for (auto _ : state) {
    for (int64_t i = 0; i < count; ++i) y[i] = static_cast<float>(x[i]) * s + b;
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * count);
  state.SetBytesProcessed(state.iterations() * count * 5);
}
BENCHMARK(BM_Fp32MultiplyAdd)->Arg(4096 * 1024)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace npuconf::quant

BENCHMARK_MAIN();
