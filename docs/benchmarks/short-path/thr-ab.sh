#!/usr/bin/env bash
# 64 KiB (and the quick mode's other) throughput: SystemBenchmark --quick of the tree at HEAD on 7a20cd6's transport
# (old) and HEAD's (new), alternating, ucx and epoll in each run.
set -u
runs=${1:-3}
out=${2:-/tmp/ab52/thr}
mkdir -p "$out"
head=/work/wt-head
new_cp="$head/benchmarks/echo/target/classes:$(cat $head/benchmarks/echo/target/runtime-classpath.txt)"
old_cp=${new_cp//$head\/transport-ucx\/target\/netty-ucx-transport-0.1.0-SNAPSHOT.jar//work/wt-7a/transport-ucx/target/netty-ucx-transport-0.1.0-SNAPSHOT.jar}
old_cp=${old_cp//$head\/transport-ucx-native\/target\/netty-ucx-transport-native-0.1.0-SNAPSHOT-linux-x86_64.jar//work/wt-7a/transport-ucx-native/target/netty-ucx-transport-native-0.1.0-SNAPSHOT-linux-x86_64.jar}
for i in $(seq 1 "$runs"); do
    for side in $( (( i % 2 )) && echo "old new" || echo "new old"); do
        if [[ $side == old ]]; then cp=$old_cp; else cp=$new_cp; fi
        java -Djava.awt.headless=true -cp "$cp" io.github.nettyucx.benchmarks.echo.SystemBenchmark --quick --no-perftest \
            --transports ucx,epoll --runs 1 --out "$out/$side-$i" > "$out/$side-$i.log" 2>&1
        echo "$(date +%T) $side $i: $(grep -h "throughput,65536" "$out/$side-$i"/*.csv 2>/dev/null | tr '\n' ' ')"
    done
done
