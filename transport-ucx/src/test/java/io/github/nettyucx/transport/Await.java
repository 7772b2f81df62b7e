/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.FileRegion;

import java.util.concurrent.TimeUnit;

/** Polls a condition until it holds or time runs out; the caller asserts on what it finds. */
final class Await {
    private static final long POLL_MILLIS = 10;
    /** How long a region's transfer must stand still to count as held back. */
    private static final long STALL_MILLIS = 200;

    /** A condition that may throw, as reading a counter on an event loop does. */
    @FunctionalInterface
    interface Condition<E extends Exception> {
        boolean holds() throws E;
    }

    private Await() {
    }

    /** Returns whether {@code condition} held within {@code timeout}. */
    static <E extends Exception> boolean until(Condition<E> condition, long timeout, TimeUnit unit)
            throws E, InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!condition.holds()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(POLL_MILLIS);
        }
        return true;
    }

    /**
     * Waits until {@code region} has started and then stopped, held back by a peer that does not read: its
     * transferred count stood still for a while. Returns false when it did not start within {@code timeout}.
     */
    static boolean transferStalled(FileRegion region, long timeout, TimeUnit unit) throws InterruptedException {
        if (!until(() -> region.transferred() > 0, timeout, unit)) {
            return false;
        }
        long before;
        do {
            before = region.transferred();
            Thread.sleep(STALL_MILLIS);
        } while (region.transferred() != before);
        return true;
    }
}
