/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Leak checks on the native connections of the whole process ({@link UcxNative#connectionsAllocated()}).
 * Connections that earlier tests closed may still be lingering (flushing to their peers, for seconds) and be
 * freed in the middle of a later test, so a test takes its starting count once the count has stopped
 * moving, and checks at the end that it is back at (or, with lingering ones freed since, below) that count.
 */
final class NativeConnections {
    private static final long STABLE_MILLIS = 500;
    private static final long SETTLE_LIMIT_SECONDS = 15;

    private NativeConnections() {
    }

    /** The count once it has not changed for a while (bounded: a busy process may never stop). */
    static long settled() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(SETTLE_LIMIT_SECONDS);
        long count = UcxNative.connectionsAllocated();
        long stableSince = System.nanoTime();
        while (System.nanoTime() - deadline < 0) {
            Thread.sleep(10);
            long now = UcxNative.connectionsAllocated();
            if (now != count) {
                count = now;
                stableSince = System.nanoTime();
            } else if (System.nanoTime() - stableSince >= TimeUnit.MILLISECONDS.toNanos(STABLE_MILLIS)) {
                break;
            }
        }
        return count;
    }

    /** Waits up to {@code seconds} for the count to fall to {@code expected} at most, and asserts it did. */
    static void assertBackTo(long expected, long seconds, String what) throws InterruptedException {
        Await.until(() -> UcxNative.connectionsAllocated() <= expected, seconds, TimeUnit.SECONDS);
        long now = UcxNative.connectionsAllocated();
        assertTrue(now <= expected, "native connections: " + now + ", expected at most " + expected + " (" + what
                + ")");
    }
}
