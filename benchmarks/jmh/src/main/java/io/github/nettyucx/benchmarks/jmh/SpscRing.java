/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.jmh;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A bounded single-producer single-consumer queue that allocates nothing per element, so that a
 * benchmark handing objects between two threads measures the objects, not the queue (a
 * {@code java.util.concurrent} queue may allocate nodes or lock waiters).
 */
final class SpscRing<T> {
    private final Object[] slots;
    private final int mask;
    private final AtomicLong head = new AtomicLong();
    private final AtomicLong tail = new AtomicLong();

    SpscRing(int capacityPowerOfTwo) {
        if (Integer.bitCount(capacityPowerOfTwo) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two: " + capacityPowerOfTwo);
        }
        slots = new Object[capacityPowerOfTwo];
        mask = capacityPowerOfTwo - 1;
    }

    /** Producer only: false when full. */
    boolean offer(T element) {
        long t = tail.get();
        if (t - head.get() == slots.length) {
            return false;
        }
        slots[(int) t & mask] = element;
        tail.lazySet(t + 1);
        return true;
    }

    /** Consumer only: null when empty. */
    @SuppressWarnings("unchecked")
    T poll() {
        long h = head.get();
        if (h == tail.get()) {
            return null;
        }
        int index = (int) h & mask;
        T element = (T) slots[index];
        slots[index] = null;
        head.lazySet(h + 1);
        return element;
    }
}
