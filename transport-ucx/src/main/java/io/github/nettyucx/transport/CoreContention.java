/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

/**
 * Tells a loop that waits {@link WaitStrategy#ADAPTIVE} when spinning costs it more than it gains because other
 * threads take the cores, so that it sleeps at once, as epoll's loop does, while that lasts.
 *
 * <p>The suspicion comes from the spin's yields. A yield that returns within microseconds gave the core to a thread
 * that wanted it briefly: the peer's loop, an application thread answering a future. A yield that lasts
 * {@link #LOST_SLICE_NANOS} or more gave it to a thread that ran for a scheduler slice; a gap that long between two
 * spin rounds that did not yield (a preemption) says the same. When such yields reach {@link #CONTENDED_SHARE} of
 * the recent ones (a moving average over about {@link #SAMPLES}), the cores are oversubscribed.
 *
 * <p>That alone does not say which waiting is better: threads of other processes that never block (a batch job,
 * a build) make every yield a lost slice and spinning pointless, but the application's own busy threads (a YCSB
 * client's, say) produce the loop's work in those slices, and spinning still pays. So the suspicion starts a
 * trial: the loop sleeps at once for {@link #TRIAL_NANOS} and compares the work it got done per unit of time
 * ({@code work}, the events its runs handled) with that of its spinning just before. Spinning has to prove itself:
 * unless it got {@link #SPIN_GAIN} times the trial's rate or more, the loop holds: it sleeps at once for
 * {@link #HOLD_START_NANOS}. Sleeping that does about as much gives the cores to the threads that wait for them,
 * and with them the tail latency. After a hold it spins for {@link #EPOCH_NANOS}, measuring its spinning rate
 * again. If slice-long yields come back during that epoch (the share, started afresh, reaches
 * {@link #CONTENDED_SHARE}), it holds again at once for twice as long, up to {@link #HOLD_MAX_NANOS}, rather than
 * spin out the epoch losing slices: the requests of a bad epoch are the tail. Otherwise, at the epoch's end, only a
 * hold that did {@link #GAIN} times the epoch's work rate or more starts another, twice as long; a tie goes to
 * spinning here, and an epoch that handled nothing (an idle application) proves nothing: two loops that serve one
 * another (the two ends of a ping-pong) leave their holds at different times, and the first to spin again measures
 * the other's sleeping, which must not keep it holding. Beside lasting contention a loop thus spends a few
 * slices per second spinning. A trial that spinning clearly beat sends it back to spinning and ignores suspicions
 * for a while ({@link #BACKOFF_START_NANOS}, doubling up to {@link #BACKOFF_MAX_NANOS}).
 *
 * <p>One instance per loop, used on its thread only: it looks at times the spin measures anyway and at a count the
 * loop keeps; it neither allocates nor calls the kernel.
 */
final class CoreContention {
    /**
     * The JVM's own busy threads, which take slices too but are no neighbours: milliseconds its JIT compiler and
     * garbage collector have worked so far.
     */
    interface OwnWork {
        long millis();
    }

    /** A yield or a gap between spin rounds this long: another thread held the loop's core for a slice. */
    static final long LOST_SLICE_NANOS = 500_000;
    /** The moving average's weight: about this many recent yields count. */
    static final int SAMPLES = 16;
    /** The share of slice-long yields that starts a trial. */
    static final double CONTENDED_SHARE = 0.25;
    /** How long a trial sleeps at once. */
    static final long TRIAL_NANOS = 50_000_000;
    /** How much more work per unit of time spinning must bring than sleeping at once, to go on spinning. */
    static final double SPIN_GAIN = 1.25;
    /** How much more work per unit of time a hold must have done than the spinning epoch after it, to hold again. */
    static final double GAIN = 2;
    /** The shortest spinning, before a trial and after a hold, that measures the spinning rate. */
    static final long EPOCH_NANOS = 50_000_000;
    /** The first hold after a successful trial. */
    static final long HOLD_START_NANOS = 100_000_000;
    /** The longest hold. */
    static final long HOLD_MAX_NANOS = 1_000_000_000;
    /** How long suspicions are ignored after a trial that did not pay, at first. */
    static final long BACKOFF_START_NANOS = 1_000_000_000;
    /** ... and at most. */
    static final long BACKOFF_MAX_NANOS = 16_000_000_000L;

    /** JIT and GC work this long (ms) in the epoch before a suspicion make it the JVM's own, not neighbours'. */
    static final long OWN_WORK_MILLIS = 2;

    private static final int ONE = 1 << 16;
    private static final int CONTENDED = (int) (CONTENDED_SHARE * ONE);

    private enum Phase {
        /** Spinning as usual, measuring the rate of work while doing so. */
        SPINNING,
        /** Sleeping at once for a trial, to compare with spinning. */
        TRIAL,
        /** Sleeping at once: the last comparison favoured it. */
        HOLDING
    }

    private final OwnWork ownWork;
    private Phase phase = Phase.SPINNING;
    /** {@link #ownWork} at the start of the current spinning epoch. */
    private long phaseStartOwnWork;
    /** The share of slice-long yields, in 1/65536. */
    private int share;

    /** Where the current phase (or the current spinning epoch) began: time and work count. */
    private long phaseStart;
    private long phaseStartWork;
    /** Work per nanosecond of the last spinning epoch of at least {@link #EPOCH_NANOS}; -1 before one. */
    private double spinningRate = -1;
    /** Spinning may not start a trial before this time (the epoch after a hold, a backoff). */
    private long quietUntil;
    private boolean started;

    /** When the current trial or hold ends. */
    private long sleepUntil;
    /** Work per nanosecond of the last hold, and whether the spinning epoch after it is to be compared with it. */
    private double heldRate;
    private boolean afterHold;
    private long holdNanos = HOLD_START_NANOS;
    private long backoffNanos = BACKOFF_START_NANOS;
    private long holds;
    private long trials;

    CoreContention(OwnWork ownWork) {
        this.ownWork = ownWork;
    }

    /**
     * Whether the loop should sleep at once rather than spin, at {@code now}, with {@code work} events handled so
     * far; moves between the phases when one is over.
     */
    boolean holds(long now, long work) {
        if (!started) {
            started = true;
            startSpinning(now, work, now);
            return false;
        }
        switch (phase) {
            case SPINNING:
                if (now - phaseStart >= EPOCH_NANOS) {
                    spinningRate = rate(now, work);
                    long epochWork = work - phaseStartWork;
                    boolean comparing = afterHold;
                    afterHold = false;
                    markStart(now, work, ownWork.millis());
                    if (comparing && holdPaid(epochWork)) {
                        holdTwiceAsLong(now, work);
                        return true;
                    }
                }
                return false;
            case TRIAL:
                if (now - sleepUntil < 0) {
                    return true;
                }
                double trialRate = rate(now, work);
                if (sleepingPays(trialRate)) {
                    backoffNanos = BACKOFF_START_NANOS;
                    hold(now, work, HOLD_START_NANOS);
                    return true;
                }
                startSpinning(now, work, now + backoffNanos);
                backoffNanos = Math.min(BACKOFF_MAX_NANOS, backoffNanos * 2);
                return false;
            case HOLDING:
            default:
                if (now - sleepUntil < 0) {
                    return true;
                }
                heldRate = rate(now, work);
                startSpinning(now, work, now + EPOCH_NANOS);
                afterHold = true;
                // Contention seen before the hold does not count against the epoch after it.
                share = 0;
                return false;
        }
    }

    /**
     * Whether sleeping at once got about as much work done per unit of time as the last spinning did, or more: the
     * spinning did not get {@link #SPIN_GAIN} times as much. A sleep that got nothing done says nothing (the
     * application was idle).
     */
    private boolean sleepingPays(double sleepingRate) {
        return spinningRate >= 0 && sleepingRate > 0 && spinningRate < SPIN_GAIN * sleepingRate;
    }

    /**
     * Whether the last hold clearly beat the spinning epoch after it, which handled {@code epochWork} events: by
     * {@link #GAIN} times its rate, and the epoch was not idle.
     */
    private boolean holdPaid(long epochWork) {
        return epochWork > 0 && heldRate >= GAIN * spinningRate;
    }

    /**
     * A yield of the spin lasted {@code yieldNanos}, ending at {@code now}, with {@code work} events handled so far;
     * returns whether the loop should stop spinning now (a trial started).
     */
    boolean yielded(long now, long yieldNanos, long work) {
        boolean lost = yieldNanos >= LOST_SLICE_NANOS;
        share += ((lost ? ONE : 0) - share) / SAMPLES;
        if (!lost || share < CONTENDED || phase != Phase.SPINNING || !started) {
            return false;
        }
        if (afterHold) {
            return holdsAgain(now, work);
        }
        if (now - quietUntil < 0) {
            return false;
        }
        if (now - phaseStart >= EPOCH_NANOS / 2) {
            spinningRate = rate(now, work);
        }
        if (spinningRate < 0) {
            return false;
        }
        long own = ownWork.millis();
        if (jvmWorkedSinceStart(own)) {
            // The JIT compiler or the garbage collector took those slices: wait for an epoch without them.
            markStart(now, work, own);
            quietUntil = now + EPOCH_NANOS;
            return false;
        }
        phase = Phase.TRIAL;
        markStart(now, work, own);
        sleepUntil = now + TRIAL_NANOS;
        trials++;
        return true;
    }

    /**
     * The epoch of spinning after a hold meets the contention again (the share, started afresh with the epoch, is
     * back up): rather than spin out the epoch, losing slices all along, it holds again at once, twice as long.
     * Slices the JVM's own work took do not count.
     */
    private boolean holdsAgain(long now, long work) {
        if (jvmWorkedSinceStart(ownWork.millis())) {
            return false;
        }
        afterHold = false;
        holdTwiceAsLong(now, work);
        return true;
    }

    /**
     * Whether the JVM's own work ({@code own}, its milliseconds so far) took {@link #OWN_WORK_MILLIS} or more since the
     * current epoch began: the slices lost meanwhile were its, not neighbours'.
     */
    private boolean jvmWorkedSinceStart(long own) {
        return own - phaseStartOwnWork >= OWN_WORK_MILLIS;
    }

    /**
     * The spin went {@code gapNanos} between two rounds without yielding, noticed at {@code now}: a preemption when
     * it is slice-long, which counts as a slice-long yield; anything shorter counts for nothing.
     */
    boolean between(long now, long gapNanos, long work) {
        return gapNanos >= LOST_SLICE_NANOS && yielded(now, gapNanos, work);
    }

    /** Holds again, for twice as long as the last hold, at most {@link #HOLD_MAX_NANOS}. */
    private void holdTwiceAsLong(long now, long work) {
        hold(now, work, Math.min(HOLD_MAX_NANOS, holdNanos * 2));
    }

    private void hold(long now, long work, long nanos) {
        phase = Phase.HOLDING;
        markStart(now, work, phaseStartOwnWork);
        holdNanos = nanos;
        sleepUntil = now + nanos;
        holds++;
    }

    private void startSpinning(long now, long work, long quietUntil) {
        phase = Phase.SPINNING;
        markStart(now, work, ownWork.millis());
        this.quietUntil = quietUntil;
    }

    /** Where the current phase or spinning epoch begins: its time, work count and the JVM's own work. */
    private void markStart(long now, long work, long own) {
        phaseStart = now;
        phaseStartWork = work;
        phaseStartOwnWork = own;
    }

    private double rate(long now, long work) {
        long nanos = now - phaseStart;
        return nanos <= 0 ? 0 : (work - phaseStartWork) / (double) nanos;
    }

    /** The share of slice-long yields among recent ones, 0 to 1. */
    double share() {
        return share / (double) ONE;
    }

    /** Holds begun so far (trials that showed a gain, and holds after holds). */
    long holdsBegun() {
        return holds;
    }

    /** Trials begun so far. */
    long trialsBegun() {
        return trials;
    }

    /** How long the current or last hold lasts. */
    long holdNanos() {
        return holdNanos;
    }

    @Override
    public String toString() {
        return "CoreContention(" + phase + ", share " + share() + ", " + trials + " trials, " + holds + " holds)";
    }
}
