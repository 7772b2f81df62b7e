#!/usr/bin/env python3
# usage: jit-by-method.py LOG...  -> per method of a transport's packages (ours: transport, loop, datapath,
# handshake; epoll's: channel.epoll, channel.unix), the C2 code of each of its compiles (second:bytes), largest first:
# where the per-package figure of jit-by-package.py goes, first compiles and recompiles apart.
import collections
import re
import sys

PACKAGES = ('nettyucx.loop', 'nettyucx.transport', 'nettyucx.datapath', 'nettyucx.handshake',
            'channel.epoll', 'channel.unix')
for f in sys.argv[1:]:
    log = open(f, errors='replace').read()
    compiles = collections.defaultdict(list)
    for section in re.split(r"<compilation_log ", log)[1:]:
        thread = re.search(r"<start_compile_thread name='([^']*)'", section)
        if not thread or not thread.group(1).startswith('C2'):
            continue
        for m in re.finditer(r"<task ([^>]*?)method='([^']*)'[^>]*?stamp='([\d.]+)'[^>]*>.*?"
                             r"<task_done [^>]*?nmsize='(\d+)'", section, re.S):
            method = m.group(2)
            if any(p in method for p in PACKAGES):
                name = method.split(' ')[0].split('.')[-1] + '.' + method.split(' ')[1]
                if 'osr_bci' in m.group(1):
                    name += ' (OSR)'
                compiles[name].append((float(m.group(3)), int(m.group(4))))
    total = sum(size for c in compiles.values() for _, size in c)
    again = sum(size for c in compiles.values() for _, size in sorted(c)[1:])
    print(f'== {f}: {total // 1024} KiB in {sum(map(len, compiles.values()))} compiles, '
          f'{again // 1024} KiB of them recompiles')
    for name, c in sorted(compiles.items(), key=lambda kv: -sum(s for _, s in kv[1])):
        size = sum(s for _, s in c)
        if size >= 1500:
            print(f'{size:7d} B {len(c)}x {name}  ' + ' '.join(f'{t:.1f}s:{s}' for t, s in sorted(c)))
