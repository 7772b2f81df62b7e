#!/usr/bin/env bash
# ab3.sh RUNS OUT: alternating runs of FirstSecondBenchmark (220,000 round trips) on after (/work/main's transport jar),
# before (/work/wt-head's) and old (7a20cd6's transport and native jars)
runs=$1; out=$2; mkdir -p $out
head=/work/wt-head
before_cp="$head/benchmarks/echo/target/classes:$(cat $head/benchmarks/echo/target/runtime-classpath.txt)"
after_cp=${before_cp//$head\/transport-ucx\/target\/netty-ucx-transport-0.1.0-SNAPSHOT.jar//work/ab-after.jar}
old_cp=${before_cp//$head\/transport-ucx\/target\/netty-ucx-transport-0.1.0-SNAPSHOT.jar//work/wt-7a/transport-ucx/target/netty-ucx-transport-0.1.0-SNAPSHOT.jar}
old_cp=${old_cp//$head\/transport-ucx-native\/target\/netty-ucx-transport-native-0.1.0-SNAPSHOT-linux-x86_64.jar//work/wt-7a/transport-ucx-native/target/netty-ucx-transport-native-0.1.0-SNAPSHOT-linux-x86_64.jar}
[[ $after_cp != "$before_cp" && $old_cp != "$before_cp" ]] || { echo "not swapped" >&2; exit 1; }
for i in $(seq 1 $runs); do
  order="after before old"; (( i % 2 )) || order="old before after"
  for side in $order; do
    v=before_cp; [[ $side == after ]] && v=after_cp; [[ $side == old ]] && v=old_cp
    java -cp "${!v}" io.github.nettyucx.benchmarks.echo.FirstSecondBenchmark --runs 1 --windows 22 --window 10000 --variants ucx --out $out/$side-$i > $out/$side-$i.log 2>&1
    python3 - $out/$side-$i/results.csv $side $i <<'PY'
import sys,statistics
l=open(sys.argv[1]).read().splitlines()[1].split(',')
w=[float(x) for x in l[4:]]
st=w[2:]; best=min(st)
print(sys.argv[2], sys.argv[3], 'steady', round(statistics.median(st),2), 'settled', all(x<=1.5*best for x in st), 'windows', ' '.join(f'{x:.1f}' for x in w))
PY
  done
done
