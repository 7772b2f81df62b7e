/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

/**
 * The spin window of a loop that waits {@link WaitStrategy#ADAPTIVE}, learnt from how its idle periods end, the
 * way KVM's halt polling sizes a virtual CPU's polling: an idle period that ended within the configured maximum
 * (so a longer spin would have caught its end) doubles the window; one that outlasted {@link #OUTLASTING} times
 * the maximum halves it, down to zero, where the loop sleeps at once until short idle periods bring spinning
 * back; a spin that finds work keeps the window. An idle period between the two keeps it too: it may be a short
 * one stretched by the sleep itself (the wake-up of a loop that sleeps takes about as long as the maximum spin
 * on a busy or virtualized machine), and shrinking on it would keep a loop that sleeps asleep.
 *
 * <p>Spinning pays only while the thread that brings the work (the peer's loop, an application thread) runs on
 * another core. When work arrived right after a yield during which another thread ran on our core, that thread
 * needed the core we were spinning on: {@link #yieldAtOnce()} says so until a spin finds work without that having
 * happened, and the loop may then yield from its first empty round ({@link YieldAtOnce} says when).
 * A yield with no other thread to run returns at once and costs little.
 *
 * <p>One instance per loop, used on its thread only; nothing here allocates or calls the kernel.
 */
final class AdaptiveSpin {
    /** The window an idle period that ended soon after a sleep brings back, from zero. */
    static final long START_NANOS = 1_000;
    /** A yield that lasted this long gave our core to another thread. */
    static final long OTHER_THREAD_RAN_NANOS = 5_000;
    /** An idle period longer than this many times the maximum spin says spinning was wasted. */
    static final int OUTLASTING = 4;

    private final long maxNanos;
    private long windowNanos;
    private boolean yieldAtOnce;

    private final long wastedNanos;

    AdaptiveSpin(long maxNanos) {
        this.maxNanos = maxNanos;
        this.wastedNanos = maxNanos * OUTLASTING;
        this.windowNanos = maxNanos;
    }

    /** How long the next idle period spins before sleeping. */
    long windowNanos() {
        return windowNanos;
    }

    /** Whether the next spin yields from its first empty round. */
    boolean yieldAtOnce() {
        return yieldAtOnce;
    }

    /**
     * A spin found work; {@code afterOtherThreadRan}: just after a yield during which another thread ran on
     * our core.
     */
    void foundWork(boolean afterOtherThreadRan) {
        yieldAtOnce = afterOtherThreadRan;
    }

    /** The spin found nothing and the loop slept; the whole idle period, spin included, lasted this long. */
    void slept(long idleNanos) {
        if (idleNanos <= maxNanos) {
            windowNanos = Math.min(maxNanos, Math.max(START_NANOS, windowNanos * 2));
        } else if (idleNanos > wastedNanos) {
            long half = windowNanos / 2;
            windowNanos = half < START_NANOS ? 0 : half;
        }
    }

    @Override
    public String toString() {
        return "AdaptiveSpin(window " + windowNanos + " ns of " + maxNanos + ", yield at once " + yieldAtOnce + ')';
    }
}
