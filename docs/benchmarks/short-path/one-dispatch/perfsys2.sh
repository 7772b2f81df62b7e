#!/usr/bin/env bash
# syscalls and context switches per YCSB op of the kvstore server and the YCSB client for 4 s mid-run; $1 transport, $2 out
set -u
t=$1; out=$(realpath -m $2); rm -rf $out; mkdir -p $out
cd /work/main
BENCH_BUILD=never bin/bench ycsb --workloads a --threads 4 --transports $t --runs 1 --seconds 10 ${NEIGH:-} --out $out/bench > $out/run.log 2>&1 &
bp=$!
for i in $(seq 1 100); do sp=$(pgrep -f "server --port 0 --transport" | head -1); [[ -n $sp ]] && break; sleep 0.2; done
for i in $(seq 1 300); do grep -q "loading" $out/run.log 2>/dev/null && break; sleep 0.2; done
sleep 8
cp=$(pgrep -f "ycsb" | grep -v "^$sp$" | while read p; do ps -o args= -p $p | grep -q -- " -t " && echo $p; done | tail -1)
perf stat -e syscalls:sys_enter_sendto,syscalls:sys_enter_recvfrom,syscalls:sys_enter_read,syscalls:sys_enter_write,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_pwait2,syscalls:sys_enter_openat,syscalls:sys_enter_futex,syscalls:sys_enter_sched_yield,raw_syscalls:sys_enter -p $sp -o $out/server.perf sleep 4 &
[[ -n $cp ]] && perf stat -e syscalls:sys_enter_sendto,syscalls:sys_enter_recvfrom,syscalls:sys_enter_read,syscalls:sys_enter_write,syscalls:sys_enter_epoll_wait,syscalls:sys_enter_epoll_pwait2,syscalls:sys_enter_openat,syscalls:sys_enter_futex,syscalls:sys_enter_sched_yield,raw_syscalls:sys_enter -p $cp -o $out/client.perf sleep 4 &
wait $bp
echo "$t ${NEIGH:-}: $(grep -h 'run 1/1' $out/run.log | sed 's/  */ /g')"
for f in server client; do echo "  $f: $(grep -E 'sys_enter' $out/$f.perf | awk '{print $2"="$1}' | sed 's/syscalls:sys_enter_//' | tr '\n' ' ')"; done
