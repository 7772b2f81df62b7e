/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.github.nettyucx.benchmarks.core.MarkdownTable;
import io.github.nettyucx.benchmarks.core.PngCharts;
import io.github.nettyucx.benchmarks.core.ReportHeader;
import io.github.nettyucx.benchmarks.core.ResultRow;
import io.github.nettyucx.benchmarks.core.Spread;
import io.github.nettyucx.support.NettyTransport;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The framework benchmark's results: every row as CSV; per framework and scenario the spread of each transport's
 * runs and the per-run ratio to epoll as Markdown, and a chart of those ratios run by run.
 */
final class IntegrationReport {
    private static final String REFERENCE = NettyTransport.EPOLL.id();
    private static final Map<String, String> METRIC_LABELS = Map.of(
            Results.CALLS_PER_S, "calls/s", Results.P50_US, "p50 (µs)", Results.P99_US, "p99 (µs)",
            Results.MB_PER_S, "MB/s", Results.CPU_US_PER_OP, "CPU (µs) per call or MB",
            Results.CPU_PERCENT, "CPU (% of a core)", Results.WAKEUPS_PER_CALL, "client wake-up writes per call");

    private final List<ResultRow> rows;
    private final Map<String, String> skipped;
    private final IntegrationBenchmark.Settings settings;
    private final String command;
    private final ZonedDateTime started;
    private final String loadBefore;
    private final String loadAfter;
    /** What ran beside the benchmark, a sentence; empty when not known (charts drawn again). */
    private final String neighbours;

    IntegrationReport(List<ResultRow> rows, Map<String, String> skipped, IntegrationBenchmark.Settings settings,
                      String command, ZonedDateTime started, String loadBefore, String loadAfter, String neighbours) {
        this.rows = rows;
        this.skipped = skipped;
        this.settings = settings;
        this.command = command;
        this.started = started;
        this.loadBefore = loadBefore;
        this.loadAfter = loadAfter;
        this.neighbours = neighbours;
    }

    /** The rows of a results.csv this report wrote, to draw its charts again. */
    static List<ResultRow> readCsv(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<String> header = splitCsv(lines.get(0));
        List<ResultRow> read = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            List<String> cells = splitCsv(line);
            ResultRow row = Results.COLUMNS.newRow();
            for (int i = 0; i < header.size() && i < cells.size(); i++) {
                row.put(header.get(i), cells.get(i));
            }
            read.add(row);
        }
        return read;
    }

    /** The cells of a CSV line as {@link ResultRow#toCsv()} writes them (quotes around cells with commas). */
    private static List<String> splitCsv(String line) {
        List<String> cells = new ArrayList<>();
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                cell.append('"');
                i++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        cells.add(cell.toString());
        return cells;
    }

    void write(Path out) throws IOException {
        Files.createDirectories(out);
        Files.writeString(out.resolve("results.csv"), Results.COLUMNS.csv(rows), StandardCharsets.UTF_8);
        StringBuilder md = new StringBuilder();
        header(md);
        for (String framework : distinct(rows, Results.FRAMEWORK)) {
            section(md, framework);
        }
        failures(md);
        writeCharts(out);
        Files.writeString(out.resolve("results.md"), md.toString(), StandardCharsets.UTF_8);
    }

    private void header(StringBuilder md) {
        ReportHeader header = ReportHeader.of("Frameworks on UCX and on epoll: each framework's own client and server",
                command).started(started).load(loadBefore, loadAfter)
                .line("Runs", String.format(Locale.ROOT, "%d, %s s warm-up per client JVM, %s s per window (after 1 s "
                        + "of ramp); odd runs start with the first transport, even runs with the last", settings.runs,
                        settings.warmup, settings.measure))
                .line("Processes", "server and client are two JVMs on this host"
                        + (settings.serverCpus == null ? "" : ", pinned with taskset: server on CPU(s) "
                        + settings.serverCpus + ", client on CPU(s) " + settings.clientCpus));
        if (!neighbours.isEmpty()) {
            header.line("Beside the benchmark", neighbours);
        }
        md.append(header.markdown());
        skipped.forEach((t, why) -> md.append("Skipped ").append(t).append(": ").append(why).append("\n\n"));
        md.append("Each cell: min / median / max over the runs. The ratio columns divide each run's value by "
                + "epoll's in the same run (below 1 is better for latency and CPU, above 1 for calls/s and MB/s). "
                + "CPU is both JVMs' CPU time in the window per call (per MB for a stream).\n\n");
    }

    private void section(StringBuilder md, String framework) {
        List<ResultRow> mine = select(rows, Results.FRAMEWORK, framework);
        List<String> transports = distinct(mine, Results.TRANSPORT);
        md.append("## ").append(framework).append("\n\n");
        MarkdownTable table = new MarkdownTable().text("scenario").text("metric");
        transports.forEach(table::text);
        others(transports).forEach(t -> table.text(t + " / " + REFERENCE + " per run"));
        for (String scenario : distinct(mine, Results.SCENARIO)) {
            List<ResultRow> byScenario = select(mine, Results.SCENARIO, scenario);
            for (String metric : metrics(scenario)) {
                List<String> cells = new ArrayList<>(List.of(scenario, METRIC_LABELS.get(metric)));
                for (String t : transports) {
                    cells.add(spread(values(select(byScenario, Results.TRANSPORT, t), metric)));
                }
                for (String t : others(transports)) {
                    List<Double> ratios = ratios(byScenario, t, metric);
                    cells.add(spread(ratios) + (ratios.isEmpty() ? "" : " (" + ratios.stream()
                            .map(IntegrationReport::format).collect(Collectors.joining(", ")) + ")"));
                }
                table.row(cells.toArray());
            }
        }
        md.append(table);
        md.append("\nPer run, as a ratio to epoll's in the same run:");
        for (String scenario : distinct(mine, Results.SCENARIO)) {
            md.append(" [").append(scenario).append("](").append(chartFile(framework, scenario)).append(')');
        }
        md.append("\n\n");
    }

    /** Whether a scenario (by its name, see {@link Scenario#name()}) measures bytes per second. */
    private static boolean measuresBytes(String scenario) {
        return scenario.startsWith("stream") || scenario.startsWith("upload");
    }

    private static List<String> metrics(String scenario) {
        if (scenario.startsWith("idle")) {
            return List.of(Results.CPU_PERCENT);
        }
        if (measuresBytes(scenario)) {
            return List.of(Results.MB_PER_S, Results.CPU_US_PER_OP);
        }
        List<String> metrics = List.of(Results.CALLS_PER_S, Results.P50_US, Results.P99_US, Results.CPU_US_PER_OP);
        return scenario.startsWith("call-") ? append(metrics, Results.WAKEUPS_PER_CALL) : metrics;
    }

    private static List<String> append(List<String> list, String element) {
        List<String> longer = new ArrayList<>(list);
        longer.add(element);
        return longer;
    }

    private static List<String> others(List<String> transports) {
        return transports.contains(REFERENCE) ? transports.stream().filter(t -> !t.equals(REFERENCE))
                .collect(Collectors.toList()) : List.of();
    }

    /** Each run's value of transport t divided by epoll's in the same run, in run order; runs without one left out. */
    private List<Double> ratios(List<ResultRow> byScenario, String t, String metric) {
        List<Double> values = new ArrayList<>();
        List<Double> reference = new ArrayList<>();
        for (int run = 1; run <= settings.runs; run++) {
            values.add(value(byScenario, t, run, metric));
            reference.add(value(byScenario, REFERENCE, run, metric));
        }
        return Spread.ratios(values, reference).stream().filter(Double::isFinite).collect(Collectors.toList());
    }

    private static double value(List<ResultRow> byScenario, String t, int run, String metric) {
        return byScenario.stream().filter(r -> r.ok() && r.get(Results.TRANSPORT).equals(t)
                && r.integer(Results.RUN) == run).mapToDouble(r -> r.number(metric)).findFirst().orElse(Double.NaN);
    }

    private static List<Double> values(List<ResultRow> rows, String metric) {
        return rows.stream().filter(ResultRow::ok).map(r -> r.number(metric)).filter(Double::isFinite)
                .collect(Collectors.toList());
    }

    /** "min / median / max", or "-" without values. */
    private static String spread(List<Double> values) {
        Spread spread = Spread.of(values);
        if (spread.isEmpty()) {
            return "-";
        }
        return format(spread.min()) + " / " + format(spread.median()) + " / " + format(spread.max());
    }

    private static String format(double v) {
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
    }

    /** One chart per scenario: each run's key figure as a ratio to epoll's in the same run, per transport. */
    void writeCharts(Path out) throws IOException {
        for (String framework : distinct(rows, Results.FRAMEWORK)) {
            List<ResultRow> mine = select(rows, Results.FRAMEWORK, framework);
            for (String scenario : distinct(mine, Results.SCENARIO)) {
                chart(framework, scenario, select(mine, Results.SCENARIO, scenario), out.resolve(chartFile(
                        framework, scenario)));
            }
        }
    }

    private static String chartFile(String framework, String scenario) {
        return framework + "-" + scenario + ".png";
    }

    private void chart(String framework, String scenario, List<ResultRow> byScenario, Path file) throws IOException {
        String metric = keyMetric(scenario);
        boolean lowerIsBetter = metric.equals(Results.P50_US) || metric.equals(Results.CPU_PERCENT);
        XYChart chart = new XYChartBuilder().width(800).height(420)
                .title(framework + " " + scenario + ": " + METRIC_LABELS.get(metric) + " / epoll's, per run ("
                        + (lowerIsBetter ? "lower" : "higher") + " is better)")
                .xAxisTitle("run").yAxisTitle("ratio to epoll (log scale)").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setYAxisLogarithmic(true);
        boolean any = false;
        for (String t : others(distinct(byScenario, Results.TRANSPORT))) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (int run = 1; run <= settings.runs; run++) {
                double v = value(byScenario, t, run, metric);
                double ref = value(byScenario, REFERENCE, run, metric);
                if (Double.isFinite(v) && Double.isFinite(ref) && ref > 0 && v > 0) {
                    xs.add((double) run);
                    ys.add(v / ref);
                }
            }
            if (!xs.isEmpty()) {
                chart.addSeries(t, xs, ys);
                any = true;
            }
        }
        if (any) {
            PngCharts.write(chart, file);
        }
    }

    private static String keyMetric(String scenario) {
        if (measuresBytes(scenario)) {
            return Results.MB_PER_S;
        }
        if (scenario.startsWith("idle")) {
            return Results.CPU_PERCENT;
        }
        boolean severalCallers = scenario.startsWith("call-") && !scenario.matches(".*-x1(-.*)?");
        return severalCallers ? Results.CALLS_PER_S : Results.P50_US;
    }

    private void failures(StringBuilder md) {
        List<ResultRow> failed = rows.stream().filter(r -> !r.ok()).collect(Collectors.toList());
        if (failed.isEmpty()) {
            return;
        }
        md.append("## Failed windows\n\n");
        failed.forEach(r -> md.append("- ").append(r.get(Results.FRAMEWORK)).append(" on ")
                .append(r.get(Results.TRANSPORT)).append(", run ").append(r.get(Results.RUN)).append(", ")
                .append(r.get(Results.SCENARIO)).append(": ").append(r.get(Results.ERROR)).append('\n'));
        md.append('\n');
    }

    private static List<ResultRow> select(List<ResultRow> rows, String column, String value) {
        return rows.stream().filter(r -> r.get(column).equals(value)).collect(Collectors.toList());
    }

    private static List<String> distinct(List<ResultRow> rows, String column) {
        Set<String> seen = new LinkedHashSet<>();
        rows.stream().map(r -> r.get(column)).filter(v -> !v.isEmpty()).forEach(seen::add);
        return new ArrayList<>(seen);
    }
}
