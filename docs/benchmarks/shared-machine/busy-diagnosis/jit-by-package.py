#!/usr/bin/env python3
"""The C2 code one JVM compiled (a -XX:+LogCompilation file), by package and by method: python3 jit-by-package.py LOG"""
import sys, re, collections
s = open(sys.argv[1], errors='replace').read()
secs = re.split(r"<compilation_log ", s)[1:]
pk = collections.Counter(); cnt = collections.Counter(); meth = collections.Counter()
for sec in secs:
    name = re.search(r"<start_compile_thread name='([^']*)'", sec)
    if not name or not name.group(1).startswith('C2'): continue
    for m in re.finditer(r"<task [^>]*?method='([^' ]*) ([^' ]*)[^']*'.*?<task_done [^>]*?nmsize='(\d+)'", sec, re.S):
        cls = m.group(1).replace('/', '.')
        p = '.'.join(cls.split('.')[:4])
        pk[p] += int(m.group(3)); cnt[p] += 1
        meth[cls.split('.')[-1] + '.' + m.group(2)] += int(m.group(3))
for p, v in pk.most_common(15): print(f'{v//1024:5d} KiB {cnt[p]:4d} tasks {p}')
print('--- top methods')
for p, v in meth.most_common(25): print(f'{v//1024:5d} KiB {p}')
