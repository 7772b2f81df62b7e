#!/usr/bin/env bash
# streams-3.sh OUT N: 06ee6b0 (worktree), main (this tree) and main with spin_then_sleep, alternating, --streams, ucx only
set -u
out=$1; n=$2
mkdir -p $out
cd /work/main
for i in $(seq 1 $n); do
  for side in 06 main sts; do
    e=()
    [[ $side == sts ]] && e=(JAVA_TOOL_OPTIONS=-Dio.github.nettyucx.waitStrategy=spin_then_sleep)
    cp_run=$(docs/benchmarks/short-path/loop-apart/side-classpath.sh ${side/sts/main}) || exit 1
    env "${e[@]}" java -cp "$cp_run" io.github.nettyucx.benchmarks.echo.SystemBenchmark --streams --no-perftest --transports ucx \
      --runs 1 --out $out/str-$side-$i > $out/str-$side-$i.log 2>&1
    echo "$(date +%T) $side $i: $(grep -E ',throughput,' $out/str-$side-$i/results.csv | cut -d, -f1,3,4,15 | tr '\n' ' ')"
  done
done
