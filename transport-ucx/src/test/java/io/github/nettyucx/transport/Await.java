/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import java.util.concurrent.TimeUnit;

/** Polls a condition until it holds or time runs out; the caller asserts on what it finds. */
final class Await {
    private static final long POLL_MILLIS = 10;

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
}
