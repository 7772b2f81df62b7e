#!/usr/bin/env bash
# Issue 52's JIT footprint: the kvstore server's C2 code by package, YCSB A, 10 s, unloaded, -XX:+LogCompilation in
# every JVM; ucx and epoll alternating, 3 runs each (busy-diagnosis's method).
set -u
out=/tmp/ab52/jit
for i in 1 2 3; do
    for t in $( (( i % 2 )) && echo "ucx epoll" || echo "epoll ucx"); do
        dir=$out/$t-$i; rm -rf "$dir"; mkdir -p "$dir/logs"
        (cd /work/wt-head && JAVA_TOOL_OPTIONS="-XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=$dir/logs/jit-%p.log" \
            BENCH_BUILD=never bin/bench ycsb --workloads a --threads 4 --transports $t --runs 1 --seconds 10 \
            --out "$dir/bench" > "$dir/run.log" 2>&1)
        server=$(grep -l -- "server --port 0 --transport" "$dir"/logs/*.log | head -1)
        echo "$(date +%T) $t $i: server log $server"
        python3 /work/main/docs/benchmarks/shared-machine/busy-diagnosis/jit-by-package.py "$server" > "$dir/server-by-package.txt"
        head -8 "$dir/server-by-package.txt"
    done
done
