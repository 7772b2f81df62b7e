/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Whether more threads want the host's CPUs than it has: the kernel's count of runnable threads (spinning loops
 * count as runnable) as a moving average over about {@link #HORIZON_NANOS}, against the online CPUs plus
 * {@link #EXCESS}. An adaptive loop on several CPUs yields at once only while this holds (and its yields are brief,
 * {@link YieldAtOnce#WHILE_CPUS_OVERSUBSCRIBED}; docs/settings.md#adaptive-waiting): two loops on a host with a free
 * core then spin as usual, and the scheduler can give each a core of its own; when application threads want the
 * cores too, yielding at once hands them over sooner.
 *
 * <p>The count is sampled at most once every {@link #SAMPLE_NANOS} for the whole process, by whichever loop asks
 * first once that time is up; the others read the average. A sample after a gap (no loop spun meanwhile) weighs
 * as much as the gap, up to replacing the average, so that an old reading does not decide. Where the count
 * cannot be read the demand is never excessive.
 *
 * <p>Both counts are the host's, also in a container: a container's own CPUs may be full while the host's are
 * not, which this does not see.
 */
final class CpuDemand {
    /** Where the counts come from: {@link UcxNative} on Linux, a script in tests. */
    interface Source {
        /** Threads running or runnable now on all CPUs together, the caller included; -1 when unknown. */
        int runnableThreads();
    }

    /** The shortest time between two samples of the process. */
    static final long SAMPLE_NANOS = 2_000_000;
    /** About how far back the moving average looks. */
    static final long HORIZON_NANOS = 32_000_000;
    /** How many runnable threads beyond one per CPU, on average, make the demand excessive. */
    static final double EXCESS = 0.5;

    private final Source source;
    /** The average above which the demand is excessive; infinite when the CPU count is unknown. */
    private final double limit;
    /** When the next sample may be taken, {@link #SAMPLE_NANOS} after the last; whoever moves it takes the sample. */
    private final AtomicLong nextSample;
    private volatile double average;

    CpuDemand(Source source, int cpus, long now) {
        this.source = source;
        this.limit = cpus > 0 ? cpus + EXCESS : Double.POSITIVE_INFINITY;
        // As if the last sample were a horizon old: the first one replaces the average.
        this.nextSample = new AtomicLong(now - HORIZON_NANOS + SAMPLE_NANOS);
    }

    /** Whether more threads want the CPUs than there are, at {@code now}; samples the count when it is time. */
    boolean excessive(long now) {
        long next = nextSample.get();
        if (now - next >= 0 && nextSample.compareAndSet(next, now + SAMPLE_NANOS)) {
            sample(now - (next - SAMPLE_NANOS));
        }
        return average > limit;
    }

    /** Takes a sample {@code sinceLast} after the last one. */
    private void sample(long sinceLast) {
        int runnable = source.runnableThreads();
        if (runnable < 0) {
            return;
        }
        double weight = Math.min(1.0, sinceLast / (double) HORIZON_NANOS);
        double current = average;
        average = current + (runnable - current) * weight;
    }

    /** The moving average of runnable threads. */
    double average() {
        return average;
    }

    @Override
    public String toString() {
        return "CpuDemand(" + average + " runnable on average, excessive above " + limit + ')';
    }
}
