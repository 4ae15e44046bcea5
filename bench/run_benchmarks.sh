#!/usr/bin/env bash
# Runs every benchmark of bench/ with 5 repetitions and prints the ratios the
# issues ask for (median times, both sides measured in the same run). Exits 1
# when ND -> NZ fp16 at 64 MiB is slower than 2.0x memcpy.
# Usage: bench/run_benchmarks.sh [BUILD_DIR]   (default: build)
set -euo pipefail
build=${1:-build}
cmake --build "$build" -j2 --target bench >/dev/null
out="$build/bench-results"
mkdir -p "$out"
reps=(--benchmark_repetitions=5 --benchmark_report_aggregates_only=true --benchmark_out_format=json)
ratio="$build/bench/bench_ratio"

echo "== ND -> FRACTAL_NZ pack vs memcpy (bench/nz_pack_bench) =="
"$build/bench/nz_pack_bench" "${reps[@]}" --benchmark_out="$out/nz_pack.json" >/dev/null
for t in fp16 int8; do
  echo "-- $t, k a multiple of C0"
  "$ratio" --json "$out/nz_pack.json" --numerator "BM_PackNdToNz<$t>/*" --denominator 'BM_Memcpy/*' --markdown
  echo "-- $t, ragged k"
  "$ratio" --json "$out/nz_pack.json" --numerator "BM_PackNdToNzRaggedK<$t>/*" --denominator 'BM_Memcpy/*' --markdown
done

echo "== RKNN B NORM -> NATIVE, 64 MiB (bench/rknn_b_native_bench) =="
"$build/bench/rknn_b_native_bench" "${reps[@]}" --benchmark_out="$out/rknn_b_native.json" >/dev/null
for t in int8 fp16; do
  for kind in BNormToNative BNormToNativeSegmented BNormToNativeNaive; do
    "$ratio" --json "$out/rknn_b_native.json" --numerator "BM_$kind<$t>/67108864/real_time" --denominator 'BM_Memcpy/67108864/real_time'
  done
  echo "-- reference vs the guide's element-by-element loop, $t:"
  "$ratio" --json "$out/rknn_b_native.json" --numerator "BM_BNormToNative<$t>/67108864/real_time" \
    --denominator "BM_BNormToNativeNaive<$t>/67108864/real_time"
done

echo "== dequant throughput (bench/quant_dequant_bench; items_per_second = elements/s) =="
"$build/bench/quant_dequant_bench" "${reps[@]}" --benchmark_out="$out/quant.json" \
  --benchmark_format=console | grep -E "median|Benchmark" || true

echo "== gate: ND -> NZ fp16 at 64 MiB within 2.0x memcpy =="
"$ratio" --json "$out/nz_pack.json" --numerator 'BM_PackNdToNz<fp16>/67108864' \
  --denominator 'BM_Memcpy/67108864' --max 2.0
