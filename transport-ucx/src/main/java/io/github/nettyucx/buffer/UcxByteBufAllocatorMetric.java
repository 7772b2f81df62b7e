/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import io.netty.buffer.ByteBufAllocatorMetric;

/**
 * Memory use of a {@link UcxByteBufAllocator}.
 *
 * <p>{@link #usedDirectMemory()} is what the process pays: every byte mapped (and registered),
 * whether a live buffer uses it or it waits in a pool or cache. {@link #activeDirectMemory()} is
 * what live buffers hold (whole blocks); after a workload ends and its buffers are released it
 * returns to its earlier value, which makes it the number to check for leaked buffers.
 */
public final class UcxByteBufAllocatorMetric implements ByteBufAllocatorMetric {
    private final UcxByteBufAllocator allocator;

    UcxByteBufAllocatorMetric(UcxByteBufAllocator allocator) {
        this.allocator = allocator;
    }

    /** Bytes mapped for direct buffers: pooled regions plus the dedicated regions of large buffers. */
    @Override
    public long usedDirectMemory() {
        return allocator.regions().mappedBytes();
    }

    /** Bytes of the arrays of live heap buffers. */
    @Override
    public long usedHeapMemory() {
        return allocator.heapBytes();
    }

    /** Bytes of the blocks (and dedicated regions) that live direct buffers hold. */
    public long activeDirectMemory() {
        return allocator.activeBytes();
    }

    /** The limit on {@link #usedDirectMemory()}. */
    public long maxDirectMemory() {
        return allocator.config().maxMemory;
    }

    /** Bytes of {@link #usedDirectMemory()} whose registration with UCX failed (used without a memory handle). */
    public long unregisteredDirectMemory() {
        return allocator.regions().unregisteredBytes();
    }

    @Override
    public String toString() {
        return "usedDirectMemory: " + usedDirectMemory() + ", activeDirectMemory: " + activeDirectMemory()
                + ", maxDirectMemory: " + maxDirectMemory() + ", unregisteredDirectMemory: " + unregisteredDirectMemory()
                + ", usedHeapMemory: " + usedHeapMemory();
    }
}
