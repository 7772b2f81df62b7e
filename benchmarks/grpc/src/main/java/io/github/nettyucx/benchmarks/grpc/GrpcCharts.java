/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.grpc;

import io.github.nettyucx.benchmarks.core.ByteSizes;
import io.github.nettyucx.benchmarks.core.PngCharts;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The PNG charts of a gRPC benchmark run, one series per variant, each chart of one executor (named in its title):
 * unary p50 by payload for each number of calls in flight, blocking p50, streaming MB/s, and the CPU time per
 * call of every call scenario.
 */
final class GrpcCharts {
    private final RunMedians medians;
    private final List<String> written = new ArrayList<>();

    GrpcCharts(RunMedians medians) {
        this.medians = medians;
    }

    /** Writes the charts that have data into {@code dir}, deleting those that have none; returns their names. */
    List<String> write(Path dir) throws IOException {
        written.clear();
        for (ExecutorChoice e : ExecutorChoice.values()) {
            List<RunMedians.Case> unary = of(e, medians.cases(Scenario.Kind.UNARY));
            for (int c : unary.stream().map(uc -> uc.concurrency).collect(Collectors.toCollection(TreeSet::new))) {
                List<RunMedians.Case> xs = unary.stream().filter(uc -> uc.concurrency == c)
                        .collect(Collectors.toList());
                save(chart("gRPC unary round trip p50, " + c + " call(s) in flight, " + e.id() + " executor",
                        "payload", "p50 round trip (µs)", xs, uc -> ByteSizes.label(uc.size), "p50_us"),
                        dir, "unary-p50-concurrency-" + c + suffix(e, ExecutorChoice.DIRECT));
            }
            List<RunMedians.Case> blocking = of(e, medians.cases(Scenario.Kind.BLOCKING));
            save(chart("gRPC blocking stubs: unary round trip p50, " + e.id() + " executor", "scenario",
                    "p50 round trip (µs)", blocking, RunMedians.Case::label, "p50_us"),
                    dir, "blocking-p50" + suffix(e, ExecutorChoice.DEFAULT));
            List<RunMedians.Case> stream = of(e, medians.cases(Scenario.Kind.STREAM));
            save(chart("gRPC server-streaming throughput, one call, " + e.id() + " executor", "message size",
                    "MB/s (10^6 B/s)", stream, sc -> ByteSizes.label(sc.size), "mb_per_s"),
                    dir, "streaming-mb-per-s" + suffix(e, ExecutorChoice.DIRECT));
        }
        CategoryChart cpu = newChart("CPU time per call, client + server JVM, in the measurement window",
                "scenario (executor)", "CPU µs per call");
        boolean any = false;
        List<RunMedians.Case> calls = medians.cases(Scenario.Kind.UNARY, Scenario.Kind.BLOCKING);
        for (String v : medians.variants()) {
            any |= addSeries(cpu, v, calls, c -> c.label() + " (" + c.executor + ")",
                    c -> medians.median(v, c, "client_cpu_us_per_op") + medians.median(v, c, "server_cpu_us_per_op"));
        }
        save(any ? cpu : null, dir, "cpu-per-call");
        return written;
    }

    private static List<RunMedians.Case> of(ExecutorChoice e, List<RunMedians.Case> cases) {
        return cases.stream().filter(c -> c.executor.equals(e.id())).collect(Collectors.toList());
    }

    /** Charts of an executor a kind of scenario usually runs on keep their plain names. */
    private static String suffix(ExecutorChoice e, ExecutorChoice usual) {
        return e == usual ? "" : "-" + e.id() + "-executor";
    }

    /** One series per variant of the metric's medians over {@code cases}; null when no variant has a value. */
    private CategoryChart chart(String title, String x, String y, List<RunMedians.Case> cases,
                                Function<RunMedians.Case, String> category, String metric) {
        CategoryChart chart = newChart(title, x, y);
        boolean any = false;
        for (String v : medians.variants()) {
            any |= addSeries(chart, v, cases, category, c -> medians.median(v, c, metric));
        }
        return any ? chart : null;
    }

    private static CategoryChart newChart(String title, String x, String y) {
        CategoryChart chart = new CategoryChartBuilder().width(900).height(540).title(title).xAxisTitle(x)
                .yAxisTitle(y).build();
        Styler s = chart.getStyler();
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setYAxisDecimalPattern("#,##0");
        return chart;
    }

    /** Adds a series unless it has no value at all; a case it lacks shows as 0. */
    private static boolean addSeries(CategoryChart chart, String name, List<RunMedians.Case> cases,
                                     Function<RunMedians.Case, String> category,
                                     ToDoubleFunction<RunMedians.Case> value) {
        List<String> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        for (RunMedians.Case c : cases) {
            xs.add(category.apply(c));
            double v = value.applyAsDouble(c);
            ys.add(Double.isFinite(v) ? v : 0.0);
        }
        if (ys.stream().noneMatch(v -> v > 0)) {
            return false;
        }
        chart.addSeries(name, xs, ys);
        return true;
    }

    private void save(CategoryChart chart, Path dir, String name) throws IOException {
        Path file = dir.resolve(name + ".png");
        PngCharts.writeOrRemove(chart, chart != null, file);
        if (chart == null) {
            return;
        }
        written.add(file.getFileName().toString());
    }
}
