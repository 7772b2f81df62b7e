/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

/**
 * Tells a loop that waits {@link WaitStrategy#ADAPTIVE} when spinning costs other threads their core, so that it
 * sleeps at once, as epoll's loop does, until the cores are free again.
 *
 * <p>What it watches is the spin's yields. A yield that returns within microseconds gave the core to a thread
 * that wanted it briefly: the peer's loop, an application thread answering a future. A yield that lasts a
 * scheduler slice ({@link #LOST_SLICE_NANOS}) gave it to a thread busy with work of its own: another process, a
 * third JVM, a garbage collector or the JIT compiler; a gap that long between two spin rounds that did not yield
 * (the thread was preempted) says the same. One such thread beside two cooperating loops on two cores still
 * leaves the loops a core to share, and only a few of their yields meet it; busy threads on every core meet
 * nearly every yield, and the spin then spends the loop's share of the core, which the scheduler would
 * otherwise spend on waking it at once when its message arrives. So what counts is the share of slice-long
 * yields among recent ones ({@link #share()}, a moving average over about {@link #SAMPLES} yields): at
 * {@link #CONTENDED_SHARE} or above, the next slice-long yield starts a hold, during which the loop does not
 * spin.
 *
 * <p>A hold lasts {@link #HOLD_START_NANOS}. The first spins after it probe whether the competition is still
 * there: a slice-long yield within one hold's length of its end doubles the next hold, up to
 * {@link #HOLD_MAX_NANOS}, so a loop beside lasting contention probes rarely; quick yields bring the share down,
 * and once it is below {@link #CONTENDED_SHARE}, occasional slice-long yields start no hold.
 *
 * <p>One instance per loop, used on its thread only: it looks at times the spin measures anyway, and neither
 * allocates nor calls the kernel.
 */
final class CoreContention {
    /** A yield or a gap between spin rounds this long: another thread held the loop's core for a slice. */
    static final long LOST_SLICE_NANOS = 500_000;
    /** The moving average's weight: about this many recent yields count. */
    static final int SAMPLES = 16;
    /** The share of slice-long yields from which the loop stops spinning. */
    static final double CONTENDED_SHARE = 0.25;
    /** The first hold. */
    static final long HOLD_START_NANOS = 20_000_000;
    /** The longest hold. */
    static final long HOLD_MAX_NANOS = 1_000_000_000;

    private static final int ONE = 1 << 16;
    private static final int CONTENDED = (int) (CONTENDED_SHARE * ONE);

    /** The share of slice-long yields, in 1/65536. */
    private int share;
    private long holdNanos = HOLD_START_NANOS;
    /** When the current or last hold ends ({@link System#nanoTime()}). */
    private long heldUntil;
    private long holds;

    /** Whether the loop should sleep at once rather than spin, at {@code now}. */
    boolean holds(long now) {
        return holds > 0 && now - heldUntil < 0;
    }

    /**
     * A yield of the spin lasted {@code yieldNanos}, ending at {@code now}; returns whether that started a hold.
     */
    boolean yielded(long now, long yieldNanos) {
        boolean lost = yieldNanos >= LOST_SLICE_NANOS;
        share += ((lost ? ONE : 0) - share) / SAMPLES;
        return lost && share >= CONTENDED && hold(now);
    }

    /**
     * The spin went {@code gapNanos} between two rounds without yielding, noticed at {@code now}: a preemption
     * when it is slice-long, which counts as a slice-long yield; anything shorter counts for nothing. Returns
     * whether that started a hold.
     */
    boolean between(long now, long gapNanos) {
        return gapNanos >= LOST_SLICE_NANOS && yielded(now, gapNanos);
    }

    private boolean hold(long now) {
        boolean again = holds > 0 && now - heldUntil <= holdNanos;
        holdNanos = again ? Math.min(HOLD_MAX_NANOS, holdNanos * 2) : HOLD_START_NANOS;
        heldUntil = now + holdNanos;
        holds++;
        return true;
    }

    /** The share of slice-long yields among recent ones, 0 to 1. */
    double share() {
        return share / (double) ONE;
    }

    /** How long the current or last hold lasts. */
    long holdNanos() {
        return holdNanos;
    }

    /** Holds begun so far. */
    long holdsBegun() {
        return holds;
    }

    @Override
    public String toString() {
        return "CoreContention(share " + share() + ", hold " + holdNanos / 1_000_000 + " ms, " + holds + " holds)";
    }
}
