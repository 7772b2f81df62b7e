#!/usr/bin/env bash
# 16 B echo, A = UCX's keepalive on (UCX_KEEPALIVE_INTERVAL=20s, UCX's default), B = the new default (off); alternating
cd /work/main
out=/tmp/s13/ka-echo; mkdir -p $out
cp_echo="benchmarks/echo/target/classes:$(cat benchmarks/echo/target/runtime-classpath.txt)"
for i in $(seq ${2:-1} $1); do
  for side in $( (( i % 2 )) && echo "A B" || echo "B A"); do
    if [[ $side == A ]]; then export UCX_KEEPALIVE_INTERVAL=20s; else unset UCX_KEEPALIVE_INTERVAL; fi
    java -Djava.awt.headless=true -cp "$cp_echo" io.github.nettyucx.benchmarks.echo.FirstSecondBenchmark --runs 1 --windows 22 --window 10000 --variants ucx --out $out/echo-$side-$i > $out/echo-$side-$i.log 2>&1
    echo "$(date +%T) echo $side $i: $(tail -n +2 $out/echo-$side-$i/results.csv | cut -d, -f3,5- | tr ',' ' ')"
  done
done
