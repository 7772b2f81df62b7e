/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatsTest {
    @Test
    void nearestRankPercentiles() {
        long[] v = new long[1000];
        for (int i = 0; i < v.length; i++) {
            v[i] = i + 1;
        }
        assertEquals(500, Stats.percentile(v, 50));
        assertEquals(990, Stats.percentile(v, 99));
        assertEquals(999, Stats.percentile(v, 99.9));
        assertEquals(1000, Stats.percentile(v, 100));
        assertEquals(1, Stats.percentile(new long[] {1}, 99.9));
    }

    @Test
    void medianIgnoresMissingValues() {
        assertEquals(2.0, Stats.median(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, Stats.median(List.of(4.0, 1.0, Double.NaN, 2.0, 3.0)));
        assertTrue(Double.isNaN(Stats.median(List.of(Double.NaN))));
    }

    @Test
    void flushBatches() {
        assertEquals(64, BenchClient.flushEvery(16));
        assertEquals(16, BenchClient.flushEvery(1024));
        assertEquals(4, BenchClient.flushEvery(65536));
        assertEquals(2, BenchClient.flushEvery(1 << 20));
    }
}
