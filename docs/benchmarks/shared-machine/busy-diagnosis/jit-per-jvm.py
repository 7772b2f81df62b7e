#!/usr/bin/env python3
"""Per JVM, from -XX:+LogCompilation files in a folder: compile tasks, their wall time (under load it includes
waiting for a CPU) and code size, by compiler thread; and how many methods were made not entrant.
   python3 jit-per-jvm.py DIR"""
import sys, re, glob
for f in sorted(glob.glob(sys.argv[1] + '/*.log')):
    s = open(f, errors='replace').read()
    cmd = re.search(r"<command>\s*(.*?)\s*</command>", s, re.S)
    cmd = cmd.group(1)[-45:] if cmd else '?'
    out = []
    for sec in re.split(r"<compilation_log ", s)[1:]:
        name = re.search(r"<start_compile_thread name='([^']*)'", sec)
        name = name.group(1)[:4] if name else '?'
        t = 0.0; n = 0; size = 0
        for m in re.finditer(r"<task [^>]*?stamp='([\d.]+)'.*?<task_done [^>]*?nmsize='(\d+)'[^>]*?stamp='([\d.]+)'", sec, re.S):
            t += float(m.group(3)) - float(m.group(1)); n += 1; size += int(m.group(2))
        out.append(f"{name} {n} tasks {t:.2f}s {size//1024}KiB")
    nme = len(re.findall(r"<make_not_entrant", s))
    print(f"{cmd:46s} | " + " | ".join(out) + f" | not_entrant {nme}")
