#!/usr/bin/env python3
"""How long threads wait for a CPU after being woken, from `perf record -e sched:sched_wakeup -e sched:sched_switch`
over one YCSB run: perf script -i DATA -F comm,pid,tid,cpu,time,event,trace | python3 wake-latency.py
The window is the YCSB run client's life (the JVM with the most events of Thread-* threads); threads are grouped
by process (that client, or the others: the kvstore server and the benchmark's coordinator) and by kind (event
loop, YCSB's threads, JIT compilers, other). Then, for the client's YCSB threads that waited more than 1 ms: which
kinds of thread held the CPUs meanwhile, as shares of the CPU time."""
import collections
import re
import sys

LINE = re.compile(r'^\s*(.+?)\s+(-?\d+)/(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s+(.*)$')
WAKEUP = re.compile(r'pid=(\d+) prio=\d+ target_cpu=(\d+)')
SWITCH = re.compile(r'prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*) next_pid=(\d+)')
SLOW = 1e-3


def kind(name):
    if name.startswith(('ucxEventLoopGro', 'multiThreadIoEv')):
        return 'loop'
    if name.startswith('Thread-'):
        return 'app'
    if name.startswith(('C2', 'C1')):
        return 'jit'
    return 'busy' if name == 'sh' else 'other'


events, comm, process = [], {}, {}
for line in sys.stdin:
    m = LINE.match(line)
    if m:
        name, pid, tid, cpu, time, event, rest = m.groups()
        comm[int(tid)], process[int(tid)] = name, int(pid)
        events.append((float(time), event, int(cpu), int(tid), rest))
apps = collections.Counter(process[t] for _, _, _, t, _ in events if comm[t].startswith('Thread-'))
client = apps.most_common(1)[0][0]
times = [e[0] for e in events if process.get(e[3]) == client]
start, end = min(times), max(times)

woken, running = {}, {}
waits, cpu = collections.defaultdict(list), collections.Counter()
slow, held = 0, collections.Counter()
for time, event, on_cpu, tid, rest in events:
    if not start <= time <= end:
        continue
    if event == 'sched:sched_wakeup':
        target = int(WAKEUP.search(rest).group(1))
        woken[target] = (time, collections.Counter())
        continue
    if event != 'sched:sched_switch':
        continue
    m = SWITCH.search(rest)
    prev, nxt = int(m.group(1)), int(m.group(4))
    comm.setdefault(nxt, m.group(3))
    if on_cpu in running:
        ran, since = running[on_cpu]
        if ran == prev:
            cpu[prev] += time - since
        for wake_time, occupancy in woken.values():
            occupancy[kind(comm.get(ran, '?'))] += time - max(since, wake_time)
    running[on_cpu] = (nxt, time)
    if nxt in woken:
        wake_time, occupancy = woken.pop(nxt)
        waits[nxt].append(time - wake_time)
        if time - wake_time > SLOW and process.get(nxt) == client and kind(comm[nxt]) == 'app':
            slow += 1
            held.update(occupancy)

print(f'window {end - start:.1f} s, client pid {client}')
groups = collections.defaultdict(lambda: ([], [0.0]))
for tid in set(waits) | set(cpu):
    role = 'client' if process.get(tid) == client else 'others'
    lat, run = groups[(role, kind(comm.get(tid, '?')))]
    lat.extend(waits[tid])
    run[0] += cpu[tid]
for (role, k), (lat, run) in sorted(groups.items(), key=lambda g: -g[1][1][0]):
    if not lat:
        continue
    lat.sort()
    q = lambda f: lat[min(len(lat) - 1, int(f * len(lat)))] * 1e6
    print(f'{role:8s} {k:6s} wakes {len(lat):7d} cpu {run[0]:6.2f}s wait p50 {q(.5):7.1f}us p90 {q(.9):7.1f} '
          f'p99 {q(.99):8.1f} mean {sum(lat) / len(lat) * 1e6:7.1f} total {sum(lat):6.2f}s')
total = sum(held.values())
print(f'client YCSB threads that waited over {SLOW * 1e3:.0f} ms: {slow}; the CPUs meanwhile:')
for k, v in held.most_common():
    print(f'  {k:6s} {v / total * 100:5.1f}%')
