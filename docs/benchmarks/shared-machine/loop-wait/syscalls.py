#!/usr/bin/env python3
"""Counts, from `perf script` output of raw_syscalls:sys_enter and sched:sched_switch, each event-loop thread's
system calls by name, per wait (epoll_wait and epoll_pwait2 calls), with its CPU time and context switches."""
import collections
import re
import sys

NAMES = {0: 'read', 1: 'write', 24: 'sched_yield', 44: 'sendto', 45: 'recvfrom', 202: 'futex', 232: 'epoll_wait',
         286: 'timerfd_settime', 441: 'epoll_pwait2', 16: 'ioctl', 20: 'writev', 19: 'readv', 314: 'sched_setattr',
         315: 'sched_getattr'}
WAITS = (232, 441)
LOOPS = ('ucxEventLoopGro', 'multiThreadIoEv')
LINE = re.compile(r'^\s*(.+?)\s+(-?\d+)/(\d+)\s+\[(\d+)\]\s+([\d.]+):\s+(\S+):\s+(.*)$')
SWITCH = re.compile(r'prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=.* next_pid=(\d+)')

comm, process = {}, {}
calls = collections.defaultdict(collections.Counter)
cpu, switches, preempted = collections.Counter(), collections.Counter(), collections.Counter()
running = {}
for line in sys.stdin:
    m = LINE.match(line)
    if not m:
        continue
    name, pid, tid, on_cpu, time, event, rest = m.groups()
    tid, time = int(tid), float(time)
    comm[tid], process[tid] = name, int(pid)
    if event.startswith('raw_syscalls'):
        calls[tid][int(rest.split()[1])] += 1
        continue
    s = SWITCH.search(rest)
    if not s:
        continue
    prev, state, nxt = int(s.group(1)), s.group(2), int(s.group(3))
    if on_cpu in running and running[on_cpu][0] == prev:
        cpu[prev] += time - running[on_cpu][1]
    switches[prev] += 1
    preempted[prev] += state.startswith('R')
    running[on_cpu] = (nxt, time)

for tid in sorted(t for t in calls if comm.get(t, '').startswith(LOOPS)):
    waits = sum(calls[tid][n] for n in WAITS)
    total = sum(calls[tid].values())
    if waits < 1000:
        continue
    per_wait = ', '.join(f'{NAMES.get(n, n)} {c / waits:.2f}' for n, c in calls[tid].most_common(8))
    print(f'process {process[tid]} loop {tid}: {waits} waits, {total} calls ({total / waits:.2f} per wait), '
          f'cpu {cpu[tid]:.2f} s, {switches[tid]} switches ({preempted[tid]} preempted)')
    print(f'    per wait: {per_wait}')
