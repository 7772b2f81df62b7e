/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.IoHandlerContext;
import io.netty.util.NettyRuntime;
import io.netty.util.internal.SystemPropertyUtil;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * How a {@link UcxIoHandler}'s loop waits when a run found no work: as its {@link WaitStrategy} says, it spins
 * (making UCX progress, yielding the core now and then) and/or sleeps in the worker's epoll wait, and publishes
 * the deadline of that sleep so that {@link UcxIoHandler#wakeup()} writes the eventfd only while it sleeps. It
 * also measures where the I/O work of the current run began, which the handler reports as active I/O time.
 * Used on the loop's thread, except {@link #taskFromOtherThread()} and {@link #wakeupNeeded()}.
 */
final class UcxLoopWait {
    private static final long AWAKE = -1L;
    private static final long NONE = Long.MAX_VALUE;
    /**
     * How long a spin polls before it starts yielding the core (see {@link #spin}):
     * {@code -Dio.github.nettyucx.spinYieldAfterMicros}, default 10, negative for never. Never yielding
     * gives the best round trips while every loop has a core of its own, and loses most of the throughput
     * once more threads are busy than there are cores; the measurements behind 10 are in
     * docs/settings.md#yielding-while-spinning.
     */
    private static final long SPIN_WITHOUT_YIELD_NANOS = spinWithoutYieldNanos(
            SystemPropertyUtil.getLong("io.github.nettyucx.spinYieldAfterMicros", 10));
    /** A spin that starts yielding after this long never does. */
    private static final long NEVER_YIELD = spinWithoutYieldNanos(-1);
    /** Then the thread yields once every this many (a power of two) empty progress rounds. */
    private static final int SPIN_ROUNDS_PER_YIELD_MASK = 4 - 1;
    /**
     * When {@link WaitStrategy#ADAPTIVE} yields from the first empty round, every round, once
     * {@link AdaptiveSpin#yieldAtOnce()} says the peer needs our core: {@code -Dio.github.nettyucx.adaptiveYieldAtOnce}
     * {@code true} (always), {@code false} (never), {@code auto} (while the host's CPUs are oversubscribed and the
     * loop's yields are brief), or, unset, as {@link YieldAtOnce#defaultFor(int)} says for the JVM's CPU count.
     */
    private static final YieldAtOnce YIELD_AT_ONCE = YieldAtOnce.of(
            SystemPropertyUtil.get("io.github.nettyucx.adaptiveYieldAtOnce"), NettyRuntime.availableProcessors());
    /**
     * Whether {@link WaitStrategy#ADAPTIVE} stops spinning for a while when busy threads take the cores
     * ({@link CoreContention}): {@code -Dio.github.nettyucx.sleepWhenContended}, default true
     * (docs/settings.md#busy-neighbours).
     */
    private static final boolean SLEEP_WHEN_CONTENDED = SystemPropertyUtil.getBoolean(
            "io.github.nettyucx.sleepWhenContended", true);
    /**
     * How many events a loop's start-up lasts ({@link StartupSpin}): {@code -Dio.github.nettyucx.startupSpinEvents},
     * default 30000, 0 for none: it gives a fresh echo pair UCX's round trip from the first ones
     * (docs/settings.md#the-first-second).
     */
    private static final long STARTUP_SPIN_EVENTS = SystemPropertyUtil.getLong(
            "io.github.nettyucx.startupSpinEvents", 30_000);
    /** Holds of {@link CoreContention} begun in this process: beside busy threads, sleeping at once paid. */
    static final LongAdder CONTENTION_HOLDS = new LongAdder();
    private final UcxIoHandler loop;
    private final UcxIoHandlerConfig config;
    private final AtomicLong nextWakeupNanos = new AtomicLong(AWAKE);
    /** The spin window of {@link WaitStrategy#ADAPTIVE}. */
    private final AdaptiveSpin adaptiveSpin;
    /** Tells from the spins' yields and the loop's rate of work when sleeping at once beats spinning. */
    private final CoreContention contention = new CoreContention(JvmWork.INSTANCE);
    /** Through its start-up, while the JIT compiler works, an adaptive loop spins longer and without yielding. */
    private final StartupSpin startup =
            new StartupSpin(new JitActivity(JvmWork.INSTANCE::compilerMillis), STARTUP_SPIN_EVENTS);
    /** The time slice the loop's thread asks for: a short one while it sleeps at once. */
    private final UcxLoopSlice slice = new UcxLoopSlice();
    /** Whether {@link #contention} may stop this loop's spins: {@link WaitStrategy#ADAPTIVE} only. */
    private final boolean holdsSpinning;
    /** Events the loop's runs have handled so far: what {@link #contention} compares spinning and sleeping by. */
    private long work;
    /** Whether the last yield of the current spin let another thread run on this core. */
    private boolean yieldGaveCoreAway;
    /**
     * Where the I/O work of the current run began ({@link System#nanoTime()}): the start of the run, the end of
     * the last empty spin round, or the end of the wait. What follows is reported as active I/O time.
     */
    private long ioStartNanos;

    UcxLoopWait(UcxIoHandler loop, UcxIoHandlerConfig config) {
        this.loop = loop;
        this.config = config;
        adaptiveSpin = new AdaptiveSpin(config.spinNanos());
        holdsSpinning = SLEEP_WHEN_CONTENDED && config.waitStrategy() == WaitStrategy.ADAPTIVE;
    }

    private static long spinWithoutYieldNanos(long micros) {
        return micros < 0 ? Long.MAX_VALUE / 4 : TimeUnit.MICROSECONDS.toNanos(micros);
    }

    /** A thread (the first, or a new one after the loop was suspended) runs the loop from now on. */
    void threadChanged() {
        slice.threadChanged(config.waitStrategy() == WaitStrategy.SLEEP);
    }

    /** The loop's thread leaves it for good: it gives back what it asked the kernel for. */
    void threadLeaves() {
        slice.sleepsAtOnce(false);
    }

    /** A run of the loop begins at {@code now}: its I/O work starts there, unless it waits. */
    void runStarts(long now) {
        ioStartNanos = now;
    }

    /** Where the I/O work of the current run began, after any wait. */
    long ioStartNanos() {
        return ioStartNanos;
    }

    /** The current run handled {@code handled} events. */
    void workDone(int handled) {
        work += handled;
    }

    /** Another thread handed the loop a task: application threads that do so need the cores ({@link StartupSpin}). */
    void taskFromOtherThread() {
        startup.taskFromOtherThread();
    }

    /**
     * Whether a task added from another thread must write the eventfd: the loop sleeps, or is about to, and no
     * other task woke it yet. Clears the published deadline, so that the next task writes nothing.
     */
    boolean wakeupNeeded() {
        return nextWakeupNanos.getAndSet(AWAKE) != AWAKE;
    }

    /** Holds of this loop's {@link CoreContention} so far; on the loop's thread. */
    long contentionHolds() {
        return contention.holdsBegun();
    }

    /** Waits for work as the configured strategy says; returns what it handled once some came. */
    int awaitWork(IoHandlerContext context) throws IOException {
        if (loop.onlyPlainPeers()) {
            // The loop waits as epoll's does (UcxIoHandler.onlyPlainPeers says why).
            return sleep(context);
        }
        switch (config.waitStrategy()) {
            case BUSY_POLL:
                return Math.max(0, loop.worker().waitAndDispatch(0, loop));
            case SPIN_THEN_SLEEP:
                int handled = spin(context, config.spinNanos(), SPIN_WITHOUT_YIELD_NANOS, SPIN_ROUNDS_PER_YIELD_MASK);
                return handled > 0 ? handled : sleep(context);
            case ADAPTIVE:
                return adaptiveWait(context);
            case SLEEP:
            default:
                return sleep(context);
        }
    }

    /**
     * Spins as {@link AdaptiveSpin} says, then sleeps; tells it how the idle period ended. While
     * {@link #YIELD_AT_ONCE} applies, spin rounds that yield, yield every round, and from the first one while
     * the peer needs our core; otherwise they yield as {@link WaitStrategy#SPIN_THEN_SLEEP}'s do. While busy
     * threads take the cores and {@link CoreContention} tries or holds sleeping at once, it sleeps at once, and the
     * window waits for that to end. Through the loop's start-up ({@link StartupSpin}) it spins as that says instead,
     * longer and without yielding, and the adaptive window learns nothing from it.
     */
    private int adaptiveWait(IoHandlerContext context) throws IOException {
        long idleStart = ioStartNanos;
        if (startup.spins(idleStart, work, loop.hasSpinningPeers())) {
            int handled = spin(context, StartupSpin.WINDOW_NANOS, NEVER_YIELD, SPIN_ROUNDS_PER_YIELD_MASK);
            return handled > 0 ? handled : sleep(context);
        }
        if (holdsSpinning && holdsBesideBusyThreads(idleStart)) {
            return sleep(context);
        }
        boolean yieldAtOnce = YIELD_AT_ONCE.applies(idleStart, contention.share());
        long yieldAfter = yieldAtOnce && adaptiveSpin.yieldAtOnce() ? 0 : SPIN_WITHOUT_YIELD_NANOS;
        int handled = spin(context, adaptiveSpin.windowNanos(), yieldAfter,
                yieldAtOnce ? 0 : SPIN_ROUNDS_PER_YIELD_MASK);
        if (handled > 0) {
            adaptiveSpin.foundWork(yieldGaveCoreAway);
            return handled;
        }
        handled = sleep(context);
        adaptiveSpin.slept(System.nanoTime() - idleStart);
        return handled;
    }

    /** Whether {@link #contention} has this idle period sleep at once; counts the holds it begins. */
    private boolean holdsBesideBusyThreads(long now) {
        long begun = contention.holdsBegun();
        boolean holds = contention.holds(now, work);
        if (contention.holdsBegun() != begun) {
            CONTENTION_HOLDS.increment();
        }
        slice.sleepsAtOnce(holds);
        return holds;
    }

    /**
     * Polls the worker until work arrives or {@code spinNanos} are over. After the first {@code yieldAfterNanos}
     * the thread yields its core every {@code roundsPerYieldMask + 1} empty rounds: when there are more busy
     * threads than cores (the peer process, other loops, the application), a spinner that never yields holds
     * the core that the thread it waits for needs, and round trips stretch to scheduler time slices. Yielding
     * from the start would cost a quick reply its fast path, unless the peer is known to share our core
     * ({@link AdaptiveSpin}). Each empty round moves {@link #ioStartNanos}: the round that finds work is the only
     * active one. Every yield, and every slice-long gap between rounds, is reported to {@link CoreContention}; an
     * adaptive loop stops spinning as soon as it starts a trial of sleeping at once.
     */
    private int spin(IoHandlerContext context, long spinNanos, long yieldAfterNanos, int roundsPerYieldMask)
            throws IOException {
        long start = ioStartNanos;
        long spinUntil = start + spinNanos;
        long yieldFrom = start + yieldAfterNanos;
        int rounds = 0;
        long now;
        long roundStart = start;
        yieldGaveCoreAway = false;
        do {
            int handled = loop.processCompletions();
            if (loop.hasPlainSockets()) {
                handled += Math.max(0, loop.worker().waitAndDispatch(0, loop));
            }
            if (handled > 0) {
                return handled;
            }
            if (!context.canBlock()) {
                return 0;
            }
            now = System.nanoTime();
            boolean held = holdsSpinning && contention.between(now, now - roundStart, work);
            ioStartNanos = now;
            if (now >= yieldFrom && (++rounds & roundsPerYieldMask) == 0) {
                Thread.yield();
                // A yield may last a time slice, spent waiting.
                ioStartNanos = System.nanoTime();
                long yielded = ioStartNanos - now;
                yieldGaveCoreAway = yielded >= AdaptiveSpin.OTHER_THREAD_RAN_NANOS;
                held |= holdsSpinning && contention.yielded(ioStartNanos, yielded, work);
            }
            if (held) {
                break;
            }
            roundStart = ioStartNanos;
        } while (now < spinUntil);
        return Math.max(0, loop.worker().waitAndDispatch(0, loop));
    }

    /**
     * Publishes the wake-up deadline before re-checking {@link IoHandlerContext#canBlock()}: a task
     * added after that check sees the deadline in {@link UcxIoHandler#wakeup()} and writes the eventfd.
     */
    private int sleep(IoHandlerContext context) throws IOException {
        if (!context.canBlock()) {
            // Work came while the loop spun: it does not sleep, so it publishes no deadline either, which would
            // have tasks from other threads write the eventfd in the meantime for nothing.
            return loop.processCompletions();
        }
        long deadline = context.deadlineNanos();
        nextWakeupNanos.set(deadline == -1 ? NONE : deadline);
        int events = 0;
        try {
            if (context.canBlock()) {
                long timeout = deadline == -1 ? -1 : Math.max(1, context.delayNanos(System.nanoTime()));
                boolean probing = loop.sharedMemoryProbe().inFlight();
                if (probing && (timeout < 0 || timeout > UcxSharedMemoryProbe.CHECK_NANOS)) {
                    timeout = UcxSharedMemoryProbe.CHECK_NANOS;
                }
                long sweepIn = loop.worker().nanosToSweep(System.nanoTime());
                if (sweepIn >= 0 && (timeout < 0 || timeout > sweepIn)) {
                    // Idle connections park at the worker's next sweep, which an idle loop must not sleep through.
                    timeout = Math.max(1, sweepIn);
                }
                UcxTransportMetrics.loopSlept();
                events = loop.worker().waitAndDispatch(timeout, loop);
                ioStartNanos = loop.worker().socketsPolledAt();
            }
        } finally {
            nextWakeupNanos.set(AWAKE);
        }
        return Math.max(0, events) + loop.processCompletions();
    }
}
