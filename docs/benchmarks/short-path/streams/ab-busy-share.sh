#!/usr/bin/env bash
# A/B of the stream rule (docs/settings.md#waiting): the transport jar before it (/tmp/s11/jar-before.jar, 1a104bd)
# and after it (/tmp/s11/jar-$AFTER.jar), each copied into transport-ucx/target in turn, alternating; fresh JVMs.
#   ab-busy-share.sh thr|ycsb|echo|all   (OUT=dir, RUNS_FROM/RUNS_TO=pairs, AFTER=the after jar's name)
# thr: SystemBenchmark --quick, ucx and epoll; ycsb: YCSB A beside two busy processes, ucx and epoll;
# echo: issue 52's 16 B round trip (FirstSecondBenchmark, 22 windows of 10,000). Summaries: thr-summary.py DIR,
# ycsb-summary.py LOG.
set -u
cd /work/main
jar=transport-ucx/target/netty-ucx-transport-0.1.0-SNAPSHOT.jar
out=${OUT:-/tmp/s11/ab}
mkdir -p $out
cp_echo="benchmarks/echo/target/classes:$(cat benchmarks/echo/target/runtime-classpath.txt)"
use() { if [[ $1 == after ]]; then cp /tmp/s11/jar-${AFTER:-after}.jar $jar; else cp /tmp/s11/jar-$1.jar $jar; fi; }
phase=${1:-all}
if [[ $phase == all || $phase == thr ]]; then
for i in $(seq ${RUNS_FROM:-1} ${RUNS_TO:-5}); do
  for side in $( (( i % 2 )) && echo "before after" || echo "after before"); do
    use $side
    java -cp "$cp_echo" io.github.nettyucx.benchmarks.echo.SystemBenchmark --quick --no-perftest --transports ucx,epoll --runs 1 --out $out/thr-$side-$i > $out/thr-$side-$i.log 2>&1
    echo "$(date +%T) thr $side $i: $(grep -E ',throughput,' $out/thr-$side-$i/results.csv | cut -d, -f1,3,4,15 | tr '\n' ' ')"
  done
done
fi
if [[ $phase == all || $phase == ycsb ]]; then
for i in $(seq ${RUNS_FROM:-1} ${RUNS_TO:-5}); do
  for side in $( (( i % 2 )) && echo "before after" || echo "after before"); do
    use $side
    BENCH_BUILD=never timeout 600 bin/bench ycsb --workloads a --threads 4 --transports ucx,epoll --runs 1 --seconds 10 --neighbours busy:2 --out $out/ycsb-$side-$i > $out/ycsb-$side-$i.log 2>&1
    echo "$(date +%T) ycsb $side $i: $(grep -E 'run 1/1, workload' $out/ycsb-$side-$i.log | sed 's/  */ /g' | tr '\n' ' ')"
  done
done
fi
if [[ $phase == all || $phase == echo ]]; then
for i in $(seq ${RUNS_FROM:-1} ${RUNS_TO:-5}); do
  for side in $( (( i % 2 )) && echo "before after" || echo "after before"); do
    use $side
    java -Djava.awt.headless=true -cp "$cp_echo" io.github.nettyucx.benchmarks.echo.FirstSecondBenchmark --runs 1 --windows 22 --window 10000 --variants ucx --out $out/echo-$side-$i > $out/echo-$side-$i.log 2>&1
    echo "$(date +%T) echo $side $i: $(tail -n +2 $out/echo-$side-$i/results.csv 2>/dev/null | head -3 | tr '\n' ' ' | cut -c1-300)"
  done
done
fi
use after
echo done
