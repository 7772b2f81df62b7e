/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * The time slice a loop's thread asks the kernel's scheduler for while it sleeps in every wait: a short one, so
 * that a loop woken by a message preempts a busy thread on its core at once instead of waiting for that thread's
 * slice to end (Linux 6.12's scheduler lets a waking thread with a shorter slice preempt; older kernels ignore the
 * request). The loop's share of the CPU does not change: the scheduler gives it shorter turns, not more time.
 *
 * <p>Only while it sleeps at once: a {@link WaitStrategy#SLEEP} loop always, an {@link WaitStrategy#ADAPTIVE} one
 * while busy threads take the cores and it holds ({@link CoreContention}). A spinning loop keeps the kernel's
 * slice: a yield only moves a thread's deadline back by its own slice, so with a short one the scheduler picks the
 * yielding loop again and the threads it yields to wait (docs/settings.md#loop-time-slice).
 *
 * <p>{@code -Dio.github.nettyucx.loopSliceMicros=N}, default {@link #DEFAULT_MICROS}; 0 never asks. One instance
 * per loop, on its thread; a request is three system calls (the thread's attributes read, set and read back),
 * made only when the loop changes between sleeping at once and spinning.
 */
final class UcxLoopSlice {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(UcxLoopSlice.class);

    /** The shortest slice Linux grants such a request. */
    static final long DEFAULT_MICROS = 100;

    private static final long NANOS = TimeUnit.MICROSECONDS.toNanos(Math.max(0,
            SystemPropertyUtil.getLong("io.github.nettyucx.loopSliceMicros", DEFAULT_MICROS)));

    /** Whether the loop's thread has the short slice. */
    private boolean shortSlice;

    /** From now on the loop sleeps in every wait ({@code true}), or may spin; asks for the slice that fits. */
    void sleepsAtOnce(boolean atOnce) {
        if (atOnce != shortSlice && NANOS > 0) {
            shortSlice = atOnce;
            request(atOnce ? NANOS : 0);
        }
    }

    /**
     * A new thread runs the loop from now on (the first, or another after the loop was suspended): it asks for what
     * the loop had, and for the short slice anyway if the loop {@code alwaysSleepsAtOnce}.
     */
    void threadChanged(boolean alwaysSleepsAtOnce) {
        shortSlice |= alwaysSleepsAtOnce && NANOS > 0;
        if (shortSlice) {
            request(NANOS);
        }
    }

    private static void request(long nanos) {
        long granted = UcxNative.threadRequestSlice(nanos);
        if (logger.isDebugEnabled()) {
            logger.debug("{}: {}", Thread.currentThread().getName(), describe(nanos, granted));
        }
    }

    private static String describe(long requested, long granted) {
        if (granted > 0) {
            return (requested > 0 ? "short time slice " : "the kernel's time slice ") + granted + " ns";
        }
        if (granted == 0) {
            return "the kernel keeps no time slice per thread (before Linux 6.12): nothing to ask for";
        }
        return "could not ask for a time slice (errno " + -granted + "): the loop runs with what it had";
    }
}
