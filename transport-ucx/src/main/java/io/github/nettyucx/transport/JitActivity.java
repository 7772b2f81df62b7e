/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.util.function.LongSupplier;

/**
 * Tells a loop whether the JVM's JIT compiler is at work, as it is through a JVM's first seconds: a loop's start-up
 * spin ({@link StartupSpin}) applies only then.
 *
 * <p>A compilation that ended within {@link #BUSY_NANOS} counts; the compiler's time is read at most once every
 * {@link #SAMPLE_NANOS}, from the JVM's counters (no system call). One instance per loop, on its thread.
 */
final class JitActivity {
    /** How often the compiler's time is read. */
    static final long SAMPLE_NANOS = 10_000_000;
    /** How long after a compilation ended the compiler still counts as busy. */
    static final long BUSY_NANOS = 200_000_000;

    private final LongSupplier compilerMillis;
    private long sampledAt;
    private long millisAtSample = -1;
    private long busyUntil;

    JitActivity(LongSupplier compilerMillis) {
        this.compilerMillis = compilerMillis;
    }

    /** Whether the compiler finished a compilation within the last {@link #BUSY_NANOS}; {@code now}: nanoTime. */
    boolean busy(long now) {
        if (millisAtSample < 0 || now - sampledAt >= SAMPLE_NANOS) {
            long millis = compilerMillis.getAsLong();
            if (millis != millisAtSample) {
                busyUntil = now + BUSY_NANOS;
            }
            millisAtSample = millis;
            sampledAt = now;
        }
        return now - busyUntil < 0;
    }
}
