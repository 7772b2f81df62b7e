#!/usr/bin/env python3
"""Aggregates run.sh's JMH CSV files: results.csv (one row per configuration, round and benchmark) and results.md
(spread per configuration, and the per-round ratios that answer the two questions).

    python3 aggregate.py RESULTS_DIR DOCS_DIR [NAME]

NAME (default "results") names the two files: NAME.csv and NAME.md.
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
    out = ["| benchmark | size | " + " | ".join(c + " ns/op min / median / max" for c in CONFIGS)
           + " | " + " | ".join(label + " per round min / median / max" for _, _, label in RATIOS) + " |",
           "| --- | ---: | " + " | ".join("---" for _ in CONFIGS) + " | " + " | ".join("---" for _ in RATIOS) + " |"]
    for bench, size in keys:
        cells = []
        for c in CONFIGS:
            v = list(by.get((bench, size, c), {}).values())
            cells.append(spread(v) + " (%d runs)" % len(v) if v else "-")
        for a, b, _ in RATIOS:
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
