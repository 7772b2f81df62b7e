/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.github.nettyucx.loop.UcxIdlePolicy.Mode;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static io.github.nettyucx.loop.UcxIdlePolicy.FOREVER;
import static io.github.nettyucx.loop.UcxIdlePolicy.STARTUP_MAX_NANOS;
import static io.github.nettyucx.loop.UcxIdlePolicy.STARTUP_OTHER_THREADS_TASKS;
import static io.github.nettyucx.loop.UcxIdlePolicy.STARTUP_WINDOW_NANOS;
import static io.github.nettyucx.loop.UcxIdlePolicy.WINDOW_START_NANOS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole idle policy, driven as a loop drives it: a script of idle periods (when they start, the events handled so
 * far, how they end) and of the host's CPU readings, and what the loop does at each (spin how long, yield when, sleep
 * at once, with which scheduler slice).
 */
class UcxIdlePolicyTest {
    private static final long SPIN = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long YIELD_AFTER = TimeUnit.MICROSECONDS.toNanos(10);
    private static final long EVENTS = 1_000;
    /** An idle period every this long: a loop under steady traffic, sampling the CPUs at each. */
    private static final long PERIOD = 3_000_000;

    /** The loop, as the policy sees it: a clock, its count of events, and the host's runnable threads. */
    private static final class Loop {
        final UcxIdlePolicy policy;
        long now = 1_000_000_000L;
        long work;
        long streamMarks;
        int runnable;
        long spin;

        Loop(UcxIoHandlerConfig config, int cpus, int runnable) {
            this.runnable = runnable;
            policy = new UcxIdlePolicy(config, () -> this.runnable, cpus, now);
        }

        /** An idle period with a UCX connection, after {@code events} more events and {@code gap} more time. */
        Loop idle(long events, long gap) {
            work += events;
            now += gap;
            spin = policy.idleStarts(now, work, streamMarks, true, false);
            return this;
        }

        /** {@code periods} idle periods of steady traffic, one every {@link #PERIOD}, 2 events each. */
        Loop steady(int periods) {
            for (int i = 0; i < periods; i++) {
                idle(2, PERIOD);
            }
            return this;
        }

        /**
         * An idle period of {@code idleNanos} that ends when work comes (in a sleep if the spin was shorter), then
         * {@code busyNanos} of work until the next one starts.
         */
        Loop period(long idleNanos, long busyNanos) {
            now += idleNanos;
            if (spin < idleNanos) {
                policy.slept(idleNanos);
            }
            policy.idleEnded(now);
            return idle(2, busyNanos);
        }

        /** The current period's spin found nothing; the loop slept, and the period lasted {@code idleNanos}. */
        Loop slept(long idleNanos) {
            policy.slept(idleNanos);
            return this;
        }
    }

    private static UcxIoHandlerConfig adaptive() {
        return new UcxIoHandlerConfig().waitStrategy(WaitStrategy.ADAPTIVE, SPIN, TimeUnit.NANOSECONDS)
                .spinYieldAfter(YIELD_AFTER, TimeUnit.NANOSECONDS).startupSpinEvents(EVENTS);
    }

    private static void assertSpins(Loop loop, long spin, long yieldAfter, int roundsMask) {
        assertEquals(spin, loop.spin, "spin of " + loop.policy);
        assertEquals(yieldAfter, loop.policy.yieldAfterNanos(), "yield after, " + loop.policy);
        assertEquals(roundsMask, loop.policy.yieldRoundsMask(), "yield rounds, " + loop.policy);
        assertFalse(loop.policy.wantsShortSlice(), "a spinning loop keeps the kernel's slice");
    }

    private static void assertSleepsAtOnce(Loop loop) {
        assertEquals(0, loop.spin, "spin of " + loop.policy);
        assertTrue(loop.policy.wantsShortSlice(), "a loop that sleeps at once asks for a short slice");
    }

    @Test
    void aFreshEchoPairSpinsThroughItsStartupThenForTheWindowItLearns() {
        // Two CPUs, each taken by one of the pair's loops, and the JIT compiler's threads on top while it warms up.
        Loop loop = new Loop(adaptive(), 2, 4);
        loop.policy.idleStarts(loop.now, 0, 0, false, false);
        assertEquals(Mode.IDLE, loop.policy.mode(), "no connection yet: nothing to spin for");
        loop.idle(0, 1);
        for (int i = 0; i < EVENTS / 2 - 1; i++) {
            assertEquals(Mode.STARTUP, loop.policy.mode());
            assertSpins(loop, STARTUP_WINDOW_NANOS, FOREVER, 0);
            loop.idle(2, 10_000);
        }
        // The compiler is done: only the two loops run.
        loop.runnable = 2;
        loop.idle(2, 10_000);
        assertEquals(Mode.SPINNING, loop.policy.mode(), "after its events the start-up is over");
        assertSpins(loop, SPIN, YIELD_AFTER, UcxIdlePolicy.ROUNDS_PER_YIELD - 1);
        loop.steady(100);
        assertSpins(loop, SPIN, YIELD_AFTER, UcxIdlePolicy.ROUNDS_PER_YIELD - 1);
        assertEquals(0, loop.policy.cpusTakenPeriods());
    }

    @Test
    void theStartupEndsAfterItsTimeOrOnceApplicationThreadsDriveTheLoop() {
        Loop slow = new Loop(adaptive(), 2, 2).idle(0, 1);
        slow.idle(1, STARTUP_MAX_NANOS - 2);
        assertEquals(Mode.STARTUP, slow.policy.mode());
        slow.idle(1, 2);
        assertEquals(Mode.SPINNING, slow.policy.mode(), "slow peers: over in time");

        Loop driven = new Loop(adaptive(), 2, 2).idle(0, 1);
        for (int i = 0; i <= STARTUP_OTHER_THREADS_TASKS; i++) {
            driven.policy.taskFromOtherThread();
        }
        driven.idle(1, 1000);
        assertEquals(Mode.SPINNING, driven.policy.mode(), "application threads hand the loop its work");

        Loop none = new Loop(adaptive().startupSpinEvents(0), 2, 2).idle(0, 1);
        assertEquals(Mode.SPINNING, none.policy.mode(), "no start-up when its count is 0");
    }

    @Test
    void besideBusyProcessesTheLoopSleepsAtOnceAndSpinsAgainWhenTheyStop() {
        Loop loop = new Loop(adaptive().startupSpinEvents(0), 2, 2).idle(0, 1).steady(20);
        assertEquals(Mode.SPINNING, loop.policy.mode());
        // Two busy processes start: with the pair's loops spinning, four runnable threads on two CPUs.
        loop.runnable = 4;
        loop.steady(1);
        assertEquals(Mode.SPINNING, loop.policy.mode(), "one reading moves the average only part of the way");
        loop.steady(20);
        assertEquals(Mode.CPUS_TAKEN, loop.policy.mode());
        assertSleepsAtOnce(loop);
        assertEquals(1, loop.policy.cpusTakenPeriods());
        // Sleeping at once, the loop is no longer runnable while it waits; when it reads, the busy two and itself are,
        // and the peer's loop now and then: it stays asleep rather than flap back to spinning.
        for (int i = 0; i < 100; i++) {
            loop.runnable = i % 2 == 0 ? 3 : 4;
            loop.steady(1);
            assertSleepsAtOnce(loop);
        }
        assertEquals(1, loop.policy.cpusTakenPeriods(), "one period, not one per idle period");
        // The busy processes end.
        loop.runnable = 2;
        loop.steady(20);
        assertEquals(Mode.SPINNING, loop.policy.mode());
        assertSpins(loop, SPIN, YIELD_AFTER, UcxIdlePolicy.ROUNDS_PER_YIELD - 1);
    }

    @Test
    void besideTakenCpusALoopThatWorksMostOfItsTimeCarriesAStreamAndKeepsSpinning() {
        // The sending end of a stream over two connections per loop at both ends: four loops on two CPUs, each
        // working 8 us of every 10.
        assertCarriesAStream(2_000, 8_000, 0, 10_000);
    }

    @Test
    void besideTakenCpusALoopWhoseConnectionsMarkAStreamKeepsSpinning() {
        // The receiving end: working 1 us of every 30 and returning credits in a message of their own every fourth
        // period (half a window read, nothing going back to carry them); the sender waits for them.
        assertCarriesAStream(29_000, 1_000, 4, 1_000);
    }

    /**
     * A loop among four on two CPUs whose periods are idle {@code idle} and busy {@code busy} ns, with a mark of a
     * stream every {@code markEvery} periods (0: none), spins from period {@code spinsFrom} on; once the stream
     * stops (requests and responses: mostly idle, marking nothing) it sleeps at once after a horizon; and the same
     * stream fed by application threads, which need the cores, has it sleep at once throughout.
     */
    private static void assertCarriesAStream(long idle, long busy, int markEvery, int spinsFrom) {
        Loop loop = new Loop(adaptive().startupSpinEvents(0), 2, 4).idle(0, 1);
        Loop fed = new Loop(adaptive().startupSpinEvents(0), 2, 4).idle(0, 1);
        for (int i = 0; i < 20_000; i++) {
            if (markEvery > 0 && i % markEvery == 0) {
                loop.streamMarks++;
                fed.streamMarks++;
            }
            loop.period(idle, busy);
            fed.policy.taskFromOtherThread();
            fed.period(idle, busy);
            if (i >= spinsFrom) {
                assertEquals(Mode.SPINNING, loop.policy.mode(), "a stream's gaps are worth spinning through");
                assertSpins(loop, SPIN, YIELD_AFTER, UcxIdlePolicy.ROUNDS_PER_YIELD - 1);
            }
        }
        assertEquals(Mode.CPUS_TAKEN, fed.policy.mode(), "application threads feed it");
        assertSleepsAtOnce(fed);
        for (int i = 0; i < 2_000; i++) {
            loop.period(95_000, 5_000);
        }
        assertEquals(Mode.CPUS_TAKEN, loop.policy.mode(), "requests and responses, working 5 us of every 100");
        assertSleepsAtOnce(loop);
    }

    @Test
    void aReadingAfterALongSleepReplacesTheAverage() {
        Loop loop = new Loop(adaptive().startupSpinEvents(0), 2, 2).idle(0, 1).steady(20);
        loop.runnable = 5;
        loop.idle(1, TimeUnit.SECONDS.toNanos(1));
        assertEquals(Mode.CPUS_TAKEN, loop.policy.mode(), "an old average decides nothing");
    }

    @Test
    void theSpinWindowShrinksToSleepingAtOnceWhileIdlePeriodsOutlastItAndGrowsBackWhenTheyAreShort() {
        Loop loop = new Loop(adaptive().startupSpinEvents(0), 2, 1).idle(0, 1);
        long window = SPIN;
        while (window > 0) {
            assertSpins(loop, window, YIELD_AFTER, UcxIdlePolicy.ROUNDS_PER_YIELD - 1);
            loop.slept(UcxIdlePolicy.OUTLASTING * SPIN + 1).idle(1, TimeUnit.MILLISECONDS.toNanos(1));
            window = window / 2 < WINDOW_START_NANOS ? 0 : window / 2;
        }
        assertEquals(0, loop.spin, "spinning was wasted: the loop sleeps at once");
        assertFalse(loop.policy.wantsShortSlice(), "nothing else takes the CPUs: the kernel's slice");
        loop.slept(2 * SPIN).idle(1, 1);
        assertEquals(0, loop.spin, "an idle period between the two keeps the window");
        loop.slept(SPIN / 2).idle(1, 1);
        assertEquals(WINDOW_START_NANOS, loop.spin, "a short idle period brings spinning back");
        loop.slept(SPIN / 2).idle(1, 1);
        assertEquals(2 * WINDOW_START_NANOS, loop.spin);
    }

    @Test
    void fixedStrategiesDoWhatTheySayWhateverTheCpus() {
        for (int runnable : new int[] {1, 8}) {
            UcxIoHandlerConfig config = adaptive();
            Loop busy = new Loop(config.waitStrategy(WaitStrategy.BUSY_POLL, SPIN, TimeUnit.NANOSECONDS), 2, runnable);
            assertSpins(busy.steady(20), FOREVER, FOREVER, 0);
            Loop spin = new Loop(config.waitStrategy(WaitStrategy.SPIN_THEN_SLEEP, SPIN, TimeUnit.NANOSECONDS), 2,
                    runnable);
            assertSpins(spin.steady(20).slept(TimeUnit.SECONDS.toNanos(1)).idle(1, 1), SPIN, YIELD_AFTER,
                    UcxIdlePolicy.ROUNDS_PER_YIELD - 1);
            Loop sleep = new Loop(config.waitStrategy(WaitStrategy.SLEEP, SPIN, TimeUnit.NANOSECONDS), 2, runnable);
            assertSleepsAtOnce(sleep.steady(20));
        }
    }

    @Test
    void withOneCpuSpinsYieldEveryRoundFromTheStart() {
        // The loop and its peer's share the only CPU: each yield hands it over.
        Loop loop = new Loop(adaptive(), 1, 2).idle(0, 1);
        assertSpins(loop, STARTUP_WINDOW_NANOS, 0, 0);
        loop.idle(EVENTS, 1);
        assertSpins(loop, SPIN, 0, 0);
        loop.runnable = 3;
        loop.steady(30);
        assertEquals(Mode.CPUS_TAKEN, loop.policy.mode(), "a busy process on top takes the CPU");
        assertSleepsAtOnce(loop);
    }

    @Test
    void aLoopOfPlainTcpPeersOnlySleepsAtOnceWithoutStartingItsStartup() {
        Loop loop = new Loop(adaptive(), 2, 1);
        assertEquals(0, loop.policy.idleStarts(loop.now, 0, 0, false, true));
        assertEquals(Mode.IDLE, loop.policy.mode());
        loop.idle(0, 1);
        assertEquals(Mode.STARTUP, loop.policy.mode(), "the first UCX connection starts it");
        assertEquals(0, loop.policy.idleStarts(loop.now, 0, 0, false, true), "plain peers only again");
    }

    @Test
    void withoutACpuReadingTheCpusNeverCountAsTaken() {
        Loop unknownCount = new Loop(adaptive().startupSpinEvents(0), 2, -1).idle(0, 1).steady(50);
        assertEquals(Mode.SPINNING, unknownCount.policy.mode());
        Loop unknownCpus = new Loop(adaptive().startupSpinEvents(0), -1, 64).idle(0, 1).steady(50);
        assertEquals(Mode.SPINNING, unknownCpus.policy.mode());
    }
}
