#!/usr/bin/env bash
# Alternating 16 B echo runs (FirstSecondBenchmark, as loop-apart/ab.sh echo) on two builds of the JNI library
# and the tree's transport jar: /tmp/s15/native-table.jar (before the path table went) and native-direct.jar,
# each the linux-x86_64 jar of transport-ucx-native built at its commit. ab-native.sh FIRST LAST; summary:
# ../loop-apart/echo-summary.py /tmp/s15/echon table direct
set -u
cd /work/main
N=transport-ucx-native/target/netty-ucx-transport-native-0.1.0-SNAPSHOT-linux-x86_64.jar
cp_echo="benchmarks/echo/target/classes:$(cat benchmarks/echo/target/runtime-classpath.txt)"
out=/tmp/s15/echon; mkdir -p $out
for i in $(seq $1 $2); do
  for side in $( (( i % 2 )) && echo "table direct" || echo "direct table"); do
    cp /tmp/s15/native-$side.jar $N
    java -Djava.awt.headless=true -cp "$cp_echo" io.github.nettyucx.benchmarks.echo.FirstSecondBenchmark --runs 1 --windows 22 --window 10000 --variants ucx --out $out/echo-$side-$i > $out/echo-$side-$i.log 2>&1
    echo "$(date +%T) echo $side $i: $(tail -n +2 $out/echo-$side-$i/results.csv | cut -d, -f3,5- | tr ',' ' ')"
  done
done
cp /tmp/s15/native-direct.jar $N
