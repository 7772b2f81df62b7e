/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.netty.util.concurrent.FastThreadLocalThread;
import reactor.core.scheduler.NonBlocking;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Threads of the event loops of a {@link UcxLoopResources} (UCX, or NIO where a server or client asks for no native
 * transport), as Reactor Netty makes its own: named {@code <prefix>-<n>}, with a number shared by all the groups of
 * one {@link UcxLoopResources}, and marked {@link NonBlocking}, so that Reactor refuses a
 * {@code block()} on an event loop (which would stall every connection of that loop) instead of letting it hang.
 */
final class LoopThreadFactory implements ThreadFactory {
    private final String prefix;
    private final boolean daemon;
    private final AtomicLong counter;

    LoopThreadFactory(String prefix, boolean daemon, AtomicLong counter) {
        this.prefix = prefix;
        this.daemon = daemon;
        this.counter = counter;
    }

    @Override
    public Thread newThread(Runnable task) {
        Thread thread = new LoopThread(task);
        thread.setDaemon(daemon);
        thread.setName(prefix + "-" + counter.incrementAndGet());
        return thread;
    }

    /** A Netty thread (fast thread-locals) that Reactor knows not to block. */
    private static final class LoopThread extends FastThreadLocalThread implements NonBlocking {
        LoopThread(Runnable task) {
            super(task);
        }
    }
}
