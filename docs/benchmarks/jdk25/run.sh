#!/usr/bin/env bash
# JDK 25 against JDK 17, and the transport without sun.misc.Unsafe against the one with it: the JMH data-path and
# allocator benchmarks of microbench/ (bin/microbench), one fork per run, builds and JDKs alternating.
#
#   docs/benchmarks/jdk25/run.sh BEFORE_TREE AFTER_TREE OUT_DIR [ROUNDS]
#
# BEFORE_TREE and AFTER_TREE are checkouts with microbench built (mvn -Dmaven.test.skip=true -pl microbench -am
# package): "before" is the last commit on Unsafe (bda9d65), which runs on JDK 17 only; "after" runs on 17 and 25.
# Each round runs the three (build, JDK) pairs once, in an order that turns round by round. JDK17 and JDK25 name
# the JDK homes (default: the Debian JDK 17 and Temurin 25 under /usr/lib/jvm).
set -euo pipefail
before=$1 after=$2 out=$3 rounds=${4:-5}
jdk17=${JDK17:-/usr/lib/jvm/java-17-openjdk-amd64}
jdk25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
mkdir -p "$out"

run() { # name tree jdk round
    local name=$1 tree=$2 jdk=$3 round=$4
    local cp="$tree/microbench/target/classes:$(cat "$tree/microbench/target/runtime-classpath.txt")"
    echo "== $(date +%T) round $round: $name"
    "$jdk/bin/java" -cp "$cp" org.openjdk.jmh.Main \
        'DataPathBenchmark|AllocatorBenchmark\.' -p transport=ucx -p size=16,65536 -p allocator=ucx \
        -f 1 -rf csv -rff "$out/$name-$round.csv" 2>&1 | grep -E '^(Benchmark|DataPath|Allocator)' || true
}

pairs=("before-jdk17 $before $jdk17" "after-jdk17 $after $jdk17" "after-jdk25 $after $jdk25")
for round in $(seq 1 "$rounds"); do
    for k in 0 1 2; do
        set -- ${pairs[$(( (k + round) % 3 ))]}
        run "$1" "$2" "$3" "$round"
    done
done
echo "== $(date +%T) done"
