/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.benchmarks.core.ByteSizes;
import io.github.nettyucx.benchmarks.core.MarkdownTable;
import io.github.nettyucx.benchmarks.core.Medians;
import io.github.nettyucx.benchmarks.core.ReportHeader;
import io.github.nettyucx.benchmarks.core.ResultRow;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Collects the results of all runs and writes results.csv, results.md and the PNG charts. */
final class Report {
    /** The method's paragraph on pairs, when the run has any. */
    private static final String PAIRS = " A pair `A-to-B` is a client of transport A against a server of transport B, "
            + "each JVM with its own transport's environment: a UCX server serves a client of another transport as "
            + "plain TCP, and a UCX client reaches a server of another transport as plain TCP "
            + "(`-Dio.github.nettyucx.plainTcpFallback=true` in the client's JVM: its first connect waits up to 1 s "
            + "for an answer to its netty-ucx hello; no measurement includes connects).";

    final List<ResultRow> results = new ArrayList<>();
    final Map<String, String> skipped = new TreeMap<>();
    final Map<String, List<String>> lanes = new TreeMap<>();
    String perftestNote;
    double totalSeconds;
    /** The machine's rate as the run saw it: its normal rate, and which rates are slow. */
    MachineProbe machine;

    private final SystemBenchmark.Mode mode;
    private final int runs;
    private final String args;
    private final List<TransportPair> transports;

    Report(SystemBenchmark.Mode mode, int runs, String args, List<TransportPair> transports) {
        this.mode = mode;
        this.runs = runs;
        this.args = args;
        this.transports = transports;
    }

    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("results.csv"), BenchResults.COLUMNS.csv(results), StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("results.md"), markdown(), StandardCharsets.UTF_8);
        new ReportCharts(this).write(dir);
    }

    // ---------------------------------------------------------------- aggregation

    List<String> transportIds() {
        return transports.stream().map(TransportPair::id).collect(Collectors.toList());
    }

    private boolean anyMixed() {
        return transports.stream().anyMatch(TransportPair::mixed);
    }

    /** The transports of the summary tables' ratio columns: UCX's always, and the mixed pairs run. */
    private List<String> ratioIds() {
        List<String> ids = new ArrayList<>(List.of("ucx", "ucx-tcp"));
        transports.stream().filter(TransportPair::mixed).map(TransportPair::id).forEach(ids::add);
        return ids;
    }

    /** A summary table after its first columns: a column per transport, then each ratio id's over epoll. */
    private MarkdownTable summaryColumns(MarkdownTable table, List<String> ids) {
        ids.forEach(table::number);
        ratioIds().forEach(id -> table.number(id + "/epoll"));
        return table;
    }

    /** A summary row's cells after its first ones: each transport's median, then each ratio id's over epoll's. */
    private void summaryCells(List<String> cells, List<String> ids, String benchmark, int size, int conns,
                              String metric) {
        ids.forEach(id -> cells.add(cell(id, benchmark, size, conns, metric)));
        double epoll = median("epoll", benchmark, size, conns, metric);
        ratioIds().forEach(id -> cells.add(ratio(median(id, benchmark, size, conns, metric), epoll)));
    }

    private List<ResultRow> select(String transport, String benchmark, int size, int connections) {
        return results.stream().filter(r -> r.get("transport").equals(transport)
                && r.get("benchmark").equals(benchmark) && r.integer("size_bytes") == size
                && r.integer("connections") == connections).collect(Collectors.toList());
    }

    /** Median over the runs that produced a value (ok or partial); NaN if none. */
    double median(String transport, String benchmark, int size, int connections, String metric) {
        return Medians.ofFinite(select(transport, benchmark, size, connections).stream()
                .filter(r -> r.ok() || "partial".equals(r.get("status")))
                .map(r -> r.number(metric)).collect(Collectors.toList()));
    }

    private String failures(String transport, String benchmark, int size, int connections) {
        return select(transport, benchmark, size, connections).stream().filter(r -> !r.ok())
                .map(r -> "run " + r.get("run") + ": " + r.get("status")).collect(Collectors.joining(", "));
    }

    TreeSet<Integer> sizes(String benchmark, int connections) {
        return results.stream().filter(r -> r.get("benchmark").equals(benchmark)
                        && (connections < 0 || r.integer("connections") == connections)
                        && !r.get("transport").equals("ucx_perftest"))
                .map(r -> r.integer("size_bytes")).collect(Collectors.toCollection(TreeSet::new));
    }

    TreeSet<Integer> connectionCounts(int size) {
        return results.stream().filter(r -> r.get("benchmark").equals("throughput") && r.integer("size_bytes") == size)
                .map(r -> r.integer("connections")).collect(Collectors.toCollection(TreeSet::new));
    }

    // ---------------------------------------------------------------- markdown

    private static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        return String.format(Locale.ROOT, "%.2f", v);
    }

    private static String ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? "–" : String.format(Locale.ROOT, "%.2f", a / b);
    }

    private String cell(String transport, String benchmark, int size, int conns, String metric) {
        if (skipped.containsKey(transport)) {
            return "skipped";
        }
        double v = median(transport, benchmark, size, conns, metric);
        if (Double.isNaN(v)) {
            String f = failures(transport, benchmark, size, conns);
            return f.isEmpty() ? "–" : f;
        }
        return fmt(v);
    }

    String markdown() {
        StringBuilder md = new StringBuilder();
        List<String> ids = transportIds();
        md.append(ReportHeader.of("netty-ucx system benchmarks (" + mode.id + " mode)",
                        System.getProperty("bench.command", "SystemBenchmark " + args).trim())
                .line("Runs", runs + (runs > 1 ? " (each value is the median of the runs)" : "") + "; total time "
                        + String.format(Locale.ROOT, "%.0f s", totalSeconds))
                .line("Throughput measurements", "target " + fmt(mode.targetSeconds) + " s each, at most "
                        + (mode.maxBytes >> 30) + " GiB or " + String.format(Locale.ROOT, "%,d", mode.maxMessages)
                        + " messages")
                .markdown());
        md.append("Method: for each transport, run and kind of benchmark (ping-pong, throughput), a client JVM and "
                + "a server JVM (same class path, ")
                .append("`-Xmx1g`, Netty leak detection off) on this host talk over 127.0.0.1; each has one ")
                .append("event loop group of ").append(BenchClient.THREADS).append(" threads. `ucx-tcp` is ")
                .append("`ucx` with `UCX_TLS=tcp` in both processes: only TCP joins them, so their connections ")
                .append("take the transport's TCP data path (`-Dio.github.nettyucx.tcpDataPath=never` would use ")
                .append("UCX's tcp transport).").append(anyMixed() ? PAIRS : "").append('\n')
                .append("Ping-pong: one connection, one message in flight, the server echoes it; every round trip ")
                .append("is timed with `System.nanoTime`, the first 10% are warm-up and discarded. ")
                .append("Throughput: the client sends messages as fast as the channel stays writable, flushing every ")
                .append("64 (16 B), 16 (1 KiB), 4 (64 KiB) messages; the server counts the bytes and acks the end; ")
                .append("a warm-up of a tenth of the messages comes first, and the measured count is reduced when ")
                .append("the warm-up rate says the upper bound would take much longer than the target time. ")
                .append("MB = 10^6 bytes. CPU µs/op is process CPU time (all threads, ")
                .append("`OperatingSystemMXBean.getProcessCpuTime`) over the measured part divided by ")
                .append("round trips or messages; it includes spinning event loops.\n\n");

        MarkdownTable transports = new MarkdownTable().text("transport").text("status");
        for (String id : ids) {
            transports.row(id, skipped.containsKey(id) ? "skipped: " + skipped.get(id).replace("|", "\\|") : "ran");
        }
        md.append("## Transports\n\n").append(transports);
        if (!lanes.isEmpty()) {
            md.append("\n## UCX lanes of one connection\n\n");
            lanes.forEach((id, l) -> {
                md.append("`").append(id).append("`:\n\n```\n");
                l.forEach(x -> md.append(x).append('\n'));
                md.append("```\n\n");
            });
        }

        machineSection(md);
        if (!sizes("pingpong", 1).isEmpty()) {
            pingPongSection(md, ids);
        }
        throughputSection(md, ids);
        perftestSection(md);
        problemsSection(md);
        md.append("\nCharts: `latency-vs-size.png`, `throughput-vs-size.png`, `throughput-vs-connections.png` "
                + "(those with data); every measurement: `results.csv`.\n");
        return md.toString();
    }

    private void pingPongSection(StringBuilder md, List<String> ids) {
        md.append("\n## Ping-pong latency (round trip, µs)\n\n");
        md.append(anyMixed() ? "p50 by transport; the ratio columns divide the p50 of UCX or of a pair by the "
                + "epoll p50 (below 1 = faster than epoll).\n\n" : "p50 by transport; the ratio columns divide the "
                + "UCX p50 by the epoll p50 (below 1 = UCX faster).\n\n");
        MarkdownTable summary = summaryColumns(new MarkdownTable().text("size"), ids);
        for (int size : sizes("pingpong", 1)) {
            List<String> cells = new ArrayList<>(List.of(ByteSizes.label(size)));
            summaryCells(cells, ids, "pingpong", size, 1, "p50_us");
            summary.row(cells.toArray());
        }
        md.append(summary);
        MarkdownTable detail = new MarkdownTable().text("size").text("transport").number("p50").number("p99")
                .number("p99.9").number("mean").number("max").number("round trips/s").number("client CPU µs/op")
                .number("server CPU µs/op").number("p50 / epoll p50").number("p99 / epoll p99");
        for (int size : sizes("pingpong", 1)) {
            for (String id : ids) {
                if (skipped.containsKey(id)) {
                    continue;
                }
                List<String> cells = new ArrayList<>(List.of(ByteSizes.label(size), id));
                for (String m : new String[] {"p50_us", "p99_us", "p999_us", "mean_us", "max_us", "msgs_per_s",
                    "client_cpu_us_per_op", "server_cpu_us_per_op"}) {
                    cells.add(cell(id, "pingpong", size, 1, m));
                }
                cells.add(ratio(median(id, "pingpong", size, 1, "p50_us"), median("epoll", "pingpong", size, 1,
                        "p50_us")));
                cells.add(ratio(median(id, "pingpong", size, 1, "p99_us"), median("epoll", "pingpong", size, 1,
                        "p99_us")));
                detail.row(cells.toArray());
            }
        }
        md.append('\n').append(detail);
    }

    private void throughputSection(StringBuilder md, List<String> ids) {
        md.append("\n## Unidirectional throughput (MB/s)\n\n");
        md.append(anyMixed() ? "The ratio columns divide the MB/s of UCX or of a pair by epoll's (above 1 = faster "
                + "than epoll).\n\n" : "The ratio columns divide UCX's MB/s by epoll's (above 1 = UCX faster).\n\n");
        MarkdownTable summary = summaryColumns(new MarkdownTable().text("size").number("connections"), ids);
        for (int size : sizes("throughput", -1)) {
            for (int conns : connectionCounts(size)) {
                List<String> cells = new ArrayList<>(List.of(ByteSizes.label(size), String.valueOf(conns)));
                summaryCells(cells, ids, "throughput", size, conns, "mb_per_s");
                summary.row(cells.toArray());
            }
        }
        md.append(summary);
        MarkdownTable detail = new MarkdownTable().text("size").number("connections").text("transport")
                .number("MB/s").number("messages/s").number("client CPU µs/msg").number("server CPU µs/msg")
                .number("MB/s / epoll");
        for (int size : sizes("throughput", -1)) {
            for (int conns : connectionCounts(size)) {
                for (String id : ids) {
                    if (skipped.containsKey(id)) {
                        continue;
                    }
                    List<String> cells = new ArrayList<>(List.of(ByteSizes.label(size), String.valueOf(conns), id));
                    for (String m : new String[] {"mb_per_s", "msgs_per_s", "client_cpu_us_per_op",
                        "server_cpu_us_per_op"}) {
                        cells.add(cell(id, "throughput", size, conns, m));
                    }
                    cells.add(ratio(median(id, "throughput", size, conns, "mb_per_s"), median("epoll", "throughput",
                            size, conns, "mb_per_s")));
                    detail.row(cells.toArray());
                }
            }
        }
        md.append('\n').append(detail);
    }

    private void perftestSection(StringBuilder md) {
        md.append("\n## Raw UCX limit (`ucx_perftest`, no JVM)\n\n");
        List<ResultRow> pt = results.stream().filter(r -> r.get("transport").equals("ucx_perftest"))
                .collect(Collectors.toList());
        if (pt.isEmpty()) {
            md.append(perftestNote == null ? "Not run.\n" : perftestNote + "\n");
        } else {
            MarkdownTable perftest = new MarkdownTable().text("test").text("size").text("result").text("note");
            for (ResultRow r : pt) {
                String value;
                if (!r.ok()) {
                    value = "n/a";
                } else if (!r.get("p50_us").isEmpty()) {
                    value = "round trip " + fmt(r.number("p50_us")) + " µs (typical), mean " + fmt(r.number("mean_us"))
                            + " µs";
                } else {
                    value = fmt(r.number("mb_per_s")) + " MB/s, " + fmt(r.number("msgs_per_s")) + " msg/s";
                }
                perftest.row(r.get("benchmark"), ByteSizes.label(r.integer("size_bytes")), value,
                        r.get("note").replace("|", "\\|"));
            }
            md.append(perftest);
        }
    }

    private void machineSection(StringBuilder md) {
        List<ResultRow> measured = results.stream().filter(r -> Double.isFinite(r.number("machine_mb_per_s")))
                .collect(Collectors.toList());
        if (measured.isEmpty()) {
            return;
        }
        List<ResultRow> repeated = measured.stream()
                .filter(r -> r.get("note").contains(MachineProbe.MEASURED_AGAIN)).collect(Collectors.toList());
        List<ResultRow> slow = measured.stream().filter(r -> machine.isSlow(r.number("machine_mb_per_s")))
                .collect(Collectors.toList());
        md.append("\n## Machine phases\n\n")
                .append(String.format(Locale.ROOT, "Cross-core copies ran at %,.0f MB/s normally (the median of all "
                        + "probes; `MachineProbe`: two threads handing a 64 KiB block back and forth). Each "
                        + "measurement waited while the rate was below %.0f%% of that, and was taken again when "
                        + "the rate was that low right after it, as long as its client process had waited less "
                        + "than %d s in all; `machine_mb_per_s` in `results.csv` is the lower of the rates before "
                        + "and after.%n%n", machine.reference(), MachineProbe.SLOW_SHARE * 100,
                        MachineProbe.WAIT_BUDGET_SECONDS))
                .append(String.format(Locale.ROOT, "- Taken again after a slow phase: %d of %d%n", repeated.size(),
                        measured.size()))
                .append(String.format(Locale.ROOT, "- Kept although the machine was slow around them: %d%s%n",
                        slow.size(), slow.isEmpty() ? "" : " (listed)"));
        for (ResultRow r : slow) {
            md.append(String.format(Locale.ROOT, "  - %s %s %s x %s run %s: %,.0f MB/s%n", r.get("transport"),
                    r.get("benchmark"), ByteSizes.label(r.integer("size_bytes")), r.get("connections"),
                    r.get("run"), r.number("machine_mb_per_s")));
        }
    }

    private void problemsSection(StringBuilder md) {
        List<ResultRow> bad = results.stream().filter(r -> !r.ok() && !r.get("transport").equals("ucx_perftest"))
                .collect(Collectors.toList());
        if (!bad.isEmpty()) {
            md.append("\n## Problems\n\n");
            for (ResultRow r : bad) {
                md.append("- ").append(r.get("transport")).append(' ').append(r.get("benchmark")).append(' ')
                        .append(ByteSizes.label(r.integer("size_bytes"))).append(" x ")
                        .append(r.get("connections")).append(" run ").append(r.get("run")).append(": ")
                        .append(r.get("status")).append(" — ").append(r.get("note")).append('\n');
            }
        }
    }
}
