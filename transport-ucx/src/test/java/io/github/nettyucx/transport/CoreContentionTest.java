/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;

import static io.github.nettyucx.transport.CoreContention.BACKOFF_START_NANOS;
import static io.github.nettyucx.transport.CoreContention.EPOCH_NANOS;
import static io.github.nettyucx.transport.CoreContention.HOLD_MAX_NANOS;
import static io.github.nettyucx.transport.CoreContention.HOLD_START_NANOS;
import static io.github.nettyucx.transport.CoreContention.LOST_SLICE_NANOS;
import static io.github.nettyucx.transport.CoreContention.TRIAL_NANOS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When a loop stops spinning for busy neighbours, and for how long. Times, work counts and the JVM's own work are
 * given: no clocks involved. A "loop" here handles {@code spinRate} events per millisecond while spinning and
 * {@code sleepRate} while sleeping at once.
 */
class CoreContentionTest {
    private static final long MS = 1_000_000;
    private static final long QUICK = 3_000;
    private static final long SLICE = 3 * MS;

    private long now = 123_456_789_000L;
    private long work;
    private long ownWorkMillis;
    private final CoreContention c = new CoreContention(() -> ownWorkMillis);

    @Test
    void quickYieldsStartNothing() {
        run(2 * EPOCH_NANOS, 10, QUICK);
        assertEquals(0, c.trialsBegun());
        assertEquals(0, c.holdsBegun());
        assertTrue(c.share() < 0.01);
    }

    @Test
    void occasionalSliceLongYieldsStartNothing() {
        // One busy thread (the JIT compiler, say) beside loops that share the other core: a few yields meet it.
        CoreContention occasional = new CoreContention(() -> 0);
        occasional.holds(now, 0);
        for (int i = 0; i < 10_000; i++) {
            now += 20_000;
            assertFalse(occasional.yielded(now, i % 20 == 0 ? SLICE : QUICK, i));
        }
        assertEquals(0, occasional.trialsBegun());
    }

    @Test
    void busyNeighboursStartATrialAndAClearGainAHold() {
        run(2 * EPOCH_NANOS, 1, QUICK);
        assertTrue(suspect(), "slice-long yields start a trial");
        assertEquals(1, c.trialsBegun());
        assertTrue(sleepFor(TRIAL_NANOS - 1, 10), "the loop sleeps at once during the trial");
        assertTrue(sleepFor(1, 10), "a trial ten times the spinning rate holds");
        assertEquals(1, c.holdsBegun());
        assertEquals(HOLD_START_NANOS, c.holdNanos());
        assertTrue(sleepFor(HOLD_START_NANOS - 1, 10));
        assertFalse(sleepFor(1, 10), "the hold is over: spin again and measure");
    }

    @Test
    void aTrialAboutAsFastAsSpinningHolds() {
        assertTrue(trialAt(9), "spinning got only 1.1 times the trial's rate: no reason to keep the core");
        assertEquals(1, c.holdsBegun());
    }

    @Test
    void aTrialThatSpinningClearlyBeatGoesBackToSpinningAndBacksOff() {
        assertFalse(trialAt(7), "spinning got 1.4 times the trial's rate");
        assertEquals(0, c.holdsBegun());
        // Suspicions are ignored for a while: the application's own busy threads bring the loop its work.
        long until = now + BACKOFF_START_NANOS;
        while (until - now > SLICE) {
            assertFalse(suspectWithin(until - now - 1), "a trial during the backoff");
        }
        now = until;
        run(EPOCH_NANOS, 10, QUICK);
        assertTrue(suspect(), "after the backoff, a new trial");
    }

    @Test
    void aHoldThatStillPaysAfterItsSpinningEpochDoublesUpToTheLongest() {
        run(2 * EPOCH_NANOS, 1, QUICK);
        assertTrue(suspect());
        sleepFor(TRIAL_NANOS, 10);
        long expected = HOLD_START_NANOS;
        for (int i = 0; i < 10; i++) {
            assertTrue(sleepFor(c.holdNanos() - 1, 10));
            assertFalse(sleepFor(1, 10));
            run(EPOCH_NANOS - MS, 1, SLICE);
            assertFalse(suspectWithin(0));
            assertEquals(expected, c.holdNanos(), "no trial while the epoch after a hold measures spinning");
            expected = Math.min(HOLD_MAX_NANOS, expected * 2);
            assertTrue(sleepFor(MS, 1), "spinning still a tenth of sleeping: hold again");
            assertEquals(expected, c.holdNanos());
        }
        assertEquals(HOLD_MAX_NANOS, c.holdNanos());
    }

    @Test
    void contentionInTheEpochAfterAHoldHoldsAgainAtOnce() {
        throughTheFirstHold();
        assertEquals(0, c.share(), "the epoch after the hold starts with no suspicion");
        long epochStart = now;
        assertTrue(suspect(), "slice-long yields again");
        assertTrue(now - epochStart < EPOCH_NANOS / 2, "well before the epoch's end");
        assertEquals(2 * HOLD_START_NANOS, c.holdNanos(), "held again, twice as long");
        assertEquals(1, c.trialsBegun(), "without a trial");
        assertTrue(sleepFor(c.holdNanos() - 1, 10));
    }

    @Test
    void anEpochAfterAHoldThatTiesGoesBackToSpinning() {
        // The peer's loop still holds while this one spins: spinning measures the peer's sleeping.
        throughTheFirstHold();
        run(EPOCH_NANOS, 8, QUICK);
        assertFalse(sleepFor(MS, 8), "a hold at 1.25 times the epoch's rate does not hold again");
        assertEquals(1, c.holdsBegun());
    }

    @Test
    void anEpochAfterAHoldThatHandledNothingProvesNothing() {
        throughTheFirstHold();
        now += EPOCH_NANOS;
        assertFalse(c.holds(now, work), "an epoch that handled nothing proves nothing");
        assertEquals(1, c.holdsBegun());
    }

    @Test
    void theJvmsOwnWorkInTheEpochAfterAHoldDoesNotHoldAgain() {
        throughTheFirstHold();
        ownWorkMillis += CoreContention.OWN_WORK_MILLIS;
        assertFalse(suspectWithin(EPOCH_NANOS / 2), "the JIT compiled meanwhile");
        assertEquals(HOLD_START_NANOS, c.holdNanos());
    }

    @Test
    void whenTheNeighboursLeaveTheLoopSpinsAgain() {
        run(2 * EPOCH_NANOS, 1, QUICK);
        assertTrue(suspect());
        sleepFor(TRIAL_NANOS, 10);
        assertTrue(sleepFor(c.holdNanos() - 1, 10));
        assertFalse(sleepFor(1, 10));
        long holds = c.holdsBegun();
        run(EPOCH_NANOS + 1, 40, QUICK); // spinning is fast again
        assertEquals(holds, c.holdsBegun());
        run(10 * EPOCH_NANOS, 40, QUICK);
        assertEquals(holds, c.holdsBegun());
        assertEquals(1, c.trialsBegun());
    }

    @Test
    void slicesTakenByTheJvmsOwnCompilerOrCollectorStartNoTrial() {
        run(2 * EPOCH_NANOS, 1, QUICK);
        ownWorkMillis += CoreContention.OWN_WORK_MILLIS;
        assertFalse(suspectWithin(EPOCH_NANOS), "the JIT compiled meanwhile");
        assertEquals(0, c.trialsBegun());
        run(EPOCH_NANOS, 1, QUICK);
        assertTrue(suspect(), "an epoch later, without the JVM's own work");
    }

    @Test
    void preemptionsCountAsSliceLongYieldsAndShortGapsForNothing() {
        run(2 * EPOCH_NANOS, 1, QUICK);
        for (int i = 0; i < 100; i++) {
            now += 1_000;
            assertFalse(c.between(now, 200, work));
        }
        boolean trial = false;
        for (int i = 0; i < 4 * CoreContention.SAMPLES && !trial; i++) {
            now += SLICE;
            trial = c.between(now, LOST_SLICE_NANOS, work += 3);
        }
        assertTrue(trial);
    }

    @Test
    void worksAcrossTheWrapOfNanoTime() {
        now = Long.MAX_VALUE - 3 * EPOCH_NANOS;
        run(2 * EPOCH_NANOS, 1, QUICK);
        assertTrue(suspect());
        assertTrue(sleepFor(TRIAL_NANOS - 1, 10));
        assertTrue(sleepFor(1, 10));
        assertEquals(1, c.holdsBegun());
    }

    /**
     * Spins for {@code nanos}: idle periods of a millisecond, each with one yield (quick, whatever
     * {@code yieldNanos} says, so that spinning alone raises no suspicion), handling {@code perMs} events a
     * millisecond.
     */
    private void run(long nanos, int perMs, long yieldNanos) {
        long until = now + nanos;
        while (now - until < 0) {
            assertFalse(c.holds(now, work));
            now += MS;
            work += perMs;
            c.yielded(now, yieldNanos == SLICE ? QUICK : yieldNanos, work);
        }
        c.holds(now, work);
    }

    /**
     * Spinning at 10 events a millisecond, busy neighbours, then a trial at {@code trialPerMs}: whether the loop
     * holds once the trial is over.
     */
    private boolean trialAt(int trialPerMs) {
        run(2 * EPOCH_NANOS, 10, QUICK);
        assertTrue(suspect());
        assertTrue(sleepFor(TRIAL_NANOS - 1, trialPerMs), "the loop sleeps at once during the trial");
        return sleepFor(1, trialPerMs);
    }

    /** Busy neighbours, a trial at ten times the spinning rate, its hold, up to the hold's end. */
    private void throughTheFirstHold() {
        run(2 * EPOCH_NANOS, 1, QUICK);
        assertTrue(suspect());
        assertTrue(sleepFor(TRIAL_NANOS, 10), "the trial holds");
        assertTrue(sleepFor(c.holdNanos() - 1, 10));
        assertFalse(sleepFor(1, 10), "the hold is over");
    }

    /** Slice-long yields until one starts a trial (true) or 4 x SAMPLES of them did not. */
    private boolean suspect() {
        return suspectWithin(Long.MAX_VALUE / 4);
    }

    /** The same, for at most {@code nanos}. */
    private boolean suspectWithin(long nanos) {
        long until = now + nanos;
        for (int i = 0; i < 4 * CoreContention.SAMPLES && now + SLICE - until <= 0; i++) {
            now += SLICE;
            work += 1;
            if (c.yielded(now, SLICE, work)) {
                return true;
            }
        }
        return false;
    }

    /** Idle periods at {@code perMs} events a millisecond for {@code nanos}; whether the last one slept at once. */
    private boolean sleepFor(long nanos, int perMs) {
        long until = now + nanos;
        boolean sleeps;
        do {
            long step = Math.min(MS, until - now);
            now += step;
            work += perMs * step / MS;
            sleeps = c.holds(now, work);
        } while (now - until < 0);
        return sleeps;
    }
}
