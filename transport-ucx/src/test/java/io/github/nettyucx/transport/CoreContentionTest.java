/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;

import static io.github.nettyucx.transport.CoreContention.HOLD_MAX_NANOS;
import static io.github.nettyucx.transport.CoreContention.HOLD_START_NANOS;
import static io.github.nettyucx.transport.CoreContention.LOST_SLICE_NANOS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When a loop stops spinning for busy neighbours, and for how long (times are given; no clocks involved). */
class CoreContentionTest {
    private static final long T0 = 123_456_789_000L;
    private static final long QUICK = 3_000;
    private static final long SLICE = 3_000_000;

    @Test
    void holdsNothingAtFirst() {
        CoreContention c = new CoreContention();
        assertFalse(c.holds(T0));
        assertFalse(c.holds(Long.MIN_VALUE));
        assertFalse(c.holds(Long.MAX_VALUE));
        assertEquals(0, c.share());
    }

    @Test
    void quickYieldsAreThePeerAndStartNoHold() {
        CoreContention c = new CoreContention();
        for (int i = 0; i < 1000; i++) {
            assertFalse(c.yielded(T0 + i * 10_000L, QUICK));
        }
        assertFalse(c.holds(T0 + 10_000_000));
        assertEquals(0, c.holdsBegun());
        assertTrue(c.share() < 0.01);
    }

    @Test
    void occasionalSliceLongYieldsAmongQuickOnesStartNoHold() {
        // One thread busy with its own work (the JIT compiler, say) beside loops that share the other core: a few
        // of their yields meet it.
        CoreContention c = new CoreContention();
        long now = T0;
        for (int i = 0; i < 10_000; i++) {
            now += 20_000;
            assertFalse(c.yielded(now, i % 20 == 0 ? SLICE : QUICK), "yield " + i);
        }
        assertEquals(0, c.holdsBegun());
        assertTrue(c.share() < CoreContention.CONTENDED_SHARE);
    }

    @Test
    void mostYieldsLosingASliceStartAHold() {
        CoreContention c = new CoreContention();
        long now = T0;
        int yields = 0;
        boolean held = false;
        while (!held) {
            now += SLICE;
            held = c.yielded(now, yields++ % 2 == 0 ? SLICE : QUICK);
            assertTrue(yields < 2 * CoreContention.SAMPLES, "no hold after " + yields + " yields");
        }
        assertTrue(c.share() >= CoreContention.CONTENDED_SHARE);
        assertTrue(c.holds(now));
        assertTrue(c.holds(now + HOLD_START_NANOS - 1));
        assertFalse(c.holds(now + HOLD_START_NANOS));
        assertEquals(1, c.holdsBegun());
    }

    @Test
    void aQuickYieldNeverStartsAHoldEvenWhenTheShareIsHigh() {
        CoreContention c = contended();
        long now = T0 + 10 * HOLD_MAX_NANOS;
        assertFalse(c.yielded(now, QUICK));
        assertFalse(c.holds(now));
    }

    @Test
    void preemptionsCountAsSliceLongYieldsAndShortGapsForNothing() {
        CoreContention c = new CoreContention();
        long now = T0;
        for (int i = 0; i < 100; i++) {
            now += 1_000;
            assertFalse(c.between(now, 200));
        }
        assertEquals(0, c.share());
        boolean held = false;
        for (int i = 0; i < CoreContention.SAMPLES && !held; i++) {
            now += SLICE;
            held = c.between(now, LOST_SLICE_NANOS);
        }
        assertTrue(held);
    }

    @Test
    void contentionFoundRightAfterEachHoldDoublesItUpToTheLongest() {
        CoreContention c = contended();
        long now = T0;
        c.yielded(now, SLICE);
        long expected = c.holdNanos();
        for (int i = 0; i < 20; i++) {
            now += c.holdNanos(); // the first probe after the hold meets the busy threads again
            assertFalse(c.holds(now));
            assertTrue(c.yielded(now, SLICE));
            expected = Math.min(HOLD_MAX_NANOS, expected * 2);
            assertEquals(expected, c.holdNanos());
            assertTrue(c.holds(now + expected - 1));
            assertFalse(c.holds(now + expected));
        }
        assertEquals(HOLD_MAX_NANOS, c.holdNanos());
    }

    @Test
    void contentionFoundAfterAQuietHoldsLengthStartsOverFromTheShortestHold() {
        CoreContention c = contended();
        long now = T0;
        for (int i = 0; i < 6; i++) {
            c.yielded(now, SLICE);
            now += c.holdNanos();
        }
        long hold = c.holdNanos();
        assertTrue(hold > HOLD_START_NANOS);
        now += hold + 1; // the cores were free for longer than a hold after this one ended
        assertTrue(c.yielded(now, SLICE));
        assertEquals(HOLD_START_NANOS, c.holdNanos());
    }

    @Test
    void quickYieldsAfterAHoldBringTheShareDownUntilASliceLongOneStartsNoHold() {
        CoreContention c = contended();
        long now = T0 + HOLD_MAX_NANOS * 10;
        int quick = 0;
        while (c.share() >= CoreContention.CONTENDED_SHARE / 2) {
            now += 10_000;
            c.yielded(now, QUICK);
            quick++;
        }
        assertTrue(quick <= 6 * CoreContention.SAMPLES, quick + " quick yields");
        long begun = c.holdsBegun();
        assertFalse(c.yielded(now + 10_000, SLICE));
        assertEquals(begun, c.holdsBegun());
    }

    @Test
    void worksAcrossTheWrapOfNanoTime() {
        CoreContention c = contended();
        long now = Long.MAX_VALUE - HOLD_START_NANOS / 2;
        c.yielded(now + HOLD_MAX_NANOS, SLICE);
        long until = now + HOLD_MAX_NANOS + c.holdNanos();
        assertTrue(c.holds(until - 1));
        assertFalse(c.holds(until));
    }

    /** A contention whose share of slice-long yields is high, with no hold in force at {@link #T0}. */
    private static CoreContention contended() {
        CoreContention c = new CoreContention();
        long now = T0 - 100 * HOLD_MAX_NANOS;
        for (int i = 0; i < 4 * CoreContention.SAMPLES; i++) {
            c.yielded(now, SLICE);
        }
        assertTrue(c.share() > 0.9);
        return c;
    }
}
