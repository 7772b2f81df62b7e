#!/usr/bin/env bash
# A second series, UCX only: SystemBenchmark --quick, before and after alternating, runs 15..22.
set -u
OUT=${OUT:-/tmp/before-after}
for i in 15 16 17 18 19 20 21 22; do
  if (( i % 2 )); then order="before after"; else order="after before"; fi
  for which in $order; do
    echo "== $(date +%T) system $which $i"
    java -Djava.awt.headless=true "-Dbench.command=bench-before-after $which" -cp "$(cat /work/notes/cp-$which)" \
      io.github.nettyucx.benchmarks.SystemBenchmark --quick --transports ucx --runs 1 --no-perftest \
      --out "$OUT/system-$which-$i" 2>&1 | grep -E "pingpong" | head -5
  done
done
echo "== $(date +%T) done"
