/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.util.internal.ObjectUtil;
import io.netty.util.internal.SystemPropertyUtil;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Settings of each {@link UcxIoHandler} (one per event loop). Defaults come from system properties
 * {@code io.github.nettyucx.waitStrategy} (busy_poll, sleep, spin_then_sleep, adaptive),
 * {@code io.github.nettyucx.spinMicros} and {@code io.github.nettyucx.maxConnectionsPerLoop}.
 */
public final class UcxIoHandlerConfig {
    private static final WaitStrategy DEFAULT_STRATEGY = WaitStrategy.valueOf(SystemPropertyUtil.get(
            "io.github.nettyucx.waitStrategy", "adaptive").toUpperCase(Locale.ROOT));
    private static final long DEFAULT_SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(
            SystemPropertyUtil.getLong("io.github.nettyucx.spinMicros", 50));
    private static final int DEFAULT_MAX_CONNECTIONS =
            SystemPropertyUtil.getInt("io.github.nettyucx.maxConnectionsPerLoop", 65536);

    /** Keeps the worker's ready list (two entries per connection, ucx_native.h) within an int. */
    private static final int MAX_CONNECTIONS_LIMIT = 1 << 24;

    private final WaitStrategy waitStrategy;
    private final long spinNanos;
    private final int maxConnections;

    public UcxIoHandlerConfig() {
        this(DEFAULT_STRATEGY, DEFAULT_SPIN_NANOS, DEFAULT_MAX_CONNECTIONS);
    }

    private UcxIoHandlerConfig(WaitStrategy waitStrategy, long spinNanos, int maxConnections) {
        this.waitStrategy = ObjectUtil.checkNotNull(waitStrategy, "waitStrategy");
        this.spinNanos = ObjectUtil.checkPositiveOrZero(spinNanos, "spinNanos");
        this.maxConnections = ObjectUtil.checkInRange(maxConnections, 1, MAX_CONNECTIONS_LIMIT, "maxConnections");
    }

    /**
     * A copy that waits with the given strategy; {@code spin} is the spin time of {@link WaitStrategy#SPIN_THEN_SLEEP}
     * and the longest of {@link WaitStrategy#ADAPTIVE}.
     */
    public UcxIoHandlerConfig waitStrategy(WaitStrategy strategy, long spin, TimeUnit unit) {
        return new UcxIoHandlerConfig(strategy, unit.toNanos(spin), maxConnections);
    }

    /** A copy that allows this many open connections per event loop. */
    public UcxIoHandlerConfig maxConnectionsPerLoop(int max) {
        return new UcxIoHandlerConfig(waitStrategy, spinNanos, max);
    }

    public WaitStrategy waitStrategy() {
        return waitStrategy;
    }

    public long spinNanos() {
        return spinNanos;
    }

    public int maxConnectionsPerLoop() {
        return maxConnections;
    }

    @Override
    public String toString() {
        return "UcxIoHandlerConfig(" + waitStrategy + ", spin " + spinNanos + " ns, max connections "
                + maxConnections + ')';
    }
}
