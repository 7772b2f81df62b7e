#!/usr/bin/env bash
# Before and after issue 49's security work (UCX's tcp and sysv transports off by default, protocol 8 with key ids and
# host proofs, handshake shedding): the JMH data-path benchmark (benchmarks/jmh, DataPathBenchmark) over UCX tagged
# messages, 16 B and 64 KiB, one fork per run, the builds alternating.
#
#   docs/benchmarks/security-ports-ab/run.sh BEFORE_TREE AFTER_TREE OUT_DIR [ROUNDS [BENCHMARK [SIZES]]]
#
# Each tree is a checkout with its JMH module built (mvn -Dmaven.test.skip=true -pl benchmarks/jmh -am package).
# UCX_TLS is unset for the forks, so each build runs with its own default transports (before: UCX's default, all,
# which picks sysv for shared memory; after: the native library's ^tcp,sysv, which leaves posix).
# BENCHMARK defaults to DataPathBenchmark (pingPong and stream), SIZES to 16,65536.
#
# CONFIGS (environment, default "before after") names the runs of a round; each round rotates the list by one, so
# with two the odd rounds run before then after and the even rounds the reverse. Besides the two builds as they come:
#   before-posix  the before tree with UCX_TLS=^tcp,sysv exported (the after build's transports, the before code);
#   after-sysv    the after tree with UCX_TLS=^tcp exported (sysv back, as before, with the after code).
# e.g. CONFIGS="before after before-posix after-sysv" run.sh B A OUT 8 DataPathBenchmark.stream 65536
set -euo pipefail
before=$1 after=$2 out=$3 rounds=${4:-8} bench=${5:-DataPathBenchmark} sizes=${6:-16,65536}
read -r -a configs <<< "${CONFIGS:-before after}"
mkdir -p "$out"
unset UCX_TLS

run() { # config round
    local config=$1 round=$2 tree tls=
    case $config in
        before) tree=$before ;;
        after) tree=$after ;;
        before-posix) tree=$before tls='^tcp,sysv' ;;
        after-sysv) tree=$after tls='^tcp' ;;
        *) echo "unknown configuration $config" >&2; exit 2 ;;
    esac
    local module=$tree/benchmarks/jmh
    local cp="$module/target/classes:$(cat "$module/target/runtime-classpath.txt")"
    echo "== $(date +%T) round $round: $config ($(git -C "$tree" rev-parse --short HEAD), UCX_TLS=${tls:-unset})" \
        "load $(cut -d' ' -f1-3 /proc/loadavg)"
    env -u UCX_TLS ${tls:+UCX_TLS=$tls} java -cp "$cp" org.openjdk.jmh.Main "$bench" -p transport=ucx \
        -p size="$sizes" -f 1 -rf csv -rff "$out/$config-tag-$round.csv" 2>&1 \
        | grep -E '^(Benchmark|DataPath)' || true
}

n=${#configs[@]}
for round in $(seq 1 "$rounds"); do
    for i in $(seq 0 $((n - 1))); do
        run "${configs[$(( (i + round - 1) % n ))]}" "$round"
    done
done
echo "== $(date +%T) done"
