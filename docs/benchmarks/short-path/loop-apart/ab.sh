#!/usr/bin/env bash
# Alternating A/B runs of one benchmark on two builds of the transport jar, fresh JVMs each run: $JARS/jar-$A.jar
# and $JARS/jar-$B.jar (JARS: /tmp/s12 unless set) are copied in turn into transport-ucx/target (the tree's other
# jars stay); a side with a worktree at /work/wt-$side (e.g. "7a": 7a20cd6) instead swaps the transport and native
# jars on the class path for that worktree's, and copies them over this tree's for bin/bench.
#   A=head B=new4 OUT=dir ab.sh echo|thr|ycsb|jit FIRST LAST
# echo: issue 52's 16 B round trip (FirstSecondBenchmark, 22 windows of 10,000; echo-summary.py DIR A B);
# thr: SystemBenchmark --quick, ucx and epoll; ycsb: YCSB A beside two busy processes, ucx and epoll
# (../streams/ycsb-summary.py --sides A,B LOG); jit: the JIT footprint run of jit1.sh.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cd /work/main
jar=transport-ucx/target/netty-ucx-transport-0.1.0-SNAPSHOT.jar
native=transport-ucx-native/target/netty-ucx-transport-native-0.1.0-SNAPSHOT-linux-x86_64.jar
out=${OUT:-/tmp/s12/ab}; mkdir -p $out
what=$1
# bin/bench (ycsb, jit) runs this tree's jars whatever the class path above says: each side's jars are copied over
# them for its runs (a worktree's transport and native jars; a jar side's transport jar with this tree's native
# jar), and this tree's own are put back at the end.
saved=$out/this-tree-jars; mkdir -p $saved; cp $jar $native $saved/
trap 'cp $saved/$(basename $jar) $jar; cp $saved/$(basename $native) $native' EXIT
for i in $(seq $2 $3); do
  for side in $( (( i % 2 )) && echo "$A $B" || echo "$B $A"); do
    cp_run=$("$here"/side-classpath.sh "$side") || exit 1
    if [[ -d /work/wt-$side ]]; then
      cp /work/wt-$side/$jar $jar; cp /work/wt-$side/$native $native
    else
      cp ${JARS:-/tmp/s12}/jar-$side.jar $jar; cp $saved/$(basename $native) $native
    fi
    case $what in
    echo) java -Djava.awt.headless=true -cp "$cp_run" io.github.nettyucx.benchmarks.echo.FirstSecondBenchmark --runs 1 --windows 22 --window 10000 --variants ucx --out $out/echo-$side-$i > $out/echo-$side-$i.log 2>&1
          echo "$(date +%T) echo $side $i: $(tail -n +2 $out/echo-$side-$i/results.csv | cut -d, -f3,5- | tr ',' ' ')";;
    thr) java -cp "$cp_run" io.github.nettyucx.benchmarks.echo.SystemBenchmark --quick --no-perftest --transports ucx,epoll --runs 1 --out $out/thr-$side-$i > $out/thr-$side-$i.log 2>&1
          echo "$(date +%T) thr $side $i: $(grep -E ',throughput,' $out/thr-$side-$i/results.csv | cut -d, -f1,3,4,15 | tr '\n' ' ')";;
    ycsb) BENCH_BUILD=never timeout 600 bin/bench ycsb --workloads a --threads 4 --transports ucx,epoll --runs 1 --seconds 10 --neighbours busy:2 --out $out/ycsb-$side-$i > $out/ycsb-$side-$i.log 2>&1
          echo "$(date +%T) ycsb $side $i: $(grep -E 'run 1/1, workload' $out/ycsb-$side-$i.log | sed 's/  */ /g' | tr '\n' ' ')";;
    jit) "$here"/jit1.sh ucx $out/jit-$side-$i;;
    esac
  done
done
