#!/usr/bin/env python3
"""Summarizes the wait-strategy A/B: per pair, the ucx figure of each strategy divided by epoll's in the same
bin/bench invocation, and the adaptive/spin ratio; min/median/max over pairs."""
import csv, glob, os, statistics, sys
base = sys.argv[1]
rows = []
for d in sorted(glob.glob(os.path.join(base, '*-[0-9]*'))):
    if not os.path.isdir(d):
        continue
    strategy, pair = os.path.basename(d).rsplit('-', 1)
    for r in csv.DictReader(open(os.path.join(d, 'results.csv'))):
        if r['status'] != 'ok':
            continue
        key = (r['benchmark'], int(r['size_bytes']), int(r['connections']))
        metric = 'p50_us' if r['benchmark'] == 'pingpong' else 'mb_per_s'
        rows.append((strategy, int(pair), r['transport'], key, metric, float(r[metric])))
out = open(os.path.join(base, 'summary.csv'), 'w')
out.write('benchmark,size_bytes,connections,metric,pair,adaptive_ucx,spin_ucx,adaptive_epoll,spin_epoll,'
          'adaptive_vs_spin,adaptive_ucx_vs_epoll,spin_ucx_vs_epoll\n')
keys = sorted({(k, m) for (_, _, _, k, m, _) in rows})
pairs = sorted({p for (_, p, _, _, _, _) in rows})
md = ['| benchmark | metric | adaptive / fixed spin (UCX), per pair | min / median / max |'
      ' UCX/epoll adaptive (median) | UCX/epoll fixed spin (median) |', '|---|---|---|---|---|---|']
for k, m in keys:
    ratios, ra, rs = [], [], []
    for p in pairs:
        def v(s, t):
            for (s2, p2, t2, k2, m2, val) in rows:
                if (s2, p2, t2, k2) == (s, p, t, k):
                    return val
            return None
        au, su, ae, se = v('adaptive', 'ucx'), v('spin_then_sleep', 'ucx'), v('adaptive', 'epoll'), v('spin_then_sleep', 'epoll')
        if None in (au, su):
            continue
        ratios.append(au / su)
        if None not in (ae, se):
            ra.append(au / ae); rs.append(su / se)
        out.write(f'{k[0]},{k[1]},{k[2]},{m},{p},{au},{su},{ae},{se},{au/su:.3f},'
                  f'{"" if ae is None else f"{au/ae:.3f}"},{"" if se is None else f"{su/se:.3f}"}\n')
    if not ratios:
        continue
    name = f'{k[0]} {k[1]} B' + (f' x{k[2]}' if k[0] == 'throughput' else '')
    md.append(f'| {name} | {"p50" if m == "p50_us" else "MB/s"} | ' + ', '.join(f'{x:.2f}' for x in ratios)
              + f' | {min(ratios):.2f} / {statistics.median(ratios):.2f} / {max(ratios):.2f} | '
              + (f'{statistics.median(ra):.2f} | {statistics.median(rs):.2f} |' if ra else '- | - |'))
open(os.path.join(base, 'summary.md'), 'w').write('\n'.join(md) + '\n')
print('\n'.join(md))
