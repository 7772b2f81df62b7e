#!/usr/bin/env python3
"""The C2 code one JVM compiled (a -XX:+LogCompilation file), by package and by method: its size and the time C2
took (wall time of each task: on a loaded machine it includes waiting for a CPU), and the bytecodes each compile
parsed, its own and those it inlined: python3 jit-by-package.py LOG. A line sums the transport's packages
(channels, data paths, handshake, loop: what io.github.nettyucx.transport was before it was split). A compile's code
counts for the package of the method compiled, which also holds all it inlined (an application's handlers inlined
into a read loop, a transport's write inlined into Netty's flush); the "by owner" line shares each compile's code
out instead over the classes whose bytecodes it parsed, for the transport's packages and for epoll's (with the
native layer of each: jni, io.netty.channel.unix). With --compiles after LOG, each of those two transports' compiles
too, by method, in order (second:bytes), first compiles and recompiles apart (OSR compiles named as such)."""
import sys, re, collections
s = open(sys.argv[1], errors='replace').read()
secs = re.split(r"<compilation_log ", s)[1:]
pk = collections.Counter(); cnt = collections.Counter(); meth = collections.Counter()
ptime = collections.Counter(); mtime = collections.Counter(); minl = collections.Counter()
owned = collections.Counter()
OWNERS = {'netty-ucx transport': ('io.github.nettyucx.transport.', 'io.github.nettyucx.datapath.',
                                  'io.github.nettyucx.handshake.', 'io.github.nettyucx.loop.', 'io.github.nettyucx.jni.'),
          'netty epoll': ('io.netty.channel.epoll.', 'io.netty.channel.unix.')}
total = 0.0
# Per transport of OWNERS, per method: the (stamp, size) of each compile.
compiles = {who: collections.defaultdict(list) for who in OWNERS}
for sec in secs:
    name = re.search(r"<start_compile_thread name='([^']*)'", sec)
    if not name or not name.group(1).startswith('C2'): continue
    for m in re.finditer(r"<task [^>]*?method='([^' ]*) ([^' ]*)[^']*'[^>]*?stamp='([\d.]+)'(.*?)"
                         r"<task_done [^>]*?nmsize='(\d+)'[^>]*?stamp='([\d.]+)'", sec, re.S):
        cls = m.group(1).replace('/', '.')
        p = '.'.join(cls.split('.')[:4])
        size = int(m.group(5)); took = float(m.group(6)) - float(m.group(3))
        body = m.group(4)
        method_bytes = dict(re.findall(r"<method id='(\d+)'[^>]*? bytes='(\d+)'", body))
        parsed = re.findall(r"<parse method='(\d+)'", body)
        inlined = sum(int(method_bytes.get(mid, 0)) for mid in parsed)
        if inlined:
            klass = {k: n.replace('/', '.') for k, n in re.findall(r"<klass id='(\d+)' name='([^']*)'", body)}
            holder = dict(re.findall(r"<method id='(\d+)' holder='(\d+)'", body))
            for mid in parsed:
                owner = klass.get(holder.get(mid), '')
                for who, prefixes in OWNERS.items():
                    if owner.startswith(prefixes):
                        owned[who] += size * int(method_bytes.get(mid, 0)) / inlined
        key = cls.split('.')[-1] + '.' + m.group(2)
        for who, prefixes in OWNERS.items():
            if cls.startswith(prefixes):
                osr = "compile_kind='osr'" in m.group(0)[:m.group(0).index("method='")]
                compiles[who][key + (' (OSR)' if osr else '')].append((float(m.group(3)), size))
        pk[p] += size; cnt[p] += 1; ptime[p] += took; total += took
        meth[key] += size; mtime[key] += took; minl[key] = max(minl[key], inlined)
print(f'C2 time in all: {total:.2f} s; code in all: {sum(pk.values()) // 1024} KiB in {sum(cnt.values())} compiles')
for p, v in pk.most_common(15): print(f'{v//1024:5d} KiB {ptime[p]:6.2f} s {cnt[p]:4d} tasks {p}')
# The transport's own code over the packages it was split into (its buffer and native layers apart, as before
# the split, when it was io.github.nettyucx.transport alone).
ours = [p for p in pk if p in ('io.github.nettyucx.transport', 'io.github.nettyucx.datapath',
                               'io.github.nettyucx.handshake', 'io.github.nettyucx.loop')]
print(f'{sum(pk[p] for p in ours) // 1024:5d} KiB {sum(ptime[p] for p in ours):6.2f} s '
      f'{sum(cnt[p] for p in ours):4d} tasks netty-ucx transport ({", ".join(sorted(p[19:] for p in ours))})')
print('by owner: ' + '; '.join(f'{who} {owned[who] / 1024:.0f} KiB' for who in OWNERS))
print('--- top methods (code, C2 time, most bytecodes one compile inlined)')
for p, v in meth.most_common(25): print(f'{v//1024:5d} KiB {mtime[p]:6.2f} s {minl[p]:6d} B {p}')
if '--compiles' in sys.argv[2:]:
    for who, by_method in compiles.items():
        every = [size for c in by_method.values() for _, size in c]
        again = [size for c in by_method.values() for _, size in sorted(c)[1:]]
        print(f'--- {who}: {sum(every) // 1024} KiB in {len(every)} compiles, {sum(again) // 1024} KiB of them '
              f'recompiles; methods with at least 1,500 B (each compile as second:bytes)')
        for key, c in sorted(by_method.items(), key=lambda kv: -sum(size for _, size in kv[1])):
            if sum(size for _, size in c) >= 1500:
                print(f'{sum(size for _, size in c):7d} B {len(c)}x {key}  '
                      + ' '.join(f'{t:.1f}s:{size}' for t, size in sorted(c)))
