#!/usr/bin/env bash
# Before and after issue 29's connector, phase links and C connection core (a path table in place of a branch per
# send): the JMH data-path benchmark of microbench/ (bin/microbench) over UCX tagged messages and over the TCP data
# path, one fork per run, the builds alternating.
#
#   docs/benchmarks/connector-ab/run.sh BEFORE_TREE AFTER_TREE OUT_DIR [ROUNDS]
#
# Each tree is a checkout with its JMH module built: benchmarks/jmh (mvn -Dmaven.test.skip=true -pl benchmarks/jmh -am
# package), or microbench in trees from before the one benchmark tree (-pl microbench). Odd rounds
# run before then after, even rounds the reverse; each build runs the tag path, then the TCP data path
# (-Dio.github.nettyucx.tcpDataPath=always in the benchmark's fork).
set -euo pipefail
before=$1 after=$2 out=$3 rounds=${4:-6}
mkdir -p "$out"

run() { # name tree round [option for the fork]
    local name=$1 tree=$2 round=$3 option=${4:-}
    local module=$tree/benchmarks/jmh
    [[ -d $module ]] || module=$tree/microbench
    local cp="$module/target/classes:$(cat "$module/target/runtime-classpath.txt")"
    echo "== $(date +%T) round $round: $name"
    java -cp "$cp" org.openjdk.jmh.Main DataPathBenchmark -p transport=ucx -p size=16,65536 -f 1 \
        ${option:+-jvmArgsAppend "$option"} -rf csv -rff "$out/$name-$round.csv" 2>&1 \
        | grep -E '^(Benchmark|DataPath)' || true
}

for round in $(seq 1 "$rounds"); do
    if (( round % 2 )); then order="before after"; else order="after before"; fi
    for which in $order; do
        tree=$before
        [[ $which == after ]] && tree=$after
        run "$which-tag" "$tree" "$round"
        run "$which-tcp" "$tree" "$round" -Dio.github.nettyucx.tcpDataPath=always
    done
done
echo "== $(date +%T) done"
