/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb.bench;

import io.github.nettyucx.support.MachineFacts;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** Writes results.csv (every run), results.md (medians, ratios, method) and PNG charts. */
final class BenchReport {
    private static final String[] OPS = {"READ", "UPDATE"};
    /** Pseudo-section for {@link #median}: throughput after the warm-up seconds. */
    private static final String STEADY = "steady";

    private final BenchOptions o;
    private final String command;
    private final List<RunResult> results;
    private final String loadBefore;
    private final String loadAfter;
    private final double seconds;

    BenchReport(BenchOptions o, String command, List<RunResult> results, String loadBefore, String loadAfter,
                double seconds) {
        this.o = o;
        this.command = command;
        this.results = results;
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
        this.seconds = seconds;
    }

    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        writeCsv(dir.resolve("results.csv"));
        List<String> charts = new ArrayList<>();
        for (String w : o.workloads) {
            charts.add(chart(dir, w, "throughput", "Throughput (ops/s)", null));
            charts.add(chart(dir, w, "read-p99", "READ p99 latency (us)", "99thPercentileLatency(us)"));
        }
        writeMarkdown(dir.resolve("results.md"), charts);
    }

    private void writeCsv(Path file) throws IOException {
        StringBuilder sb = new StringBuilder("workload,threads,transport,run,throughput_ops_s,steady_ops_s,operation,"
                + "operations,avg_us,p95_us,p99_us,ok,failed\n");
        for (RunResult r : results) {
            for (String op : r.output().operations()) {
                long ok = r.output().returned(op, "OK");
                long all = (long) r.output().value(op, "Operations");
                sb.append(String.format(Locale.ROOT, "%s,%d,%s,%d,%.1f,%.1f,%s,%d,%.1f,%.0f,%.0f,%d,%d%n",
                        r.workload(), r.threads(), r.transport(), r.run(), r.output().throughput(),
                        r.output().steadyThroughput(o.warmupSeconds()), op, all,
                        r.output().value(op, "AverageLatency(us)"), r.output().value(op, "95thPercentileLatency(us)"),
                        r.output().value(op, "99thPercentileLatency(us)"), ok, all - ok));
            }
        }
        Files.write(file, sb.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** Median over runs of a metric (section null: overall throughput). */
    private double median(String workload, int threads, String transport, String section, String metric) {
        List<Double> values = new ArrayList<>();
        for (RunResult r : results) {
            if (r.workload().equals(workload) && r.threads() == threads && r.transport().equals(transport)) {
                double v = section == null ? r.output().throughput()
                        : section.equals(STEADY) ? r.output().steadyThroughput(o.warmupSeconds())
                        : r.output().value(section, metric);
                if (!Double.isNaN(v)) {
                    values.add(v);
                }
            }
        }
        if (values.isEmpty()) {
            return Double.NaN;
        }
        Collections.sort(values);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    private String chart(Path dir, String w, String name, String yTitle, String latencyMetric) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(800).height(500)
                .title("YCSB workload " + w.toUpperCase(Locale.ROOT) + ": " + yTitle + ", median of " + o.runs
                        + " run(s)")
                .xAxisTitle("YCSB client threads").yAxisTitle(yTitle).build();
        List<String> x = new ArrayList<>();
        for (int t : o.threads) {
            x.add(String.valueOf(t));
        }
        for (String t : o.transports) {
            List<Double> y = new ArrayList<>();
            for (int threads : o.threads) {
                double v = latencyMetric == null ? median(w, threads, t, null, null)
                        : median(w, threads, t, "READ", latencyMetric);
                y.add(Double.isNaN(v) ? 0 : v);
            }
            chart.addSeries(t, x, y);
        }
        String file = "workload" + w + "-" + name + ".png";
        BitmapEncoder.saveBitmap(chart, dir.resolve(file).toString(), BitmapEncoder.BitmapFormat.PNG);
        return file;
    }

    private void writeMarkdown(Path file, List<String> charts) throws IOException {
        StringBuilder md = new StringBuilder("# YCSB over kvstore: UCX next to epoll and NIO\n\n");
        md.append("Produced by `").append(command).append("` on ")
          .append(ZonedDateTime.now().format(DateTimeFormatter.RFC_1123_DATE_TIME)).append(" in ")
          .append(String.format(Locale.ROOT, "%.0f", seconds)).append(" s.\n\n");
        md.append("Machine: ").append(MachineFacts.cpuModel()).append(", ")
          .append(Runtime.getRuntime().availableProcessors())
          .append(" CPUs, ").append(System.getProperty("os.name")).append(' ').append(System.getProperty("os.version"))
          .append(", Java ").append(System.getProperty("java.version")).append(", UCX ")
          .append(MachineFacts.ucxVersion())
          .append(".\nLoad average (1/5/15 min) before: ").append(loadBefore).append("; after: ").append(loadAfter)
          .append(".\n\n");
        md.append("Method: one kvstore server JVM per transport (`--threads ").append(o.serverThreads)
          .append("`), each loaded with ").append(String.format(Locale.ROOT, "%,d", o.records))
          .append(" records by YCSB (10 fields of 100 B). Then for every workload and thread count, YCSB's own ")
          .append("client (`site.ycsb.Client`, a fresh JVM per run, binding `io.github.nettyucx.ycsb.KvStoreClient` ")
          .append(o.ycsbProperties.isEmpty() ? "with its default connections and event loop threads"
                  : "with " + String.join(", ", o.ycsbProperties)).append(") runs for ").append(o.seconds)
          .append(" s over each transport in turn, so machine drift hits all transports alike. Client and server ")
          .append("are on this host: UCX uses shared memory, epoll and NIO use loopback TCP. Numbers are YCSB's own ")
          .append("summary (throughput; per-operation average and percentiles from its HdrHistogram); medians of ")
          .append(o.runs).append(" run(s). \"steady ops/s\" leaves out the first ").append(o.warmupSeconds())
          .append(" s of each run (a fresh JVM compiling its hot code), from YCSB's per-second status lines. The ")
          .append("\"vs epoll\" columns divide by epoll's figure in this run. `ucx-sleep` is UCX with ")
          .append("`-Dio.github.nettyucx.waitStrategy=sleep` in server and client ")
          .append("(idle event loops sleep at once instead of spinning first).\n\n");
        md.append("The machine is shared with other work: compare ratios within this table, not absolute numbers ")
          .append("across runs; ").append(MachineFacts.overloaded(loadBefore, loadAfter)
                ? "this run was made while the machine was heavily loaded (see the load average), so expect large "
                + "run-to-run swings.\n\n" : "check the load average above.\n\n");

        for (String w : o.workloads) {
            md.append("## Workload ").append(w.toUpperCase(Locale.ROOT)).append("\n\n");
            md.append("| threads | transport | ops/s | steady ops/s |");
            for (String op : OPS) {
                md.append(' ').append(op).append(" avg us | ").append(op).append(" p99 us |");
            }
            md.append(" ops/s vs epoll | steady vs epoll |\n|---|---|---:|---:|");
            for (int i = 0; i < OPS.length; i++) {
                md.append("---:|---:|");
            }
            md.append("---:|---:|\n");
            for (int threads : o.threads) {
                double epoll = median(w, threads, "epoll", null, null);
                double epollSteady = median(w, threads, "epoll", STEADY, null);
                for (String t : o.transports) {
                    double tp = median(w, threads, t, null, null);
                    double steady = median(w, threads, t, STEADY, null);
                    md.append("| ").append(threads).append(" | ").append(t).append(" | ").append(fmt(tp)).append(" | ")
                      .append(fmt(steady)).append(" |");
                    for (String op : OPS) {
                        md.append(' ').append(fmt(median(w, threads, t, op, "AverageLatency(us)"))).append(" | ")
                          .append(fmt(median(w, threads, t, op, "99thPercentileLatency(us)"))).append(" |");
                    }
                    md.append(' ').append(ratio(tp, epoll)).append(" | ").append(ratio(steady, epollSteady))
                            .append(" |\n");
                }
            }
            md.append('\n');
        }
        if (o.workloads.contains("c") && o.threads.contains(4) && o.transports.contains("epoll")) {
            md.append("Target (issue): UCX ops/s at least 1.5x epoll on workload C with 4 threads, with lower p99.");
            double e = median("c", 4, "epoll", null, null);
            double p99e = median("c", 4, "epoll", "READ", "99thPercentileLatency(us)");
            for (String t : o.transports) {
                if (!t.startsWith("ucx")) {
                    continue;
                }
                double ratio = median("c", 4, t, null, null) / e;
                double steadyRatio = median("c", 4, t, STEADY, null) / median("c", 4, "epoll", STEADY, null);
                double p99u = median("c", 4, t, "READ", "99thPercentileLatency(us)");
                md.append(String.format(Locale.ROOT, " %s: %.2fx (steady %.2fx), READ p99 %s us vs %s us (epoll): %s.",
                        t, ratio, steadyRatio, fmt(p99u), fmt(p99e), ratio >= 1.5 && p99u < p99e ? "met" : "not met"));
            }
            md.append("\n\n");
        }
        md.append("Every run, with all operations and failure counts: [results.csv](results.csv).\n\n");
        for (String c : charts) {
            md.append("![").append(c).append("](").append(c).append(")\n");
        }
        Files.write(file, md.toString().getBytes(StandardCharsets.UTF_8));
    }

    private static String fmt(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%,.0f", v);
    }

    private static String ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? "-" : String.format(Locale.ROOT, "%.2fx", a / b);
    }
}
