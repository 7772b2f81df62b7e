import csv, glob, os, re, statistics, sys
d = sys.argv[1] if len(sys.argv) > 1 else 'docs/benchmarks/short-path/echo'
rows = {}
for f in glob.glob(d + '/*/results.csv'):
    side, i = re.match(r'(old|new)-(\d+)', os.path.basename(os.path.dirname(f))).groups()
    for r in csv.reader(open(f)):
        if r[0] in ('run',) or not r[0].isdigit(): continue
        rows[(side, int(i), r[1])] = [float(x) for x in r[2:]]
runs = sorted({k[1] for k in rows})
def steady(w):  # windows 3..22: the 200,000 after the first 20,000
    return statistics.median(w[2:])
def settled(w):
    best = min(w)
    return all(x <= 1.5 * best for x in w[2:])
print('run | old steady p50 | new steady p50 | new/old | old settled | new settled | new first10k | epoll first10k | ratio')
for i in runs:
    o = rows.get(('old', i, 'ucx')); n = rows.get(('new', i, 'ucx')); e = rows.get(('new', i, 'epoll'))
    if not o or not n: continue
    ow, nw = o[2:], n[2:]
    print(f"{i} | {steady(ow):.2f} | {steady(nw):.2f} | {steady(nw)/steady(ow):.2f} | {settled(ow)} | {settled(nw)} | "
          f"{n[0]:.2f} | {e[0] if e else float('nan'):.2f} | {n[0]/e[0] if e else float('nan'):.2f}")
    print('   old windows', ' '.join(f'{x:.1f}' for x in ow))
    print('   new windows', ' '.join(f'{x:.1f}' for x in nw))
