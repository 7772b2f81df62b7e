#!/usr/bin/env bash
# Connection setup before (06ee6b0) and after issue 49's work: ConnectBenchmark (benchmarks/echo), UCX and epoll,
# the builds alternating, one run each per round. cp-before / cp-after: each tree's benchmarks/echo classes and
# runtime-classpath.txt. Output: connect.csv in the current directory.
set -u
for i in 1 2 3 4 5 6; do
  if (( i % 2 )); then order="before after"; else order="after before"; fi
  for which in $order; do
    echo "== $(date +%T) connect $which $i"
    java -cp "$(cat cp-$which)" io.github.nettyucx.benchmarks.echo.ConnectBenchmark --transports ucx,epoll --runs 1 \
      --warmup 500 --connections 1000 --label "-$which" --out connect.csv 2>&1 | grep -E "^run|Exception|ucx|epoll" | head -4
  done
done
echo "== $(date +%T) done"
