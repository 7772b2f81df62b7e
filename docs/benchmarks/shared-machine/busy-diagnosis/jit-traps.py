#!/usr/bin/env python3
"""C2 code that uncommon traps threw away in one JVM (a -XX:+LogCompilation file): each trap that made a compiled
method not entrant or sent it back to the interpreter, with the method, the reason and where it hit, largest
first: python3 jit-traps.py LOG"""
import collections
import re
import sys

s = open(sys.argv[1], errors='replace').read()
c2 = {}
for m in re.finditer(r"<task_queued compile_id='(\d+)'[^>]*method='([^']*)'[^>]*>", s):
    if "level=" not in m.group(0) or "level='4'" in m.group(0):
        c2[m.group(1)] = m.group(2)
sizes = {m.group(1): int(m.group(2)) for m in re.finditer(r"<nmethod compile_id='(\d+)'[^>]*?size='(\d+)'", s)}


def name(method):
    holder, meth = method.split(' ')[:2]
    return holder.split('/')[-1] + '.' + meth


lost = {}
for m in re.finditer(r"<uncommon_trap thread='\d+' reason='([^']*)' action='(reinterpret|make_not_entrant)'"
                     r"[^>]*compile_id='(\d+)'[^>]*>(.*?)</uncommon_trap>", s, re.S):
    cid = m.group(3)
    if cid in c2:
        frames = re.findall(r"<jvms bci='(\d+)' method='([^']*)'", m.group(4))
        where = name(frames[0][1]) + '@' + frames[0][0] if frames else '?'
        lost[(name(c2[cid]), m.group(1), where)] = sizes.get(cid, 0)
for (method, reason, where), size in sorted(lost.items(), key=lambda x: -x[1])[:10]:
    print(f'{size // 1024:5d} KiB {method} {reason} at {where}')
print('C2 code thrown away by traps:', sum(lost.values()) // 1024, 'KiB in', len(lost), 'compiles')
