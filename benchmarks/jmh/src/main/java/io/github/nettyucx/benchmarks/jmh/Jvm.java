/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.jmh;

/**
 * Options of the JVMs JMH forks, shared by the benchmarks' {@code @Fork} annotations.
 */
final class Jvm {
    /** A fixed heap, so that GC sizing does not drift between allocators. */
    static final String HEAP = "-Xms512m";
    static final String HEAP_MAX = "-Xmx512m";
    /**
     * Leak detection off: its sampling wrapper allocates the same for every allocator and is not
     * what is measured.
     */
    static final String NO_LEAK_DETECTION = "-Dio.netty.leakDetection.level=disabled";
    /** Lets PooledByteBufAllocator.DEFAULT keep thread caches on JMH's threads too (as on event loops). */
    static final String CACHE_ALL_THREADS = "-Dio.netty.allocator.useCacheForAllThreads=true";
    /** Runs benchmark threads as FastThreadLocalThreads, see {@link EventLoopLikeExecutor}. */
    static final String EVENT_LOOP_THREADS = "-Djmh.executor=CUSTOM";
    static final String EVENT_LOOP_THREADS_CLASS =
            "-Djmh.executor.class=io.github.nettyucx.benchmarks.jmh.EventLoopLikeExecutor";

    private Jvm() {
    }
}
