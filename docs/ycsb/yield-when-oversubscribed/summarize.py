#!/usr/bin/env python3
"""Per-run UCX/epoll ratios of bin/demo sets (demo-sets.sh), as results.csv, results.md and ratios.png next to
this file. usage: summarize.py SET_OUTPUT... (a set's bin/demo output, e.g. OUTDIR/demo-auto-c.log; the set is
named after the file, without demo- and the extension). The PNG needs matplotlib (pip install matplotlib)."""
import csv, os, re, statistics, sys

here = os.path.dirname(os.path.abspath(__file__))
LINE = re.compile(r'^run (\d+)/\d+: (ucx|epoll)\s+(\d+) ops/s, READ p99\s+(\d+) us, UPDATE p99\s+(\d+) us')
sets = []
for path in sys.argv[1:]:
    name = re.sub(r'^demo-', '', os.path.splitext(os.path.basename(path))[0])
    runs = {}
    for line in open(path):
        m = LINE.match(line)
        if m:
            runs.setdefault(int(m.group(1)), {})[m.group(2)] = [int(m.group(i)) for i in (3, 4, 5)]
    sets.append((name, [(r, v['ucx'], v['epoll']) for r, v in sorted(runs.items()) if len(v) == 2]))

with open(os.path.join(here, 'results.csv'), 'w', newline='') as f:
    w = csv.writer(f)
    w.writerow(['set', 'run', 'ucx_ops', 'epoll_ops', 'ucx_read_p99_us', 'epoll_read_p99_us', 'ucx_update_p99_us',
                'epoll_update_p99_us', 'ops_ratio', 'read_p99_ratio', 'update_p99_ratio'])
    for name, runs in sets:
        for r, u, e in runs:
            w.writerow([name, r, u[0], e[0], u[1], e[1], u[2], e[2], round(u[0] / e[0], 3), round(u[1] / e[1], 3),
                        round(u[2] / e[2], 3)])


def spread(values):
    return f'{min(values):.2f} / {statistics.median(values):.2f} / {max(values):.2f}'


md = ['| set | ops/s, ucx / epoll | READ p99, ucx / epoll | READ p99 at most epoll\'s | UPDATE p99, ucx / epoll |'
      ' UPDATE p99 at most epoll\'s | UCX READ p99 (us) |', '| --- | --- | --- | ---: | --- | ---: | --- |']
for name, runs in sets:
    ops = [u[0] / e[0] for _, u, e in runs]
    read = [u[1] / e[1] for _, u, e in runs]
    update = [u[2] / e[2] for _, u, e in runs]
    ucx_read = [u[1] for _, u, _ in runs]
    md.append(f'| {name} | {spread(ops)} | {spread(read)} | {sum(x <= 1 for x in read)} of {len(runs)} | '
              f'{spread(update)} | {sum(x <= 1 for x in update)} of {len(runs)} | '
              f'{min(ucx_read)} / {int(statistics.median(ucx_read))} / {max(ucx_read)} |')
md.append('')
md.append('(min / median / max over the runs of each set)')
with open(os.path.join(here, 'results.md'), 'w') as f:
    f.write('\n'.join(md) + '\n')

try:
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit('summarize.py: no PNG without matplotlib (pip install matplotlib)')
fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
for ax, index, title in ((axes[0], 0, 'ops/s, ucx / epoll (above 1: ucx did more)'),
                         (axes[1], 1, 'READ p99, ucx / epoll (below 1: ucx answered sooner)')):
    for x, (name, runs) in enumerate(sets):
        ys = [u[index] / e[index] for _, u, e in runs]
        color = {'auto': 'tab:blue', 'never': 'tab:orange', 'always': 'tab:green'}.get(name.split('-')[0], 'gray')
        ax.scatter([x] * len(ys), ys, color=color)
        ax.plot([x - 0.3, x + 0.3], [statistics.median(ys)] * 2, color=color)
    ax.axhline(1.0, color='black', linewidth=0.8)
    ax.set_xticks(range(len(sets)))
    ax.set_xticklabels([name for name, _ in sets], rotation=45, ha='right')
    ax.set_title(title, fontsize=10)
fig.suptitle('bin/demo, per run: auto, never (the default) and always yield at once; lines: medians')
fig.tight_layout()
fig.savefig(os.path.join(here, 'ratios.png'), dpi=90)
