#!/usr/bin/env python3
# runnable-threads.py SECONDS: every ~2 ms, the threads of every process in state R, by kind (UCX loops, C2 and C1
# compiler threads, JVM main threads, the benchmark's machine probe, epoll loops, GC threads, other), averaged per
# quarter second: what /proc/loadavg counts, told apart. Run beside a benchmark.
import os, time, collections, sys
dur=float(sys.argv[1]); me=os.getpid()
buckets=collections.OrderedDict(); 
def cls(n):
    for k in ('ucxEventLoop','C2 Comp','C1 Comp','machine-probe','epollEventLoop','GC Thread'):
        if n.startswith(k[:15]): return k
    return 'main' if n=='java' else 'other'
t0=time.time(); end=t0+dur
while time.time()<end:
    b=int((time.time()-t0)*4)/4
    c=buckets.setdefault(b,collections.Counter())
    c['#']+=1
    for pid in os.listdir('/proc'):
        if not pid.isdigit() or int(pid)==me: continue
        try:
            for tid in os.listdir(f'/proc/{pid}/task'):
                st=open(f'/proc/{pid}/task/{tid}/stat').read()
                r=st.rpartition(')')
                if r[2].split()[0]=='R': c[cls(r[0].partition('(')[2])]+=1
        except Exception: pass
    time.sleep(0.002)
keys=['ucxEventLoop','C2 Comp','C1 Comp','main','machine-probe','epollEventLoop','GC Thread','other']
print('t     '+' '.join(f'{k[:8]:>8s}' for k in keys))
for b,c in buckets.items():
    n=c['#']; print(f'{b:5.2f} '+' '.join(f'{c[k]/n:8.2f}' for k in keys))
