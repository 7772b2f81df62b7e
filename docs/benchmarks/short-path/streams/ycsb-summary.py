import re, sys, statistics as st, glob
# ycsb-summary.py [--sides A,B] LOG...: the runs of two sides (before and after unless given) of an A/B log.
args = sys.argv[1:]
sides = ('before', 'after')
if args[:1] == ['--sides']:
    sides = tuple(args[1].split(','))
    args = args[2:]
logs = args
res = {}
for f in logs:
    for line in open(f):
        m = re.match(r"(\S+) ycsb (\S+) (\d+):(.*)", line)
        if not m or m.group(2) not in sides: continue
        side, i, rest = m.group(2), int(m.group(3)), m.group(4)
        vals = {}
        for t, ops, p99 in re.findall(r"4 threads, (ucx|epoll) ([\d,]+) ops/s \(steady [\d,]+\), READ p99 ([\d,]+) us", rest):
            vals[t] = (int(ops.replace(',', '')), int(p99.replace(',', '')))
        if 'ucx' in vals and 'epoll' in vals:
            res.setdefault(side, []).append((f, i, vals))
fmt = lambda xs: f"{min(xs):.2f} / {st.median(xs):.2f} / {max(xs):.2f}"
for side in sides:
    rs = res.get(side, [])
    ops = [v['ucx'][0] / v['epoll'][0] for _, _, v in rs]
    p99 = [v['ucx'][1] / v['epoll'][1] for _, _, v in rs]
    uo = [v['ucx'][0] for _, _, v in rs]
    print(f"{side}: {len(rs)} runs; ucx/epoll ops/s " + ' '.join(f'{x:.2f}' for x in ops) + f" ({fmt(ops)}, >= 0.95 in {sum(x >= 0.95 for x in ops)}); "
          f"READ p99 ucx/epoll " + ' '.join(f'{x:.2f}' for x in p99) + f" ({fmt(p99)}, <= 1.05 in {sum(x <= 1.05 for x in p99)}); ucx ops/s median {st.median(uo):,.0f}")
