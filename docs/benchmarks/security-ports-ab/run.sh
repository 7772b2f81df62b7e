#!/usr/bin/env bash
# Before and after issue 49's security work (UCX's tcp and sysv transports off by default, protocol 8 with key ids and
# host proofs, handshake shedding): the JMH data-path benchmark (benchmarks/jmh, DataPathBenchmark) over UCX tagged
# messages, 16 B and 64 KiB, one fork per run, the builds alternating.
#
#   docs/benchmarks/security-ports-ab/run.sh BEFORE_TREE AFTER_TREE OUT_DIR [ROUNDS [BENCHMARK [SIZES]]]
#
# Each tree is a checkout with its JMH module built (mvn -Dmaven.test.skip=true -pl benchmarks/jmh -am package).
# Odd rounds run before then after, even rounds the reverse. UCX_TLS is unset for the forks, so each build runs
# with its own default transports (before: UCX's default, all; after: the native library's ^tcp,sysv).
# BENCHMARK defaults to DataPathBenchmark (both pingPong and stream), SIZES to 16,65536; a narrower series is e.g.
# run.sh B A OUT 8 DataPathBenchmark.pingPong 16.
set -euo pipefail
before=$1 after=$2 out=$3 rounds=${4:-8} bench=${5:-DataPathBenchmark} sizes=${6:-16,65536}
mkdir -p "$out"
unset UCX_TLS

run() { # name tree round
    local name=$1 tree=$2 round=$3
    local module=$tree/benchmarks/jmh
    local cp="$module/target/classes:$(cat "$module/target/runtime-classpath.txt")"
    echo "== $(date +%T) round $round: $name ($(git -C "$tree" rev-parse --short HEAD)) load $(cut -d' ' -f1-3 /proc/loadavg)"
    env -u UCX_TLS java -cp "$cp" org.openjdk.jmh.Main "$bench" -p transport=ucx -p size="$sizes" -f 1 \
        -rf csv -rff "$out/$name-$round.csv" 2>&1 \
        | grep -E '^(Benchmark|DataPath)' || true
}

for round in $(seq 1 "$rounds"); do
    if (( round % 2 )); then order="before after"; else order="after before"; fi
    for which in $order; do
        tree=$before
        [[ $which == after ]] && tree=$after
        run "$which-tag" "$tree" "$round"
    done
done
echo "== $(date +%T) done"
