/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.netty.util.internal.ObjectUtil;
import io.netty.util.internal.SystemPropertyUtil;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Settings of each {@link UcxIoHandler} (one per event loop): how its loop waits when idle and how many connections
 * it carries. Defaults come from system properties: {@code io.github.nettyucx.waitStrategy} (busy_poll, sleep,
 * spin_then_sleep, adaptive), {@code .spinMicros} (50), {@code .spinYieldAfterMicros} (10, negative for never),
 * {@code .startupSpinEvents} (30000, 0 for none), {@code .loopSliceMicros} (100, 0 for the kernel's) and
 * {@code .maxConnectionsPerLoop} (65536); docs/settings.md#waiting says what each does and why.
 */
public final class UcxIoHandlerConfig {
    private static final String PREFIX = "io.github.nettyucx.";
    private static final WaitStrategy DEFAULT_STRATEGY = WaitStrategy.valueOf(SystemPropertyUtil.get(
            PREFIX + "waitStrategy", "adaptive").toUpperCase(Locale.ROOT));
    private static final long DEFAULT_SPIN_NANOS = micros(SystemPropertyUtil.getLong(PREFIX + "spinMicros", 50));
    private static final long DEFAULT_YIELD_AFTER_NANOS =
            micros(SystemPropertyUtil.getLong(PREFIX + "spinYieldAfterMicros", 10));
    private static final long DEFAULT_STARTUP_EVENTS =
            Math.max(0, SystemPropertyUtil.getLong(PREFIX + "startupSpinEvents", 30_000));
    private static final long DEFAULT_SLICE_NANOS =
            Math.max(0, micros(SystemPropertyUtil.getLong(PREFIX + "loopSliceMicros", 100)));
    private static final int DEFAULT_MAX_CONNECTIONS =
            SystemPropertyUtil.getInt(PREFIX + "maxConnectionsPerLoop", 65536);

    /** Keeps the worker's ready list (two entries per connection, ucx_native.h) within an int. */
    private static final int MAX_CONNECTIONS_LIMIT = 1 << 24;

    private final WaitStrategy waitStrategy;
    private final long spinNanos;
    private final long yieldAfterNanos;
    private final long startupEvents;
    private final long shortSliceNanos;
    private final int maxConnections;

    public UcxIoHandlerConfig() {
        this(DEFAULT_STRATEGY, DEFAULT_SPIN_NANOS, DEFAULT_YIELD_AFTER_NANOS, DEFAULT_STARTUP_EVENTS,
                DEFAULT_SLICE_NANOS, DEFAULT_MAX_CONNECTIONS);
    }

    private UcxIoHandlerConfig(WaitStrategy waitStrategy, long spinNanos, long yieldAfterNanos, long startupEvents,
            long shortSliceNanos, int maxConnections) {
        this.waitStrategy = ObjectUtil.checkNotNull(waitStrategy, "waitStrategy");
        this.spinNanos = ObjectUtil.checkPositiveOrZero(spinNanos, "spinNanos");
        this.yieldAfterNanos = yieldAfterNanos;
        this.startupEvents = ObjectUtil.checkPositiveOrZero(startupEvents, "startupEvents");
        this.shortSliceNanos = shortSliceNanos;
        this.maxConnections = ObjectUtil.checkInRange(maxConnections, 1, MAX_CONNECTIONS_LIMIT, "maxConnections");
    }

    /** Negative means never, as a spin that yields after {@link UcxIdlePolicy#FOREVER}. */
    private static long micros(long micros) {
        return micros < 0 ? UcxIdlePolicy.FOREVER : TimeUnit.MICROSECONDS.toNanos(micros);
    }

    /**
     * A copy that waits with the given strategy; {@code spin} is the spin time of {@link WaitStrategy#SPIN_THEN_SLEEP}
     * and the longest of {@link WaitStrategy#ADAPTIVE}.
     */
    public UcxIoHandlerConfig waitStrategy(WaitStrategy strategy, long spin, TimeUnit unit) {
        return new UcxIoHandlerConfig(strategy, unit.toNanos(spin), yieldAfterNanos, startupEvents, shortSliceNanos,
                maxConnections);
    }

    /** A copy whose spins start yielding their core after {@code after} (negative: never). */
    public UcxIoHandlerConfig spinYieldAfter(long after, TimeUnit unit) {
        return new UcxIoHandlerConfig(waitStrategy, spinNanos, after < 0 ? UcxIdlePolicy.FOREVER : unit.toNanos(after),
                startupEvents, shortSliceNanos, maxConnections);
    }

    /** A copy whose adaptive loops spin through their first {@code events} events (0: no start-up spin). */
    public UcxIoHandlerConfig startupSpinEvents(long events) {
        return new UcxIoHandlerConfig(waitStrategy, spinNanos, yieldAfterNanos, events, shortSliceNanos,
                maxConnections);
    }

    /** A copy that allows this many open connections per event loop. */
    public UcxIoHandlerConfig maxConnectionsPerLoop(int max) {
        return new UcxIoHandlerConfig(waitStrategy, spinNanos, yieldAfterNanos, startupEvents, shortSliceNanos, max);
    }

    public WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    public long spinNanos() {
        return spinNanos;
    }

    /** How long into a spin it starts yielding its core; {@link Long#MAX_VALUE} for never. */
    public long spinYieldAfterNanos() {
        return yieldAfterNanos;
    }

    public long startupSpinEvents() {
        return startupEvents;
    }

    public int maxConnectionsPerLoop() {
        return maxConnections;
    }

    /** The scheduler slice a loop that sleeps at once asks for; 0 to keep the kernel's. */
    long shortSliceNanos() {
        return shortSliceNanos;
    }

    @Override
    public String toString() {
        return "UcxIoHandlerConfig(" + waitStrategy + ", spin " + spinNanos + " ns, yield after " + yieldAfterNanos
                + " ns, start-up " + startupEvents + " events, max connections " + maxConnections + ')';
    }
}
