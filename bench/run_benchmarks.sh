#!/usr/bin/env bash
# Runs every benchmark of bench/ (5 repetitions, random interleaving, medians)
# and prints one Markdown table: each layout routine's median time over that
# of memcpy of the same bytes, and a plain fp32 multiply-add loop's median
# time over each dequant routine's (its throughput as a fraction of the
# loop's), both sides measured in the same process. Where README sets a goal
# the row says so; the script exits 1 when any goal is missed, 2 when a
# benchmark or the checker fails. oneDNN peer rows appear when the build found
# libdnnl (bench/CMakeLists.txt).
# In-cache rows (64 and 256 KiB, L2-resident) are gated against a plain
# vector copy of the same bytes (BM_VectorCopy, bench/bench_common.h; issue 18
# item 8): there glibc's memcpy is one `rep movsb` whose stores are hidden, a
# yardstick no loop of vector loads and stores reaches. Their memcpy ratio is
# printed beside, without a goal.
# Kernel paths (issue 19): every row is measured on this CPU's best path, and
# the goal rows once more on every other path it runs (NPUCONF_ISA=avx2,
# portable, ...; labelled [path]). The goals gate the avx512 and avx2 rows;
# portable and neon rows are printed without a verdict. NPUCONF_ISA=PATH in
# the environment measures that path alone (every row, gated where it is).
# Usage: bench/run_benchmarks.sh [BUILD_DIR]   (default: build)
set -uo pipefail
build=${1:-build}
cmake --build "$build" -j2 --target bench >/dev/null || exit 2
out="$build/bench-results"
mkdir -p "$out"
flags=(--benchmark_repetitions=5 --benchmark_report_aggregates_only=true
       --benchmark_out_format=json)
ratio="$build/bench/bench_ratio"
missed=0
failed=0
met_rows=0          # goal rows met, on every gated path
missed_rows=0       # goal rows missed
missed_in_cache=0   # of those, rows at 64 / 256 KiB (× the vector copy)

# The paths this CPU runs, best first: a bench program refuses the others (exit 2).
if [ -n "${NPUCONF_ISA:-}" ]; then
  paths=("$NPUCONF_ISA")
  if ! "$build/bench/nz_pack_bench" --benchmark_list_tests >/dev/null; then exit 2; fi
else
  paths=()
  for p in avx512 neon avx2 portable; do
    NPUCONF_ISA=$p "$build/bench/nz_pack_bench" --benchmark_list_tests >/dev/null 2>&1 &&
      paths+=("$p")
  done
fi
best=${paths[0]}
echo "kernel paths measured: ${paths[*]} (every row on $best, goal rows on the others)" >&2

isa=$best    # the path of the rows being measured / printed
gated=1      # whether this path's rows are gated by the goals
tag=""       # the label suffix of this path's rows ("" on the best path)

run() {  # run PROGRAM JSON [extra flags]
  local program=$1 json=$2
  shift 2
  echo "running $program on $isa ..." >&2
  NPUCONF_ISA=$isa "$build/bench/$program" "${flags[@]}" --benchmark_out="$out/$isa/$json" "$@" \
    >/dev/null || failed=1
}

# row JSON LABEL NUMERATOR DENOMINATOR [bench_ratio options]; a goal
# (--max / --min) is dropped on a path that is not gated.
row() {
  local json=$1 label=$2 num=$3 den=$4
  shift 4
  local options=()
  while [ $# -gt 0 ]; do
    case $1 in
      --max | --min) [ "$gated" -eq 1 ] && options+=("$1" "$2"); shift 2 ;;
      *) options+=("$1"); shift ;;
    esac
  done
  local table status
  table=$("$ratio" --json "$out/$isa/$json" --numerator "$num" --denominator "$den" --markdown \
    --no-header --label "$label$tag" "${options[@]}")
  status=$?
  [ -n "$table" ] && echo "$table"
  case $status in
    0) ;;
    1) missed=1 ;;
    *) failed=1 ;;
  esac
  # The tally of the closing line: goal rows met and missed, the missed
  # in-cache rows apart (their access-order floor, the first row of each path).
  met_rows=$((met_rows + $(grep -c '| ok |$' <<<"$table")))
  local misses
  misses=$(grep -c '| MISSED |$' <<<"$table")
  missed_rows=$((missed_rows + misses))
  case $label in *"(in cache"*) missed_in_cache=$((missed_in_cache + misses)) ;; esac
}

has() { grep -q "\"$2" "$out/$isa/$1"; }  # has JSON NAME_PREFIX: was it measured?

incache=65536,262144  # L2-resident: gated against the vector copy (issue 18 item 8)
small=1048576
mid=4194304
large=16777216,67108864,268435456
mem='BM_Memcpy/*'
vec='BM_VectorCopy/*'
fma='BM_Fp32MultiplyAdd/*'

# incache_rows JSON LABEL NUMERATOR: the in-cache sizes × the vector copy (goal
# <= 1.5) and, without a goal, × memcpy beside it.
incache_rows() {
  row "$1" "$2 (in cache, × vector copy)" "$3" "$vec" --only "$incache" --max 1.5
  row "$1" "$2 (in cache, × memcpy)" "$3" "$mem" --only "$incache"
}

# The rows README's Speed section sets a goal for, on the path in $isa. First
# the access-order floor of the in-cache rows (BM_RowTurnsCopy,
# bench_common.h): the vector copy reading 16 rows in turn, no shuffle, in
# runs longer than the layouts' own. Printed without a goal.
goal_rows() {
  row nz.json "floor: the vector copy over 16 rows in turn (in cache, × vector copy)" \
    'BM_RowTurnsCopy/*' "$vec" --only "$incache"
  for t in int8 fp16; do
    incache_rows nz.json "ND → NZ $t" "BM_PackNdToNz<$t>/*"
    row nz.json "ND → NZ $t" "BM_PackNdToNz<$t>/*" "$mem" --only "$large" --max 1.1
  done
  row nz.json "ND → NZ int8" 'BM_PackNdToNz<int8>/*' "$mem" --only "$small" --max 1.5
  for t in int8 fp16; do
    incache_rows nz.json "NZ → ND $t" "BM_UnpackNzToNd<$t>/*"
    row nz.json "NZ → ND $t" "BM_UnpackNzToNd<$t>/*" "$mem" --only "$small,$mid,$large" --max 1.5
  done
  # TransMatmulWeight copies the weight, then packs it: its goal is 3×. At
  # 256 MiB its fresh 2 MiB-page scratch copy waits on the kernel compacting
  # memory on a busy machine (2.5× to 34× between runs, same code;
  # reference/cann/trans_matmul_weight.cpp): printed, not gated.
  for t in int8 fp16; do
    row nz.json "TransMatmulWeight $t, in place (in cache, × vector copy)" \
      "BM_TransMatmulWeight<$t>/*" "$vec" --only "$incache" --max 3
    row nz.json "TransMatmulWeight $t, in place" "BM_TransMatmulWeight<$t>/*" "$mem" \
      --only "$small,$mid,16777216,67108864" --max 3
    row nz.json "TransMatmulWeight $t, in place" "BM_TransMatmulWeight<$t>/*" "$mem" \
      --only 268435456
  done
  for t in int8 fp16; do
    row rknn.json "RKNN B NORM → NATIVE $t" "BM_BNormToNative<$t>/*" "$mem" --max 1.5
    row rknn.json "RKNN B NATIVE → NORM $t" "BM_BNativeToNorm<$t>/*" "$mem" --max 1.5
    row rknn.json "RKNN A NORM → NATIVE $t" "BM_ANormToNative<$t>/*" "$mem" --max 1.5
    row rknn.json "RKNN A NATIVE → NORM $t" "BM_ANativeToNorm<$t>/*" "$mem" --max 1.5
  done
  row rknn.json "RKNN C NORM → NATIVE int32" 'BM_CNormToNative<int32>/*' "$mem" --max 1.5
  row rknn.json "RKNN C NATIVE → NORM int32" 'BM_CNativeToNorm<int32>/*' "$mem" --max 1.5
  row rknn.json "RKNN B NORM → NATIVE int4" 'BM_BNormToNative<int4>/*' "$mem" --max 2
  row rknn.json "RKNN B NATIVE → NORM int4" 'BM_BNativeToNorm<int4>/*' "$mem" --max 2
  # The channel-blocked layouts (issue 18 item 7): ≤ 1.5× memcpy from 1 MiB,
  # ≤ 1.5× the vector copy in cache, and faster than oneDNN's reorder of the
  # same layout (nChw16c / nChw8c / nCdhw16c; FRACTAL_Z(_3D) a strided 6-D
  # (7-D) reorder; FRACTAL_Z_C04 has none).
  for c in NCHW_to_NC1HWC0_fp16 NC1HWC0_to_NCHW_fp16 NCHW_to_NC1HWC0_fp32_c0_8 \
           NCHW_to_NC1HWC0_fp32_c0_16 NHWC_to_NC1HWC0_fp16 NC1HWC0_to_NHWC_fp16 \
           NCHW_to_FRACTAL_Z_fp16 FRACTAL_Z_to_NCHW_fp16 NCDHW_to_NDC1HWC0_fp16 \
           NDC1HWC0_to_NCDHW_fp16 NDHWC_to_NDC1HWC0_fp16 NCDHW_to_FRACTAL_Z_3D_fp16 \
           FRACTAL_Z_3D_to_NCDHW_fp16 NCHW_to_FRACTAL_Z_C04_fp16 FRACTAL_Z_C04_to_NCHW_fp16; do
    incache_rows td.json "TransData $c" "BM_TransData<$c>/*"
    row td.json "TransData $c" "BM_TransData<$c>/*" "$mem" --only "$small,$mid,$large" --max 1.5
    if has td.json "BM_OneDnn<$c>"; then
      row td.json "TransData $c (× oneDNN)" "BM_TransData<$c>/*" "BM_OneDnn<$c>/*" --max 1
    fi
  done
  for c in NCHW_to_NC1HWC2_int8 NC1HWC2_to_NCHW_int8 NCHW_to_NC1HWC2_fp16 NC1HWC2_to_NCHW_fp16 \
           NHWC_to_NC1HWC2_int8 NC1HWC2_to_NHWC_int8; do
    incache_rows nc1hwc2.json "RKNN $c" "BM_Nc1hwc2<$c>/*"
    row nc1hwc2.json "RKNN $c" "BM_Nc1hwc2<$c>/*" "$mem" --only "$small,$mid,$large" --max 1.5
    if has nc1hwc2.json BM_OneDnn; then
      row nc1hwc2.json "RKNN $c (× oneDNN)" "BM_Nc1hwc2<$c>/*" "BM_OneDnn<$c>/*" --max 1
    fi
  done
  row quant.json "int4 per-group → fp16 per-step (× FMA loop)" "$fma" \
    'BM_Int4PerGroupDequantFp16PerStep/*' --min 0.25
  row quant.json "int4 per-group → fp32 (× FMA loop)" "$fma" 'BM_Int4PerGroupDequantFp32/*' \
    --min 0.5
}

# The rows without a goal: the best path only.
context_rows() {
  row nz.json "ND → NZ int8" 'BM_PackNdToNz<int8>/*' "$mem" --only "$mid"
  row nz.json "ND → NZ fp16" 'BM_PackNdToNz<fp16>/*' "$mem" --only "$small,$mid"
  for t in int8 fp16; do
    row nz.json "ND → NZ $t, ragged k" "BM_PackNdToNzRaggedK<$t>/*" "$mem"
  done
  if has nz.json BM_OneDnn; then
    for t in int8 fp16; do
      block=$([ "$t" = int8 ] && echo 32 || echo 16)
      row nz.json "peer: oneDNN reorder ab → BA16a${block}b, $t" "BM_OneDnnNdToNz<$t>/*" "$mem" \
        --only "$incache,$small,$large"
      row nz.json "peer: oneDNN reorder BA16a${block}b → ab, $t" "BM_OneDnnNzToNd<$t>/*" "$mem" \
        --only "$incache,$small,$large"
    done
  fi
  for spec in "BTpNormToNative:B TP_NORM → NATIVE" "BTpNativeToNorm:B NATIVE → TP_NORM" \
              "BSegmentedNormToNative:B NORM → NATIVE, 2 K segments" \
              "BSegmentedNativeToNorm:B NATIVE → NORM, 2 K segments"; do
    for t in int8 fp16; do
      row rknn.json "RKNN ${spec#*:} $t" "BM_${spec%%:*}<$t>/*" "$mem"
    done
  done
  row rknn.json "RKNN int4_pack (int8 → int4)" 'BM_Int4Pack/*' "$mem"
  row rknn.json "RKNN int4_unpack (int4 → int8)" 'BM_Int4Unpack/*' "$mem"
  for t in int8 fp16; do
    row rknn.json "context: the guide's element loop, B $t" "BM_BNormToNativeNaive<$t>/*" "$mem"
  done
  if has rknn.json BM_OneDnn; then
    for t in int8 fp16; do
      row rknn.json "peer: oneDNN strided 4-D = NATIVE B $t" "BM_OneDnnBNormToNative<$t>/*" "$mem"
      row rknn.json "peer: oneDNN NATIVE B → NORM $t" "BM_OneDnnBNativeToNorm<$t>/*" "$mem"
    done
    row rknn.json "peer: oneDNN strided 3-D = NATIVE A int8" 'BM_OneDnnANormToNative<int8>/*' "$mem"
  fi
  row quant.json "int8 per-group → fp16 per-step (× FMA loop)" "$fma" \
    'BM_Int8PerGroupDequantFp16PerStep/*'
  row quant.json "int8 per-group → fp32 (× FMA loop)" "$fma" 'BM_Int8PerGroupDequantFp32/*'
  for shape in embed4096 embed64; do
    row quant.json "GatherDequantInt8 $shape (× FMA loop)" "$fma" "BM_GatherDequantInt8<$shape>/*"
  done
  row quant.json "GatherDequantInt8 quantizer, fp32 → uint8 (× FMA loop)" "$fma" \
    'BM_GatherDequantInt8Quantize/*'
  for types in int4,fp16 int8,fp16 int4,bf16; do
    row quant.json "CANN antiquant $types (× FMA loop)" "$fma" "BM_CannAntiquant<$types>/*"
  done
  for t in int4 int8; do
    row quant.json "RKNN dequant_b $t (× FMA loop)" "$fma" "BM_RknnDequantB<$t>/*"
  done
}

gate_of() { case $1 in avx512 | avx2) echo 1 ;; *) echo 0 ;; esac; }

mkdir -p "$out/$best"
isa=$best
gated=$(gate_of "$best")
run nz_pack_bench nz.json
run rknn_layout_bench rknn.json
run quant_dequant_bench quant.json
run trans_data_bench td.json
run nc1hwc2_bench nc1hwc2.json

echo "| routine | numerator | denominator | median numerator | median denominator | ratio | goal | verdict |"
echo "|---|---|---|---:|---:|---:|---:|---|"
goal_rows
context_rows

# The goal rows on every other path this CPU runs: only their benchmarks and
# the yardsticks run.
for p in "${paths[@]:1}"; do
  isa=$p
  gated=$(gate_of "$p")
  tag=" [$p]"
  mkdir -p "$out/$isa"
  run nz_pack_bench nz.json \
    '--benchmark_filter=^BM_(Memcpy|VectorCopy|RowTurnsCopy|PackNdToNz<|UnpackNzToNd<|TransMatmulWeight<)'
  run rknn_layout_bench rknn.json '--benchmark_filter=^BM_(Memcpy|[ABC](NormToNative|NativeToNorm)<)'
  run quant_dequant_bench quant.json \
    '--benchmark_filter=^BM_(Fp32MultiplyAdd|Int4PerGroupDequantFp(16PerStep|32))/'
  run trans_data_bench td.json '--benchmark_filter=^BM_(Memcpy|VectorCopy|TransData)'
  run nc1hwc2_bench nc1hwc2.json '--benchmark_filter=^BM_(Memcpy|VectorCopy|Nc1hwc2)'
  goal_rows
done

if [ "$failed" -ne 0 ]; then
  echo "bench: a benchmark or the ratio checker failed (see above)" >&2
  exit 2
fi
echo "bench: $met_rows goal rows met, $missed_rows missed ($missed_in_cache of them in cache," \
  "against the vector copy: compare the floor row of their path)" >&2
if [ "$missed" -ne 0 ]; then
  echo "bench: goal(s) MISSED (rows marked MISSED above)" >&2
  exit 1
fi
echo "bench: every goal met" >&2
