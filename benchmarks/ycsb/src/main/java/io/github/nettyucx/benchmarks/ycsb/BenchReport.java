/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.benchmarks.core.MarkdownTable;
import io.github.nettyucx.benchmarks.core.ReportHeader;
import io.github.nettyucx.benchmarks.core.Spread;
import io.github.nettyucx.ycsb.YcsbMetric;
import io.github.nettyucx.ycsb.YcsbOutput;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * Writes results.csv (every run), results.md (spread over runs, per-run ratios to epoll, the target,
 * method) and per workload the charts of {@link RunCharts}.
 */
final class BenchReport {
    private static final String[] OPS = {"READ", "UPDATE"};

    private final BenchOptions o;
    private final String command;
    /** What ran beside the benchmark, a sentence. */
    private final String neighbours;
    private final List<RunResult> results;
    private final RunTable table;
    private final String loadBefore;
    private final String loadAfter;
    private final double seconds;

    BenchReport(BenchOptions o, String command, String neighbours, List<RunResult> results, String loadBefore,
                String loadAfter, double seconds) {
        this.o = o;
        this.command = command;
        this.neighbours = neighbours;
        this.results = results;
        this.table = new RunTable(results, o.runs);
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
        this.seconds = seconds;
    }

    /** Writes results.csv, results.md and the charts into {@code dir}. */
    void write(Path dir) throws IOException {
        writeTables(dir);
        RunCharts charts = new RunCharts(table, o.threads, o.transports);
        for (String w : o.workloads) {
            charts.write(dir, w);
        }
    }

    /** results.csv and results.md, which links the charts {@link #write} draws. */
    void writeTables(Path dir) throws IOException {
        Files.createDirectories(dir);
        writeCsv(dir.resolve("results.csv"));
        List<String> charts = new ArrayList<>();
        for (String w : o.workloads) {
            charts.addAll(RunCharts.files(w));
        }
        writeMarkdown(dir.resolve("results.md"), charts);
    }

    private void writeCsv(Path file) throws IOException {
        StringBuilder sb = new StringBuilder("workload,threads,transport,run,throughput_ops_s,steady_ops_s,operation,"
                + "operations,avg_us,p95_us,p99_us,ok,failed,position_in_run\n");
        for (RunResult r : results) {
            for (String op : r.output().operations()) {
                long ok = r.output().returned(op, "OK");
                long all = (long) r.output().value(op, "Operations");
                sb.append(String.format(Locale.ROOT, "%s,%d,%s,%d,%.1f,%.1f,%s,%d,%.1f,%.0f,%.0f,%d,%d,%d%n",
                        r.workload(), r.threads(), r.transport(), r.run(), r.output().throughput(),
                        r.output().steadyThroughput(o.warmupSeconds()), op, all,
                        r.output().value(op, "AverageLatency(us)"), r.output().value(op, "95thPercentileLatency(us)"),
                        r.output().value(op, "99thPercentileLatency(us)"), ok, all - ok, r.position()));
            }
        }
        Files.write(file, sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    private void writeMarkdown(Path file, List<String> charts) throws IOException {
        StringBuilder md = new StringBuilder(ReportHeader.of("YCSB over kvstore: UCX next to epoll and NIO", command)
          .started(ZonedDateTime.now().minusSeconds((long) seconds)).load(loadBefore, loadAfter)
          .line("Duration", String.format(Locale.ROOT, "%.0f s", seconds))
          .line("Beside the benchmark", neighbours).markdown());
        method(md);
        for (String w : o.workloads) {
            workload(md, w, charts.stream().filter(c -> c.startsWith("workload" + w + "-"))
                    .collect(Collectors.toList()));
        }
        target(md);
        md.append("Every run, with all operations, failure counts and each transport's position in its run: ")
          .append("[results.csv](results.csv).\n");
        Files.write(file, md.toString().getBytes(StandardCharsets.UTF_8));
    }

    private void method(StringBuilder md) {
        md.append("Method: one kvstore server JVM per transport (`--threads ").append(o.serverThreads)
          .append("`), each loaded with ").append(String.format(Locale.ROOT, "%,d", o.records))
          .append(" records by YCSB (10 fields of 100 B) and kept for all runs. Then, in each of ").append(o.runs)
          .append(" run(s), for every workload and thread count, YCSB's own client (`site.ycsb.Client`, a ")
          .append("fresh JVM each time, binding `io.github.nettyucx.ycsb.KvStoreClient` ")
          .append(o.ycsbProperties.isEmpty() ? "with its default connections and event loop threads"
                  : "with " + String.join(", ", o.ycsbProperties)).append(") runs for ").append(o.seconds)
          .append(" s over each transport in turn. Transports alternate: odd runs go ")
          .append(String.join(", ", o.transportsInRun(1))).append("; even runs ")
          .append(String.join(", ", o.transportsInRun(2)))
          .append(". Client and server are on this host: UCX uses shared memory, epoll and NIO use loopback TCP. ")
          .append("Numbers are YCSB's own summary (throughput; per-operation percentiles from its HdrHistogram). ")
          .append("\"steady ops/s\" leaves out the first ").append(o.warmupSeconds())
          .append(" s of each run (a fresh JVM compiling its hot code), from YCSB's per-second status lines. ")
          .append("`ucx` runs with the transport's default wait strategy; `ucx-spin` and `ucx-sleep` set ")
          .append("`-Dio.github.nettyucx.waitStrategy` to `spin_then_sleep` and `sleep` in server and client.\n\n");
        md.append("How to read: absolute figures are the median over the runs with the smallest and largest in ")
          .append("brackets. The ratio tables divide each run's figure by epoll's in the same run and give min / ")
          .append("median / max of those ratios, then every run's ratio in run order: above 1 is better for ops/s, ")
          .append("below 1 is better for p99. The machine is shared with other work: trust ratios within a run ")
          .append("more than absolute numbers, and check the load average above.\n\n");
    }

    private void workload(StringBuilder md, String w, List<String> charts) {
        List<String> ops = new ArrayList<>();
        for (String op : OPS) {
            if (table.measured(w, op)) {
                ops.add(op);
            }
        }
        md.append("## Workload ").append(w.toUpperCase(Locale.ROOT)).append("\n\n");
        md.append("Median [min - max] over ").append(o.runs).append(" run(s):\n\n");
        MarkdownTable spreads = new MarkdownTable().text("threads").text("transport").number("ops/s")
                .number("steady ops/s");
        ops.forEach(op -> spreads.number(op + " p99 us"));
        for (int threads : o.threads) {
            for (String t : o.transports) {
                List<String> cells = new ArrayList<>(List.of(String.valueOf(threads), t,
                        table.spread(w, threads, t, YcsbMetric.THROUGHPUT::of).format("%,.0f"),
                        table.spread(w, threads, t, steady()).format("%,.0f")));
                for (String op : ops) {
                    cells.add(table.spread(w, threads, t, YcsbMetric.p99(op)::of).format("%,.0f"));
                }
                spreads.row(cells.toArray());
            }
        }
        md.append(spreads).append('\n');
        List<String> others = others();
        if (!o.transports.contains(RunTable.REFERENCE) || others.isEmpty()) {
            md.append("(No ratios: they need epoll and another transport in `--transports`.)\n\n");
        } else {
            md.append("Ratio to epoll in the same run: min / median / max (run 1, run 2, ...):\n\n");
            MarkdownTable ratioTable = new MarkdownTable().text("threads").text("transport").text("ops/s")
                    .text("steady ops/s");
            ops.forEach(op -> ratioTable.text(op + " p99"));
            for (int threads : o.threads) {
                for (String t : others) {
                    List<String> cells = new ArrayList<>(List.of(String.valueOf(threads), t,
                            ratios(table.ratiosToReference(w, threads, t, YcsbMetric.THROUGHPUT::of)),
                            ratios(table.ratiosToReference(w, threads, t, steady()))));
                    for (String op : ops) {
                        cells.add(ratios(table.ratiosToReference(w, threads, t, YcsbMetric.p99(op)::of)));
                    }
                    ratioTable.row(cells.toArray());
                }
            }
            md.append(ratioTable).append('\n');
        }
        for (String c : charts) {
            md.append("![").append(c).append("](").append(c).append(")\n");
        }
        md.append('\n');
    }

    /**
     * The target paragraph, when this benchmark measured what the target is about: epoll and a UCX variant on
     * workload A or C with 4 threads.
     */
    private void target(StringBuilder md) {
        List<String> workloads = Target.WORKLOADS.stream().filter(o.workloads::contains).collect(Collectors.toList());
        List<String> ucx = others().stream().filter(t -> TransportVariant.of(t).isUcx()).collect(Collectors.toList());
        if (workloads.isEmpty() || !o.threads.contains(Target.THREADS) || !o.transports.contains(RunTable.REFERENCE)
                || ucx.isEmpty()) {
            return;
        }
        md.append("## Target\n\n").append(Target.SENTENCE).append(" A run holds it when, in that run, the UCX ")
          .append("variant's ops/s is at least ")
          .append(String.format(Locale.ROOT, "%.0f", Target.MIN_THROUGHPUT_RATIO)).append("x epoll's and ")
          .append("its READ p99 is at or below epoll's.\n\n");
        for (String t : ucx) {
            boolean failed = false;
            List<String> parts = new ArrayList<>();
            for (String w : workloads) {
                List<Boolean> held = Target.heldPerRun(table, w, t);
                int n = Target.runsHeld(table, w, t);
                failed |= n < held.size();
                parts.add("workload " + w.toUpperCase(Locale.ROOT) + " held in " + n + " of " + held.size()
                        + " runs (ops/s " + perRun(table.ratiosToReference(w, Target.THREADS, t,
                        YcsbMetric.THROUGHPUT::of)) + "; READ p99 " + perRun(table.ratiosToReference(w,
                        Target.THREADS, t, YcsbMetric.p99("READ")::of)) + ")");
            }
            Target.WORKLOADS.stream().filter(w -> !workloads.contains(w))
                    .forEach(w -> parts.add("workload " + w.toUpperCase(Locale.ROOT) + " not measured"));
            md.append("- `").append(t).append("`: ").append(String.join("; ", parts)).append(": **")
              .append(verdict(t, workloads, failed)).append("**.\n");
        }
        md.append('\n');
    }

    private String verdict(String transport, List<String> workloads, boolean failed) {
        if (Target.met(table, transport)) {
            return "met";
        }
        if (failed) {
            return "not met";
        }
        List<String> why = new ArrayList<>();
        List<String> missing = Target.WORKLOADS.stream().filter(w -> !workloads.contains(w))
                .map(w -> w.toUpperCase(Locale.ROOT)).collect(Collectors.toList());
        if (!missing.isEmpty()) {
            why.add("workload " + String.join(" and ", missing) + " not measured");
        }
        if (o.runs < Target.RUNS) {
            why.add(o.runs + " run(s) where the target needs " + Target.RUNS);
        }
        return "held in every run measured, not judged: " + String.join("; ", why);
    }

    /** The transports compared with epoll, in the order given. */
    private List<String> others() {
        return o.transports.stream().filter(t -> !t.equals(RunTable.REFERENCE)).collect(Collectors.toList());
    }

    private ToDoubleFunction<YcsbOutput> steady() {
        long warmup = o.warmupSeconds();
        return out -> out.steadyThroughput(warmup);
    }

    /** "min / median / max (r1, r2, ...)" of per-run ratios; "-" when no run has one. */
    private static String ratios(List<Double> perRun) {
        Spread s = Spread.of(perRun);
        if (s.isEmpty()) {
            return "-";
        }
        return String.format(Locale.ROOT, "%.2f / %.2f / %.2f (%s)", s.min(), s.median(), s.max(),
                perRun.stream().map(BenchReport::ratio).collect(Collectors.joining(", ")));
    }

    private static String perRun(List<Double> ratios) {
        return ratios.stream().map(r -> Double.isFinite(r) ? ratio(r) + "x" : "-").collect(Collectors.joining(", "));
    }

    private static String ratio(double r) {
        return Double.isFinite(r) ? String.format(Locale.ROOT, "%.2f", r) : "-";
    }
}
