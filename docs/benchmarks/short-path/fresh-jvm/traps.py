#!/usr/bin/env python3
"""The uncommon traps a JVM took (a -XX:+LogCompilation file), with the compile each sent back to the interpreter and
the innermost frames where it happened: why a method was compiled again. traps.py LOG [FROM_S TO_S] [ROOT_SUBSTRING]"""
import re
import sys

text = open(sys.argv[1], errors='replace').read()
start = float(sys.argv[2]) if len(sys.argv) > 3 else 0.0
end = float(sys.argv[3]) if len(sys.argv) > 3 else 1e9
root_filter = sys.argv[4] if len(sys.argv) > 4 else ''
compiles = {}
for m in re.finditer(r"<task compile_id='(\d+)' method='([^' ]*) ([^' ]*)[^>]*?stamp", text):
    compiles[m.group(1)] = m.group(2).split('.')[-1] + '.' + m.group(3)
for m in re.finditer(r"<uncommon_trap thread='\d+' reason='([^']*)' action='([^']*)'[^>]*?compile_id='(\d+)'"
                     r"[^>]*?stamp='([\d.]+)'>\s*((?:<jvms [^>]*>\s*)+)", text):
    at = float(m.group(4))
    root = compiles.get(m.group(3), '?')
    if not start <= at <= end or root_filter not in root:
        continue
    frames = re.findall(r"<jvms bci='(\d+)' method='([^ ']*) ([^ ']*)", m.group(5))
    where = ' < '.join(f"{cls.split('.')[-1]}.{name}@{bci}" for bci, cls, name in frames[:4])
    print(f'{at:.3f} {m.group(1)} {m.group(2)} in {root} at {where}')
