/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The reference count of {@link SharedGroup}, on plain Netty groups (no UCX needed). Delays are either long enough
 * never to expire during a test, or short with a generous wait for the release, so that a slow machine cannot
 * make the test fail.
 */
class SharedGroupTest {
    private static final long NEVER = TimeUnit.MINUTES.toMillis(10);
    private static final long SOON = 10;

    private final List<EventLoopGroup> made = new ArrayList<>();
    private final AtomicInteger released = new AtomicInteger();

    @AfterEach
    void shutDownWhatWasMade() {
        for (EventLoopGroup group : made) {
            group.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).syncUninterruptibly();
        }
    }

    @Test
    void oneGroupWhileReferencesAreOut() {
        SharedGroup shared = shared(NEVER);
        assertNull(shared.current(), "a group before the first take");
        EventLoopGroup first = shared.take();
        assertSame(first, shared.take());
        assertEquals(2, shared.references());
        shared.give(first);
        assertSame(first, shared.current());
        assertFalse(first.isShuttingDown());
        assertEquals(1, made.size());
    }

    @Test
    void releasedAfterTheDelayAndMadeAnewAfterwards() throws Exception {
        SharedGroup shared = shared(SOON);
        EventLoopGroup first = shared.take();
        shared.give(first);
        assertTrue(first.awaitTermination(10, TimeUnit.SECONDS), "not released after the last give");
        assertNull(shared.current());
        assertEquals(1, released.get(), "releases reported");

        EventLoopGroup second = shared.take();
        assertNotSame(first, second);
        assertFalse(second.isShuttingDown());
        assertEquals(2, made.size());
    }

    @Test
    void aTakeWithinTheDelayKeepsTheGroup() {
        SharedGroup shared = shared(NEVER);
        EventLoopGroup first = shared.take();
        shared.give(first);
        assertSame(first, shared.take(), "a new group while the old one waited out its delay");
        shared.releaseDelayMillis(0);
        shared.give(first);
        assertTrue(first.isShuttingDown(), "with no delay the last give releases the group");
        assertNull(shared.current());
    }

    @Test
    void aGroupShutDownByOthersIsReleasedAtOnce() {
        SharedGroup shared = shared(NEVER);
        EventLoopGroup first = shared.take();
        first.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS).syncUninterruptibly();
        shared.give(first);
        assertNull(shared.current(), "a terminated group kept for later users");
    }

    @Test
    void givenBackTooOften() {
        SharedGroup shared = shared(NEVER);
        EventLoopGroup first = shared.take();
        shared.give(first);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> shared.give(first));
        assertTrue(e.getMessage().contains("given back more often than taken"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> shared.releaseDelayMillis(-1));
    }

    /**
     * A release timer that fired while a take held the lock, and so was cancelled too late, must not release the
     * group once a later give has started a new delay: the test holds the lock while the first timer fires.
     */
    @Test
    void aTimerCancelledTooLateLeavesTheNextDelayAlone() throws Exception {
        SharedGroup shared = shared(SOON);
        EventLoopGroup first = shared.take();
        synchronized (shared) {
            shared.give(first);
            Thread.sleep(200); // the timer fires and waits for the lock
            assertSame(first, shared.take());
            shared.releaseDelayMillis(NEVER);
            shared.give(first);
        }
        Thread.sleep(200); // the old timer runs now
        assertSame(first, shared.current(), "released by a timer that a take had cancelled");
        assertFalse(first.isShuttingDown());
        assertEquals(0, released.get());
    }

    /** The JVM exits: the group goes whoever uses it, and what its users give back later is ignored. */
    @Test
    void closeTakesTheGroupAway() {
        SharedGroup shared = shared(NEVER);
        EventLoopGroup first = shared.take();
        assertSame(first, shared.close());
        assertNull(shared.current());
        assertEquals(0, released.get(), "a release reported for a group the caller shuts down");
        assertNull(shared.close());
        shared.give(first);
        EventLoopGroup second = shared.take();
        assertNotSame(first, second);
        assertEquals(1, shared.references());
    }

    private SharedGroup shared(long releaseDelayMillis) {
        return new SharedGroup("test", () -> {
            EventLoopGroup group = new DefaultEventLoopGroup(1);
            made.add(group);
            return group;
        }, released::incrementAndGet, releaseDelayMillis, 0, 1_000);
    }
}
