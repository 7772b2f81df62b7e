/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.jmh;

import io.github.nettyucx.benchmarks.core.MarkdownTable;
import io.github.nettyucx.benchmarks.core.Medians;
import io.github.nettyucx.benchmarks.core.PngCharts;
import io.github.nettyucx.benchmarks.core.ReportHeader;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.RunnerException;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Runs the allocator benchmarks with {@code -prof gc} and writes, to {@code docs/microbench/} (or
 * {@code -Dmicrobench.out=DIR}): {@code allocator-jmh.csv} (JMH's own CSV: mean and 99.9% CI),
 * {@code allocator.csv} and {@code allocator.md} (per benchmark the median, minimum and maximum of
 * the measurement iterations, the ratio of medians to PooledByteBufAllocator in the same run and
 * the garbage per operation) and {@code allocator.png}. Medians because the machine these run on is
 * shared: an iteration that another process disturbs moves a mean, hardly a median.
 *
 * <p>Arguments are JMH's command line ({@code -i 10 -r 500ms -p size=1024 ...}); without a
 * benchmark regex it runs every {@code Allocator*} benchmark.
 */
public final class AllocatorReport {
    private static final String[] ALLOCATORS = {Allocators.UCX, Allocators.POOLED, Allocators.ADAPTIVE};
    private static final Map<String, String> SCENARIOS = new LinkedHashMap<>();

    static {
        SCENARIOS.put("AllocatorBenchmark.allocateWriteRelease", "one thread (event-loop thread)");
        SCENARIOS.put("AllocatorPlainThreadBenchmark.allocateWriteRelease", "one thread (plain thread)");
        SCENARIOS.put("AllocatorCrossThreadBenchmark.handoff", "allocate on one thread, release on another");
    }

    /** The measurements of one benchmark with one set of parameters. */
    private record Row(String benchmark, String allocator, int size, List<Double> nanos, List<Double> garbage) {
        double median() {
            return Medians.ofFinite(nanos);
        }
    }

    private AllocatorReport() {
    }

    public static void main(String[] args) throws IOException, RunnerException {
        JmhReportRun run = JmhReportRun.run("AllocatorReport", "allocator",
                "io\\.github\\.nettyucx\\.benchmarks\\.jmh\\.Allocator.*", args);
        List<Row> rows = rows(run.results);
        run.write("allocator.csv", csv(rows));
        run.write("allocator.md", markdown(rows, run.header("Direct-buffer allocators: UcxByteBufAllocator next to "
                + "Netty's")));
        chart(rows, run.out.resolve("allocator.png"));
        System.out.println("wrote " + run.out.resolve("allocator.md")
                + ", allocator.csv, allocator-jmh.csv, allocator.png");
    }

    private static List<Row> rows(Collection<RunResult> results) {
        List<Row> rows = new ArrayList<>();
        for (RunResult run : results) {
            BenchmarkParams params = run.getParams();
            String name = params.getBenchmark().replace("io.github.nettyucx.benchmarks.jmh.", "");
            rows.add(new Row(name, params.getParam("allocator"), Integer.parseInt(params.getParam("size")),
                    JmhReportRun.scores(run), JmhReportRun.garbage(run)));
        }
        return rows;
    }

    private static double min(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    private static double max(List<Double> values) {
        return values.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    private static Row find(List<Row> rows, String benchmark, String allocator, int size) {
        for (Row r : rows) {
            if (r.benchmark().equals(benchmark) && r.allocator().equals(allocator) && r.size() == size) {
                return r;
            }
        }
        return null;
    }

    private static List<Integer> sizes(List<Row> rows) {
        List<Integer> sizes = new ArrayList<>();
        for (Row r : rows) {
            if (!sizes.contains(r.size())) {
                sizes.add(r.size());
            }
        }
        sizes.sort(null);
        return sizes;
    }

    private static double ratioToPooled(List<Row> rows, Row row) {
        Row pooled = find(rows, row.benchmark(), Allocators.POOLED, row.size());
        return pooled == null ? Double.NaN : row.median() / pooled.median();
    }

    private static String csv(List<Row> rows) {
        StringBuilder csv = new StringBuilder("benchmark,allocator,size,iterations,median_ns,min_ns,max_ns,"
                + "ratio_to_pooled,median_bytes_per_op\n");
        for (Row r : rows) {
            csv.append(String.format(Locale.ROOT, "%s,%s,%d,%d,%.3f,%.3f,%.3f,%.4f,%.4f%n", r.benchmark(),
                    r.allocator(), r.size(), r.nanos().size(), r.median(), min(r.nanos()), max(r.nanos()),
                    ratioToPooled(rows, r), Medians.ofFinite(r.garbage())));
        }
        return csv.toString();
    }

    private static String markdown(List<Row> rows, ReportHeader header) {
        StringBuilder md = new StringBuilder(header.markdown());
        md.append("Generated by `AllocatorReport` (benchmarks/jmh); do not edit, rerun the command below.\n\n");
        md.append("One operation allocates a direct buffer, writes `size` bytes into it from a `byte[]`, reads 8 "
                + "bytes back and releases it. `ucx` is `UcxByteBufAllocator.DEFAULT` (memory registered with UCX), "
                + "`pooled` is `PooledByteBufAllocator.DEFAULT`, `adaptive` is Netty 4.2's `AdaptiveByteBufAllocator`; "
                + "Netty's two keep per-thread caches on every benchmark thread "
                + "(`-Dio.netty.allocator.useCacheForAllThreads=true`, magazines cached for all threads), and leak "
                + "detection is off in all runs.\n\n");
        md.append("- *event-loop thread*: JMH's thread is a `FastThreadLocalThread`, as an event loop is.\n");
        md.append("- *plain thread*: an ordinary thread, as gRPC's application threads are; Netty's `Recycler` pools "
                + "buffer objects only on `FastThreadLocalThread`s, so there an allocator that relies on it creates "
                + "an object per buffer.\n");
        md.append("- *allocate on one thread, release on another*: two event-loop-like threads hand buffers over "
                + "through a ring of 1024; the time is per operation of either thread (about the time per buffer "
                + "when the two run in parallel), and so is B/op. On a machine with fewer free cores than threads "
                + "this mostly measures the scheduler.\n\n");
        md.append("`B/op` is `gc.alloc.rate.norm` of JMH's `-prof gc`: Java heap allocated per operation, the "
                + "median over the measurement iterations; ~0 means no garbage per buffer in steady state. Times are "
                + "the median (and range) of the measurement iterations because the machine is shared; compare "
                + "ratios within this run, not absolute numbers across runs. JMH's own summary (mean and 99.9% "
                + "confidence interval) is in `allocator-jmh.csv`, the medians in `allocator.csv`, the chart in "
                + "`allocator.png`.\n\n");
        md.append("![median ns per operation](allocator.png)\n\n");
        MarkdownTable table = new MarkdownTable().text("scenario").number("size").text("allocator")
                .number("ns per op, median (min–max)").number("median vs pooled")
                .number("B/op (gc.alloc.rate.norm)");
        for (Map.Entry<String, String> scenario : SCENARIOS.entrySet()) {
            for (int size : sizes(rows)) {
                for (String allocator : ALLOCATORS) {
                    Row r = find(rows, scenario.getKey(), allocator, size);
                    if (r == null) {
                        continue;
                    }
                    table.row(scenario.getValue(), bytes(size), allocator,
                            String.format(Locale.ROOT, "%.1f (%.1f–%.1f)", r.median(), min(r.nanos()), max(r.nanos())),
                            String.format(Locale.ROOT, "%.2f×", ratioToPooled(rows, r)),
                            String.format(Locale.ROOT, "%.2f", Medians.ofFinite(r.garbage())));
                }
            }
        }
        return md.append(table).toString();
    }

    private static String bytes(int size) {
        return size >= 1024 ? size / 1024 + " KiB" : size + " B";
    }

    private static void chart(List<Row> rows, Path file) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(1100).height(550)
                .title("Allocate, write and release one direct buffer: median ns per op (lower is better)")
                .xAxisTitle("scenario and buffer size").yAxisTitle("ns per op (log scale)").build();
        chart.getStyler().setYAxisLogarithmic(true);
        chart.getStyler().setXAxisLabelRotation(20);
        List<String> categories = new ArrayList<>();
        for (String scenario : SCENARIOS.keySet()) {
            for (int size : sizes(rows)) {
                if (find(rows, scenario, Allocators.POOLED, size) != null) {
                    categories.add(shortName(scenario) + " " + bytes(size));
                }
            }
        }
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (String allocator : ALLOCATORS) {
            List<Double> values = new ArrayList<>();
            for (String scenario : SCENARIOS.keySet()) {
                for (int size : sizes(rows)) {
                    if (find(rows, scenario, Allocators.POOLED, size) != null) {
                        Row r = find(rows, scenario, allocator, size);
                        double median = r == null ? Double.NaN : r.median();
                        values.add(median);
                        if (median > 0) {
                            lowest = Math.min(lowest, median);
                            highest = Math.max(highest, median);
                        }
                    }
                }
            }
            chart.addSeries(allocator, categories, values);
        }
        PngCharts.decadeYAxis(chart.getStyler(), lowest, highest * 1.01);
        PngCharts.write(chart, file);
    }

    private static String shortName(String benchmark) {
        if (benchmark.startsWith("AllocatorPlainThread")) {
            return "plain thread";
        }
        if (benchmark.startsWith("AllocatorCrossThread")) {
            return "cross-thread";
        }
        return "event loop";
    }
}
