#!/usr/bin/env bash
# The TCP data path before and after it became the plain path (issue 29, item 4): the JMH data-path benchmark
# (benchmarks/jmh) over the TCP data path (-Dio.github.nettyucx.tcpDataPath=always) in each build, and Netty's epoll
# transport in the after build as a reference; one fork per run, the builds alternating.
#
#   docs/benchmarks/one-tcp-engine-ab/run.sh BEFORE_TREE AFTER_TREE OUT_DIR [ROUNDS]
#
# Each tree is a checkout with benchmarks/jmh built (mvn -Dmaven.test.skip=true -pl benchmarks/jmh -am package). Odd
# rounds run before then after, even rounds the reverse; epoll runs last in each round.
set -euo pipefail
before=$1 after=$2 out=$3 rounds=${4:-5}
mkdir -p "$out"

run() { # name tree round transport [option for the fork]
    local name=$1 tree=$2 round=$3 transport=$4 option=${5:-}
    local module=$tree/benchmarks/jmh
    local cp="$module/target/classes:$(cat "$module/target/runtime-classpath.txt")"
    echo "== $(date +%T) round $round: $name"
    java -cp "$cp" org.openjdk.jmh.Main DataPathBenchmark -p transport="$transport" -p size=16,65536 -f 1 \
        ${option:+-jvmArgsAppend "$option"} -rf csv -rff "$out/$name-$round.csv" 2>&1 \
        | grep -E '^(Benchmark|DataPath)' || true
}

for round in $(seq 1 "$rounds"); do
    if (( round % 2 )); then order="before after"; else order="after before"; fi
    for which in $order; do
        tree=$before
        [[ $which == after ]] && tree=$after
        run "$which-tcp" "$tree" "$round" ucx -Dio.github.nettyucx.tcpDataPath=always
    done
    run epoll "$after" "$round" epoll
done
echo "== $(date +%T) done"
