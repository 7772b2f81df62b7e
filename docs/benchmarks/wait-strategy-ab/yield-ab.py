#!/usr/bin/env python3
"""Summarizes A/B sets of run-pairs.sh whose two variants are named auto and never: per pair, UCX's figure with
auto divided by never's (ping-pong p50, throughput MB/s); min/median/max over pairs.
usage: yield-ab.py OUT_PREFIX SET=DIR [SET=DIR ...]   (writes OUT_PREFIX.csv and OUT_PREFIX.md)"""
import csv, glob, os, statistics, sys

prefix = sys.argv[1]
rows = []
md = ['| set | benchmark | metric | auto / never, per pair | min / median / max | auto (median) | never (median) |',
      '| --- | --- | --- | --- | --- | --- | --- |']
for arg in sys.argv[2:]:
    name, base = arg.split('=', 1)
    vals = {}
    for d in glob.glob(os.path.join(base, '*-[0-9]*')):
        if not os.path.isdir(d):
            continue
        variant, pair = os.path.basename(d).rsplit('-', 1)
        for r in csv.DictReader(open(os.path.join(d, 'results.csv'))):
            if r['status'] != 'ok' or r['transport'] != 'ucx':
                continue
            metric = 'p50_us' if r['benchmark'] == 'pingpong' else 'mb_per_s'
            key = (r['benchmark'], int(r['size_bytes']), int(r['connections']), metric)
            vals[(variant, int(pair)) + key] = float(r[metric])
    keys = sorted({k[2:] for k in vals})
    pairs = sorted({k[1] for k in vals})
    for k in keys:
        ratios, autos, nevers = [], [], []
        for p in pairs:
            a, n = vals.get(('auto', p) + k), vals.get(('never', p) + k)
            if a and n:
                ratios.append(a / n)
                autos.append(a)
                nevers.append(n)
                rows.append([name, k[0], k[1], k[2], k[3], p, a, n, round(a / n, 3)])
        if ratios:
            label = f'{k[0]} {k[1]} B' + (f' x{k[2]}' if k[0] == 'throughput' else '')
            md.append(f"| {name} | {label} | {k[3]} | {', '.join(f'{r:.2f}' for r in ratios)} | "
                      f'{min(ratios):.2f} / {statistics.median(ratios):.2f} / {max(ratios):.2f} | '
                      f'{statistics.median(autos):.4g} | {statistics.median(nevers):.4g} |')
with open(prefix + '.csv', 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['set', 'benchmark', 'size_bytes', 'connections', 'metric', 'pair', 'auto', 'never', 'auto_vs_never'])
    w.writerows(rows)
with open(prefix + '.md', 'w') as f:
    f.write('\n'.join(md) + '\n')
