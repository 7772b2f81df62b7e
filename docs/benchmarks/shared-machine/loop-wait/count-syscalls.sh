#!/usr/bin/env bash
# Records every system call and context switch of the machine (perf, as root) through one YCSB run of one
# transport beside two busy processes, then counts them per event-loop thread (syscalls.py):
#   count-syscalls.sh TRANSPORT OUTDIR        e.g. count-syscalls.sh ucx /tmp/wait-ucx
# perf's own recording takes CPU too: the run's rates are not comparable with the benchmark's; the counts per
# wait and per operation are what this is for.
set -euo pipefail
transport=$1
out=$2
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../../.." && pwd)
mkdir -p "$out"
cd "$root"
perf record -q -a -o "$out/perf.data" -e raw_syscalls:sys_enter -e sched:sched_switch -- \
    env BENCH_BUILD=never bin/bench ycsb --workloads a --threads 4 --transports "$transport" --runs 1 --seconds 10 \
    --neighbours busy:2 --out "$out/ycsb" > "$out/ycsb.log" 2>&1
grep 'run 1/1' "$out/ycsb.log"
perf script -i "$out/perf.data" -F comm,pid,tid,cpu,time,event,trace 2>/dev/null \
    | python3 "$root/docs/benchmarks/shared-machine/loop-wait/syscalls.py" | tee "$out/syscalls.txt"
rm -f "$out/perf.data"
