#!/usr/bin/env bash
# Alternating old/new runs of one benchmark from the tree at HEAD (a worktree at /work/wt-head, built with
# mvn -Dmaven.test.skip=true -pl benchmarks/echo -am package) on 7a20cd6's transport and native jars (old, a worktree
# at /work/wt-7a, built with -pl transport-ucx -am package) or HEAD's (new), by swapping the two jars on the class
# path; a fresh JVM pair per run.
#   ab.sh echo [RUNS] [OUT]        issue 52's 16 B round trip (FirstSecondApp), 220,000 round trips in windows of
#                                  10,000; epoll beside every new run, for the first-10,000 goal (echo-summary.py)
#   ab.sh throughput [RUNS] [OUT]  SystemBenchmark --quick (its 64 KiB throughput among the rest), ucx and epoll
set -u
what=$1
runs=${2:-5}
out=${3:-/tmp/ab52/$what}
mkdir -p "$out"
head=/work/wt-head
new_cp="$head/benchmarks/echo/target/classes:$(cat $head/benchmarks/echo/target/runtime-classpath.txt)"
old_cp=${new_cp//$head\/transport-ucx\/target\/netty-ucx-transport-0.1.0-SNAPSHOT.jar//work/wt-7a/transport-ucx/target/netty-ucx-transport-0.1.0-SNAPSHOT.jar}
old_cp=${old_cp//$head\/transport-ucx-native\/target\/netty-ucx-transport-native-0.1.0-SNAPSHOT-linux-x86_64.jar//work/wt-7a/transport-ucx-native/target/netty-ucx-transport-native-0.1.0-SNAPSHOT-linux-x86_64.jar}
[[ $old_cp != "$new_cp" ]] || { echo "class path not swapped" >&2; exit 1; }
for i in $(seq 1 "$runs"); do
    for side in $( (( i % 2 )) && echo "old new" || echo "new old"); do
        if [[ $side == old ]]; then cp=$old_cp; else cp=$new_cp; fi
        if [[ $what == echo ]]; then
            variants=ucx
            [[ $side == old ]] || variants=ucx,epoll
            args=(io.github.nettyucx.benchmarks.echo.FirstSecondBenchmark --runs 1 --windows 22 --window 10000
                --variants "$variants")
        else
            args=(io.github.nettyucx.benchmarks.echo.SystemBenchmark --quick --no-perftest --transports ucx,epoll --runs 1)
        fi
        java -Djava.awt.headless=true -cp "$cp" "${args[@]}" --out "$out/$side-$i" >"$out/$side-$i.log" 2>&1
        echo "$(date +%T) $side $i: $(tail -n +2 "$out/$side-$i/results.csv" 2>/dev/null | head -n 3 | tr '\n' ' ')"
    done
done
