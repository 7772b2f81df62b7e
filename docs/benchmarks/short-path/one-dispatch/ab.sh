#!/usr/bin/env bash
# A/B: jars /tmp/s13/jar-$A.jar and jar-$B.jar copied into transport-ucx/target in turn, alternating, fresh JVMs.
#   ab.sh echo|thr|ycsb|jit RUNS_FROM RUNS_TO   (A, B, OUT env)
set -u
cd /work/main
jar=transport-ucx/target/netty-ucx-transport-0.1.0-SNAPSHOT.jar
out=${OUT:-/tmp/s13/ab}; mkdir -p $out
cp_echo="benchmarks/echo/target/classes:$(cat benchmarks/echo/target/runtime-classpath.txt)"
what=$1
for i in $(seq $2 $3); do
  for side in $( (( i % 2 )) && echo "$A $B" || echo "$B $A"); do
    cp_run=$cp_echo
    if [[ $side == 7a ]]; then
      cp_run=${cp_echo//\/work\/main\/transport-ucx\/target/\/work\/wt-7a\/transport-ucx\/target}
      cp_run=${cp_run//\/work\/main\/transport-ucx-native\/target/\/work\/wt-7a\/transport-ucx-native\/target}
      [[ $cp_run != "$cp_echo" ]] || { echo "class path not swapped" >&2; exit 1; }
    else
      cp /tmp/s13/jar-$side.jar $jar
    fi
    case $what in
    echo) java -Djava.awt.headless=true -cp "$cp_run" io.github.nettyucx.benchmarks.echo.FirstSecondBenchmark --runs 1 --windows 22 --window 10000 --variants ucx --out $out/echo-$side-$i > $out/echo-$side-$i.log 2>&1
          echo "$(date +%T) echo $side $i: $(tail -n +2 $out/echo-$side-$i/results.csv | cut -d, -f3,5- | tr ',' ' ')";;
    thr) java -cp "$cp_run" io.github.nettyucx.benchmarks.echo.SystemBenchmark --quick --no-perftest --transports ucx,epoll --runs 1 --out $out/thr-$side-$i > $out/thr-$side-$i.log 2>&1
          echo "$(date +%T) thr $side $i: $(grep -E ',throughput,' $out/thr-$side-$i/results.csv | cut -d, -f1,3,4,15 | tr '\n' ' ')";;
    ycsb) BENCH_BUILD=never timeout 600 bin/bench ycsb --workloads a --threads 4 --transports ucx,epoll --runs 1 --seconds 10 --neighbours busy:2 --out $out/ycsb-$side-$i > $out/ycsb-$side-$i.log 2>&1
          echo "$(date +%T) ycsb $side $i: $(grep -E 'run 1/1, workload' $out/ycsb-$side-$i.log | sed 's/  */ /g' | tr '\n' ' ')";;
    jit) jit1.sh ucx $out/jit-$side-$i;;
    esac
  done
done
