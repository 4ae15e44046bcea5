// Every dequant routine of the reference on 4096 × 1024 = 4 Mi elements,
// beside a plain fp32 multiply-add loop over as many elements measured in the
// same run (the yardstick: ratio = its time / the routine's time, i.e. the
// routine's throughput as a fraction of the loop's):
//   BM_<Int4|Int8>PerGroupDequant<Fp16PerStep|Fp32>/<elems>  Dequantize, group 128
//     along K, params g·N + n (antiquant-style fp16 per-step, RKNN-style fp32)
//   BM_GatherDequantInt8<embed4096|embed64>/<elems>          32000-row tables
//   BM_GatherDequantInt8Quantize/<elems>                      gen_data.py's quantizer
//                                                             (§3.5), rows of 4096
//   BM_CannAntiquant<int4,fp16|int8,fp16|int4,bf16>/<elems>  group 128, with offset
//   BM_RknnDequantB<int4|int8>/<elems>                       per-group 32 / per-channel
//   BM_Fp32MultiplyAdd/<elems>                               y = float(x) · s + b
#include <cstring>
#include <string>
#include <vector>

#include "bench/bench_common.h"
#include "core/float16.h"
#include "core/prng.h"
#include "reference/quant/cann_antiquant.h"
#include "reference/quant/dequant.h"
#include "reference/quant/gather_dequant_int8.h"
#include "reference/quant/rknn_dequant.h"

namespace npuconf::quant {
namespace {

constexpr int64_t kK = 4096, kN = 1024, kElems = kK * kN;

std::vector<uint8_t> Random(uint64_t seed, size_t bytes) {
  std::vector<uint8_t> out(bytes);
  FillRandomBytes(seed, out.data(), bytes);
  return out;
}

void Finish(benchmark::State& state, int64_t bytes_per_iteration) {
  state.SetItemsProcessed(state.iterations() * kElems);
  state.SetBytesProcessed(state.iterations() * bytes_per_iteration);
}

// [K, N] weights, group 128 along K, params g·N + n.
void PerGroup(benchmark::State& state, QType qtype, OutType out_type, Rounding rounding) {
  const int64_t gs = 128;
  const auto q = Random(1, static_cast<size_t>(qtype == QType::kInt4 ? kElems / 2 : kElems));
  QuantGeometry g{kK, kN, Granularity::kPerGroup, gs, GroupOrder::kGroupMajor};
  std::vector<float> scale(static_cast<size_t>(g.ParamCount())), zero(scale.size());
  for (size_t i = 0; i < scale.size(); ++i) {
    scale[i] = 0.01f + 0.001f * static_cast<float>(i % 17);
    zero[i] = -static_cast<float>(i % 3);
  }
  std::vector<uint8_t> y(static_cast<size_t>(kElems) * (out_type == OutType::kFloat ? 4 : 2));
  DequantArgs a;
  a.q = q.data();
  a.qtype = qtype;
  a.geometry = g;
  a.scale = scale.data();
  a.zero_point = zero.data();
  a.rounding = rounding;
  a.out_type = out_type;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    Dequantize(a, y.data());
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  Finish(state, static_cast<int64_t>(q.size() + y.size()));
}

// GatherDequantInt8: V × E uint8 table, kElems / E indices across the vocabulary.
void Gather(benchmark::State& state, int64_t embed) {
  const int64_t vocab = 32000, num = kElems / embed;
  const auto table = Random(2, static_cast<size_t>(vocab * embed));
  std::vector<int32_t> idx(static_cast<size_t>(num));
  SplitMix64 rng(3);
  for (auto& i : idx) i = static_cast<int32_t>(rng.Next() % static_cast<uint64_t>(vocab));
  std::vector<uint16_t> scale(static_cast<size_t>(vocab), 0x2004);
  std::vector<uint16_t> zp(static_cast<size_t>(vocab), 0x57F8);
  std::vector<uint16_t> y(static_cast<size_t>(kElems));
  const GatherDequantArgs a{.table = table.data(),
                            .vocab = vocab,
                            .embed = embed,
                            .indices = idx.data(),
                            .num_indices = num,
                            .scale_bits = scale.data(),
                            .scale_len = vocab,
                            .zero_point_bits = zp.data(),
                            .zero_point_len = vocab,
                            .y = y.data(),
                            .y_capacity_elems = y.size()};
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    GatherDequantInt8(a, nullptr);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  Finish(state, kElems * 3);
}

// The table, scale and zero point of GatherDequantInt8 from fp32 weights
// (cann.gather_dequant_int8_quantize, spec cann.md §3.5), [kElems / 4096, 4096].
void GatherQuantize(benchmark::State& state) {
  const int64_t embed = 4096, vocab = kElems / embed;
  std::vector<float> weight(static_cast<size_t>(kElems));
  SplitMix64 rng(4);
  for (auto& w : weight) w = static_cast<float>(rng.Next() % 20001) * 1e-4f - 1.0f;
  std::vector<uint8_t> table(weight.size());
  std::vector<uint16_t> scale(static_cast<size_t>(vocab)), zp(scale.size());
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    GenDataQuantize(weight.data(), vocab, embed, table.data(), scale.data(), zp.data(), nullptr);
    benchmark::DoNotOptimize(table.data());
    benchmark::ClobberMemory();
  }
  Finish(state, kElems * 5);
}

// aclnnWeightQuantBatchMatmulV2's antiquant (spec cann.md §4), group 128, with offset.
void Antiquant(benchmark::State& state, DType weight, DType x) {
  const int64_t gs = 128, groups = kK / gs;
  const auto w = Random(4, static_cast<size_t>(weight == DType::kInt8 ? kElems : kElems / 2));
  std::vector<uint16_t> s(static_cast<size_t>(groups * kN)), o(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const float scale = 0.001f * static_cast<float>(i % 50 + 1),
                offset = -static_cast<float>(i % 5);
    s[i] = x == DType::kBf16 ? BFloat16Bits(BFloat16(scale)) : HalfBits(Half(scale));
    o[i] = x == DType::kBf16 ? BFloat16Bits(BFloat16(offset)) : HalfBits(Half(offset));
  }
  std::vector<uint16_t> y(static_cast<size_t>(kElems));
  AntiquantArgs a;
  a.npu_arch = "DAV_2201";
  a.soc_supported = true;  // profiles/cann/ascend910b.json
  a.kn_max = 65535;
  a.x_dtype = x;
  a.weight_dtype = weight;
  a.k = kK;
  a.n = kN;
  a.weight = w.data();
  a.weight_bytes = w.size();
  a.scale_shape = Shape{groups, kN};
  a.scale_bits = s.data();
  a.offset_shape = Shape{groups, kN};
  a.offset_bits = o.data();
  a.group_size = gs;
  a.y = y.data();
  a.y_capacity_elems = y.size();
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    CannAntiquant(a, nullptr);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  Finish(state, static_cast<int64_t>(w.size() + y.size() * 2));
}

// RKNN Matmul B dequant (spec rknn.md §5): int4 per-group 32, int8 per-channel.
void Rknn(benchmark::State& state, DType b) {
  const bool int4 = b == DType::kInt4;
  const auto q = Random(5, static_cast<size_t>(int4 ? kElems / 2 : kElems));
  const int64_t params = int4 ? kElems / 32 : kN;
  std::vector<float> scale(static_cast<size_t>(params));
  for (size_t i = 0; i < scale.size(); ++i) scale[i] = 0.01f + 0.001f * static_cast<float>(i % 17);
  std::vector<int32_t> zp(scale.size(), 0);
  std::vector<float> y(static_cast<size_t>(kElems));
  RknnDequantArgs a;
  a.b_dtype = b;
  a.k = kK;
  a.n = kN;
  a.b = q.data();
  a.b_bytes = q.size();
  a.quant_type = int4 ? RknnQuantType::kPerGroup : RknnQuantType::kPerChannel;
  a.group_size = int4 ? 32 : 0;
  a.scale = scale.data();
  a.scale_len = params;
  a.zp = zp.data();
  a.zp_len = params;
  a.y = y.data();
  a.y_capacity_elems = y.size();
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    RknnDequantB(a, nullptr);
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  Finish(state, static_cast<int64_t>(q.size() + y.size() * 4));
}

// The yardstick: y = float(x) · s + b over the same element count (fp32 out).
void BM_Fp32MultiplyAdd(benchmark::State& state) {
  const auto x = Random(6, static_cast<size_t>(kElems));
  std::vector<float> y(static_cast<size_t>(kElems));
  const float s = 0.0078125f, b = -1.0f;
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    for (int64_t i = 0; i < kElems; ++i) y[i] = static_cast<float>(x[i]) * s + b;
    benchmark::DoNotOptimize(y.data());
    benchmark::ClobberMemory();
  }
  Finish(state, kElems * 5);
}

void RegisterAll() {
  auto add = [](const std::string& name, auto&& fn, auto... args) {
    benchmark::RegisterBenchmark(name.c_str(), fn, args...)
        ->Arg(kElems)
        ->Unit(benchmark::kMillisecond);
  };
  add("BM_Fp32MultiplyAdd", BM_Fp32MultiplyAdd);
  add("BM_Int4PerGroupDequantFp16PerStep", PerGroup, QType::kInt4, OutType::kFloat16,
      Rounding::kPerStep);
  add("BM_Int4PerGroupDequantFp32", PerGroup, QType::kInt4, OutType::kFloat, Rounding::kFp32Once);
  add("BM_Int8PerGroupDequantFp16PerStep", PerGroup, QType::kInt8, OutType::kFloat16,
      Rounding::kPerStep);
  add("BM_Int8PerGroupDequantFp32", PerGroup, QType::kInt8, OutType::kFloat, Rounding::kFp32Once);
  add("BM_GatherDequantInt8<embed4096>", Gather, int64_t{4096});
  add("BM_GatherDequantInt8<embed64>", Gather, int64_t{64});
  add("BM_GatherDequantInt8Quantize", GatherQuantize);
  add("BM_CannAntiquant<int4,fp16>", Antiquant, DType::kInt4, DType::kFloat16);
  add("BM_CannAntiquant<int8,fp16>", Antiquant, DType::kInt8, DType::kFloat16);
  add("BM_CannAntiquant<int4,bf16>", Antiquant, DType::kInt4, DType::kBf16);
  add("BM_RknnDequantB<int4>", Rknn, DType::kInt4);
  add("BM_RknnDequantB<int8>", Rknn, DType::kInt8);
}

}  // namespace
}  // namespace npuconf::quant

int main(int argc, char** argv) {
  return npuconf::bench::Main(argc, argv, npuconf::quant::RegisterAll);
}
