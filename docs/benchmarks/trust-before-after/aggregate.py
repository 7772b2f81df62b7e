import csv, glob, os, statistics, sys, re
out_dir = sys.argv[1]
src = sys.argv[2]
rows = []
for path in sorted(glob.glob(os.path.join(src, 'system-*-*/results.csv'))):
    m = re.search(r'system-(before|after)-(\d+)', path)
    which, run = m.group(1), int(m.group(2))
    for r in csv.DictReader(open(path)):
        if r['status'] != 'ok':
            continue
        metric = 'p50_us' if r['benchmark'] == 'pingpong' else 'mb_per_s'
        rows.append(dict(build=which, run=run, transport=r['transport'], benchmark=r['benchmark'],
                         size_bytes=int(r['size_bytes']), connections=int(r['connections']),
                         metric=metric, value=float(r[metric]),
                         p99_us=r['p99_us']))
with open(os.path.join(out_dir, 'system.csv'), 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
    w.writeheader(); w.writerows(rows)
keys = sorted({(r['transport'], r['benchmark'], r['size_bytes'], r['connections'], r['metric']) for r in rows})
lines = ['| transport | benchmark | size | conns | metric | before min / median / max | after min / median / max | after / before per run (min / median / max) |',
         '| --- | --- | ---: | ---: | --- | --- | --- | --- |']
summary = []
for k in keys:
    b = {r['run']: r['value'] for r in rows if (r['transport'], r['benchmark'], r['size_bytes'], r['connections'], r['metric']) == k and r['build'] == 'before'}
    a = {r['run']: r['value'] for r in rows if (r['transport'], r['benchmark'], r['size_bytes'], r['connections'], r['metric']) == k and r['build'] == 'after'}
    ratios = [a[i] / b[i] for i in sorted(set(a) & set(b)) if b[i] > 0]
    def spread(v):
        v = sorted(v)
        return '%.1f / %.1f / %.1f' % (v[0], statistics.median(v), v[-1]) if v else '-'
    rs = sorted(ratios)
    lines.append('| %s | %s | %s | %d | %s | %s | %s | %s |' % (k[0], k[1], k[2], k[3], 'p50 µs' if k[4] == 'p50_us' else 'MB/s',
                 spread(b.values()), spread(a.values()),
                 '%.2f / %.2f / %.2f' % (rs[0], statistics.median(rs), rs[-1]) if rs else '-'))
    summary.append((k, statistics.median(rs) if rs else None))
open(os.path.join(out_dir, 'system.md'), 'w').write('\n'.join(lines) + '\n')
# connect
crow = list(csv.DictReader(open(os.path.join(src, 'connect.csv'))))
with open(os.path.join(out_dir, 'connect.csv'), 'w', newline='') as f:
    w = csv.DictWriter(f, fieldnames=list(crow[0].keys())); w.writeheader(); w.writerows(crow)
clines = ['| transport (build) | median µs, min / median / max over runs | p99 µs | connections/s |', '| --- | --- | --- | --- |']
for t in sorted({r['transport'] for r in crow}):
    rs = [r for r in crow if r['transport'] == t]
    def sp(col):
        v = sorted(float(r[col]) for r in rs)
        return '%.0f / %.0f / %.0f' % (v[0], statistics.median(v), v[-1])
    clines.append('| %s | %s | %s | %s |' % (t, sp('median_us'), sp('p99_us'), sp('connections_per_s')))
open(os.path.join(out_dir, 'connect.md'), 'w').write('\n'.join(clines) + '\n')
print('\n'.join(lines)); print(); print('\n'.join(clines))
