/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.loop;

import io.github.nettyucx.transport.TestTransport;
import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tasks from other threads (what an application thread's write becomes) wake a sleeping loop with one eventfd
 * write, and cost an awake loop no system call at all. The writes are counted per loop: the process-wide count
 * ({@link Ucx#eventLoopWakeupWrites()}) also moves with the loops that earlier tests left running.
 */
class WakeupTest {
    private static final int TASKS = 1000;

    @ParameterizedTest
    @EnumSource(value = WaitStrategy.class, names = {"BUSY_POLL", "SPIN_THEN_SLEEP"})
    @Timeout(60)
    void anAwakeLoopTakesTasksWithoutAnEventfdWrite(WaitStrategy strategy) throws Exception {
        TestTransport.requireUcx();
        // A spin longer than the test: the loop never goes to sleep.
        EventLoopGroup group = new UcxEventLoopGroup(1,
                new UcxIoHandlerConfig().waitStrategy(strategy, 1, TimeUnit.HOURS));
        try {
            EventLoop loop = group.next();
            UcxIoHandler handler = TestTransport.handlerOf(loop);
            long before = handler.wakeupWrites();
            for (int i = 0; i < TASKS; i++) {
                loop.submit(() -> { }).sync();
            }
            assertEquals(0, handler.wakeupWrites() - before, "eventfd writes to a loop that never slept");
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    @Test
    @Timeout(60)
    void aSleepingLoopIsWokenByAtMostOneEventfdWritePerTask() throws Exception {
        TestTransport.requireUcx();
        EventLoopGroup group = new UcxEventLoopGroup(1,
                new UcxIoHandlerConfig().waitStrategy(WaitStrategy.SLEEP, 0, TimeUnit.MICROSECONDS));
        try {
            EventLoop loop = group.next();
            UcxIoHandler handler = TestTransport.handlerOf(loop);
            int tasks = 50;
            long before = handler.wakeupWrites();
            for (int i = 0; i < tasks; i++) {
                Thread.sleep(5); // the loop has nothing to do and goes to sleep
                assertTrue(loop.submit(() -> true).get(10, TimeUnit.SECONDS));
            }
            long writes = handler.wakeupWrites() - before;
            assertTrue(writes >= 1 && writes <= tasks, writes + " eventfd writes for " + tasks
                    + " tasks given to a sleeping loop: expected one per task that found the loop asleep");
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
