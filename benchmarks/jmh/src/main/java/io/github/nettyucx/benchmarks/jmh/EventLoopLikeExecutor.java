/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.jmh;

import io.netty.util.concurrent.DefaultThreadFactory;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Runs JMH's benchmark threads as Netty {@code FastThreadLocalThread}s, the kind of thread an event
 * loop is: Netty's allocators keep their per-thread caches and recycle their buffer objects only on
 * such threads. Selected in the forked JVM with {@code -Djmh.executor=CUSTOM
 * -Djmh.executor.class=io.github.nettyucx.benchmarks.jmh.EventLoopLikeExecutor} (JMH calls the
 * {@code (int, String)} constructor).
 */
public final class EventLoopLikeExecutor extends ThreadPoolExecutor {
    public EventLoopLikeExecutor(int maxThreads, String prefix) {
        super(maxThreads, maxThreads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                new DefaultThreadFactory(prefix, true));
    }
}
