#!/usr/bin/env python3
"""Aggregates JMH CSV files named CONFIG-ROUND.csv: NAME.csv (one row per configuration, round and benchmark) and
NAME.md (spread per configuration, and the per-round ratios between configurations).

    python3 aggregate.py RESULTS_DIR DOCS_DIR [NAME [CONFIG,CONFIG,... [A/B=LABEL;A/B=LABEL...]]]

NAME defaults to "results"; the configurations and ratios default to this folder's (run.sh): the three
(build, JDK) pairs, JDK 25 / JDK 17 and without / with Unsafe. Other folders' runs name their own.
"""
import csv
import glob
import os
import re
import statistics
import sys

CONFIGS = ["before-jdk17", "after-jdk17", "after-jdk25"]
RATIOS = [("after-jdk25", "after-jdk17", "JDK 25 / JDK 17 (same code)"),
          ("after-jdk17", "before-jdk17", "without Unsafe / with Unsafe (JDK 17)")]


def load(results_dir):
    rows = []
    for path in sorted(glob.glob(os.path.join(results_dir, "*.csv"))):
        m = re.match(r"(.+)-(\d+)\.csv$", os.path.basename(path))
        config, rnd = m.group(1), int(m.group(2))
        with open(path, newline="") as f:
            for r in csv.DictReader(f):
                name = r["Benchmark"].rsplit(".", 2)
                bench = name[-2].replace("Benchmark", "") + "." + name[-1]
                size = r.get("Param: size", "")
                rows.append({"config": config, "round": rnd, "benchmark": bench, "size_bytes": size,
                             "ns_per_op": float(r["Score"])})
    return rows


def spread(values):
    return "%.1f / %.1f / %.1f" % (min(values), statistics.median(values), max(values))


def main():
    results_dir, docs_dir = sys.argv[1], sys.argv[2]
    name = sys.argv[3] if len(sys.argv) > 3 else "results"
    configs = sys.argv[4].split(",") if len(sys.argv) > 4 else CONFIGS
    ratios_wanted = RATIOS
    if len(sys.argv) > 5:
        ratios_wanted = []
        for spec in sys.argv[5].split(";"):
            pair, label = spec.split("=", 1)
            a, b = pair.split("/")
            ratios_wanted.append((a, b, label))
    rows = load(results_dir)
    with open(os.path.join(docs_dir, name + ".csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["config", "round", "benchmark", "size_bytes", "ns_per_op"])
        w.writeheader()
        for r in sorted(rows, key=lambda r: (r["benchmark"], int(r["size_bytes"] or 0), r["config"], r["round"])):
            w.writerow(r)
    keys = sorted({(r["benchmark"], r["size_bytes"]) for r in rows}, key=lambda k: (k[0], int(k[1] or 0)))
    by = {}
    for r in rows:
        by.setdefault((r["benchmark"], r["size_bytes"], r["config"]), {})[r["round"]] = r["ns_per_op"]
    out = ["| benchmark | size | " + " | ".join(c + " ns/op min / median / max" for c in configs)
           + " | " + " | ".join(label + " per round min / median / max" for _, _, label in ratios_wanted) + " |",
           "| --- | ---: | " + " | ".join("---" for _ in configs) + " | " + " | ".join("---" for _ in ratios_wanted)
           + " |"]
    for bench, size in keys:
        cells = []
        for c in configs:
            v = list(by.get((bench, size, c), {}).values())
            cells.append(spread(v) + " (%d runs)" % len(v) if v else "-")
        for a, b, _ in ratios_wanted:
            va, vb = by.get((bench, size, a), {}), by.get((bench, size, b), {})
            ratios = [va[k] / vb[k] for k in sorted(va) if k in vb]
            cells.append("%.3f / %.3f / %.3f" % (min(ratios), statistics.median(ratios), max(ratios))
                         if ratios else "-")
        out.append("| %s | %s | %s |" % (bench, size, " | ".join(cells)))
    with open(os.path.join(docs_dir, name + ".md"), "w") as f:
        f.write("\n".join(out) + "\n")
    print("\n".join(out))


if __name__ == "__main__":
    main()
