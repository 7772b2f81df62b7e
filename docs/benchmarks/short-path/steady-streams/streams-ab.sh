#!/usr/bin/env bash
# streams-ab.sh OUT N SIDE...: N rounds of SystemBenchmark --streams, ucx only, one run per side per round, sides
# alternating (../throughput-06ee6b0/thr-ucx.sh with THR_MODE=--streams). A side is "main", a worktree's name, or
# "sts": main with -Dio.github.nettyucx.waitStrategy=spin_then_sleep in both JVMs.
set -u
out=$1; n=$2; shift 2
thr=$(cd "$(dirname "$0")" && pwd)/../throughput-06ee6b0/thr-ucx.sh
mkdir -p "$out"
for i in $(seq 1 "$n"); do
  for side in "$@"; do
    if [[ $side == sts ]]; then
      THR_MODE=--streams THR_LABEL="$side $i" bash "$thr" main "$out/str-$side-$i" \
        JAVA_TOOL_OPTIONS=-Dio.github.nettyucx.waitStrategy=spin_then_sleep
    else
      THR_MODE=--streams THR_LABEL="$side $i" bash "$thr" "$side" "$out/str-$side-$i"
    fi
  done
done
