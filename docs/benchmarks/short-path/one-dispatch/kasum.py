import re, sys, statistics as st
rows = {}
for fn in sys.argv[1:]:
    for l in open(fn):
        m = re.match(r'\S+ ([AB]) (\d+):', l)
        if not m: continue
        f = lambda t, i: (lambda mm: float(mm.group(i).replace(',', '')) if mm else None)(re.search(t + r' +([\d,]+) ops/s \(steady +([\d,]+)\), READ p99 +([\d,]+)', l))
        rows.setdefault(int(m.group(2)), {})[m.group(1)] = (f('ucx', 1), f('ucx', 2), f('ucx', 3), f('epoll', 1), f('epoll', 3))
def s(v): return f"{min(v):.2f} / {st.median(v):.2f} / {max(v):.2f}"
pairs = sorted(k for k in rows if 'A' in rows[k] and 'B' in rows[k])
for side in 'AB':
    if rows[pairs[0]][side][3] is not None:
        r = [rows[k][side][0] / rows[k][side][3] for k in pairs]; p = [rows[k][side][2] / rows[k][side][4] for k in pairs]
        print(f"{side}: ucx/epoll ops/s {' '.join(f'{x:.2f}' for x in r)} ({s(r)}); READ p99 ucx/epoll {s(p)}, <= 1.05 in {sum(x <= 1.05 for x in p)}")
for name, i in (('ops/s', 0), ('steady ops/s', 1), ('READ p99', 2)):
    r = [rows[k]['B'][i] / rows[k]['A'][i] for k in pairs]
    print(f"ucx B/A {name}: {' '.join(f'{x:.2f}' for x in r)} ({s(r)}, higher in {sum(x > 1 for x in r)} of {len(r)})")
