/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.ScheduledFuture;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * One event loop group shared by reference count, as grpc-netty shares its default groups: made at the first
 * {@link #take()}, kept while a reference is out, and shut down {@link #releaseDelayMillis(long) a delay} after
 * the last one came back ({@link #give}), unless it is taken again in between. A take after that makes a new
 * group. Without this a group made for a server would outlive it until the JVM exits, which leaks its threads
 * and their UCP workers in a container that redeploys an application.
 *
 * <p>The delay spares a program that closes its last channel and soon opens the next one (a test suite, a tool
 * that makes a channel per request) a new group each time. The release timer runs on the group's own loops: a
 * group with no user has nothing else to do, and no thread of ours is left behind.
 */
final class SharedGroup {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(SharedGroup.class);

    private final String name;
    private final Supplier<EventLoopGroup> factory;
    private final Runnable onRelease;
    private final long quietPeriodMillis;
    private final long timeoutMillis;

    private long releaseDelayMillis;
    private EventLoopGroup group;
    private int references;
    private ScheduledFuture<?> release;
    /** Numbers the release timers: only the latest may release, not one that a take cancelled too late. */
    private long releaseTimers;

    /**
     * {@code factory} makes each new group; a group released is shut down gracefully with {@code quietPeriodMillis}
     * and {@code timeoutMillis}, and then {@code onRelease} runs, without this object's lock.
     */
    SharedGroup(String name, Supplier<EventLoopGroup> factory, Runnable onRelease, long releaseDelayMillis,
                long quietPeriodMillis, long timeoutMillis) {
        this.name = name;
        this.factory = factory;
        this.onRelease = onRelease;
        this.releaseDelayMillis = releaseDelayMillis;
        this.quietPeriodMillis = quietPeriodMillis;
        this.timeoutMillis = timeoutMillis;
    }

    /** The group, made now if there is none, with one more reference out. */
    synchronized EventLoopGroup take() {
        if (release != null) {
            // Cancelling may come too late for a timer already running: it then finds the reference, or a newer
            // timer, and stays.
            release.cancel(false);
            release = null;
        }
        if (group == null) {
            group = factory.get();
            logger.debug("{}: made {}", name, group);
        }
        references++;
        return group;
    }

    /**
     * Gives back a reference to {@code taken}. A group that {@link #close()} took away already (the JVM is
     * exiting) is ignored: its users are shut down with it.
     */
    void give(EventLoopGroup taken) {
        synchronized (this) {
            if (taken != group) {
                return;
            }
            if (references == 0) {
                throw new IllegalStateException(name + ": a group given back more often than taken; a server or "
                        + "channel returned its event loop group twice");
            }
            if (--references > 0) {
                return;
            }
            if (releaseDelayMillis > 0 && scheduleRelease(taken)) {
                return;
            }
            group = null;
        }
        shutDown(taken);
    }

    /** Called with the monitor held. False when the group takes no more tasks (shut down by someone else). */
    private boolean scheduleRelease(EventLoopGroup taken) {
        try {
            long timer = ++releaseTimers;
            release = taken.schedule(() -> releaseIfUnused(taken, timer), releaseDelayMillis,
                    TimeUnit.MILLISECONDS);
            return true;
        } catch (RejectedExecutionException e) {
            return false;
        }
    }

    private void releaseIfUnused(EventLoopGroup taken, long timer) {
        synchronized (this) {
            if (taken != group || references > 0 || timer != releaseTimers) {
                return;
            }
            group = null;
            release = null;
        }
        shutDown(taken);
    }

    private void shutDown(EventLoopGroup released) {
        logger.debug("{}: no user left, shutting {} down", name, released);
        released.shutdownGracefully(quietPeriodMillis, timeoutMillis, TimeUnit.MILLISECONDS);
        onRelease.run();
    }

    /** The group now, or null when there is none; takes no reference (for checks and tests). */
    synchronized EventLoopGroup current() {
        return group;
    }

    /** The references out now. */
    synchronized int references() {
        return references;
    }

    /** How long a group outlives its last user; 0 shuts it down as soon as the last reference comes back. */
    synchronized void releaseDelayMillis(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("releaseDelayMillis must be 0 or more, was " + millis);
        }
        releaseDelayMillis = millis;
    }

    /**
     * Takes the group away whatever its references, for the caller to shut down (the JVM is exiting), or null when
     * there is none; {@code onRelease} is the caller's to run. A later {@link #take()} makes a new one.
     */
    synchronized EventLoopGroup close() {
        EventLoopGroup closed = group;
        group = null;
        references = 0;
        if (release != null) {
            release.cancel(false);
            release = null;
        }
        return closed;
    }
}
