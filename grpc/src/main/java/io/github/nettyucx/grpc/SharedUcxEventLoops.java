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
 * The event loop groups that the channels and servers built by the providers share, as grpc-netty's own
 * builders share its default groups: a worker group for client channels and accepted connections, and a boss
 * group of one loop that accepts. Each is a {@link SharedGroup}: made at its first use, held by every server and
 * channel that uses it, and shut down {@link #RELEASE_DELAY_MILLIS} after the last of them terminated (grpc-netty
 * waits as long before it lets its own groups go); a server or channel built after that gets a new group.
 *
 * <p>Their threads are daemons, so they never keep the JVM alive. While a group is alive, a shutdown hook is
 * registered that closes the groups as the JVM exits: each loop goes on serving while work keeps arriving (an
 * application's own hook may be draining its server at that moment), and closes its channels, with an orderly
 * close for the peer, once it has been quiet for {@link #QUIET_PERIOD_MILLIS} or at the latest after
 * {@link #TIMEOUT_MILLIS}. The hook is removed when the last group is released: a hook left registered would keep
 * this class, and the class loader of a web application that brought it, for the JVM's lifetime. The groups are
 * gRPC's alone: shutting one down by hand would break every channel and server the providers built.
 */
final class SharedUcxEventLoops {
    static final long QUIET_PERIOD_MILLIS = 100;
    static final long TIMEOUT_MILLIS = 5_000;
    /** As grpc-netty's SharedResourceHolder: one second after the last user, a group is let go. */
    static final long RELEASE_DELAY_MILLIS = 1_000;
    /** Netty's name for the property that sets the default number of loops of a group. */
    static final String EVENT_LOOP_THREADS_PROPERTY = "io.netty.eventLoopThreads";

    static final SharedUcxEventLoops INSTANCE = new SharedUcxEventLoops(Runtime.getRuntime()::addShutdownHook,
            Runtime.getRuntime()::removeShutdownHook);

    private static final InternalLogger logger = InternalLoggerFactory.getInstance(SharedUcxEventLoops.class);

    private final Consumer<Thread> addHook;
    private final Consumer<Thread> removeHook;
    private final SharedGroup worker;
    private final SharedGroup boss;
    /** Guarded by this object: the groups made and not released yet, and the hook registered while there are. */
    private int alive;
    private Thread hook;

    /** {@code addHook} and {@code removeHook} register and remove the hook; tests pass their own to run it. */
    SharedUcxEventLoops(Consumer<Thread> addHook, Consumer<Thread> removeHook) {
        this.addHook = addHook;
        this.removeHook = removeHook;
        worker = new SharedGroup("grpc-ucx-worker", () -> newGroup(workerLoops(), "grpc-ucx-worker-ELG"),
                this::groupReleased, RELEASE_DELAY_MILLIS, QUIET_PERIOD_MILLIS, TIMEOUT_MILLIS);
        boss = new SharedGroup("grpc-ucx-boss", () -> newGroup(1, "grpc-ucx-boss-ELG"),
                this::groupReleased, RELEASE_DELAY_MILLIS, QUIET_PERIOD_MILLIS, TIMEOUT_MILLIS);
    }

    /** The group of the client channels and of the servers' accepted connections. */
    SharedGroup worker() {
        return worker;
    }

    /** The group of the servers' listening channels: one loop, as grpc-netty's. */
    SharedGroup boss() {
        return boss;
    }

    /** The groups alive now (in use, or waiting out the release delay). */
    List<EventLoopGroup> groups() {
        List<EventLoopGroup> groups = new ArrayList<>(2);
        for (SharedGroup shared : List.of(worker, boss)) {
            EventLoopGroup group = shared.current();
            if (group != null) {
                groups.add(group);
            }
        }
        return groups;
    }

    /** How long the groups outlive their last user; tests shorten it. */
    void releaseDelayMillis(long millis) {
        worker.releaseDelayMillis(millis);
        boss.releaseDelayMillis(millis);
    }

    /**
     * As many loops as grpc-netty gives its default worker group: one per core rather than Netty's two, unless
     * {@code io.netty.eventLoopThreads} is set; then zero, which makes Netty read that property.
     */
    static int workerLoops() {
        return System.getProperty(EVENT_LOOP_THREADS_PROPERTY) == null ? NettyRuntime.availableProcessors() : 0;
    }

    /** Whether the shutdown hook is registered now. */
    synchronized boolean hookRegistered() {
        return hook != null;
    }

    /**
     * Called by a {@link SharedGroup} with its lock held. Locks are taken in that order only (a group's, then this
     * object's), never the other way round, so that two threads cannot wait for each other.
     */
    private EventLoopGroup newGroup(int loops, String name) {
        EventLoopGroup group = new UcxEventLoopGroup(loops, new DefaultThreadFactory(name, true));
        groupMade();
        return group;
    }

    private synchronized void groupMade() {
        alive++;
        if (hook != null) {
            return;
        }
        hook = new Thread(this::shutdown, "grpc-ucx-shutdown");
        try {
            addHook.accept(hook);
        } catch (IllegalStateException e) {
            // The JVM is exiting already: the daemon threads end with it.
            logger.debug("no shutdown hook for the gRPC UCX event loops: the JVM is exiting", e);
        }
    }

    /** A group was let go; with none left, the hook goes too. */
    private synchronized void groupReleased() {
        if (--alive > 0 || hook == null) {
            return;
        }
        Thread registered = hook;
        hook = null;
        try {
            removeHook.accept(registered);
        } catch (IllegalStateException e) {
            // The JVM is exiting: the hook is running, or this is the hook.
            logger.debug("the shutdown hook of the gRPC UCX event loops stays: the JVM is exiting", e);
        }
    }

    /**
     * Closes the groups alive now, whoever still uses them, waiting for them within the timeout. A group asked for
     * afterwards (by another shutdown hook building a channel) is made anew and ends with the JVM.
     */
    void shutdown() {
        List<EventLoopGroup> groups = new ArrayList<>(2);
        for (SharedGroup shared : List.of(worker, boss)) {
            EventLoopGroup group = shared.close();
            if (group != null) {
                groups.add(group);
            }
        }
        for (EventLoopGroup group : groups) {
            group.shutdownGracefully(QUIET_PERIOD_MILLIS, TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            groupReleased();
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
