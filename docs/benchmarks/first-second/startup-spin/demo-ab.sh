#!/usr/bin/env bash
# bin/demo with and without the start-up spin, alternating, one run each per round (each run also measures epoll).
#   docs/benchmarks/first-second/startup-spin/demo-ab.sh FIRST_ROUND LAST_ROUND > log
# The runs of 2026-11-28 were rounds 1-4 and 5-8 (the start-up spin without its end by other threads' tasks);
# those of 2026-11-29 in ../startup-by-default were rounds 1-6, the start-up spin as it is by default since, with
# that end. -Dio.github.nettyucx.startupSpinEvents=30000 is the default now; 0 turns it off.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../../../.."
for ((i = $1; i <= $2; i++)); do
    for v in startup nostartup; do
        if [[ $v == startup ]]; then events=30000; else events=0; fi
        echo "== round $i $v"
        KV_BUILD=never UCX_JVM_OPTS="-Dio.github.nettyucx.startupSpinEvents=$events" bin/demo --runs 1 2>&1 |
            grep -E "^run 1/1"
    done
done
