/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.netty.channel.EventLoopGroup;
import io.netty.util.NettyRuntime;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared groups of a holder of their own, whose shutdown hook the test keeps instead of the JVM. */
class SharedUcxEventLoopsTest {
    @BeforeAll
    static void ucx() {
        UcxChecks.requireUcx();
    }

    @Test
    void groupsAreMadeAtFirstUseAndSizedAsGrpcNettys() throws Exception {
        List<Thread> hooks = new ArrayList<>();
        SharedUcxEventLoops loops = new SharedUcxEventLoops(hooks::add, hooks::remove);
        assertTrue(loops.groups().isEmpty());
        assertTrue(hooks.isEmpty(), "a hook before any group");
        try {
            EventLoopGroup worker = loops.worker().take();
            assertSame(worker, loops.worker().take());
            assertEquals(1, hooks.size());
            EventLoopGroup boss = loops.boss().take();
            assertSame(boss, loops.boss().current());
            assertNotSame(worker, boss);
            assertEquals(1, hooks.size(), "one hook for both groups");
            assertEquals(List.of(worker, boss), loops.groups());
            assertTrue(loops.hookRegistered());

            assertInstanceOf(UcxEventLoopGroup.class, worker);
            assertInstanceOf(UcxEventLoopGroup.class, boss);
            assertEquals(1, loopsOf(boss, "grpc-ucx-boss-ELG"));
            int workers = loopsOf(worker, "grpc-ucx-worker-ELG");
            if (System.getProperty(SharedUcxEventLoops.EVENT_LOOP_THREADS_PROPERTY) == null) {
                assertEquals(NettyRuntime.availableProcessors(), workers);
            }
        } finally {
            loops.shutdown();
        }
        assertTrue(hooks.isEmpty(), "the hook outlived the groups");
    }

    /**
     * The last user gone, a group is shut down after the delay, and with no group left the hook is removed (it
     * would hold this class's loader); the next user gets a new group, and the hook is registered again.
     */
    @Test
    void groupsGoAfterTheirLastUser() throws Exception {
        List<Thread> hooks = new ArrayList<>();
        SharedUcxEventLoops loops = new SharedUcxEventLoops(hooks::add, hooks::remove);
        loops.releaseDelayMillis(10);
        try {
            EventLoopGroup worker = loops.worker().take();
            EventLoopGroup boss = loops.boss().take();
            loops.worker().give(worker);
            assertTrue(worker.awaitTermination(10, TimeUnit.SECONDS), "the worker group outlived its last user");
            assertEquals(List.of(boss), loops.groups());
            assertEquals(1, hooks.size(), "the hook went while the boss group is alive");
            loops.boss().give(boss);
            assertTrue(boss.awaitTermination(10, TimeUnit.SECONDS), "the boss group outlived its last user");
            assertTrue(loops.groups().isEmpty(), loops.groups().toString());
            assertTrue(hooks.isEmpty(), "the hook outlived the groups");

            EventLoopGroup again = loops.worker().take();
            assertNotSame(worker, again);
            assertEquals(1, hooks.size(), "no hook for the new group");
        } finally {
            loops.shutdown();
        }
    }

    /** The hook closes the groups, in use or not; a group asked for later is a new one. */
    @Test
    void theShutdownHookClosesTheGroups() throws Exception {
        List<Thread> hooks = new ArrayList<>();
        SharedUcxEventLoops loops = new SharedUcxEventLoops(hooks::add, hooks::remove);
        EventLoopGroup worker = loops.worker().take();
        EventLoopGroup boss = loops.boss().take();
        Thread hook = hooks.get(0);
        hook.start();
        hook.join();
        assertTrue(worker.isTerminated(), "worker group not terminated");
        assertTrue(boss.isTerminated(), "boss group not terminated");
        assertTrue(loops.groups().isEmpty());
        loops.worker().give(worker);

        EventLoopGroup again = loops.worker().take();
        try {
            assertNotSame(worker, again);
            assertEquals(1, hooks.size(), "no hook for the new group");
            assertNotSame(hook, hooks.get(0));
        } finally {
            loops.shutdown();
        }
    }

    /** Counts the loops and checks that each runs on a daemon thread named after the group. */
    private static int loopsOf(EventLoopGroup group, String name) throws Exception {
        int n = 0;
        for (EventExecutor loop : group) {
            Thread thread = loop.submit(Thread::currentThread).get(30, TimeUnit.SECONDS);
            assertTrue(thread.isDaemon(), thread + " is not a daemon thread");
            assertTrue(thread.getName().startsWith(name), thread.getName());
            n++;
        }
        return n;
    }
}
