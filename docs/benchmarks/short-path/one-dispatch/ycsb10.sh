#!/usr/bin/env bash
# YCSB A beside two busy processes, ucx and epoll in the same run, 10 runs (the measure), the 663947c build
cd /work/main
for i in $(seq 1 10); do
  BENCH_BUILD=never timeout 600 bin/bench ycsb --workloads a --threads 4 --transports $( (( i % 2 )) && echo ucx,epoll || echo epoll,ucx) --runs 1 --seconds 10 --neighbours busy:2 --out /tmp/s13/y10/run-$i > /tmp/s13/y10/run-$i.log 2>&1
  echo "$(date +%T) $i: $(grep -E 'run 1/1, workload' /tmp/s13/y10/run-$i.log | sed 's/  */ /g' | tr '\n' ' ')"
done
