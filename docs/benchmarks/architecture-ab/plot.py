"""Plots ratios.csv (bin/bench --quick, before and after the architecture restructure) as ratios.png.

Run from this folder: python3 plot.py (needs matplotlib).
"""
import csv
import collections

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

rows = list(csv.DictReader(open("ratios.csv")))
cases = []
values = collections.defaultdict(list)
for r in rows:
    case = (r["benchmark"], int(r["size_bytes"]), int(r["connections"]), r["transport"])
    if case not in cases:
        cases.append(case)
    ratio = float(r["ratio_to_epoll"])
    if r["benchmark"] == "pingpong":
        ratio = 1 / ratio  # epoll's p50 over UCX's: above 1 is better, as for throughput
    values[(case, r["variant"])].append(ratio)
cases.sort(key=lambda c: (c[3], c[0], c[1], c[2]))

fig, ax = plt.subplots(figsize=(12, 6))
for i, case in enumerate(cases):
    for variant, dx, colour in (("base", -0.15, "tab:grey"), ("main", 0.15, "tab:blue")):
        ys = values[(case, variant)]
        ax.scatter([i + dx] * len(ys), ys, color=colour, s=18,
                   label={"base": "before (afb9ab9)", "main": "restructured"}[variant] if i == 0 else None)
        if ys:
            ys = sorted(ys)
            ax.plot([i + dx - 0.1, i + dx + 0.1], [ys[len(ys) // 2]] * 2, color=colour)
labels = ["%s %s %s B x%d" % (c[3], "rtt" if c[0] == "pingpong" else "tput", c[1], c[2]) for c in cases]
ax.set_xticks(range(len(cases)))
ax.set_xticklabels(labels, rotation=60, ha="right", fontsize=8)
ax.set_yscale("log")
ax.axhline(1, color="black", linewidth=0.5)
ax.set_ylabel("advantage over epoll in the same run (per run; bar = median)")
ax.set_title("bin/bench --quick, 3 alternating runs each: before and after the restructure")
ax.legend()
fig.tight_layout()
fig.savefig("ratios.png", dpi=110)
