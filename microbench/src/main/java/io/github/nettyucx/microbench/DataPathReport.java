/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.microbench;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * Runs {@link DataPathBenchmark} with JMH's gc profiler and writes {@code datapath.md}, {@code datapath.csv},
 * {@code datapath-jmh.csv} and {@code datapath.png} to {@code docs/microbench} (or {@code -Dmicrobench.out}).
 * Arguments are JMH's own options.
 */
public final class DataPathReport {
    private static final String[] TRANSPORTS = {"ucx", "epoll", "nio"};
    private static final String[] BENCHMARKS = {"pingPong", "stream"};

    private record Row(String benchmark, String transport, int size, List<Double> nanos, List<Double> garbage) {
        double median() {
            return AllocatorReport.median(nanos);
        }

        double garbageMedian() {
            return garbage.isEmpty() ? Double.NaN : AllocatorReport.median(garbage);
        }
    }

    private DataPathReport() {
    }

    public static void main(String[] args) throws IOException, RunnerException {
        CommandLineOptions cli;
        try {
            cli = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            System.err.println("bad JMH options: " + e.getMessage());
            System.exit(2);
            return;
        }
        Path out = Path.of(System.getProperty("microbench.out", "docs/microbench"));
        Files.createDirectories(out);
        ChainedOptionsBuilder options = new OptionsBuilder().parent(cli).addProfiler(GCProfiler.class)
                .resultFormat(ResultFormatType.CSV).result(out.resolve("datapath-jmh.csv").toString());
        if (cli.getIncludes().isEmpty()) {
            options.include("io\\.github\\.nettyucx\\.microbench\\.DataPathBenchmark\\..*");
        }
        double loadBefore = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        List<Row> rows = rows(new Runner(options.build()).run());
        double loadAfter = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        String command = System.getProperty("microbench.command", "DataPathReport " + String.join(" ", args));
        String machine = String.format(Locale.ROOT, "%d CPUs, %s %s, Java %s; load average %.1f before, %.1f after",
                Runtime.getRuntime().availableProcessors(), System.getProperty("os.name"),
                System.getProperty("os.version"), System.getProperty("java.version"), loadBefore, loadAfter);
        Files.writeString(out.resolve("datapath.csv"), csv(rows), StandardCharsets.UTF_8);
        Files.writeString(out.resolve("datapath.md"), markdown(rows, command, machine), StandardCharsets.UTF_8);
        chart(rows, out.resolve("datapath.png"));
        System.out.println("wrote " + out.resolve("datapath.md") + ", datapath.csv, datapath-jmh.csv, datapath.png");
    }

    private static List<Row> rows(Collection<RunResult> results) {
        List<Row> rows = new ArrayList<>();
        for (RunResult run : results) {
            BenchmarkParams params = run.getParams();
            String name = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
            List<Double> nanos = new ArrayList<>();
            List<Double> garbage = new ArrayList<>();
            for (BenchmarkResult fork : run.getBenchmarkResults()) {
                for (IterationResult iteration : fork.getIterationResults()) {
                    nanos.add(iteration.getPrimaryResult().getScore());
                    Result gc = iteration.getSecondaryResults().get("gc.alloc.rate.norm");
                    if (gc != null) {
                        garbage.add(gc.getScore());
                    }
                }
            }
            rows.add(new Row(name, params.getParam("transport"), Integer.parseInt(params.getParam("size")), nanos,
                    garbage));
        }
        return rows;
    }

    private static Row find(List<Row> rows, String benchmark, String transport, int size) {
        for (Row row : rows) {
            if (row.benchmark.equals(benchmark) && row.transport.equals(transport) && row.size == size) {
                return row;
            }
        }
        return null;
    }

    private static TreeSet<Integer> sizes(List<Row> rows) {
        TreeSet<Integer> sizes = new TreeSet<>();
        rows.forEach(r -> sizes.add(r.size));
        return sizes;
    }

    private static String csv(List<Row> rows) {
        StringBuilder sb = new StringBuilder("benchmark,transport,size_bytes,ns_per_message_median,ns_min,ns_max,"
                + "bytes_allocated_per_message\n");
        for (Row r : rows) {
            sb.append(String.format(Locale.ROOT, "%s,%s,%d,%.1f,%.1f,%.1f,%.3f%n", r.benchmark, r.transport, r.size,
                    r.median(), r.nanos.stream().mapToDouble(d -> d).min().orElse(Double.NaN),
                    r.nanos.stream().mapToDouble(d -> d).max().orElse(Double.NaN), r.garbageMedian()));
        }
        return sb.toString();
    }

    private static String markdown(List<Row> rows, String command, String machine) {
        StringBuilder sb = new StringBuilder();
        sb.append("# The send/receive path per message: UCX next to epoll and NIO\n\n");
        sb.append("Generated by `DataPathReport` (microbench module); rerun the command below rather than edit.\n\n");
        sb.append("One JVM, a client and a server each on its own one-thread event loop group, over 127.0.0.1 "
                + "(UCX: shared memory). Each invocation runs a burst of ").append(DataPathBenchmark.BURST)
                .append(" messages entirely on the event loops: `pingPong` has one message in flight and waits for "
                        + "its echo (time per round trip), `stream` writes as fast as the channel stays writable, "
                        + "flushing every ").append(DataPathBenchmark.FLUSH_EVERY)
                .append(" messages, to a server that counts the bytes (time per message). `B/msg` is JMH's "
                        + "`gc.alloc.rate.norm` per message: the Java heap allocated by the transport, Netty's "
                        + "pipeline and the benchmark's handlers together; the transports run the same handlers, "
                        + "so the difference between them is the transport's own. Medians over the measurement "
                        + "iterations; compare ratios within this run.\n\n");
        sb.append("Machine: ").append(machine).append("\n\n");
        sb.append("Command: `").append(command).append("`\n\n![median ns per message](datapath.png)\n\n");
        sb.append("| benchmark | size | transport | ns per message, median (min-max) | vs epoll | B/msg |\n");
        sb.append("| --- | ---: | --- | ---: | ---: | ---: |\n");
        for (String benchmark : BENCHMARKS) {
            for (int size : sizes(rows)) {
                Row epoll = find(rows, benchmark, "epoll", size);
                for (String transport : TRANSPORTS) {
                    Row r = find(rows, benchmark, transport, size);
                    if (r == null) {
                        continue;
                    }
                    String ratio = epoll == null ? "-" : String.format(Locale.ROOT, "%.2fx", r.median() / epoll.median());
                    sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %.0f (%.0f-%.0f) | %s | %.2f |%n", benchmark,
                            label(size), transport, r.median(),
                            r.nanos.stream().mapToDouble(d -> d).min().orElse(Double.NaN),
                            r.nanos.stream().mapToDouble(d -> d).max().orElse(Double.NaN), ratio,
                            r.garbageMedian()));
                }
            }
        }
        return sb.toString();
    }

    private static String label(int size) {
        return size >= 1024 ? size / 1024 + " KiB" : size + " B";
    }

    private static void chart(List<Row> rows, Path file) throws IOException {
        CategoryChart chart = new CategoryChartBuilder().width(1000).height(500)
                .title("Send/receive path: median ns per message (lower is better)")
                .xAxisTitle("benchmark and message size").yAxisTitle("ns per message (log scale)").build();
        chart.getStyler().setYAxisLogarithmic(true);
        List<String> categories = new ArrayList<>();
        for (String benchmark : BENCHMARKS) {
            for (int size : sizes(rows)) {
                categories.add(benchmark + " " + label(size));
            }
        }
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (String transport : TRANSPORTS) {
            List<Double> values = new ArrayList<>();
            for (String benchmark : BENCHMARKS) {
                for (int size : sizes(rows)) {
                    Row r = find(rows, benchmark, transport, size);
                    double median = r == null ? Double.NaN : r.median();
                    values.add(median);
                    if (median > 0) {
                        lowest = Math.min(lowest, median);
                        highest = Math.max(highest, median);
                    }
                }
            }
            if (values.stream().anyMatch(v -> v > 0)) {
                chart.addSeries(transport, categories, values);
            }
        }
        chart.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(lowest))));
        chart.getStyler().setYAxisMax(Math.pow(10, Math.ceil(Math.log10(highest * 1.01))));
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
