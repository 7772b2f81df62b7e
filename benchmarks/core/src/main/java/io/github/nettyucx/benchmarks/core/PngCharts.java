/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** How every benchmark report writes its charts: PNG files beside results.md, drawn with XChart. */
public final class PngCharts {
    private PngCharts() {
    }

    /** Writes the chart to {@code file} as PNG, creating its folder when needed. */
    public static void write(Chart<?, ?> chart, Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null) {
            Files.createDirectories(dir);
        }
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }

    /**
     * Writes the chart when it has data ({@code any}); otherwise removes the file an earlier run left, so that no
     * chart of other results stays beside these.
     */
    public static void writeOrRemove(Chart<?, ?> chart, boolean any, Path file) throws IOException {
        if (any) {
            write(chart, file);
        } else {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Whole decades at both ends of a logarithmic y axis, around the lowest and highest value drawn: XChart needs
     * explicit bounds above 0 there (bars start at the axis minimum), and whole decades keep at least two labelled
     * ticks in view.
     */
    public static void decadeYAxis(AxesChartStyler styler, double lowest, double highest) {
        double lo = Math.pow(10, Math.floor(Math.log10(lowest)));
        double hi = Math.pow(10, Math.ceil(Math.log10(highest)));
        styler.setYAxisMin(lo);
        styler.setYAxisMax(hi > lo ? hi : lo * 10);
    }
}
