#!/usr/bin/env python3
"""How long threads wait for a CPU after being woken, from `perf record -e sched:sched_wakeup -e sched:sched_switch`
over one YCSB run: perf script -i DATA -F comm,pid,tid,cpu,time,event,trace | python3 wake-latency.py
The window is the YCSB run client's life (the JVM with the most events of Thread-* threads); threads are grouped
by process (that client, or the others: the kvstore server and the benchmark's coordinator) and by kind (event
loop, YCSB's threads, JIT compilers, other)."""
import sys, re, collections
LINE = re.compile(r'^\s*(.+?)\s+(-?\d+)/(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s+(.*)$')
ev = []
comm = {}; tg = {}
for line in sys.stdin:
    m = LINE.match(line)
    if not m: continue
    c, pid, tid, cpu, t, e, rest = m.groups()
    tid = int(tid); comm[tid] = c; tg[tid] = int(pid)
    ev.append((float(t), e, int(cpu), tid, rest))
# find run client: process with Thread-* threads having most events
cnt = collections.Counter()
for t, e, cpu, tid, rest in ev:
    if comm.get(tid, '').startswith('Thread-'): cnt[tg[tid]] += 1
client = cnt.most_common(1)[0][0]
ct = [t for t, e, cpu, tid, rest in ev if tg.get(tid) == client]
t0, t1 = min(ct), max(ct)
woken = {}  # tid -> wake time
lat = collections.defaultdict(list); run = collections.Counter(); cur = {}
wakes_from = collections.defaultdict(collections.Counter)
for t, e, cpu, tid, rest in ev:
    if not (t0 <= t <= t1): continue
    if e == 'sched:sched_wakeup':
        m = re.search(r'comm=(.*) pid=(\d+) prio=\d+ target_cpu=(\d+)', rest)
        w = int(m.group(2)); comm.setdefault(w, m.group(1))
        woken[w] = t
        wakes_from[w][comm.get(tid, '?')[:15]] += 1
    elif e == 'sched:sched_switch':
        m = re.search(r'prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*) next_pid=(\d+)', rest)
        p, st, n = int(m.group(1)), m.group(2), int(m.group(4))
        if cpu in cur and cur[cpu][0] == p: run[p] += t - cur[cpu][1]
        cur[cpu] = (n, t)
        if n in woken:
            lat[n].append(t - woken.pop(n))
def cls(tid):
    c = comm.get(tid, '?')
    if c.startswith(('ucxEventLoopGro', 'multiThreadIoEv')): k = 'loop'
    elif c.startswith('Thread-'): k = 'app'
    elif c.startswith('C2') or c.startswith('C1'): k = 'jit'
    elif c == 'sh': k = 'busy'
    else: k = 'other'
    return k
print(f'window {t1-t0:.1f}s client pid {client}')
agg = collections.defaultdict(lambda: [0, 0.0, []])
for tid in set(list(lat) + list(run)):
    p = tg.get(tid)
    role = 'client' if p == client else ('busy' if comm.get(tid) == 'sh' else 'others' )
    k = (role, cls(tid))
    agg[k][0] += len(lat[tid]); agg[k][1] += run[tid]; agg[k][2] += lat[tid]
for k, (n, r, l) in sorted(agg.items(), key=lambda x: -x[1][1])[:12]:
    l = sorted(l)
    if not l: continue
    q = lambda f: l[min(len(l)-1, int(f*len(l)))]*1e6
    print(f'{k[0]:8s} {k[1]:6s} wakes {n:7d} cpu {r:6.2f}s wait p50 {q(.5):7.1f}us p90 {q(.9):7.1f} p99 {q(.99):8.1f} mean {sum(l)/len(l)*1e6:7.1f} total {sum(l):6.2f}s')
