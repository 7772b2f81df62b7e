/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.benchmarks.core.MachineFacts;
import io.github.nettyucx.benchmarks.core.MarkdownTable;
import io.github.nettyucx.benchmarks.core.Medians;
import io.github.nettyucx.benchmarks.core.PngCharts;
import io.github.nettyucx.benchmarks.core.ReportHeader;
import io.github.nettyucx.benchmarks.core.Spread;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What {@link FirstSecondBenchmark} writes: results.csv (one line per run and variant: the median of the first
 * round trips and the time they took in all, then each window's median), results.md (the spread over runs, and
 * each run's ratio to epoll's in the same run) and windows.png (each window's median over the runs, per variant).
 */
final class FirstSecondReport {
    private static final String REFERENCE = "epoll";
    private final FirstSecondBenchmark.Options options;
    private final String command;
    private final ZonedDateTime started = ZonedDateTime.now();
    private final String loadBefore = MachineFacts.loadAverage();
    /** Per variant, per run (in run order): the first round trips' median and time in all, then the windows'. */
    private final Map<String, List<List<Double>>> results = new LinkedHashMap<>();
    private final StringBuilder csv = new StringBuilder();

    FirstSecondReport(FirstSecondBenchmark.Options options, String command) {
        this.options = options;
        this.command = command;
        csv.append("run,variant,first_").append(FirstSecondApp.FIRST).append("_p50_us,first_")
                .append(FirstSecondApp.FIRST).append("_ms");
        for (int w = 1; w <= options.windows; w++) {
            csv.append(",window_").append(w).append("_p50_us");
        }
        csv.append('\n');
        for (String variant : options.variants) {
            results.put(variant, new ArrayList<>());
        }
    }

    void add(int run, String variant, List<Double> medians) {
        results.get(variant).add(medians);
        csv.append(run).append(',').append(variant);
        for (double median : medians) {
            csv.append(',').append(String.format(Locale.ROOT, "%.2f", median));
        }
        csv.append('\n');
    }

    void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("results.csv"), csv, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("results.md"), markdown(), StandardCharsets.UTF_8);
        PngCharts.write(chart(), dir.resolve("windows.png"));
    }

    String markdown() {
        StringBuilder md = new StringBuilder(ReportHeader.of("Round trips of fresh JVM pairs, from the first", command)
                .started(started).load(loadBefore, MachineFacts.loadAverage()).markdown());
        md.append(options.runs).append(" runs; each starts a fresh server and client JVM per variant, the variants in "
                + "alternating order. One message of ").append(options.size).append(" B in flight, length-prefixed "
                + "frames; windows of ").append(options.window).append(" round trips.\n\n");
        md.append("## The first ").append(FirstSecondApp.FIRST).append(" round trips\n\n")
                .append("Median round trip (us) and the time they took in all (ms), median [min - max] over the runs, ")
                .append("and each run's ratio to ").append(REFERENCE).append("'s in the same run (below 1 is faster). ")
                .append("The median is the issue's figure; the time in all also counts the stalls of the JVM's ")
                .append("first seconds.\n\n");
        MarkdownTable first = new MarkdownTable().text("variant").number("median round trip (us)")
                .number("ratio to " + REFERENCE).number("runs at most 0.5").number("time in all (ms)")
                .number("ratio to " + REFERENCE);
        for (String variant : results.keySet()) {
            boolean compared = results.containsKey(REFERENCE) && !variant.equals(REFERENCE);
            List<Double> ratios = compared ? Spread.ratios(column(variant, 0), column(REFERENCE, 0)) : List.of();
            List<Double> timeRatios = compared ? Spread.ratios(column(variant, 1), column(REFERENCE, 1)) : List.of();
            long fast = ratios.stream().filter(r -> r <= 0.5).count();
            first.row(variant, Spread.of(column(variant, 0)).format("%.1f"),
                    compared ? Spread.of(ratios).format("%.2f") : "-", compared ? fast + " of " + ratios.size() : "-",
                    Spread.of(column(variant, 1)).format("%.0f"),
                    compared ? Spread.of(timeRatios).format("%.2f") : "-");
        }
        md.append(first).append("\n## Each window\n\nMedian round trip (us) of each window, the median over the "
                + "runs.\n\n");
        MarkdownTable windows = new MarkdownTable().number("window");
        results.keySet().forEach(windows::number);
        for (int w = 1; w <= options.windows; w++) {
            Object[] cells = new Object[results.size() + 1];
            cells[0] = w;
            int i = 1;
            for (String variant : results.keySet()) {
                cells[i++] = String.format(Locale.ROOT, "%.1f", Medians.ofFinite(column(variant, w + 1)));
            }
            windows.row(cells);
        }
        return md.append(windows).append("\nEvery run's values: [results.csv](results.csv); the windows: ")
                .append("[windows.png](windows.png).\n").toString();
    }

    private XYChart chart() {
        XYChart chart = new XYChartBuilder().width(800).height(500).title("Round trips of fresh JVM pairs")
                .xAxisTitle("window of " + options.window + " round trips").yAxisTitle("median round trip (us)")
                .build();
        chart.getStyler().setYAxisLogarithmic(true);
        double lowest = Double.MAX_VALUE;
        double highest = 0;
        for (String variant : results.keySet()) {
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (int w = 1; w <= options.windows; w++) {
                double median = Medians.ofFinite(column(variant, w + 1));
                x.add((double) w);
                y.add(median);
                lowest = Math.min(lowest, median);
                highest = Math.max(highest, median);
            }
            chart.addSeries(variant, x, y);
        }
        if (highest > 0) {
            PngCharts.decadeYAxis(chart.getStyler(), lowest, highest);
        }
        return chart;
    }

    /** The value at {@code index} of each run of {@code variant}, in run order; empty for an unknown variant. */
    private List<Double> column(String variant, int index) {
        List<Double> column = new ArrayList<>();
        for (List<Double> run : results.getOrDefault(variant, List.of())) {
            column.add(index < run.size() ? run.get(index) : Double.NaN);
        }
        return column;
    }
}
