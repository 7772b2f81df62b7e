/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.jmh;

import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.netty.buffer.AdaptiveByteBufAllocator;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;

/**
 * The allocators the benchmarks compare, by the name used in their {@code @Param}.
 *
 * <p>Netty's allocators keep per-thread caches only on event-loop threads unless told otherwise;
 * JMH's threads are plain threads, so the benchmarks' JVMs run with
 * {@code -Dio.netty.allocator.useCacheForAllThreads=true} and the adaptive allocator is created with
 * its magazines cached for all threads: every allocator is measured as it behaves on an event loop.
 */
final class Allocators {
    static final String UCX = "ucx";
    static final String POOLED = "pooled";
    static final String ADAPTIVE = "adaptive";

    private Allocators() {
    }

    static ByteBufAllocator byName(String name) {
        switch (name) {
            case UCX:
                return UcxByteBufAllocator.DEFAULT;
            case POOLED:
                return PooledByteBufAllocator.DEFAULT;
            case ADAPTIVE:
                return new AdaptiveByteBufAllocator(true, true);
            default:
                throw new IllegalArgumentException("unknown allocator " + name + " (expected ucx, pooled or adaptive)");
        }
    }

    static byte[] payload(int size) {
        byte[] payload = new byte[size];
        for (int i = 0; i < size; i++) {
            payload[i] = (byte) (i * 31 + 7);
        }
        return payload;
    }
}
