/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Smallest, median and largest value of one figure over repeated runs. On a shared machine one run can be
 * disturbed, so a benchmark shows how far its runs spread, not one number; the median is what a single
 * disturbed run moves least.
 *
 * @param min    the smallest finite value, NaN when there is none
 * @param median the median of the finite values (see {@link Medians#ofFinite}), NaN when there is none
 * @param max    the largest finite value, NaN when there is none
 * @param count  how many finite values there were
 */
public record Spread(double min, double median, double max, int count) {
    /** Of the finite values; NaN and infinities stand for runs that did not measure the figure. */
    public static Spread of(Collection<Double> values) {
        double min = Double.NaN;
        double max = Double.NaN;
        int count = 0;
        for (Double v : values) {
            if (v == null || !Double.isFinite(v)) {
                continue;
            }
            min = count == 0 ? v : Math.min(min, v);
            max = count == 0 ? v : Math.max(max, v);
            count++;
        }
        return new Spread(min, Medians.ofFinite(values), max, count);
    }

    /**
     * Each run's value divided by the reference's value in the same run: {@code values} and {@code reference}
     * are in run order, one entry per run. A run where either is missing (NaN) or the reference is not positive
     * gets NaN, so the result stays aligned with the runs.
     */
    public static List<Double> ratios(List<Double> values, List<Double> reference) {
        if (values.size() != reference.size()) {
            throw new IllegalArgumentException("values of " + values.size() + " runs against a reference of "
                    + reference.size() + " runs: both need one entry per run");
        }
        List<Double> ratios = new ArrayList<>(values.size());
        for (int i = 0; i < values.size(); i++) {
            double v = values.get(i);
            double ref = reference.get(i);
            ratios.add(Double.isFinite(v) && Double.isFinite(ref) && ref > 0 ? v / ref : Double.NaN);
        }
        return ratios;
    }

    public boolean isEmpty() {
        return count == 0;
    }

    /** "median [min - max]" with the given format for each number (e.g. {@code "%,.0f"}); "-" when empty. */
    public String format(String number) {
        if (isEmpty()) {
            return "-";
        }
        String median = String.format(Locale.ROOT, number, this.median);
        return count == 1 ? median : median + " [" + String.format(Locale.ROOT, number, min) + " - "
                + String.format(Locale.ROOT, number, max) + "]";
    }
}
