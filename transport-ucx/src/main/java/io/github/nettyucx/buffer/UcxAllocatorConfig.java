/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import io.netty.util.internal.PlatformDependent;
import io.netty.util.internal.SystemPropertyUtil;

/**
 * Sizes and limits of a {@link UcxByteBufAllocator}. {@link #fromSystemProperties()} gives the
 * configuration of {@link UcxByteBufAllocator#DEFAULT}; tests build small ones directly.
 */
final class UcxAllocatorConfig {
    static final String REGION_SIZE_PROPERTY = "io.github.nettyucx.allocator.regionSize";
    static final String MAX_MEMORY_PROPERTY = "io.github.nettyucx.allocator.maxMemory";
    static final String THREAD_CACHE_PROPERTY = "io.github.nettyucx.allocator.threadCacheBytes";

    /**
     * The largest pooled block and the unit a region is cut into for one size class. Larger
     * buffers get a region of their own. 1 MiB covers the transport's receive units and typical
     * gRPC messages while keeping at most one partly used slab per size class.
     */
    static final int SLAB_SIZE = 1 << 20;
    /** The most slabs that one {@link java.nio.ByteBuffer} (which buffers read and write through) can span. */
    static final long MAX_REGION_SIZE = Integer.MAX_VALUE / SLAB_SIZE * (long) SLAB_SIZE;
    static final long DEFAULT_REGION_SIZE = 4L << 20;
    static final int DEFAULT_THREAD_CACHE_BYTES = 256 << 10;

    final long regionSize;
    final long maxMemory;
    final int threadCacheBytes;

    /**
     * @param regionSize bytes mapped and registered at a time for pooled blocks; rounded up to a
     *                   multiple of {@link #SLAB_SIZE}
     * @param maxMemory the most memory (pooled regions plus dedicated regions of large buffers)
     *                  the allocator maps
     * @param threadCacheBytes the most bytes of one size class a thread keeps for itself; 0
     *                         turns the per-thread caches off
     */
    UcxAllocatorConfig(long regionSize, long maxMemory, int threadCacheBytes) {
        if (regionSize <= 0 || regionSize > MAX_REGION_SIZE) {
            throw new IllegalArgumentException(REGION_SIZE_PROPERTY + " must be between 1 and "
                    + MAX_REGION_SIZE + " bytes: " + regionSize);
        }
        if (maxMemory <= 0) {
            throw new IllegalArgumentException(MAX_MEMORY_PROPERTY + " must be positive: " + maxMemory);
        }
        if (threadCacheBytes < 0) {
            throw new IllegalArgumentException(THREAD_CACHE_PROPERTY + " must not be negative: "
                    + threadCacheBytes);
        }
        this.regionSize = (regionSize + SLAB_SIZE - 1) / SLAB_SIZE * SLAB_SIZE;
        this.maxMemory = maxMemory;
        this.threadCacheBytes = threadCacheBytes;
    }

    static UcxAllocatorConfig fromSystemProperties() {
        return new UcxAllocatorConfig(
                SystemPropertyUtil.getLong(REGION_SIZE_PROPERTY, DEFAULT_REGION_SIZE),
                SystemPropertyUtil.getLong(MAX_MEMORY_PROPERTY, PlatformDependent.maxDirectMemory()),
                SystemPropertyUtil.getInt(THREAD_CACHE_PROPERTY, DEFAULT_THREAD_CACHE_BYTES));
    }

    /**
     * Like {@link #fromSystemProperties()} without the memory limit: for the buffers the transport
     * posts its receives into, a fixed number per connection that the limit users set for their
     * own allocations should not count.
     */
    static UcxAllocatorConfig forReceiveBuffers() {
        UcxAllocatorConfig user = fromSystemProperties();
        return new UcxAllocatorConfig(user.regionSize, Long.MAX_VALUE, user.threadCacheBytes);
    }

    @Override
    public String toString() {
        return "regionSize=" + regionSize + ", maxMemory=" + maxMemory + ", threadCacheBytes=" + threadCacheBytes;
    }
}
