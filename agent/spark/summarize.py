# Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
"""Summarises bin/bench spark's runs.csv as markdown: per transport min/median/max of the job time and of Spark's
shuffle metrics, each round's ratios, and whether every run computed the same result."""
import csv
import statistics
import sys

path, command = sys.argv[1], sys.argv[2]
rows = list(csv.DictReader(open(path)))
transports = ["nio", "epoll", "ucx"]
by = {t: [r for r in rows if r["transport"] == t] for t in transports}
rounds = sorted({int(r["round"]) for r in rows})


def stats(t, key, scale=1.0):
    v = [int(r[key]) / scale for r in by[t]]
    return min(v), statistics.median(v), max(v)


print("# Spark shuffle job: NIO, epoll and UCX (the agent)\n")
print(f"Command: `{command}`. {len(rounds)} rounds, each running NIO, epoll, UCX in turn.\n")
print("| transport | job time s (min / median / max) | fetch wait s (median) | remote bytes read MB (median)"
      " | task run s (median) | task CPU s (median) | GC s (median) | UCX connections (median) |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
for t in transports:
    if not by[t]:
        continue
    lo, med, hi = stats(t, "job_ms", 1000)
    print(f"| {t} | {lo:.2f} / {med:.2f} / {hi:.2f} | {stats(t, 'fetch_wait_ms', 1000)[1]:.2f}"
          f" | {stats(t, 'remote_bytes_read', 1e6)[1]:.1f} | {stats(t, 'task_run_ms', 1000)[1]:.2f}"
          f" | {stats(t, 'task_cpu_ms', 1000)[1]:.2f} | {stats(t, 'gc_ms', 1000)[1]:.2f}"
          f" | {stats(t, 'ucx_connections')[1]:.0f} |")

print("\nJob time per round, and the ratios (below 1: the first is faster):\n")
print("| round | NIO s | epoll s | UCX s | UCX / NIO | UCX / epoll |")
print("| --- | --- | --- | --- | --- | --- |")
for n in rounds:
    j = {r["transport"]: int(r["job_ms"]) / 1000 for r in rows if int(r["round"]) == n}
    if all(t in j for t in transports):
        print(f"| {n} | {j['nio']:.2f} | {j['epoll']:.2f} | {j['ucx']:.2f} | {j['ucx'] / j['nio']:.2f}"
              f" | {j['ucx'] / j['epoll']:.2f} |")

results = {r["result"] for r in rows}
print("\nResults: " + ("identical in every run (" + results.pop() + ")" if len(results) == 1
                       else "DIFFER: " + "; ".join(sorted(results))))
