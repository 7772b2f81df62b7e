#!/usr/bin/env bash
# one YCSB A run with LogCompilation; $1 transport, $2 out dir; NEIGH env
set -u
t=$1; dir=$(realpath -m $2); rm -rf "$dir"; mkdir -p "$dir/logs"
(cd /work/main && JAVA_TOOL_OPTIONS="-XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=$dir/logs/jit-%p.log" \
  BENCH_BUILD=never bin/bench ycsb --workloads a --threads 4 --transports $t --runs 1 --seconds 10 ${NEIGH:-} --out "$dir/bench" > "$dir/run.log" 2>&1)
echo "$t: $(grep -h 'run 1/1' $dir/run.log | sed 's/  */ /g')"
