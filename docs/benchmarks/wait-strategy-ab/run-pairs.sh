#!/usr/bin/env bash
# A/B of UCX wait settings with bin/bench: two variants (NAME=JVM options for the coordinating JVM, which
# passes them to the client and server JVMs) alternate, one invocation each per pair, odd pairs A first.
# usage: MODE=--full TRANSPORTS=ucx run-pairs.sh OUTDIR PAIRS NAME=OPTS NAME=OPTS
cd "$(dirname "${BASH_SOURCE[0]}")/../../.." || exit 1
out=$1; pairs=$2; shift 2
a=$1; b=$2
for i in $(seq 1 "$pairs"); do
  if (( i % 2 )); then order=("$a" "$b"); else order=("$b" "$a"); fi
  for v in "${order[@]}"; do
    name=${v%%=*}; opts=${v#*=}
    echo "=== pair $i: $name ($opts) $(date +%T)"
    BENCH_JAVA_OPTS="$opts" flock /tmp/bench.lock bin/bench $MODE --transports ${TRANSPORTS:-ucx,epoll} --runs 1 --no-perftest --out "$out/$name-$i" > "$out/$name-$i.log" 2>&1
    echo "rc=$?"
  done
done
