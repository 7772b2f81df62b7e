/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the adaptive spin window moves with the idle periods it is told about (no clocks involved). */
class AdaptiveSpinTest {
    private static final long MAX = 64_000;

    @Test
    void startsAtTheMaximum() {
        assertEquals(MAX, new AdaptiveSpin(MAX).windowNanos());
    }

    @Test
    void longIdlePeriodsHalveTheWindowDownToSleepingAtOnce() {
        AdaptiveSpin spin = new AdaptiveSpin(MAX);
        spin.slept(AdaptiveSpin.OUTLASTING * MAX + 1);
        assertEquals(MAX / 2, spin.windowNanos());
        for (int i = 0; i < 20; i++) {
            spin.slept(10 * MAX);
        }
        assertEquals(0, spin.windowNanos());
    }

    @Test
    void shortIdlePeriodsBringSpinningBackAndGrowItToTheMaximum() {
        AdaptiveSpin spin = new AdaptiveSpin(MAX);
        for (int i = 0; i < 20; i++) {
            spin.slept(10 * MAX);
        }
        spin.slept(MAX / 4);
        assertEquals(AdaptiveSpin.START_NANOS, spin.windowNanos());
        spin.slept(MAX);
        assertEquals(2 * AdaptiveSpin.START_NANOS, spin.windowNanos());
        for (int i = 0; i < 20; i++) {
            spin.slept(MAX / 2);
        }
        assertEquals(MAX, spin.windowNanos());
    }

    @Test
    void idlePeriodsSomewhatLongerThanTheMaximumKeepTheWindow() {
        AdaptiveSpin spin = new AdaptiveSpin(MAX);
        spin.slept(AdaptiveSpin.OUTLASTING * MAX);
        assertEquals(MAX, spin.windowNanos());
        for (int i = 0; i < 20; i++) {
            spin.slept(10 * MAX);
        }
        for (int i = 0; i < 20; i++) {
            spin.slept(2 * MAX);
        }
        assertEquals(0, spin.windowNanos(), "idle periods that a spin of the maximum could not have caught");
    }

    @Test
    void workFoundBySpinningKeepsTheWindow() {
        AdaptiveSpin spin = new AdaptiveSpin(MAX);
        spin.slept(10 * MAX);
        spin.foundWork(false);
        spin.foundWork(false);
        assertEquals(MAX / 2, spin.windowNanos());
    }

    @Test
    void yieldsAtOnceWhileWorkComesAfterGivingTheCoreAway() {
        AdaptiveSpin spin = new AdaptiveSpin(MAX);
        assertFalse(spin.yieldAtOnce());
        spin.foundWork(true);
        assertTrue(spin.yieldAtOnce());
        spin.slept(10 * MAX);
        assertTrue(spin.yieldAtOnce(), "sleeping says nothing about who shares the core");
        spin.foundWork(false);
        assertFalse(spin.yieldAtOnce());
    }

    @Test
    void aZeroMaximumNeverSpins() {
        AdaptiveSpin spin = new AdaptiveSpin(0);
        spin.slept(0);
        assertEquals(0, spin.windowNanos());
        spin.slept(1);
        assertEquals(0, spin.windowNanos());
    }
}
