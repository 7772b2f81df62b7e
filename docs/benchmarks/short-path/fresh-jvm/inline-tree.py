#!/usr/bin/env python3
"""The inline tree of one C2 compile in a -XX:+LogCompilation file: each method parsed into it with its own
bytecodes and those of its subtree, down to DEPTH, subtrees of 100 bytes or more.
  inline-tree.py LOG "pkg.Class method" [NTH compile of it, 0 first] [DEPTH, 2]"""
import re
import sys

log, want = sys.argv[1], sys.argv[2]
nth = int(sys.argv[3]) if len(sys.argv) > 3 else 0
max_depth = int(sys.argv[4]) if len(sys.argv) > 4 else 2
text = open(log, errors='replace').read()
tasks = []
for section in re.split(r"<compilation_log ", text)[1:]:
    thread = re.search(r"<start_compile_thread name='([^']*)'", section)
    if not thread or not thread.group(1).startswith('C2'):
        continue
    for m in re.finditer(r"<task [^>]*?method='([^' ]*) ([^' ]*)[^']*'.*?</task>", section, re.S):
        if m.group(1).split('.')[-1] + ' ' + m.group(2) == want.split('.')[-1]:
            tasks.append(m.group(0))
print(len(tasks), 'C2 compiles of', want, 'at', [re.search(r"stamp='([\d.]+)'", t).group(1) for t in tasks])
task = tasks[nth]
methods = {}
for mid, attrs in re.findall(r"<method id='(\d+)'([^>]*)>", task):
    holder = re.search(r"holder='(\d+)'", attrs).group(1)
    methods[mid] = (holder, re.search(r"name='([^']*)'", attrs).group(1), int(re.search(r"bytes='(\d+)'", attrs).group(1)))
classes = dict(re.findall(r"<klass id='(\d+)' name='([^']*)'", task))
stack, rows = [], []
for tag in re.finditer(r"<parse method='(\d+)'[^>]*>|</parse>", task):
    if tag.group(1):
        stack.append([tag.group(1), 0, len(rows)])
        rows.append(None)
    else:
        mid, below, at = stack.pop()
        holder, name, size = methods[mid]
        rows[at] = (len(stack), classes.get(holder, '?').replace('/', '.').split('.')[-1] + '.' + name, size, size + below)
        if stack:
            stack[-1][1] += size + below
size = re.search(r"nmsize='(\d+)'", task)
print('code:', size.group(1) if size else '?', 'bytes')
for row in rows:
    if row and row[0] <= max_depth and row[3] >= 100:
        print('  ' * row[0] + f'{row[1]} own {row[2]} subtree {row[3]}')
