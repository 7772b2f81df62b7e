#!/usr/bin/env bash
# one YCSB A run (10 s, unloaded) with LogCompilation; $1 transport, $2 out dir
set -u
t=$1; dir=$2; rm -rf "$dir"; mkdir -p "$dir/logs"
(cd /work/main && JAVA_TOOL_OPTIONS="-XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=$dir/logs/jit-%p.log" \
  BENCH_BUILD=never bin/bench ycsb --workloads a --threads 4 --transports $t --runs 1 --seconds 10 --out "$dir/bench" > "$dir/run.log" 2>&1)
server=$(grep -l -- "server --port 0 --transport" "$dir"/logs/*.log | head -1)
python3 /work/main/docs/benchmarks/shared-machine/busy-diagnosis/jit-by-package.py "$server" > "$dir/server-by-package.txt"
echo "$(date +%T) $t $dir: $(sed -n 1,3p $dir/server-by-package.txt | tr -s ' ' | tr '\n' ';') $(grep -E 'OVERALL.*Throughput' -h $dir/bench/*/*.txt 2>/dev/null | head -1)"
