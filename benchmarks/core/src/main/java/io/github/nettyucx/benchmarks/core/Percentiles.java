/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.util.Arrays;

/**
 * Nearest-rank percentiles, mean and maximum of recorded values (latencies in nanoseconds, for example).
 * Nearest rank picks a value that was really measured instead of interpolating between two.
 */
public final class Percentiles {
    private final long[] sorted;

    private Percentiles(long[] sorted) {
        this.sorted = sorted;
    }

    /** The first {@code count} values of {@code values} (copied; the array is not changed). */
    public static Percentiles of(long[] values, int count) {
        if (count < 0 || count > values.length) {
            throw new IllegalArgumentException("count " + count + " is outside 0.." + values.length);
        }
        long[] copy = Arrays.copyOf(values, count);
        Arrays.sort(copy);
        return new Percentiles(copy);
    }

    public static Percentiles of(long[] values) {
        return of(values, values.length);
    }

    public int count() {
        return sorted.length;
    }

    /**
     * The smallest value with at least {@code p} percent of the values at or below it (0 &lt; p &lt;= 100).
     *
     * @throws IllegalStateException when no value was recorded
     */
    public long at(double p) {
        if (!(p > 0 && p <= 100)) {
            throw new IllegalArgumentException("percentile " + p + " is outside (0, 100]");
        }
        requireValues();
        // The epsilon keeps binary rounding (99.9 * 1000 / 100 = 999.0000000000001) from moving up a rank.
        int rank = (int) Math.ceil(p * sorted.length / 100.0 - 1e-9);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
    }

    /** The arithmetic mean; NaN when no value was recorded. */
    public double mean() {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        double sum = 0;
        for (long v : sorted) {
            sum += v;
        }
        return sum / sorted.length;
    }

    /** The largest value. @throws IllegalStateException when no value was recorded */
    public long max() {
        requireValues();
        return sorted[sorted.length - 1];
    }

    private void requireValues() {
        if (sorted.length == 0) {
            throw new IllegalStateException("no values recorded");
        }
    }
}
