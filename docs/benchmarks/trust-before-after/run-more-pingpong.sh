#!/usr/bin/env bash
# More alternations, UCX only: SystemBenchmark --quick, before and after alternating, for the run numbers given
# (the series here: run-more-pingpong.sh 7 8 9 10 11 12 13 14, then 15 ... 22). Class paths as in run.sh.
set -u
OUT=${OUT:-/tmp/before-after}
for i in "$@"; do
  if (( i % 2 )); then order="before after"; else order="after before"; fi
  for which in $order; do
    echo "== $(date +%T) system $which $i"
    java -Djava.awt.headless=true "-Dbench.command=bench-before-after $which" -cp "$(cat /work/notes/cp-$which)" \
      io.github.nettyucx.benchmarks.SystemBenchmark --quick --transports ucx --runs 1 --no-perftest \
      --out "$OUT/system-$which-$i" 2>&1 | grep -E "pingpong" | head -5
  done
done
echo "== $(date +%T) done"
