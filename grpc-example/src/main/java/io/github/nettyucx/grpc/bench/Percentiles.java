/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc.bench;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** Nearest-rank percentiles of recorded latencies, and medians across runs. */
final class Percentiles {
    private final long[] sorted;

    Percentiles(long[] values, int count) {
        this.sorted = Arrays.copyOf(values, count);
        Arrays.sort(sorted);
    }

    int count() {
        return sorted.length;
    }

    /** The smallest value with at least p percent of the values at or below it. */
    long at(double p) {
        if (sorted.length == 0) {
            throw new IllegalStateException("no values recorded");
        }
        // The epsilon keeps binary rounding (99.9 * 1000 / 100 = 999.0000000000001) from moving up a rank.
        int rank = (int) Math.ceil(p * sorted.length / 100.0 - 1e-9);
        return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
    }

    double mean() {
        double sum = 0;
        for (long v : sorted) {
            sum += v;
        }
        return sorted.length == 0 ? Double.NaN : sum / sorted.length;
    }

    /** Median of the finite values (mean of the middle two for an even count); NaN when there are none. */
    static double median(List<Double> values) {
        List<Double> finite = values.stream().filter(v -> v != null && Double.isFinite(v)).sorted()
                .collect(Collectors.toList());
        int n = finite.size();
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? finite.get(n / 2) : (finite.get(n / 2 - 1) + finite.get(n / 2)) / 2;
    }
}
