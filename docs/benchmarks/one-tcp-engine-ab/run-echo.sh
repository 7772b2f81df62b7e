#!/usr/bin/env bash
# The TCP data path before and after it became the plain path, as applications see it: bin/bench echo (client and
# server in JVMs of their own, both UCX with the TCP data path: transport ucx-tcp) in each build, alternating.
#
#   docs/benchmarks/one-tcp-engine-ab/run-echo.sh BEFORE_TREE AFTER_TREE OUT_DIR [ROUNDS]
#
# Each tree is a checkout with benchmarks/echo built (mvn -Dmaven.test.skip=true -pl benchmarks/echo -am package).
# Odd rounds run before then after, even rounds the reverse; each is one --quick run of ucx-tcp.
set -euo pipefail
before=$1 after=$2 out=$3 rounds=${4:-5}
mkdir -p "$out"
for round in $(seq 1 "$rounds"); do
    if (( round % 2 )); then order="before after"; else order="after before"; fi
    for which in $order; do
        tree=$before
        [[ $which == after ]] && tree=$after
        echo "== $(date +%T) round $round: $which"
        (cd "$tree" && BENCH_BUILD=never bin/bench echo --quick --transports ucx-tcp --runs 1 --no-perftest \
            --out "$out/$which-$round") > "$out/$which-$round.log" 2>&1
    done
done
echo "== $(date +%T) done"
