/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatisticsTest {
    @Test
    void nearestRankPercentiles() {
        long[] v = new long[1000];
        for (int i = 0; i < v.length; i++) {
            v[i] = v.length - i; // descending: the copy is sorted, the array left alone
        }
        long[] before = v.clone();
        Percentiles p = Percentiles.of(v);
        assertArrayEquals(before, v);
        assertEquals(1000, p.count());
        assertEquals(500, p.at(50));
        assertEquals(990, p.at(99));
        assertEquals(999, p.at(99.9));
        assertEquals(1000, p.at(100));
        assertEquals(1000, p.max());
        assertEquals(500.5, p.mean());
        assertEquals(1, Percentiles.of(new long[] {1}).at(99.9));
    }

    @Test
    void onlyTheRecordedPartCounts() {
        long[] recorded = {30, 10, 20, 0, 0, 0};
        Percentiles p = Percentiles.of(recorded, 3);
        assertEquals(3, p.count());
        assertEquals(20, p.at(50));
        assertEquals(30, p.max());
        assertEquals(20.0, p.mean());
    }

    @Test
    void noValuesIsAnErrorNotANumber() {
        Percentiles none = Percentiles.of(new long[8], 0);
        assertThrows(IllegalStateException.class, () -> none.at(50));
        assertThrows(IllegalStateException.class, none::max);
        assertTrue(Double.isNaN(none.mean()));
        assertThrows(IllegalArgumentException.class, () -> Percentiles.of(new long[2], 3));
        assertThrows(IllegalArgumentException.class, () -> Percentiles.of(new long[] {1}).at(0));
    }

    @Test
    void medianIgnoresRunsThatMeasuredNothing() {
        assertEquals(2.0, Medians.ofFinite(List.of(3.0, 1.0, 2.0)));
        assertEquals(2.5, Medians.ofFinite(List.of(4.0, 1.0, Double.NaN, 2.0, 3.0)));
        assertEquals(5.0, Medians.ofFinite(Arrays.asList(null, 5.0, Double.POSITIVE_INFINITY)));
        assertTrue(Double.isNaN(Medians.ofFinite(List.of(Double.NaN))));
        assertTrue(Double.isNaN(Medians.ofFinite(List.of())));
    }

    @Test
    void sizeLabels() {
        assertEquals("16 B", ByteSizes.label(16));
        assertEquals("1000 B", ByteSizes.label(1000));
        assertEquals("1 KiB", ByteSizes.label(1024));
        assertEquals("1536 B", ByteSizes.label(1536));
        assertEquals("64 KiB", ByteSizes.label(65536));
        assertEquals("1 MiB", ByteSizes.label(1 << 20));
        assertEquals("1536 KiB", ByteSizes.label(1536 * 1024));
    }
}
