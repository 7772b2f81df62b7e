#!/usr/bin/env bash
# Alternates the "before" (2d77002, protocol 3) and "after" (protocol 4) builds: SystemBenchmark --quick on ucx and
# ucx-tcp, and ConnectBenchmark on nio, epoll, ucx. Output under $OUT.
# /work/notes/cp-before and cp-after each hold a class path: that tree's benchmarks, transport, native and support
# jars (built with mvn -Dmaven.test.skip=true -pl benchmarks -am package; "before" in a git worktree at 2d77002),
# then benchmarks/target/runtime-classpath.txt without the netty-ucx entries. ConnectBenchmark is new, so the
# "before" run uses the after tree's benchmarks jar with the before tree's transport jars.
set -u
OUT=${OUT:-/tmp/before-after}
mkdir -p "$OUT"
AFTER_BENCH=/work/main/benchmarks/target/netty-ucx-benchmarks-0.1.0-SNAPSHOT.jar
CP_BEFORE_CONNECT="$AFTER_BENCH:$(cut -d: -f2- /work/notes/cp-before)"
for i in 1 2 3 4 5 6; do
  if (( i % 2 )); then order="before after"; else order="after before"; fi
  for which in $order; do
    echo "== $(date +%T) system $which $i"
    java -Djava.awt.headless=true "-Dbench.command=bench-before-after $which" -cp "$(cat /work/notes/cp-$which)" \
      io.github.nettyucx.benchmarks.SystemBenchmark --quick --transports ucx,ucx-tcp --runs 1 --no-perftest \
      --out "$OUT/system-$which-$i" 2>&1 | grep -E "throughput|pingpong|round|error|Exception" | head -20
  done
done
for i in 1 2 3 4 5; do
  if (( i % 2 )); then order="before after"; else order="after before"; fi
  for which in $order; do
    cp=$(cat /work/notes/cp-after); [[ $which == before ]] && cp=$CP_BEFORE_CONNECT
    echo "== $(date +%T) connect $which $i"
    java -cp "$cp" io.github.nettyucx.benchmarks.ConnectBenchmark --transports nio,epoll,ucx --runs 1 \
      --warmup 500 --connections 1000 --label "-$which" --out "$OUT/connect.csv" 2>&1 | grep -E "^run|Exception"
  done
done
echo "== $(date +%T) done"
