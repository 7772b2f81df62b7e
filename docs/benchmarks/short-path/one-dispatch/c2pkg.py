import sys, re, collections
s = open(sys.argv[1], errors='replace').read()
cmd = re.search(r"<command>([^<]*)</command>", s) or re.search(r"sun.java.command=([^\n]*)", s)
secs = re.split(r"<compilation_log ", s)[1:]
agg = collections.Counter(); n = collections.Counter(); stamps = []
for sec in secs:
    name = re.search(r"<start_compile_thread name='([^']*)'", sec)
    if not name or not name.group(1).startswith('C2'): continue
    for m in re.finditer(r"<task [^>]*?method='([^' ]*) [^']*'[^>]*?stamp='([\d.]+)'.*?<task_done [^>]*?stamp='([\d.]+)'", sec, re.S):
        cls = m.group(1).replace('/', '.')
        k = 'nettyucx.transport+jni+buffer' if cls.startswith('io.github.nettyucx.transport') or cls.startswith('io.github.nettyucx.jni') or cls.startswith('io.github.nettyucx.buffer') else \
            'netty-ucx other' if cls.startswith('io.github.nettyucx') else 'io.netty' if cls.startswith('io.netty') else 'jdk' if cls.startswith(('java.', 'jdk.', 'sun.')) else 'other'
        dt = float(m.group(3)) - float(m.group(2))
        agg[k] += dt; n[k] += 1; stamps.append((float(m.group(3)), dt))
tot = sum(agg.values())
stamps.sort(); acc = 0; t90 = None
for t, dt in stamps:
    acc += dt
    if t90 is None and acc >= 0.9 * tot: t90 = t
print(f"{(cmd.group(1)[:60] if cmd else '?')}: C2 {tot:.2f} s in {sum(n.values())} compiles, 90% done at {t90:.1f} s; " + ', '.join(f"{k} {v:.2f} s ({100*v/tot:.0f}%, {n[k]})" for k, v in agg.most_common()))
