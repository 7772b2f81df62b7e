/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import io.netty.util.internal.SystemPropertyUtil;
import io.netty.util.internal.logging.InternalLogLevel;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * Warnings about what peers did (bad handshakes, refused connections), at most a few per interval for each kind
 * (each instance): a peer that misbehaves on purpose must not be able to fill the log. What was held back is counted
 * and said with the next warning that goes out.
 */
public final class PeerWarnings {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(PeerWarnings.class);
    /** {@code -Dio.github.nettyucx.peerWarningsPer10s}: tests that read the log for each bad peer raise it. */
    private static final int PER_INTERVAL = Math.max(1,
            SystemPropertyUtil.getInt("io.github.nettyucx.peerWarningsPer10s", 10));
    private static final long INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);
    private final InternalLogger log;
    private long intervalStart = System.nanoTime() - INTERVAL_NANOS;
    private int loggedInInterval;
    private long heldBack;

    /** Warnings that go to {@code log}. */
    public PeerWarnings(InternalLogger log) {
        this.log = log;
    }

    /** Logs a WARN unless this interval's share is used up. */
    public void warn(String format, Object... args) {
        log(InternalLogLevel.WARN, format, args);
    }

    /** Logs an INFO unless this interval's share is used up: what peers may cause in numbers, but is no fault. */
    void info(String format, Object... args) {
        log(InternalLogLevel.INFO, format, args);
    }

    private void log(InternalLogLevel level, String format, Object... args) {
        long heldBackBefore = 0;
        synchronized (this) {
            long now = System.nanoTime();
            if (now - intervalStart >= INTERVAL_NANOS) {
                intervalStart = now;
                loggedInInterval = 0;
                heldBackBefore = heldBack;
                heldBack = 0;
            }
            if (loggedInInterval >= PER_INTERVAL) {
                heldBack++;
                return;
            }
            loggedInInterval++;
        }
        if (heldBackBefore > 0) {
            logger.warn("{} more warnings about peers were not logged (at most {} per {} s)", heldBackBefore,
                    PER_INTERVAL, TimeUnit.NANOSECONDS.toSeconds(INTERVAL_NANOS));
        }
        log.log(level, format, args);
    }
}
