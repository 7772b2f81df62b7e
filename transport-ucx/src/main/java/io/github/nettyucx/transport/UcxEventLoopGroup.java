/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.MultiThreadIoEventLoopGroup;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * A {@link MultiThreadIoEventLoopGroup} whose loops run {@link UcxIoHandler}s: the drop-in
 * replacement for {@code NioEventLoopGroup}, with the same constructors.
 */
public final class UcxEventLoopGroup extends MultiThreadIoEventLoopGroup {

    /** As many loops as Netty's default (twice the cores, or {@code io.netty.eventLoopThreads}). */
    public UcxEventLoopGroup() {
        this(0);
    }

    public UcxEventLoopGroup(int nThreads) {
        this(nThreads, (ThreadFactory) null);
    }

    public UcxEventLoopGroup(ThreadFactory threadFactory) {
        this(0, threadFactory);
    }

    public UcxEventLoopGroup(int nThreads, ThreadFactory threadFactory) {
        super(nThreads, threadFactory, UcxIoHandler.newFactory());
    }

    public UcxEventLoopGroup(int nThreads, Executor executor) {
        super(nThreads, executor, UcxIoHandler.newFactory());
    }

    public UcxEventLoopGroup(int nThreads, UcxIoHandlerConfig config) {
        super(nThreads, (ThreadFactory) null, UcxIoHandler.newFactory(config));
    }
}
