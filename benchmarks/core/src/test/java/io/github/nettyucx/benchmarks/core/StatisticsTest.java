/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatisticsTest {
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
