#!/usr/bin/env bash
set -u
t=$1; out=$(realpath -m $2); rm -rf $out; mkdir -p $out
cd /work/main
BENCH_BUILD=never bin/bench ycsb --workloads a --threads 4 --transports $t --runs 1 --seconds 10 ${NEIGH:-} --out $out/bench > $out/run.log 2>&1 &
bp=$!
for i in $(seq 1 100); do sp=$(pgrep -f "server --port 0 --transport" | head -1); [[ -n $sp ]] && break; sleep 0.2; done
for i in $(seq 1 300); do grep -q "loading" $out/run.log 2>/dev/null && break; sleep 0.2; done
sleep 8
perf record -F 2000 -g -p $sp -o $out/server.data -- sleep 4 > /dev/null 2>&1
wait $bp
echo "$t ${NEIGH:-}: $(grep -h 'run 1/1' $out/run.log | sed 's/  */ /g')"
perf report -i $out/server.data --no-children --sort dso --stdio 2>/dev/null | grep -v "^#" | grep -v "^$" | head -15
