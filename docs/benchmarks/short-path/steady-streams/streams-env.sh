#!/usr/bin/env bash
# streams-env.sh OUT N : main default against main with the env in $VARIANT (e.g. JAVA_TOOL_OPTIONS=-D...), alternating
set -u
out=$1; n=$2
mkdir -p $out
cd /work/main
cp_run=$(docs/benchmarks/short-path/loop-apart/side-classpath.sh main)
for i in $(seq 1 $n); do
  for side in main var; do
    if [[ $side == var ]]; then e=("$VARIANT"); else e=(); fi
    env "${e[@]}" java -cp "$cp_run" io.github.nettyucx.benchmarks.echo.SystemBenchmark --streams --no-perftest --transports ucx \
      --runs 1 --out $out/str-$side-$i > $out/str-$side-$i.log 2>&1
    echo "$(date +%T) $side $i: $(grep -E ',throughput,' $out/str-$side-$i/results.csv | cut -d, -f1,3,4,15 | tr '\n' ' ')"
  done
done
