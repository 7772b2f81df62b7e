#!/usr/bin/env python3
"""How much each JVM compiled, over the whole JVM (-XX:+LogCompilation files): C1 and C2 compiles and their code,
and the compiles of the flight recorder and its ASM (jdk.jfr.*, jdk.internal.org.*). One line per log, named by
the log's folder: compile-counts.py LOG..."""
import collections
import re
import sys

for log in sys.argv[1:]:
    text = open(log, errors='replace').read()
    count = collections.Counter()
    for section in re.split(r"<compilation_log ", text)[1:]:
        thread = re.search(r"<start_compile_thread name='([^']*)'", section)
        if not thread:
            continue
        tier = 'C2' if thread.group(1).startswith('C2') else 'C1'
        for m in re.finditer(r"<task [^>]*?method='([^' ]*) [^>]*?>.*?<task_done [^>]*?nmsize='(\d+)'", section, re.S):
            count[tier] += 1
            count[tier + ' bytes'] += int(m.group(2))
            if m.group(1).startswith(('jdk.jfr', 'jdk.internal.org')):
                count['jfr/asm'] += 1
    print(f"{log.split('/')[-2]}: C1 {count['C1']} ({count['C1 bytes'] // 1024} KiB), "
          f"C2 {count['C2']} ({count['C2 bytes'] // 1024} KiB), jdk.jfr+asm {count['jfr/asm']}")
