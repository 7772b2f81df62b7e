/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * Tells a loop that waits {@link WaitStrategy#ADAPTIVE} whether it is in its start-up: from the moment it first
 * carries a connection it spins for, through its first {@link #events} events, while the JIT compiler works
 * ({@link JitActivity}). Through that time each idle period spins for up to {@link #WINDOW_NANOS} without yielding,
 * then sleeps, and teaches the adaptive window nothing. {@code -Dio.github.nettyucx.startupSpinEvents} sets the
 * count; zero turns it off.
 *
 * <p>What it is for: in a fresh JVM the compiler's threads take a scheduler slice whenever a spin yields, and the
 * peer's replies, still run by the interpreter, outlast the usual spin window. The adaptive window then learns to
 * sleep, and every round trip of the first tens of thousands costs an epoll wake-up at each end, more than epoll's
 * own. Spinning without yielding keeps UCX's round trip from the first ones; ending the spin after a window still
 * leaves the compilers the cores while the peer is stalled (polling without end starves them, and the first round
 * trips take longer in all). The compiler compiles a method once it has run some thousands of times, so the
 * start-up is counted in the loop's events rather than in time; it ends {@link #MAX_NANOS} after it began in any
 * case, which bounds what it costs beside busy neighbours.
 *
 * <p>Where application threads drive the loop (their writes and tasks reach it from other threads, as a YCSB
 * client's or a gRPC service's do), those threads need the cores, and a spin that holds one through the first
 * second lengthens their tail latency: the start-up ends for good once more than {@link #OTHER_THREADS_TASKS} tasks
 * came from other threads since it began. A loop whose handlers answer what arrives (an echo, a server) keeps it.
 * The measurements are in docs/settings.md#the-first-second.
 *
 * <p>One instance per loop, used on its thread, except {@link #taskFromOtherThread()}; it neither allocates nor
 * calls the kernel, except for the debug log line that says when and why the start-up ended.
 */
final class StartupSpin {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(StartupSpin.class);
    /** How long an idle period of the start-up spins before it sleeps. */
    static final long WINDOW_NANOS = 500_000;
    /** The start-up ends this long after it began, whatever the count. */
    static final long MAX_NANOS = 3_000_000_000L;
    /** More tasks from other threads than this end the start-up: more than a program's set-up hands a loop. */
    static final int OTHER_THREADS_TASKS = 64;

    private final JitActivity jit;
    private final long events;
    private boolean started;
    /** Read by the threads that hand the loop tasks, which count them only while the start-up may still run. */
    private volatile boolean over;
    /** Tasks from other threads so far, counted without atomicity (lost counts only delay the end). */
    private volatile int otherThreadsTasks;
    private int otherThreadsTasksAtStart;
    private long endsAt;
    private long endsAtWork;

    /** {@code events}: how many events the start-up lasts; zero or less for none. */
    StartupSpin(JitActivity jit, long events) {
        this.jit = jit;
        this.events = events;
        this.over = events <= 0;
    }

    /** Another thread handed the loop a task (a write, a flush, a task of its own). */
    void taskFromOtherThread() {
        if (!over) {
            otherThreadsTasks++;
        }
    }

    /**
     * Whether the loop's next idle period spins as the start-up's do, at {@code now} ({@link System#nanoTime()}) with
     * {@code work} events handled so far; {@code connected}: whether it carries a connection it spins for. The
     * start-up begins at the first call with such a connection and ends for good after {@link #events} events,
     * {@link #MAX_NANOS} or {@link #OTHER_THREADS_TASKS} tasks from other threads.
     */
    boolean spins(long now, long work, boolean connected) {
        if (over) {
            return false;
        }
        if (!started) {
            if (!connected) {
                return false;
            }
            started = true;
            endsAt = now + MAX_NANOS;
            endsAtWork = work + events;
            otherThreadsTasksAtStart = otherThreadsTasks;
        }
        boolean threadsDrive = otherThreadsTasks - otherThreadsTasksAtStart > OTHER_THREADS_TASKS;
        if (work - endsAtWork >= 0 || now - endsAt >= 0 || threadsDrive) {
            over = true;
            logger.debug("The loop's start-up ended after {} events and {} ms{}", work - endsAtWork + events,
                    TimeUnit.NANOSECONDS.toMillis(now - endsAt + MAX_NANOS),
                    threadsDrive ? ": other threads hand it their tasks" : "");
            return false;
        }
        return jit.busy(now);
    }
}
