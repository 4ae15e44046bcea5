// Every RKNN Matmul layout routine of the reference in both directions (spec
// rknn.md §2.1, §3.3), each on 64 MiB of NORM bytes beside memcpy of the same
// bytes: A and C NORM ↔ NATIVE, B NORM ↔ NATIVE, B TP_NORM ↔ NATIVE, segmented
// B, int4 B; the vendor guide's element-by-element loop for context; and, when
// oneDNN is installed, its reorder of the same bytes as a peer (the strided
// 4-D reorder [N1, K1, subN, subK] ← NORM [K, N] is NATIVE B; [K1, M, subK] ←
// [M, K] is NATIVE A). RK3588 sub-blocks (§2.2): A int8 16, fp16 8; B int8
// 32×32, fp16 16×32, int4 64×32; C int32 and fp32 4.
//
// Names (bench_ratio pairs them by the `/<bytes>` suffix):
//   BM_Memcpy/<bytes>
//   BM_<A|C|B|BTp|BSegmented><NormToNative|NativeToNorm><dtype>/<bytes>
//   BM_BNormToNativeNaive<int8|fp16>/<bytes>    the guide's loop
//   BM_Int4<Pack|Unpack>/<bytes>                 rknn.int4_pack / int4_unpack (§2.4):
//                                                <bytes> int8 values ↔ half as many bytes
//   BM_OneDnn<A|B>NormToNative<int8|fp16>/<bytes> and BM_OneDnnBNativeToNorm<…>
// (TP rows are named BTpNormToNative / BTpNativeToNorm: TP_NORM ↔ NATIVE.)
#include <cstdint>
#include <string>
#include <type_traits>

#include "bench/bench_common.h"
#include "reference/rknn/int4.h"
#include "reference/rknn/native_layout.h"

namespace npuconf::rknn {
namespace {

using bench::Destination;
using bench::Source;

constexpr int64_t kBytes = int64_t{64} << 20;

enum class Kind { kA, kC, kB, kBTp, kBSegmented };

struct Workload {
  Kind kind;
  DType dtype;
  int64_t sub_n, sub_k;  // A: sub_k only; C: sub_n only
};

int ElemBits(DType dtype) { return Bits(dtype); }

// B: K = 8192 (16384 segmented, two segments of L = 8192 as on RK3588), N
// fills 64 MiB. A / C: 8192 rows, cols fill 64 MiB.
int64_t BK(const Workload& w) { return w.kind == Kind::kBSegmented ? 16384 : 8192; }
int64_t Cols(const Workload& w, int64_t rows) { return kBytes * 8 / ElemBits(w.dtype) / rows; }

void Run(benchmark::State& state, const Workload& w, bool to_native) {
  std::string label;
  if (w.kind == Kind::kA || w.kind == Kind::kC) {
    const int64_t rows = 8192, cols = Cols(w, rows);
    const int64_t sub = w.kind == Kind::kA ? w.sub_k : w.sub_n;
    const auto g = *RowBlockedGeometryFor(rows, cols, sub, w.dtype);
    const uint8_t* src = Source().Reserve(to_native ? g.norm_bytes : g.native_bytes, true);
    uint8_t* dst = Destination().Reserve(to_native ? g.native_bytes : g.norm_bytes, false);
    for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
      if (to_native) {
        RowBlockedToNative(src, dst, g, NibbleOrder::kLowFirst, NibbleOrder::kLowFirst);
      } else {
        RowBlockedToNorm(src, dst, g, NibbleOrder::kLowFirst, NibbleOrder::kLowFirst);
      }
      benchmark::ClobberMemory();
    }
    label = "rows=" + std::to_string(rows) + " cols=" + std::to_string(cols) +
            " sub=" + std::to_string(sub);
  } else {
    const int64_t k = BK(w), n = Cols(w, k);
    const bool tp = w.kind == Kind::kBTp;
    const auto g = *BNativeGeometryFor(k, n, w.sub_n, w.sub_k, 8192, w.dtype);
    const uint8_t* src = Source().Reserve(to_native ? g.norm_bytes : g.native_bytes, true);
    uint8_t* dst = Destination().Reserve(to_native ? g.native_bytes : g.norm_bytes, false);
    for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
      if (to_native) {
        BPlainToNative(src, dst, g, tp, NibbleOrder::kLowFirst, NibbleOrder::kLowFirst);
      } else {
        BNativeToPlain(src, dst, g, tp, NibbleOrder::kLowFirst, NibbleOrder::kLowFirst);
      }
      benchmark::ClobberMemory();
    }
    label = "K=" + std::to_string(k) + " N=" + std::to_string(n) +
            " segments=" + std::to_string(g.segments.size());
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
  state.SetLabel(label);
}

// The §2.1 map transcribed: for every NATIVE position, the NORM element or 0.
template <typename T>
void NaiveLoop(const T* b, T* out, int64_t k_dim, int64_t n_dim, int64_t sub_n, int64_t sub_k) {
  const int64_t n1 = (n_dim + sub_n - 1) / sub_n, k1 = (k_dim + sub_k - 1) / sub_k;
  for (int64_t i = 0; i < n1; ++i) {
    for (int64_t j = 0; j < k1; ++j) {
      for (int64_t x = 0; x < sub_n; ++x) {
        for (int64_t y = 0; y < sub_k; ++y) {
          const int64_t k = j * sub_k + y, n = i * sub_n + x;
          out[((i * k1 + j) * sub_n + x) * sub_k + y] =
              (k < k_dim && n < n_dim) ? b[k * n_dim + n] : T{0};
        }
      }
    }
  }
}

template <typename T>
void Naive(benchmark::State& state, Workload w) {
  const int64_t k = 8192, n = Cols(w, k);
  const auto* src = reinterpret_cast<const T*>(Source().Reserve(kBytes, true));
  auto* dst = reinterpret_cast<T*>(Destination().Reserve(kBytes, false));
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    NaiveLoop(src, dst, k, n, w.sub_n, w.sub_k);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * kBytes);
}

#if NPUCONF_HAVE_DNNL
using dnnl::memory;

memory::data_type DnnlType(DType dtype) {
  // A 16-bit reorder moves the same bytes whatever the type; oneDNN's CPU
  // reorders take bf16 everywhere, f16 not in every build.
  return Bits(dtype) == 8 ? memory::data_type::s8 : memory::data_type::bf16;
}

// NATIVE B as a 4-D view of NORM [K, N]: dims [N1, K1, subN, subK], NORM
// strides [subN, subK·N, 1, N]; NATIVE is the same dims dense.
void OneDnnB(benchmark::State& state, Workload w, bool to_native) {
  const int64_t k = BK(w), n = Cols(w, k);
  const memory::dims dims{n / w.sub_n, k / w.sub_k, w.sub_n, w.sub_k};
  const memory::desc norm(dims, DnnlType(w.dtype), memory::dims{w.sub_n, w.sub_k * n, 1, n});
  const memory::desc native(dims, DnnlType(w.dtype), memory::format_tag::abcd);
  bench::OneDnnReorder(state, to_native ? norm : native, to_native ? native : norm, kBytes);
}

// NATIVE A as a 3-D view of NORM [M, K]: dims [K1, M, subK], strides [subK, K, 1].
void OneDnnA(benchmark::State& state, Workload w) {
  const int64_t rows = 8192, cols = Cols(w, rows);
  const memory::dims dims{cols / w.sub_k, rows, w.sub_k};
  const memory::desc norm(dims, DnnlType(w.dtype), memory::dims{w.sub_k, cols, 1});
  const memory::desc native(dims, DnnlType(w.dtype), memory::format_tag::abc);
  bench::OneDnnReorder(state, norm, native, kBytes);
}
#endif

// <bytes> one-per-byte int8 values packed into <bytes>/2 (or back), v2.x
// nibble order; beside memcpy of the int8 side's bytes.
void Int4(benchmark::State& state, bool pack) {
  const int64_t count = state.range(0);
  const uint8_t* src = Source().Reserve(static_cast<uint64_t>(count), true);
  uint8_t* dst = Destination().Reserve(static_cast<uint64_t>(count), false);
  for (auto _ : state) {  // NOLINT(clang-analyzer-deadcode.DeadStores): the idiom
    if (pack) {
      PackInt4(reinterpret_cast<const int8_t*>(src), dst, count, NibbleOrder::kLowFirst);
    } else {
      UnpackInt4(src, reinterpret_cast<int8_t*>(dst), count, NibbleOrder::kLowFirst);
    }
    benchmark::DoNotOptimize(dst);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(state.iterations() * count);
}

void RegisterAll() {
  benchmark::RegisterBenchmark("BM_Memcpy", bench::BM_Memcpy)
      ->Arg(kBytes)
      ->Unit(benchmark::kMillisecond);
  struct Named {
    const char* name;
    Workload w;
  };
  const Named workloads[] = {
      {"A<int8>", {Kind::kA, DType::kInt8, 0, 16}},
      {"A<fp16>", {Kind::kA, DType::kFloat16, 0, 8}},
      {"C<int32>", {Kind::kC, DType::kInt32, 4, 0}},
      {"B<int8>", {Kind::kB, DType::kInt8, 32, 32}},
      {"B<fp16>", {Kind::kB, DType::kFloat16, 16, 32}},
      {"B<int4>", {Kind::kB, DType::kInt4, 64, 32}},
      {"BTp<int8>", {Kind::kBTp, DType::kInt8, 32, 32}},
      {"BTp<fp16>", {Kind::kBTp, DType::kFloat16, 16, 32}},
      {"BSegmented<int8>", {Kind::kBSegmented, DType::kInt8, 32, 32}},
      {"BSegmented<fp16>", {Kind::kBSegmented, DType::kFloat16, 16, 32}},
  };
  for (const Named& named : workloads) {
    std::string name(named.name);
    const size_t angle = name.find('<');
    const std::string routine = name.substr(0, angle), type = name.substr(angle);
    for (bool to_native : {true, false}) {
      const std::string full =
          "BM_" + routine + (to_native ? "NormToNative" : "NativeToNorm") + type;
      benchmark::RegisterBenchmark(full.c_str(), Run, named.w, to_native)
          ->Arg(kBytes)
          ->Unit(benchmark::kMillisecond);
    }
  }
  for (bool pack : {true, false}) {
    benchmark::RegisterBenchmark(pack ? "BM_Int4Pack" : "BM_Int4Unpack", Int4, pack)
        ->Arg(kBytes)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("BM_BNormToNativeNaive<int8>", Naive<uint8_t>, workloads[3].w)
      ->Arg(kBytes)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("BM_BNormToNativeNaive<fp16>", Naive<uint16_t>, workloads[4].w)
      ->Arg(kBytes)
      ->Unit(benchmark::kMillisecond);
#if NPUCONF_HAVE_DNNL
  for (int i : {3, 4}) {
    const std::string type = std::string(workloads[i].name).substr(1);
    benchmark::RegisterBenchmark(("BM_OneDnnBNormToNative" + type).c_str(), OneDnnB, workloads[i].w,
                                 true)
        ->Arg(kBytes)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("BM_OneDnnBNativeToNorm" + type).c_str(), OneDnnB, workloads[i].w,
                                 false)
        ->Arg(kBytes)
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("BM_OneDnnANormToNative<int8>", OneDnnA, workloads[0].w)
      ->Arg(kBytes)
      ->Unit(benchmark::kMillisecond);
#endif
}

}  // namespace
}  // namespace npuconf::rknn

int main(int argc, char** argv) {
  return npuconf::bench::Main(argc, argv, npuconf::rknn::RegisterAll);
}
