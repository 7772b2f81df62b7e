/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

/**
 * Tells a loop that waits {@link WaitStrategy#ADAPTIVE} whether it is in its start-up: from the moment it first
 * carries a connection it spins for, through its first {@link #events} events, while the JIT compiler works
 * ({@link JitActivity}). Through that time each idle period spins for up to {@link #WINDOW_NANOS} without yielding,
 * then sleeps, and teaches the adaptive window nothing. Off unless {@code -Dio.github.nettyucx.startupSpinEvents}
 * sets the count.
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
 * <p>Why it is off: where application threads need the cores (a YCSB client's), the spin takes them through the
 * first second, and their tail latency grows. The measurements are in docs/settings.md#the-first-second.
 *
 * <p>One instance per loop, used on its thread only; it neither allocates nor calls the kernel.
 */
final class StartupSpin {
    /** How long an idle period of the start-up spins before it sleeps. */
    static final long WINDOW_NANOS = 500_000;
    /** The start-up ends this long after it began, whatever the count. */
    static final long MAX_NANOS = 3_000_000_000L;

    private final JitActivity jit;
    private final long events;
    private boolean started;
    private boolean over;
    private long endsAt;
    private long endsAtWork;

    /** {@code events}: how many events the start-up lasts; zero or less for none. */
    StartupSpin(JitActivity jit, long events) {
        this.jit = jit;
        this.events = events;
        this.over = events <= 0;
    }

    /**
     * Whether the loop's next idle period spins as the start-up's do, at {@code now} ({@link System#nanoTime()}) with
     * {@code work} events handled so far; {@code connected}: whether it carries a connection it spins for. The
     * start-up begins at the first call with such a connection and ends for good after {@link #events} events or
     * {@link #MAX_NANOS}.
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
        }
        if (work - endsAtWork >= 0 || now - endsAt >= 0) {
            over = true;
            return false;
        }
        return jit.busy(now);
    }
}
