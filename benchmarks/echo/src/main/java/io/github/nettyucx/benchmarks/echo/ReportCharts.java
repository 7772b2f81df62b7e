/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.echo;

import io.github.nettyucx.benchmarks.core.ByteSizes;
import io.github.nettyucx.benchmarks.core.PngCharts;
import io.github.nettyucx.benchmarks.core.ResultRow;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The PNG charts of a {@link Report}: round-trip latency and throughput against message size, throughput against
 * connections, each transport's medians over the runs, with ucx_perftest's point where it ran.
 */
final class ReportCharts {
    private final Report report;

    ReportCharts(Report report) {
        this.report = report;
    }

    /**
     * A chart; with {@code log2X} the x values given to {@link #addSeries} are plotted on a base-2
     * log scale (XChart's own log axis only labels decades, and a custom label formatter turns it linear).
     */
    private XYChart chart(String title, String xTitle, String yTitle, boolean log2X, boolean logY,
                          boolean sizeLabels) {
        XYChart chart = new XYChartBuilder().width(1000).height(620).title(title).xAxisTitle(xTitle)
                .yAxisTitle(yTitle).build();
        Styler s = chart.getStyler();
        if (log2X) {
            chart.setCustomXAxisTickLabelsFormatter(v -> {
                double r = Math.rint(v);
                if (Math.abs(v - r) > 1e-6 || r < 0) {
                    return "";
                }
                long x = 1L << (long) r;
                return sizeLabels ? ByteSizes.label(x) : String.valueOf(x);
            });
        }
        chart.getStyler().setYAxisLogarithmic(logY);
        if (!logY) {
            chart.getStyler().setYAxisMin(0.0);
        }
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setChartBackgroundColor(java.awt.Color.WHITE);
        s.setMarkerSize(7);
        return chart;
    }

    private boolean addSeries(XYChart chart, String name, List<Double> xs, List<Double> ys) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (int i = 0; i < xs.size(); i++) {
            if (Double.isFinite(ys.get(i)) && ys.get(i) > 0) {
                x.add(log2(xs.get(i)));
                y.add(ys.get(i));
            }
        }
        if (x.isEmpty()) {
            return false;
        }
        chart.addSeries(name, x, y);
        return true;
    }

    private void save(XYChart chart, boolean any, Path file) throws IOException {
        if (any && chart.getStyler().isYAxisLogarithmic()) {
            double min = Double.MAX_VALUE;
            double max = 0;
            for (XYSeries series : chart.getSeriesMap().values()) {
                for (double y : series.getYData()) {
                    min = Math.min(min, y);
                    max = Math.max(max, y);
                }
            }
            PngCharts.decadeYAxis(chart.getStyler(), min, max);
        }
        PngCharts.writeOrRemove(chart, any, file);
    }

    private static double log2(double v) {
        return Math.log(v) / Math.log(2);
    }

    private void addPerftestPoint(XYChart chart, String metric, double x) {
        for (ResultRow r : report.results) {
            if (r.get("transport").equals("ucx_perftest") && r.ok() && Double.isFinite(r.number(metric))) {
                XYSeries s = chart.addSeries("ucx_perftest (raw UCX, " + r.get("benchmark") + ")", List.of(log2(x)),
                        List.of(r.number(metric)));
                s.setMarkerColor(java.awt.Color.BLACK);
                s.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
                s.setMarker(SeriesMarkers.DIAMOND);
                return;
            }
        }
    }

    void write(Path dir) throws IOException {
        XYChart lat = chart("Ping-pong round trip, p50 (two JVMs, one host)", "message size (bytes)",
                "round trip p50 (µs)", true, true, true);
        boolean any = false;
        for (String id : report.transportIds()) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (int size : report.sizes("pingpong", 1)) {
                xs.add((double) size);
                ys.add(report.median(id, "pingpong", size, 1, "p50_us"));
            }
            any |= addSeries(lat, id, xs, ys);
        }
        if (any) {
            addPerftestPoint(lat, "p50_us", 16);
        }
        save(lat, any, dir.resolve("latency-vs-size.png"));

        XYChart tput = chart("Unidirectional throughput, 1 connection", "message size (bytes)", "MB/s (10^6 B/s)",
                true, true, true);
        any = false;
        for (String id : report.transportIds()) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (int size : report.sizes("throughput", 1)) {
                xs.add((double) size);
                ys.add(report.median(id, "throughput", size, 1, "mb_per_s"));
            }
            any |= addSeries(tput, id, xs, ys);
        }
        if (any) {
            addPerftestPoint(tput, "mb_per_s", 65536);
        }
        save(tput, any, dir.resolve("throughput-vs-size.png"));

        int size = report.connectionCounts(65536).size() > 1 ? 65536 : report.sizes("throughput", -1).stream()
                .filter(s -> report.connectionCounts(s).size() > 1).reduce((a, b) -> b).orElse(65536);
        XYChart conns = chart("Unidirectional throughput vs connections, " + ByteSizes.label(size)
                + " messages", "connections", "MB/s (10^6 B/s)", true, false, false);
        any = false;
        for (String id : report.transportIds()) {
            List<Double> xs = new ArrayList<>();
            List<Double> ys = new ArrayList<>();
            for (int c : report.connectionCounts(size)) {
                xs.add((double) c);
                ys.add(report.median(id, "throughput", size, c, "mb_per_s"));
            }
            any |= addSeries(conns, id, xs, ys);
        }
        save(conns, any, dir.resolve("throughput-vs-connections.png"));
    }
}
