/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.loop.UcxIoHandler;
import io.github.nettyucx.loop.UcxIoHandlerConfig;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.util.concurrent.EventExecutorChooserFactory;

import java.util.concurrent.Executor;
import java.util.concurrent.ThreadFactory;

/**
 * A {@link MultiThreadIoEventLoopGroup} whose loops run {@link UcxIoHandler}s: the drop-in
 * replacement for {@code NioEventLoopGroup}, with the same constructors.
 */
public final class UcxEventLoopGroup extends MultiThreadIoEventLoopGroup {
    private final UcxIoHandlerConfig config;

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
        this(nThreads, threadFactory, new UcxIoHandlerConfig());
    }

    public UcxEventLoopGroup(int nThreads, Executor executor) {
        this(nThreads, executor, new UcxIoHandlerConfig());
    }

    public UcxEventLoopGroup(int nThreads, UcxIoHandlerConfig config) {
        this(nThreads, (ThreadFactory) null, config);
    }

    /** A group whose loops run on threads of {@code threadFactory} (null: Netty's default) with {@code config}. */
    public UcxEventLoopGroup(int nThreads, ThreadFactory threadFactory, UcxIoHandlerConfig config) {
        super(nThreads, threadFactory, UcxIoHandler.newFactory(config));
        this.config = config;
    }

    private UcxEventLoopGroup(int nThreads, Executor executor, UcxIoHandlerConfig config) {
        super(nThreads, executor, UcxIoHandler.newFactory(config));
        this.config = config;
    }

    /**
     * A group whose loops {@code chooserFactory} hands out, as {@code NioEventLoopGroup} takes one. With Netty's
     * {@code AutoScalingEventExecutorChooserFactory} the group suspends idle loops (their threads end; a loop
     * with channels registered is never idle) and resumes them, on new threads, when the load rises or a task
     * is submitted to them. {@code executor} may be null: Netty then starts a new thread each time a loop starts
     * or resumes.
     */
    public UcxEventLoopGroup(int nThreads, Executor executor, EventExecutorChooserFactory chooserFactory,
                             UcxIoHandlerConfig config) {
        super(nThreads, executor, chooserFactory, UcxIoHandler.newFactory(config));
        this.config = config;
    }

    /**
     * The settings every loop of this group was made with, so that a framework that builds the group from its own
     * configuration (the Spring Boot starter) can be checked against what it was asked for.
     */
    public UcxIoHandlerConfig ioHandlerConfig() {
        return config;
    }
}
