#!/usr/bin/env bash
# Runs one libFuzzer target of fuzz/ for SECONDS (or RUNS executions) from its
# seed corpus, with its dictionary when it has one. New inputs go to a scratch
# corpus beside the binary, never into fuzz/corpus/; a crash, leak or timeout
# leaves its input in fuzz-artifacts/TARGET/ and exits non-zero.
#
#   run_fuzzer.sh BINARY TARGET SECONDS [RUNS] [extra libFuzzer flags...]
set -euo pipefail
binary=$1 target=$2 seconds=$3 runs=${4:--1}
shift $(($# < 4 ? $# : 4))
here=$(cd "$(dirname "$0")" && pwd)
work=$(dirname "$binary")/fuzz-work/$target
artifacts=$(dirname "$binary")/fuzz-artifacts/$target
mkdir -p "$work" "$artifacts"
dict=()
[ -f "$here/dict/$target.dict" ] && dict=(-dict="$here/dict/$target.dict")
# detect_leaks: a leak is a finding; a unit slower than 10 s or over 2 GB RSS too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
exec "$binary" -max_total_time="$seconds" -runs="$runs" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" "$@" \
  "$work" "$here/corpus/$target"
