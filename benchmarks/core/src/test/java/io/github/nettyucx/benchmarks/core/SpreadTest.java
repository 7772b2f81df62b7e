/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.core;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SpreadTest {
    private static final double NAN = Double.NaN;

    @Test
    void minMedianAndMaxOfAnOddCount() {
        Spread s = Spread.of(List.of(30.0, 10.0, 50.0, 20.0, 40.0));
        assertEquals(new Spread(10, 30, 50, 5), s);
        assertEquals("30 [10 - 50]", s.format("%,.0f"));
    }

    @Test
    void medianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
        assertEquals(new Spread(1, 2.5, 4, 4), Spread.of(List.of(4.0, 1.0, 3.0, 2.0)));
    }

    @Test
    void runsWithoutTheFigureAreLeftOut() {
        Spread s = Spread.of(Arrays.asList(NAN, 7.0, null, Double.POSITIVE_INFINITY, 3.0));
        assertEquals(new Spread(3, 5, 7, 2), s);
    }

    @Test
    void nothingMeasuredIsEmptyAndPrintsADash() {
        Spread s = Spread.of(List.of(NAN, NAN));
        assertTrue(s.isEmpty());
        assertTrue(Double.isNaN(s.median()));
        assertEquals("-", s.format("%,.0f"));
    }

    @Test
    void oneRunPrintsItsValueAlone() {
        assertEquals("1,234", Spread.of(List.of(1234.0)).format("%,.0f"));
    }

    @Test
    void ratiosPairRunsByPositionAndKeepMissingRunsInPlace() {
        List<Double> ratios = Spread.ratios(List.of(200.0, 90.0, NAN, 50.0), List.of(100.0, 100.0, 100.0, 0.0));
        assertEquals(4, ratios.size());
        assertEquals(2.0, ratios.get(0));
        assertEquals(0.9, ratios.get(1), 1e-12);
        assertTrue(Double.isNaN(ratios.get(2)), "a run without the figure has no ratio");
        assertTrue(Double.isNaN(ratios.get(3)), "a reference of 0 gives no ratio");
        assertEquals(new Spread(0.9, 1.45, 2.0, 2), Spread.of(ratios));
    }

    @Test
    void ratiosNeedOneValuePerRunOnBothSides() {
        assertThrows(IllegalArgumentException.class, () -> Spread.ratios(List.of(1.0, 2.0), List.of(1.0)));
    }
}
