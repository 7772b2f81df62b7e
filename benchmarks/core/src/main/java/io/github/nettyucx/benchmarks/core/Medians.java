/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import java.util.Collection;
import java.util.Objects;

/**
 * The median of a metric across runs. A benchmark on a shared machine reports medians because one disturbed
 * run moves a mean but hardly a median.
 */
public final class Medians {
    private Medians() {
    }

    /**
     * The median of the finite values (the mean of the middle two for an even count); null, NaN and infinite
     * values, which stand for runs that measured nothing, are left out. NaN when no value is left.
     */
    public static double ofFinite(Collection<Double> values) {
        double[] finite = values.stream().filter(Objects::nonNull).mapToDouble(Double::doubleValue)
                .filter(Double::isFinite).sorted().toArray();
        int n = finite.length;
        if (n == 0) {
            return Double.NaN;
        }
        return n % 2 == 1 ? finite[n / 2] : (finite[n / 2 - 1] + finite[n / 2]) / 2;
    }
}
