#!/usr/bin/env bash
# streams-ab.sh OUT N SIDE... : SystemBenchmark --streams, ucx only, one run per side per round, sides alternating.
set -u
out=$1; n=$2; shift 2
mkdir -p $out
cd /work/main
for i in $(seq 1 $n); do
  for side in "$@"; do
    cp_run=$(docs/benchmarks/short-path/loop-apart/side-classpath.sh $side) || exit 1
    java -cp "$cp_run" io.github.nettyucx.benchmarks.echo.SystemBenchmark --streams --no-perftest --transports ucx \
      --runs 1 --out $out/str-$side-$i > $out/str-$side-$i.log 2>&1
    echo "$(date +%T) $side $i: $(grep -E ',throughput,' $out/str-$side-$i/results.csv | cut -d, -f1,3,4,15 | tr '\n' ' ')"
  done
done
