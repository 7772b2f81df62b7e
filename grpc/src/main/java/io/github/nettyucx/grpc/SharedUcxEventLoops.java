/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.util.NettyRuntime;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The event loop groups that every channel and server built by the providers shares, as grpc-netty's own
 * builders share its default groups: a worker group for client channels and accepted connections, and a boss
 * group of one loop that accepts. Each is created at its first use and lives until the JVM exits.
 *
 * <p>Their threads are daemons, so they never keep the JVM alive. When the first group is made, a shutdown hook
 * is registered that closes the groups as the JVM exits: each loop goes on serving while work keeps arriving
 * (an application's own hook may be draining its server at that moment), and closes its channels, with an
 * orderly close for the peer, once it has been quiet for {@link #QUIET_PERIOD_MILLIS} or at the latest after
 * {@link #TIMEOUT_MILLIS}. The groups are gRPC's alone: shutting one down by hand would break every channel
 * and server the providers built.
 */
final class SharedUcxEventLoops {
    static final long QUIET_PERIOD_MILLIS = 100;
    static final long TIMEOUT_MILLIS = 5_000;
    /** Netty's name for the property that sets the default number of loops of a group. */
    static final String EVENT_LOOP_THREADS_PROPERTY = "io.netty.eventLoopThreads";

    static final SharedUcxEventLoops INSTANCE = new SharedUcxEventLoops(Runtime.getRuntime()::addShutdownHook);

    private static final InternalLogger logger = InternalLoggerFactory.getInstance(SharedUcxEventLoops.class);

    private final Consumer<Thread> shutdownHooks;
    private EventLoopGroup worker;
    private EventLoopGroup boss;
    private boolean hookRegistered;

    /** {@code shutdownHooks} registers the hook; tests pass their own to run it themselves. */
    SharedUcxEventLoops(Consumer<Thread> shutdownHooks) {
        this.shutdownHooks = shutdownHooks;
    }

    /** The group of the client channels and of the servers' accepted connections. */
    synchronized EventLoopGroup worker() {
        if (worker == null) {
            worker = newGroup(workerLoops(), "grpc-ucx-worker-ELG");
        }
        return worker;
    }

    /** The group of the servers' listening channels: one loop, as grpc-netty's. */
    synchronized EventLoopGroup boss() {
        if (boss == null) {
            boss = newGroup(1, "grpc-ucx-boss-ELG");
        }
        return boss;
    }

    /** The groups made so far. */
    synchronized List<EventLoopGroup> groups() {
        List<EventLoopGroup> groups = new ArrayList<>();
        if (worker != null) {
            groups.add(worker);
        }
        if (boss != null) {
            groups.add(boss);
        }
        return groups;
    }

    /**
     * As many loops as grpc-netty gives its default worker group: one per core rather than Netty's two, unless
     * {@code io.netty.eventLoopThreads} is set; then zero, which makes Netty read that property.
     */
    static int workerLoops() {
        return System.getProperty(EVENT_LOOP_THREADS_PROPERTY) == null ? NettyRuntime.availableProcessors() : 0;
    }

    private EventLoopGroup newGroup(int loops, String name) {
        EventLoopGroup group = new UcxEventLoopGroup(loops, new DefaultThreadFactory(name, true));
        if (!hookRegistered) {
            hookRegistered = true;
            try {
                shutdownHooks.accept(new Thread(this::shutdown, "grpc-ucx-shutdown"));
            } catch (IllegalStateException e) {
                // The JVM is exiting already: the daemon threads end with it.
                logger.debug("no shutdown hook for the gRPC UCX event loops: the JVM is exiting", e);
            }
        }
        return group;
    }

    /**
     * Closes the groups made so far, waiting for them within the timeout. A group asked for afterwards (by
     * another shutdown hook building a channel) is made anew and ends with the JVM.
     */
    void shutdown() {
        List<EventLoopGroup> groups;
        synchronized (this) {
            groups = groups();
            worker = null;
            boss = null;
        }
        for (EventLoopGroup group : groups) {
            group.shutdownGracefully(QUIET_PERIOD_MILLIS, TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MILLIS);
        try {
            for (EventLoopGroup group : groups) {
                group.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
