#!/usr/bin/env bash
# perf on the kvstore server (and, for stat, the YCSB client) for 4 s from 8 s after the load began, one YCSB A run.
#   perf-ycsb.sh record|stat TRANSPORT OUT   (NEIGH="--neighbours busy:2"; EVENTS for stat, default the
#   syscall, context-switch and CPU-time counts; busy2-syscalls.txt and keepalive-ycsb.txt list the events used)
set -u
mode=$1; t=$2; out=$(realpath -m $3); rm -rf $out; mkdir -p $out
events=${EVENTS:-raw_syscalls:sys_enter,context-switches,task-clock}
cd /work/main
BENCH_BUILD=never bin/bench ycsb --workloads a --threads 4 --transports $t --runs 1 --seconds 10 ${NEIGH:-} --out $out/bench > $out/run.log 2>&1 &
bp=$!
for i in $(seq 1 100); do sp=$(pgrep -f "server --port 0 --transport" | head -1); [[ -n $sp ]] && break; sleep 0.2; done
for i in $(seq 1 300); do grep -q "loading" $out/run.log 2>/dev/null && break; sleep 0.2; done
sleep 8
if [[ $mode == record ]]; then
  perf record -F 2000 -g -p $sp -o $out/server.data -- sleep 4 > /dev/null 2>&1
else
  cp=$(pgrep -f "ycsb" | grep -v "^$sp$" | while read p; do ps -o args= -p $p | grep -q -- " -t " && echo $p; done | tail -1)
  perf stat -e $events -p $sp -o $out/server.perf sleep 4 &
  [[ -n $cp ]] && perf stat -e $events -p $cp -o $out/client.perf sleep 4 &
fi
wait $bp
echo "$t ${NEIGH:-}: $(grep -h 'run 1/1' $out/run.log | sed 's/  */ /g')"
if [[ $mode == record ]]; then
  perf report -i $out/server.data --no-children --sort comm,dso --stdio -g none 2>/dev/null | grep -v "^#" | grep -v "^$" | head -15
else
  for f in server client; do
    echo "  $f: $(grep -E 'sys_enter|context-sw|task-clock' $out/$f.perf 2>/dev/null | awk '{print $2"="$1}' | sed 's/syscalls:sys_enter_//' | tr '\n' ' ')"
  done
fi
