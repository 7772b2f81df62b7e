/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** When the host's CPUs count as oversubscribed, on runnable counts and a clock of the test's own. */
class CpuDemandTest {
    private static final int CPUS = 2;
    private static final long START = 5_000_000_000L;

    /** Runnable counts the test sets, and how often they were read. */
    private static final class Counts implements CpuDemand.Source {
        int runnable;
        int reads;

        @Override
        public int runnableThreads() {
            reads++;
            return runnable;
        }
    }

    private final Counts counts = new Counts();
    private final CpuDemand demand = new CpuDemand(counts, CPUS, START);
    private long now = START;

    /** Asks every sample period, {@code times} times, with {@code runnable} threads runnable; the last answer. */
    private boolean sampled(int runnable, int times) {
        counts.runnable = runnable;
        boolean excessive = false;
        for (int i = 0; i < times; i++) {
            excessive = demand.excessive(now);
            now += CpuDemand.SAMPLE_NANOS;
        }
        return excessive;
    }

    @Test
    void theFirstSampleDecides() {
        assertTrue(sampled(4, 1), "four threads on two CPUs");
        assertEquals(4, demand.average(), 1e-9);
    }

    @Test
    void oneThreadPerCpuIsNotTooMany() {
        assertFalse(sampled(CPUS, 100), "two spinning loops on two CPUs");
        assertFalse(sampled(CPUS + 1, 1), "a third thread for a moment");
        assertFalse(sampled(CPUS + 4, 1), "a burst of threads for one sample");
    }

    @Test
    void lastingDemandCountsAndPasses() {
        assertFalse(sampled(CPUS, 100));
        assertTrue(sampled(CPUS + 2, 16), "application threads want the CPUs too, for a horizon");
        assertTrue(sampled(CPUS, 1), "the average looks back");
        assertFalse(sampled(CPUS, 32), "and forgets");
    }

    @Test
    void samplesAtMostOncePerPeriodForTheProcess() {
        demand.excessive(now);
        demand.excessive(now + 1);
        demand.excessive(now + CpuDemand.SAMPLE_NANOS - 1);
        assertEquals(1, counts.reads, "other loops asking meanwhile read the average");
        demand.excessive(now + CpuDemand.SAMPLE_NANOS);
        assertEquals(2, counts.reads);
    }

    @Test
    void aSampleAfterAGapReplacesTheAverage() {
        assertTrue(sampled(CPUS + 4, 20));
        now += 1_000_000_000L;
        assertFalse(sampled(CPUS, 1), "no loop spun for a second: what came before does not decide");
        assertEquals(CPUS, demand.average(), 1e-9);
    }

    @Test
    void unknownCountsNeverMakeItExcessive() {
        assertFalse(sampled(-1, 20), "an unreadable count");
        counts.runnable = 100;
        assertFalse(new CpuDemand(counts, -1, now).excessive(now), "an unknown CPU count");
    }

    @Test
    void theOptionNamesTheRule() {
        assertSame(YieldAtOnce.ALWAYS, YieldAtOnce.of("true", 16));
        assertSame(YieldAtOnce.NEVER, YieldAtOnce.of("false", 1));
        assertSame(YieldAtOnce.ALWAYS, YieldAtOnce.of(null, 1), "one CPU: the loops share it");
        assertSame(YieldAtOnce.WHILE_CPUS_OVERSUBSCRIBED, YieldAtOnce.of(null, 2), "several CPUs: when they are");
        assertSame(YieldAtOnce.WHILE_CPUS_OVERSUBSCRIBED, YieldAtOnce.of("", 16));
        assertSame(YieldAtOnce.WHILE_CPUS_OVERSUBSCRIBED, YieldAtOnce.of("auto", 16));
        assertSame(YieldAtOnce.WHILE_CPUS_OVERSUBSCRIBED, YieldAtOnce.of("AUTO", 1));
        assertSame(YieldAtOnce.ALWAYS, YieldAtOnce.of(" TRUE ", 16));
        assertTrue(YieldAtOnce.ALWAYS.applies(now, 1));
        assertFalse(YieldAtOnce.NEVER.applies(now, 0));
    }

    /** Yields that last a slice hand the core to threads that bring no work: the CPUs' demand does not matter. */
    @Test
    void sliceLongYieldsStopYieldingAtOnce() {
        assertFalse(YieldAtOnce.WHILE_CPUS_OVERSUBSCRIBED.applies(now, YieldAtOnce.SLICE_LONG_YIELDS));
        assertFalse(YieldAtOnce.WHILE_CPUS_OVERSUBSCRIBED.applies(now, 1));
    }

    /** The share of slice-long yields that stops yielding at once is reached by three of them after brief ones. */
    @Test
    void threeSliceLongYieldsInARowReachTheShare() {
        CoreContention contention = new CoreContention(() -> 0);
        long t = 0;
        for (int i = 0; i < 100; i++) {
            contention.yielded(t += 1_000, 1_000, 0);
        }
        for (int lost = 1; lost <= 3; lost++) {
            contention.yielded(t += CoreContention.LOST_SLICE_NANOS, CoreContention.LOST_SLICE_NANOS, 0);
            assertEquals(lost == 3, contention.share() >= YieldAtOnce.SLICE_LONG_YIELDS, "after " + lost);
        }
    }

    @Test
    void theHostsCountsAreReadable() {
        TestTransport.UCX.assumeAvailable();
        assertTrue(UcxNative.hostOnlineCpus() >= 1);
        assertTrue(UcxNative.hostRunnableThreads() >= 1, "the reader itself runs");
    }
}
