#!/usr/bin/env python3
"""Aggregates run-echo.sh's runs (raw-echo/before-N.csv, raw-echo/after-N.csv, bin/bench echo's results.csv each) into
echo.csv (one row per build, round and benchmark) and echo.md (spread per build and the per-round after / before
ratios): round-trip p50 in us (lower is better), throughput in MB/s (higher is better).

    python3 echo-aggregate.py [RAW_DIR]
"""
import csv
import glob
import os
import re
import statistics
import sys

raw = sys.argv[1] if len(sys.argv) > 1 else "raw-echo"
runs = {}
for path in sorted(glob.glob(os.path.join(raw, "*-*.csv"))):
    build, rnd = re.match(r"(before|after)-(\d+)\.csv$", os.path.basename(path)).groups()
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if row["status"] != "ok":
                continue
            key = (row["benchmark"], int(row["size_bytes"]), int(row["connections"]))
            value = float(row["p50_us"] if row["benchmark"] == "pingpong" else row["mb_per_s"])
            runs.setdefault(key, {})[(build, int(rnd))] = value

with open("echo.csv", "w", newline="") as f:
    out = csv.writer(f)
    out.writerow(["build", "round", "benchmark", "size_bytes", "connections", "value", "unit"])
    for key, values in sorted(runs.items()):
        for (build, rnd), value in sorted(values.items()):
            out.writerow([build, rnd, key[0], key[1], key[2], value, "p50_us" if key[0] == "pingpong" else "MB/s"])


def spread(values, digits):
    return " / ".join(f"{v:,.{digits}f}" for v in (min(values), statistics.median(values), max(values)))


with open("echo.md", "w") as f:
    f.write("| benchmark | size | connections | unit | before min / median / max | after min / median / max "
            "| after / before per round min / median / max | rounds after better |\n")
    f.write("| --- | ---: | ---: | --- | --- | --- | --- | ---: |\n")
    for key, values in sorted(runs.items()):
        rounds = sorted({r for _, r in values})
        before = [values[("before", r)] for r in rounds]
        after = [values[("after", r)] for r in rounds]
        ratios = [a / b for a, b in zip(after, before)]
        latency = key[0] == "pingpong"
        better = sum(1 for q in ratios if (q < 1 if latency else q > 1))
        f.write(f"| {key[0]} | {key[1]} | {key[2]} | {'p50 us' if latency else 'MB/s'} | {spread(before, 1)} "
                f"| {spread(after, 1)} | {spread(ratios, 2)} | {better} of {len(ratios)} |\n")
