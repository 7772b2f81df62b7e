#!/usr/bin/env python3
"""Which threads held the CPUs while the YCSB client's own threads waited more than 1 ms after being woken (same
input as wake-latency.py): the share of CPU time by kind of thread over those waits."""
import sys, re, collections
LINE = re.compile(r'^\s*(.+?)\s+(-?\d+)/(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s+(.*)$')
ev = []; comm = {}; tg = {}
for line in sys.stdin:
    m = LINE.match(line)
    if not m: continue
    c, pid, tid, cpu, t, e, rest = m.groups()
    tid = int(tid); comm[tid] = c; tg[tid] = int(pid)
    ev.append((float(t), e, int(cpu), tid, rest))
cnt = collections.Counter(tg[tid] for t, e, cpu, tid, rest in ev if comm.get(tid, '').startswith('Thread-'))
client = cnt.most_common(1)[0][0]
ct = [t for t, e, cpu, tid, rest in ev if tg.get(tid) == client]; t0, t1 = min(ct), max(ct)
def cls(c):
    if c.startswith(('ucxEventLoopGro', 'multiThreadIoEv')): return 'loop'
    if c.startswith('Thread-'): return 'app'
    if c.startswith(('C2', 'C1')): return 'jit'
    if c == 'sh': return 'busy'
    return 'other:' + c[:12]
woken = {}; ran_during = {}
slow_prev = collections.Counter(); slow_who = collections.Counter(); occupancy = collections.defaultdict(collections.Counter)
cur = {}
for t, e, cpu, tid, rest in ev:
    if not (t0 <= t <= t1): continue
    if e == 'sched:sched_wakeup':
        m = re.search(r'pid=(\d+) prio=\d+ target_cpu=(\d+)', rest)
        w = int(m.group(1))
        if comm.get(w, '').startswith('Thread-') and tg.get(w) == client:
            woken[w] = (t, collections.Counter())
    elif e == 'sched:sched_switch':
        m = re.search(r'prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=(.*) next_pid=(\d+)', rest)
        p, n, ncomm = int(m.group(1)), int(m.group(4)), m.group(3)
        # account time of prev on this cpu to all waiting app threads
        if cpu in cur:
            pp, since = cur[cpu]
            for w, (wt, occ) in woken.items():
                occ[cls(comm.get(pp, '?'))] += t - max(since, wt)
        cur[cpu] = (n, t)
        if n in woken:
            wt, occ = woken.pop(n)
            if t - wt > 1e-3:
                slow_who['count'] += 1
                for k, v in occ.items(): occupancy['slow'][k] += v
print('slow app wakes (>1ms):', slow_who['count'])
tot = sum(occupancy['slow'].values())
for k, v in occupancy['slow'].most_common(10): print(f'  {k:20s} {v/tot*100:5.1f}% of CPU time while they waited')
