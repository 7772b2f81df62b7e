#!/usr/bin/env bash
# Issue 52's unloaded 16 B round trip: the plain Netty length-prefixed echo (FirstSecondApp) of the tree at HEAD, on
# the transport of 7a20cd6 (old) and of HEAD (new), alternating, a fresh JVM pair per run, 220,000 round trips in
# windows of 10,000. epoll with every new run, for the first-10,000 criterion.
set -u
runs=${1:-10}
out=${2:-/tmp/ab52/echo}
mkdir -p "$out"
head=/work/wt-head
new_cp="$head/benchmarks/echo/target/classes:$(cat $head/benchmarks/echo/target/runtime-classpath.txt)"
old_cp=${new_cp//$head\/transport-ucx\/target\/netty-ucx-transport-0.1.0-SNAPSHOT.jar//work/wt-7a/transport-ucx/target/netty-ucx-transport-0.1.0-SNAPSHOT.jar}
old_cp=${old_cp//$head\/transport-ucx-native\/target\/netty-ucx-transport-native-0.1.0-SNAPSHOT-linux-x86_64.jar//work/wt-7a/transport-ucx-native/target/netty-ucx-transport-native-0.1.0-SNAPSHOT-linux-x86_64.jar}
[[ $old_cp != "$new_cp" ]] || { echo "class path not swapped" >&2; exit 1; }
for i in $(seq 1 "$runs"); do
    for side in $( (( i % 2 )) && echo "old new" || echo "new old"); do
        if [[ $side == old ]]; then cp=$old_cp; variants=ucx; else cp=$new_cp; variants=ucx,epoll; fi
        java -Djava.awt.headless=true -cp "$cp" io.github.nettyucx.benchmarks.echo.FirstSecondBenchmark --runs 1 \
            --windows 22 --window 10000 --variants $variants --out "$out/$side-$i" > "$out/$side-$i.log" 2>&1
        echo "$(date +%T) $side $i: $(tail -n +2 "$out/$side-$i/results.csv" 2>/dev/null | tr '\n' ' ')"
    done
done
