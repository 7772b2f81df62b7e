/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** Small statistics helpers (nearest-rank percentiles, medians). */
final class Stats {
    private Stats() {
    }

    /** Nearest-rank percentile of an ascending array: the smallest value with at least p% of values at or below it. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        // The epsilon keeps binary rounding (99.9 / 100 * 1000 = 999.0000000000001) from moving up a rank.
        int rank = (int) Math.ceil(p * sorted.length / 100.0 - 1e-9);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
    }

    static double mean(long[] values) {
        double sum = 0;
        for (long v : values) {
            sum += v;
        }
        return values.length == 0 ? Double.NaN : sum / values.length;
    }

    /** Median of the finite values (mean of the two middle ones for an even count); NaN if none. */
    static double median(List<Double> values) {
        List<Double> finite = values.stream().filter(v -> v != null && Double.isFinite(v)).sorted()
                .collect(Collectors.toList());
        int n = finite.size();
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? finite.get(n / 2) : (finite.get(n / 2 - 1) + finite.get(n / 2)) / 2;
    }

    static long[] sortedCopy(long[] values, int count) {
        long[] copy = Arrays.copyOf(values, count);
        Arrays.sort(copy);
        return copy;
    }
}
