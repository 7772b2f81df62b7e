import csv, sys, statistics as st, glob, os, re
d = sys.argv[1]
# Optional second argument: the two sides' names, as in the run directories (default before,after).
before, after = sys.argv[2].split(',') if len(sys.argv) > 2 else ('before', 'after')
rows = {}
for side in (before, after):
    for f in glob.glob(f'{d}/thr-{side}-*/results.csv'):
        run = re.fullmatch(rf'thr-{re.escape(side)}-(\d+)', os.path.basename(os.path.dirname(f)))
        if not run: continue
        i = int(run.group(1))
        for r in csv.DictReader(open(f)):
            if r['benchmark'] != 'throughput': continue
            rows.setdefault((r['transport'], int(r['size_bytes']), int(r['connections'])), {}).setdefault(side, {})[i] = float(r['mb_per_s'])
print('MB/s per pair (before -> after), after/before; epoll beside in the same runs')
for key in sorted(rows, key=lambda k: (k[0] != 'ucx', k[1], k[2])):
    b, a = rows[key].get(before, {}), rows[key].get(after, {})
    pairs = sorted(set(b) & set(a))
    ratios = [a[i] / b[i] for i in pairs]
    fmt = lambda xs: f'{min(xs):,.0f} / {st.median(xs):,.0f} / {max(xs):,.0f}'
    print(f'{key[0]:5s} {key[1]:>6d} B x {key[2]}: before {fmt(list(b.values()))}, after {fmt(list(a.values()))} (min/median/max); '
          f'after/before per pair ' + ' '.join(f'{r:.2f}' for r in ratios) + f' (median {st.median(ratios):.2f}, higher in {sum(r > 1 for r in ratios)} of {len(ratios)})')
