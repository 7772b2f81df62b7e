/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc.bench;

import io.github.nettyucx.support.ByteSizes;
import io.github.nettyucx.support.MachineFacts;
import io.github.nettyucx.support.Medians;
import io.github.nettyucx.support.ResultRow;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** Writes results.csv, results.md and the PNG charts of a gRPC benchmark run. */
final class GrpcReport {
    private static final double UNARY_TARGET = 0.5;
    private static final double STREAM_TARGET = 1.5;

    private final List<ResultRow> results;
    private final Map<String, String> skipped;
    private final GrpcBenchmark.Settings settings;
    private final String command;
    private final ZonedDateTime started;
    private final String loadBefore;
    private final String loadAfter;

    GrpcReport(List<ResultRow> results, Map<String, String> skipped, GrpcBenchmark.Settings settings, String command,
               ZonedDateTime started, String loadBefore, String loadAfter) {
        this.results = results;
        this.skipped = skipped;
        this.settings = settings;
        this.command = command;
        this.started = started;
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
    }

    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        StringBuilder csv = new StringBuilder(GrpcResults.COLUMNS.csvHeader()).append('\n');
        results.forEach(r -> csv.append(r.toCsv()).append('\n'));
        Files.write(dir.resolve("results.csv"), csv.toString().getBytes(StandardCharsets.UTF_8));
        Files.write(dir.resolve("results.md"), markdown().getBytes(StandardCharsets.UTF_8));
        charts(dir);
    }

    // ---------------------------------------------------------------- aggregation

    private List<String> variants() {
        return results.stream().filter(r -> !r.get("benchmark").equals("run")).map(GrpcResults::variant).distinct()
                .collect(Collectors.toList());
    }

    private TreeSet<Integer> sizes(String benchmark) {
        return results.stream().filter(r -> r.get("benchmark").equals(benchmark))
                .map(r -> (int) r.number("size_bytes")).collect(Collectors.toCollection(TreeSet::new));
    }

    private TreeSet<Integer> concurrencies() {
        return results.stream().filter(r -> r.get("benchmark").equals("unary"))
                .map(r -> (int) r.number("concurrency")).collect(Collectors.toCollection(TreeSet::new));
    }

    /** The unary (size, concurrency) pairs that were measured, ordered by size then concurrency. */
    private List<int[]> unaryCases() {
        List<int[]> cases = new ArrayList<>();
        for (int size : sizes("unary")) {
            for (int c : concurrencies()) {
                final int sz = size;
                boolean measured = results.stream().anyMatch(r -> r.get("benchmark").equals("unary")
                        && (int) r.number("size_bytes") == sz && (int) r.number("concurrency") == c);
                if (measured) {
                    cases.add(new int[] {size, c});
                }
            }
        }
        return cases;
    }

    /** Median over the runs of one metric; NaN when no run succeeded. */
    private double median(String variant, String benchmark, int size, int concurrency, String metric) {
        List<Double> values = new ArrayList<>();
        for (ResultRow r : results) {
            if (r.ok() && GrpcResults.variant(r).equals(variant) && r.get("benchmark").equals(benchmark)
                    && (int) r.number("size_bytes") == size && (int) r.number("concurrency") == concurrency) {
                values.add(r.number(metric));
            }
        }
        return Medians.ofFinite(values);
    }

    // ---------------------------------------------------------------- markdown

    private String markdown() {
        StringBuilder md = new StringBuilder();
        md.append("# gRPC over UCX: benchmark results\n\n");
        md.append("Command: `").append(command).append("` (").append(settings.mode).append(" mode)  \n");
        md.append("Date: ").append(started.format(DateTimeFormatter.ISO_OFFSET_DATE_TIME)).append("  \n");
        md.append("Machine: ").append(MachineFacts.cpuModel()).append(", ")
                .append(Runtime.getRuntime().availableProcessors())
                .append(" cores, ").append(System.getProperty("os.name")).append(' ')
                .append(System.getProperty("os.version"))
                .append(", Java ").append(System.getProperty("java.version")).append(", UCX ")
                .append(MachineFacts.ucxVersion())
                .append("  \n");
        md.append("Load average (1, 5, 15 min) before: ").append(loadBefore).append(", after: ").append(loadAfter)
                .append(". **The machine was shared with other work while this ran: absolute numbers are noisy; "
                        + "compare the ratios within this run, and rerun on a quiet machine for figures to "
                        + "quote.**\n\n");

        if (MachineFacts.overloaded(loadBefore, loadAfter)) {
            md.append("The load average was above the number of cores: both JVMs of a pair often waited for a CPU, "
                    + "so latencies include scheduling delays and the met / not met columns below say more about "
                    + "the other work on the machine than about the transports.\n\n");
        }
        md.append("## Method\n\n");
        md.append("For each transport a server JVM and a client JVM on this host (`-Xms1g -Xmx1g`), talking over "
                + "127.0.0.1 (UCX: shared memory between the two processes). The server runs the `Echo` service of "
                + "`grpc-example` with one worker event loop thread; the client uses one channel (one HTTP/2 "
                + "connection) on one event loop thread. gRPC callbacks run on the event loops (`directExecutor()` "
                + "on both sides: `--executor ").append(settings.executor).append("`), so the transport's cost is not "
                + "hidden behind thread hand-offs. grpc-java 1.85.0, Netty 4.2.17.Final. System properties passed "
                + "to both JVMs: ").append(VariantRun.forwardedProperties().isEmpty() ? "none (transport defaults, "
                + "e.g. UCX's spin-then-sleep wait)" : "`" + String.join(" ", VariantRun.forwardedProperties()) + "`")
                .append(".\n\n");
        md.append("- **Unary**: `concurrency` calls kept in flight on the channel, each lane starting its next call "
                + "when the previous one answers; the request and the answer carry `size` bytes of payload. "
                + "Round trips of the calls started in the measurement window give p50/p99/p99.9 "
                + "(nearest rank), calls/s counts them.\n");
        md.append("- **Streaming**: one server-streaming call sending `size`-byte messages without end under gRPC's "
                + "flow control; messages/s and MB/s (10^6 bytes of payload per second) count the messages received "
                + "in the window.\n");
        md.append("- Each scenario: ").append(GrpcBenchmark.seconds(settings.warmup)).append(" s warm-up, ")
                .append(GrpcBenchmark.seconds(settings.measure)).append(" s measured; ").append(settings.runs)
                .append(" run(s); tables show the median over runs.\n");
        md.append("- Allocator: `ucx` and the other transports use gRPC's own pooled allocator (gRPC's default). "
                + "`ucx+channel-alloc` gives the channels back the allocator the UCX channel has by default "
                + "(`--allocator channel`: `withOption`/`withChildOption(ChannelOption.ALLOCATOR, ...)`), the "
                + "registered-memory `UcxByteBufAllocator`.\n\n");
        if (!skipped.isEmpty()) {
            md.append("Not run here: ");
            skipped.forEach((t, why) -> md.append('`').append(t).append("` (").append(why).append("); "));
            md.append("\n\n");
        }

        List<String> vs = variants();
        md.append("## Unary round trip (µs)\n\n");
        md.append("p50 / p99 / p99.9 in µs. Target: UCX p50 at most ").append(UNARY_TARGET).append("× epoll's.\n\n");
        md.append("| payload | concurrency |");
        vs.forEach(v -> md.append(' ').append(v).append(" |"));
        md.append(" ucx/epoll p50 | target |\n|---|---:|");
        vs.forEach(v -> md.append("---:|"));
        md.append("---:|---|\n");
        for (int[] uc : unaryCases()) {
            int size = uc[0];
            int c = uc[1];
            md.append("| ").append(ByteSizes.label(size)).append(" | ").append(c).append(" |");
            for (String v : vs) {
                md.append(' ').append(fmt(median(v, "unary", size, c, "p50_us"))).append(" / ")
                        .append(fmt(median(v, "unary", size, c, "p99_us"))).append(" / ")
                        .append(fmt(median(v, "unary", size, c, "p999_us"))).append(" |");
            }
            double ratio = median("ucx", "unary", size, c, "p50_us") / median("epoll", "unary", size, c, "p50_us");
            md.append(' ').append(ratio(ratio)).append(" | ").append(verdict(ratio, ratio <= UNARY_TARGET))
                    .append(" |\n");
        }
        md.append("\nCalls per second:\n\n| payload | concurrency |");
        vs.forEach(v -> md.append(' ').append(v).append(" |"));
        md.append("\n|---|---:|");
        vs.forEach(v -> md.append("---:|"));
        md.append('\n');
        for (int[] uc : unaryCases()) {
            int size = uc[0];
            int c = uc[1];
            md.append("| ").append(ByteSizes.label(size)).append(" | ").append(c).append(" |");
            vs.forEach(v -> md.append(' ').append(fmt(median(v, "unary", size, c, "calls_per_s"))).append(" |"));
            md.append('\n');
        }

        md.append("\n## Streaming throughput (server streaming, one call)\n\n");
        md.append("MB/s (messages/s). Target: UCX at least ").append(STREAM_TARGET).append("× epoll's.\n\n");
        md.append("| message |");
        vs.forEach(v -> md.append(' ').append(v).append(" |"));
        md.append(" ucx/epoll | target |\n|---|");
        vs.forEach(v -> md.append("---:|"));
        md.append("---:|---|\n");
        for (int size : sizes("stream")) {
            md.append("| ").append(ByteSizes.label(size)).append(" |");
            for (String v : vs) {
                md.append(' ').append(fmt(median(v, "stream", size, 1, "mb_per_s"))).append(" (")
                        .append(fmt(median(v, "stream", size, 1, "msgs_per_s"))).append(") |");
            }
            double ratio = median("ucx", "stream", size, 1, "mb_per_s")
                    / median("epoll", "stream", size, 1, "mb_per_s");
            md.append(' ').append(ratio(ratio)).append(" | ").append(verdict(ratio, ratio >= STREAM_TARGET))
                    .append(" |\n");
        }

        md.append("\n## CPU used during the measurement\n\n");
        md.append("CPU time of the client and server JVMs per call (unary) or per message (streaming), in µs, "
                + "with each JVM's CPU utilisation in the window (100% = one core busy). Busy polling shows "
                + "here: a transport can buy latency with CPU.\n\n| scenario |");
        vs.forEach(v -> md.append(' ').append(v).append(" |"));
        md.append("\n|---|");
        vs.forEach(v -> md.append("---:|"));
        md.append('\n');
        for (int[] uc : unaryCases()) {
            md.append("| unary ").append(ByteSizes.label(uc[0])).append(" x").append(uc[1]).append(" |");
            vs.forEach(v -> md.append(' ').append(cpuCell(v, "unary", uc[0], uc[1])).append(" |"));
            md.append('\n');
        }
        for (int size : sizes("stream")) {
            md.append("| stream ").append(ByteSizes.label(size)).append(" |");
            vs.forEach(v -> md.append(' ').append(cpuCell(v, "stream", size, 1)).append(" |"));
            md.append('\n');
        }

        if (vs.contains("ucx+channel-alloc")) {
            md.append("\n## gRPC's allocator or the channel's, on UCX\n\n");
            md.append("Ratio `ucx+channel-alloc` / `ucx` (gRPC's allocator): below 1 for latency, above 1 for "
                    + "throughput means the channel's allocator is faster.\n\n| scenario | ratio |\n|---|---:|\n");
            for (int[] uc : unaryCases()) {
                int size = uc[0];
                int c = uc[1];
                md.append("| unary ").append(ByteSizes.label(size)).append(" x").append(c).append(" p50 | ")
                        .append(ratio(median("ucx+channel-alloc", "unary", size, c, "p50_us")
                                / median("ucx", "unary", size, c, "p50_us"))).append(" |\n");
            }
            for (int size : sizes("stream")) {
                md.append("| stream ").append(ByteSizes.label(size)).append(" MB/s | ")
                        .append(ratio(median("ucx+channel-alloc", "stream", size, 1, "mb_per_s")
                                / median("ucx", "stream", size, 1, "mb_per_s"))).append(" |\n");
            }
        }

        List<ResultRow> bad = results.stream().filter(r -> !r.ok()).collect(Collectors.toList());
        if (!bad.isEmpty()) {
            md.append("\n## Problems\n\n");
            for (ResultRow r : bad) {
                String what = r.get("benchmark").equals("run") ? ""
                        : " " + r.get("benchmark") + " " + ByteSizes.label((long) r.number("size_bytes"))
                        + (r.get("benchmark").equals("unary") ? " x" + r.get("concurrency") : "");
                md.append("- ").append(GrpcResults.variant(r)).append(what).append(", run ").append(r.get("run"))
                        .append(": ").append(r.get("note").replace("|", "\\|")).append('\n');
            }
        }
        md.append("\nCharts: `unary-p50-concurrency-1.png`, `unary-p50-concurrency-64.png`, `streaming-mb-per-s.png`; "
                + "every measurement: `results.csv`.\n");
        return md.toString();
    }

    /** "client + server µs/op (client% / server%)" for one cell of the CPU table. */
    private String cpuCell(String variant, String benchmark, int size, int concurrency) {
        double c = median(variant, benchmark, size, concurrency, "client_cpu_us_per_op");
        double s = median(variant, benchmark, size, concurrency, "server_cpu_us_per_op");
        double cp = median(variant, benchmark, size, concurrency, "client_cpu_percent");
        double sp = median(variant, benchmark, size, concurrency, "server_cpu_percent");
        if (!Double.isFinite(c) || !Double.isFinite(s)) {
            return "n/a";
        }
        return fmt(c) + " + " + fmt(s) + " (" + fmt(cp) + "% / " + fmt(sp) + "%)";
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
        if (v >= 1000) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : "%.1f", v);
    }

    // ---------------------------------------------------------------- charts

    private void charts(Path dir) throws IOException {
        for (int c : concurrencies()) {
            CategoryChart chart = chart("gRPC unary round trip p50, " + c + " call(s) in flight", "payload",
                    "p50 round trip (µs)");
            boolean any = false;
            TreeSet<Integer> measured = unaryCases().stream().filter(uc -> uc[1] == c).map(uc -> uc[0])
                    .collect(Collectors.toCollection(TreeSet::new));
            for (String v : variants()) {
                any |= addSeries(chart, v, measured, s -> median(v, "unary", s, c, "p50_us"));
            }
            save(chart, any, dir.resolve("unary-p50-concurrency-" + c + ".png"));
        }
        CategoryChart stream = chart("gRPC server-streaming throughput, one call", "message size", "MB/s (10^6 B/s)");
        boolean any = false;
        for (String v : variants()) {
            any |= addSeries(stream, v, sizes("stream"), s -> median(v, "stream", s, 1, "mb_per_s"));
        }
        save(stream, any, dir.resolve("streaming-mb-per-s.png"));
    }

    private static CategoryChart chart(String title, String x, String y) {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(540).title(title).xAxisTitle(x)
                .yAxisTitle(y).build();
        Styler s = chart.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        return chart;
    }

    private static boolean addSeries(CategoryChart chart, String name, TreeSet<Integer> sizes,
                                     java.util.function.IntToDoubleFunction value) {
        List<String> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (int s : new LinkedHashSet<>(sizes)) {
            xs.add(ByteSizes.label(s));
            double v = value.applyAsDouble(s);
            ys.add(Double.isFinite(v) ? v : 0.0);
        }
        if (ys.stream().noneMatch(v -> v > 0)) {
            return false;
        }
        chart.addSeries(name, xs, ys);
        return true;
    }

    private static void save(CategoryChart chart, boolean any, Path file) throws IOException {
        if (!any) {
            Files.deleteIfExists(file);
            return;
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
