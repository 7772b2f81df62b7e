/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.ycsb;

import io.github.nettyucx.benchmarks.core.PngCharts;
import io.github.nettyucx.ycsb.YcsbMetric;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Per workload, charts of every run rather than of medians, so the spread shows: each run's ops/s and READ p99
 * as a ratio to epoll's in the same run, a point per run and transport. Without epoll, each run's absolute
 * figures instead.
 */
final class RunCharts {
    private static final String THROUGHPUT = "throughput";
    private static final String READ_P99 = "read-p99";
    /** Horizontal distance between the points of neighbouring transports in one run. */
    private static final double DODGE = 0.08;
    private static final Color[] COLORS = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
        new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b)};
    private static final Marker[] MARKERS = {SeriesMarkers.CIRCLE, SeriesMarkers.DIAMOND, SeriesMarkers.SQUARE,
        SeriesMarkers.TRIANGLE_UP, SeriesMarkers.TRIANGLE_DOWN};

    private final RunTable table;
    private final List<Integer> threads;
    private final List<String> transports;

    RunCharts(RunTable table, List<Integer> threads, List<String> transports) {
        this.table = table;
        this.threads = threads;
        this.transports = transports;
    }

    /** The names of the files {@link #write} writes for the workload. */
    static List<String> files(String workload) {
        return List.of(file(workload, THROUGHPUT), file(workload, READ_P99));
    }

    private static String file(String workload, String chart) {
        return "workload" + workload + "-" + chart + "-runs.png";
    }

    /** Writes the workload's charts, {@link #files}, into {@code dir}. */
    void write(Path dir, String workload) throws IOException {
        boolean ratios = transports.contains(RunTable.REFERENCE) && transports.size() > 1;
        chart(dir, workload, THROUGHPUT, YcsbMetric.THROUGHPUT, ratios,
                ratios ? Target.MIN_THROUGHPUT_RATIO : Double.NaN);
        chart(dir, workload, READ_P99, YcsbMetric.p99("READ"), ratios, Double.NaN);
    }

    private void chart(Path dir, String workload, String name, YcsbMetric metric, boolean ratios,
                       double targetRatio) throws IOException {
        String w = workload.toUpperCase(Locale.ROOT);
        String title = ratios
                ? String.format(Locale.ROOT, "YCSB workload %s: %s / epoll's in the same run (%s is better)", w,
                        metric.name(), metric.higherIsBetter() ? "higher" : "lower")
                : "YCSB workload " + w + ": " + metric.name() + ", run by run";
        XYChart chart = new XYChartBuilder().width(900).height(480).title(title).xAxisTitle("run")
                .yAxisTitle(ratios ? "ratio to epoll" : metric.label()).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setMarkerSize(9);
        chart.getStyler().setXAxisMin(0.5).setXAxisMax(table.runs() + 0.5);
        // A tick per run (whole numbers only): XChart spaces ticks by pixels, so ask for a run's width.
        chart.getStyler().setXAxisDecimalPattern("0").setXAxisTickMarkSpacingHint(Math.max(74, 700 / table.runs()));
        if (ratios) {
            line(chart, "epoll (1x)", 1.0, SeriesLines.SOLID);
            if (!Double.isNaN(targetRatio)) {
                line(chart, String.format(Locale.ROOT, "target (%.0fx)", targetRatio), targetRatio,
                        SeriesLines.DASH_DASH);
            }
        }
        List<String> series = new ArrayList<>();
        List<List<Double>> perRun = new ArrayList<>();
        for (int t : threads) {
            for (String transport : transports) {
                if (!ratios || !transport.equals(RunTable.REFERENCE)) {
                    series.add(threads.size() > 1 ? transport + ", " + t + " threads" : transport);
                    perRun.add(ratios ? table.ratiosToReference(workload, t, transport, metric::of)
                            : table.perRun(workload, t, transport, metric::of));
                }
            }
        }
        for (int k = 0; k < series.size(); k++) {
            // Side by side around the run's number, so that equal values of two transports stay visible.
            double offset = (k - (series.size() - 1) / 2.0) * DODGE;
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            List<Double> values = perRun.get(k);
            for (int i = 0; i < values.size(); i++) {
                if (Double.isFinite(values.get(i))) {
                    xs.add(i + 1 + offset);
                    ys.add(values.get(i));
                }
            }
            if (!xs.isEmpty()) {
                XYSeries s = chart.addSeries(series.get(k), xs, ys);
                s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                // The k-th transport looks the same in every chart.
                s.setMarker(MARKERS[k % MARKERS.length]);
                s.setMarkerColor(COLORS[k % COLORS.length]);
            }
        }
        PngCharts.write(chart, dir.resolve(file(workload, name)));
    }

    /** A horizontal reference line across all runs. */
    private void line(XYChart chart, String name, double y, BasicStroke stroke) {
        XYSeries s = chart.addSeries(name, new double[] {0.5, table.runs() + 0.5}, new double[] {y, y});
        s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        s.setMarker(SeriesMarkers.NONE);
        s.setLineStyle(stroke);
        s.setLineColor(Color.GRAY);
    }
}
