#!/usr/bin/env python3
"""Summarizes an A/B of run-pairs.sh: per pair, the ucx figure of each variant divided by epoll's in the same
bin/bench invocation (when epoll ran), and variant A's figure divided by B's; min/median/max over pairs.
usage: summarize.py BASE [A B]   (A and B: the variants' names, default adaptive and spin_then_sleep;
writes BASE/summary.csv and BASE/summary.md)"""
import csv, glob, os, statistics, sys
base = sys.argv[1]
a_name, b_name = sys.argv[2:4] if len(sys.argv) > 3 else ('adaptive', 'spin_then_sleep')
# How the fixed spin's variant was labelled in the first tables; any other variant goes by its own name.
column = {'spin_then_sleep': 'spin'}
label = {'spin_then_sleep': 'fixed spin'}
a_col, b_col = column.get(a_name, a_name), column.get(b_name, b_name)
a_label, b_label = label.get(a_name, a_name), label.get(b_name, b_name)
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
out.write(f'benchmark,size_bytes,connections,metric,pair,{a_col}_ucx,{b_col}_ucx,{a_col}_epoll,{b_col}_epoll,'
          f'{a_col}_vs_{b_col},{a_col}_ucx_vs_epoll,{b_col}_ucx_vs_epoll\n')
keys = sorted({(k, m) for (_, _, _, k, m, _) in rows})
pairs = sorted({p for (_, p, _, _, _, _) in rows})
md = [f'| benchmark | metric | {a_label} / {b_label} (UCX), per pair | min / median / max |'
      f' UCX/epoll {a_label} (median) | UCX/epoll {b_label} (median) |', '|---|---|---|---|---|---|']
for k, m in keys:
    ratios, ra, rs = [], [], []
    for p in pairs:
        def v(s, t):
            for (s2, p2, t2, k2, m2, val) in rows:
                if (s2, p2, t2, k2) == (s, p, t, k):
                    return val
            return None
        au, su, ae, se = v(a_name, 'ucx'), v(b_name, 'ucx'), v(a_name, 'epoll'), v(b_name, 'epoll')
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
