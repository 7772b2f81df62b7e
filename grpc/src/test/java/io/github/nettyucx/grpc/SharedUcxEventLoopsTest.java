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
        SharedUcxEventLoops loops = new SharedUcxEventLoops(hooks::add);
        assertTrue(loops.groups().isEmpty());
        assertTrue(hooks.isEmpty(), "a hook before any group");
        try {
            EventLoopGroup worker = loops.worker();
            assertSame(worker, loops.worker());
            assertEquals(1, hooks.size());
            EventLoopGroup boss = loops.boss();
            assertSame(boss, loops.boss());
            assertNotSame(worker, boss);
            assertEquals(1, hooks.size(), "one hook for both groups");

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
    }

    /** The hook closes the groups; a group asked for later is a new one. */
    @Test
    void theShutdownHookClosesTheGroups() throws Exception {
        List<Thread> hooks = new ArrayList<>();
        SharedUcxEventLoops loops = new SharedUcxEventLoops(hooks::add);
        EventLoopGroup worker = loops.worker();
        EventLoopGroup boss = loops.boss();
        Thread hook = hooks.get(0);
        hook.start();
        hook.join();
        assertTrue(worker.isTerminated(), "worker group not terminated");
        assertTrue(boss.isTerminated(), "boss group not terminated");
        assertTrue(loops.groups().isEmpty());

        EventLoopGroup again = loops.worker();
        try {
            assertNotSame(worker, again);
            assertEquals(1, hooks.size(), "a second hook");
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
