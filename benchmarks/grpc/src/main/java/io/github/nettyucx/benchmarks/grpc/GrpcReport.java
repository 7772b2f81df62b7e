/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.MachineFacts;
import io.github.nettyucx.benchmarks.core.MarkdownTable;
import io.github.nettyucx.benchmarks.core.ReportHeader;
import io.github.nettyucx.benchmarks.core.ResultRow;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** Writes results.csv, results.md and the PNG charts of a gRPC benchmark run. */
final class GrpcReport {
    private static final double UNARY_TARGET = 0.5;
    private static final double STREAM_TARGET = 1.5;

    private final List<ResultRow> results;
    private final RunMedians medians;
    private final Map<String, String> skipped;
    private final GrpcBenchmark.Settings settings;
    private final String command;
    private final ZonedDateTime started;
    private final String loadBefore;
    private final String loadAfter;

    GrpcReport(List<ResultRow> results, Map<String, String> skipped, GrpcBenchmark.Settings settings, String command,
               ZonedDateTime started, String loadBefore, String loadAfter) {
        this.results = results;
        this.medians = new RunMedians(results);
        this.skipped = skipped;
        this.settings = settings;
        this.command = command;
        this.started = started;
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
    }

    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.write(dir.resolve("results.csv"), csv().getBytes(StandardCharsets.UTF_8));
        List<String> charts = new GrpcCharts(medians).write(dir);
        Files.write(dir.resolve("results.md"), markdown(charts).getBytes(StandardCharsets.UTF_8));
    }

    /** Every row, failed ones too. */
    String csv() {
        return GrpcResults.COLUMNS.csv(results);
    }

    /** results.md, naming the chart files written beside it. */
    String markdown(List<String> charts) {
        StringBuilder md = new StringBuilder();
        header(md);
        method(md);
        warmUp(md);
        calls(md);
        streams(md);
        allocators(md);
        problems(md);
        md.append("\nCharts: ").append(charts.isEmpty() ? "none" : charts.stream().map(c -> "`" + c + "`")
                .collect(Collectors.joining(", "))).append("; every measurement: `results.csv`.\n");
        return md.toString();
    }

    private void header(StringBuilder md) {
        md.append(ReportHeader.of("gRPC over UCX: benchmark results", command).started(started)
                .load(loadBefore, loadAfter).line("Mode", settings.mode).markdown());
        if (MachineFacts.overloaded(loadBefore, loadAfter)) {
            md.append("The met / not met columns below say more about the other work on the machine than about the "
                    + "transports.\n\n");
        }
    }

    private void method(StringBuilder md) {
        md.append("## Method\n\n");
        md.append("For each transport and executor a server JVM and a client JVM on this host (`-Xms1g -Xmx1g`), "
                + "talking over 127.0.0.1 (UCX: shared memory between the two processes). The server runs the "
                + "`Echo` service of `grpc-example` with one worker event loop thread; the client uses one channel "
                + "(one HTTP/2 connection) on one event loop thread. grpc-java 1.85.0, Netty 4.2.17.Final. System "
                + "properties passed to both JVMs: ").append(VariantRun.forwardedProperties().isEmpty()
                ? "none (transport defaults, e.g. UCX's spin-then-sleep wait)"
                : "`" + String.join(" ", VariantRun.forwardedProperties()) + "`").append(".\n\n");
        md.append("- **Executors** (the `executor` column): `direct` runs gRPC's callbacks on the event loops "
                + "(`directExecutor()` on server and channel), so the transport's cost is not hidden behind thread "
                + "hand-offs; `default` leaves both on gRPC's default executor (a cached thread pool), as an "
                + "application that says nothing gets: the service runs on a pool thread.\n");
        md.append("- **Unary** (`unary SIZE xN`): async stubs keep N calls in flight on the channel, each lane "
                + "starting its next call from the previous one's callback; request and answer carry SIZE bytes "
                + "of payload.\n");
        md.append("- **Blocking** (`blocking SIZE, N threads`): N application threads, each with a blocking stub on "
                + "the shared channel, each waiting for its answer before its next call (grpc-java runs a blocking "
                + "call's callbacks on the waiting thread itself).\n");
        md.append("- **Streaming** (`stream SIZE`): one server-streaming call sending SIZE-byte messages without "
                + "end under gRPC's flow control; messages/s and MB/s (10^6 bytes of payload per second) count the "
                + "messages received in the window.\n");
        md.append("- **Warm-up**: before its first measured scenario each client JVM runs the loads of its "
                + "scenarios in turns of ").append(WarmUpRule.WINDOW_SECONDS).append(" s windows; a scenario is "
                + "stable once two consecutive windows' rates (calls/s, or messages/s for streams) differ by less "
                + "than ").append(WarmUpRule.TOLERANCE_PERCENT).append("%. The warm-up ends when every scenario is "
                + "stable and at least ").append(GrpcBenchmark.seconds(settings.warmup)).append(" s have passed, "
                + "or after at most ").append(GrpcBenchmark.seconds(settings.warmupMax)).append(" s; the **Warm-up** "
                + "table says which happened.\n");
        md.append("- **Windows**: each scenario then starts its load afresh, lets it ramp up for ")
                .append(GrpcBenchmark.seconds(settings.ramp)).append(" s and measures it for ")
                .append(GrpcBenchmark.seconds(settings.measure)).append(" s. Round trips of the calls answered in "
                + "the window give p50/p99/p99.9 (HdrHistogram, 3 significant digits); calls/s counts them.\n");
        md.append("- **CPU**: the CPU time of the client and the server JVM during the window alone (read from "
                + "the OS at the window's two ends), divided by the calls (or messages) of the window, and as "
                + "utilisation (100% = one core busy). Busy polling shows here: a transport can buy latency with "
                + "CPU.\n");
        md.append("- **Runs**: ").append(settings.runs).append(" run(s); odd runs take the transports in the order "
                + "given, even runs in reverse; tables show the median over runs.\n");
        md.append("- **Allocator**: `ucx` and the other transports use gRPC's own pooled allocator (gRPC's default). "
                + "`ucx+channel-alloc` gives the channels back the allocator the UCX channel has by default "
                + "(`--allocator channel`: `withOption`/`withChildOption(ChannelOption.ALLOCATOR, ...)`), the "
                + "registered-memory `UcxByteBufAllocator`.\n\n");
        if (!skipped.isEmpty()) {
            md.append("Not run here: ");
            skipped.forEach((t, why) -> md.append('`').append(t).append("` (").append(why).append("); "));
            md.append("\n\n");
        }
    }

    private void warmUp(StringBuilder md) {
        md.append("## Warm-up\n\nHow each client JVM's warm-up ended (scenarios still moving in parentheses).\n\n");
        MarkdownTable table = new MarkdownTable().text("variant").text("executor");
        for (int run = 1; run <= settings.runs; run++) {
            table.text("run " + run);
        }
        for (ExecutorChoice e : ExecutorChoice.values()) {
            for (String v : medians.variants()) {
                List<String> cells = new ArrayList<>(List.of(v, e.id()));
                boolean any = false;
                for (int run = 1; run <= settings.runs; run++) {
                    List<ResultRow> rows = medians.rows(v, e.id(), run);
                    ResultRow r = rows.stream().filter(x -> !x.get("warmup_s").isEmpty()).findFirst().orElse(null);
                    any |= !rows.isEmpty();
                    cells.add(r == null ? (rows.isEmpty() ? "" : "failed") : WarmUp.Outcome.describe(
                            r.number("warmup_s"), r.number("warmup_stable_after_s"), r.get("warmup_unstable")));
                }
                if (any) {
                    table.row(cells.toArray());
                }
            }
        }
        md.append(table);
    }

    private void calls(StringBuilder md) {
        List<RunMedians.Case> cases = medians.cases(Scenario.Kind.UNARY, Scenario.Kind.BLOCKING);
        if (cases.isEmpty()) {
            return;
        }
        md.append("\n## Calls: round trip, rate and CPU per call\n\n");
        md.append("Round trips in µs; CPU in µs per call of the client and of the server JVM, with each JVM's "
                + "utilisation in the window.\n\n");
        MarkdownTable table = new MarkdownTable().text("scenario").text("executor").text("variant")
                .number("p50 µs").number("p99 µs").number("p99.9 µs").number("calls/s").number("client CPU µs/call")
                .number("server CPU µs/call").number("CPU client / server");
        for (RunMedians.Case c : cases) {
            for (String v : medians.variants()) {
                if (medians.measured(v, c)) {
                    table.row(c.label(), c.executor, v, fmt(medians.median(v, c, "p50_us")),
                            fmt(medians.median(v, c, "p99_us")), fmt(medians.median(v, c, "p999_us")),
                            fmt(medians.median(v, c, "calls_per_s")), fmt(medians.median(v, c, "client_cpu_us_per_op")),
                            fmt(medians.median(v, c, "server_cpu_us_per_op")), utilisation(v, c));
                }
            }
        }
        md.append(table);
        md.append("\nUCX against epoll, p50 (target: UCX at most ").append(UNARY_TARGET).append("× epoll's):\n\n");
        MarkdownTable ratios = new MarkdownTable().text("scenario").text("executor").number("ucx/epoll p50")
                .text("target");
        for (RunMedians.Case c : cases) {
            double ratio = medians.median("ucx", c, "p50_us") / medians.median("epoll", c, "p50_us");
            ratios.row(c.label(), c.executor, ratio(ratio), verdict(ratio, ratio <= UNARY_TARGET));
        }
        md.append(ratios);
    }

    private void streams(StringBuilder md) {
        List<RunMedians.Case> cases = medians.cases(Scenario.Kind.STREAM);
        if (cases.isEmpty()) {
            return;
        }
        md.append("\n## Streaming throughput (server streaming, one call)\n\n");
        MarkdownTable table = new MarkdownTable().text("message").text("executor").text("variant").number("MB/s")
                .number("messages/s").number("client CPU µs/msg").number("server CPU µs/msg")
                .number("CPU client / server");
        for (RunMedians.Case c : cases) {
            for (String v : medians.variants()) {
                if (medians.measured(v, c)) {
                    table.row(c.label(), c.executor, v, fmt(medians.median(v, c, "mb_per_s")),
                            fmt(medians.median(v, c, "msgs_per_s")), fmt2(medians.median(v, c, "client_cpu_us_per_op")),
                            fmt2(medians.median(v, c, "server_cpu_us_per_op")), utilisation(v, c));
                }
            }
        }
        md.append(table);
        md.append("\nUCX against epoll, MB/s (target: UCX at least ").append(STREAM_TARGET).append("× epoll's):\n\n");
        MarkdownTable ratios = new MarkdownTable().text("message").text("executor").number("ucx/epoll").text("target");
        for (RunMedians.Case c : cases) {
            double ratio = medians.median("ucx", c, "mb_per_s") / medians.median("epoll", c, "mb_per_s");
            ratios.row(c.label(), c.executor, ratio(ratio), verdict(ratio, ratio >= STREAM_TARGET));
        }
        md.append(ratios);
    }

    private void allocators(StringBuilder md) {
        if (!medians.variants().contains("ucx+channel-alloc")) {
            return;
        }
        md.append("\n## gRPC's allocator or the channel's, on UCX\n\n");
        md.append("Ratio `ucx+channel-alloc` / `ucx` (gRPC's allocator): below 1 for latency, above 1 for "
                + "throughput means the channel's allocator is faster.\n\n");
        MarkdownTable table = new MarkdownTable().text("scenario").text("executor").number("ratio");
        for (RunMedians.Case c : medians.cases(Scenario.Kind.UNARY, Scenario.Kind.BLOCKING)) {
            if (medians.measured("ucx+channel-alloc", c)) {
                table.row(c.label() + " p50", c.executor, ratio(medians.median("ucx+channel-alloc", c, "p50_us")
                        / medians.median("ucx", c, "p50_us")));
            }
        }
        for (RunMedians.Case c : medians.cases(Scenario.Kind.STREAM)) {
            if (medians.measured("ucx+channel-alloc", c)) {
                table.row(c.label() + " MB/s", c.executor, ratio(medians.median("ucx+channel-alloc", c, "mb_per_s")
                        / medians.median("ucx", c, "mb_per_s")));
            }
        }
        md.append(table);
    }

    private void problems(StringBuilder md) {
        List<ResultRow> bad = results.stream().filter(r -> !r.ok()).collect(Collectors.toList());
        if (bad.isEmpty()) {
            return;
        }
        md.append("\n## Problems\n\n");
        for (ResultRow r : bad) {
            String what = r.get("benchmark").equals("run") ? ""
                    : " " + Scenario.label(r.get("benchmark"), r.integer("size_bytes"), r.integer("concurrency"));
            md.append("- ").append(GrpcResults.series(r)).append(what).append(", run ").append(r.get("run"))
                    .append(": ").append(r.get("note").replace("|", "\\|")).append('\n');
        }
    }

    /** "client% / server%" of one table cell. */
    private String utilisation(String variant, RunMedians.Case c) {
        double cp = medians.median(variant, c, "client_cpu_percent");
        double sp = medians.median(variant, c, "server_cpu_percent");
        return Double.isFinite(cp) && Double.isFinite(sp) ? fmt(cp) + "% / " + fmt(sp) + "%" : "n/a";
    }

    private static String verdict(double ratio, boolean met) {
        return Double.isFinite(ratio) ? (met ? "met" : "not met") : "n/a";
    }

    private static String ratio(double r) {
        return Double.isFinite(r) ? String.format(Locale.ROOT, "%.2f", r) : "n/a";
    }

    private static String fmt(double v) {
        if (!Double.isFinite(v)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.1f", v);
    }

    /** Two decimals below 10: CPU per streamed message is often a fraction of a microsecond. */
    private static String fmt2(double v) {
        return Double.isFinite(v) && v < 10 ? String.format(Locale.ROOT, "%.2f", v) : fmt(v);
    }
}
