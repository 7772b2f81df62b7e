/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.testsuite.transport.AbstractSingleThreadEventLoopTest;
import io.netty.util.concurrent.ScheduledFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Netty's {@link AbstractSingleThreadEventLoopTest} on UCX event loops ({@link UcxIoHandler}), with
 * {@link UcxServerSocketChannel}s as the channels it registers. Like Netty's io_uring loop, a UCX loop does not
 * list its channels ({@code registeredChannelsIterator()} is unsupported), so the iteration tests are skipped by
 * the abstract test itself. The two auto-scaling tests are disabled, see their reasons.
 */
class UcxEventLoopTest extends AbstractSingleThreadEventLoopTest {
    private static final String NO_SUSPENSION = "reason: the factory of UcxIoHandler.newFactory() does not"
            + " override IoHandlerFactory.isChangingThreadSupported() (false by default), so Netty never suspends a"
            + " UCX loop and an idle auto-scaling group stays at its maximum size. With a factory that returns true"
            + " (the UCP worker is created UCS_THREAD_MODE_SERIALIZED, so another thread may progress it once the"
            + " first stopped) both tests pass here; UcxIoHandler.run() should then also report its busy time with"
            + " IoHandlerContext.reportActiveIoTime, or its I/O work does not count as load when the group scales";

    @BeforeEach
    void requireUcx() {
        TestTransport.requireUcx();
    }

    @Override
    protected EventLoopGroup newEventLoopGroup() {
        return new UcxEventLoopGroup(1);
    }

    @Override
    protected EventLoopGroup newAutoScalingEventLoopGroup() {
        return new MultiThreadIoEventLoopGroup(SCALING_MAX_THREADS, (Executor) null, AUTO_SCALING_CHOOSER_FACTORY,
                UcxIoHandler.newFactory());
    }

    @Override
    protected Channel newChannel() {
        return new UcxServerSocketChannel();
    }

    @Override
    protected Class<? extends ServerChannel> serverChannelClass() {
        return UcxServerSocketChannel.class;
    }

    @Test
    @Timeout(30)
    @Disabled(NO_SUSPENSION)
    @Override
    public void testAutoScalingEventLoopGroupCanScaleDownAndBeUsed() throws Exception {
        super.testAutoScalingEventLoopGroupCanScaleDownAndBeUsed();
    }

    @Test
    @Timeout(30)
    @Disabled(NO_SUSPENSION)
    @Override
    public void testSubmittingTaskWakesUpSuspendedExecutor() throws Exception {
        super.testSubmittingTaskWakesUpSuspendedExecutor();
    }

    /**
     * A task scheduled as far ahead as a long allows must neither run nor stop the loop, which sleeps with a
     * timerfd: its deadline must not overflow into the past (a busy loop running the task at once) or into an
     * error.
     */
    @Test
    @Timeout(10)
    void taskScheduledFarAheadNeitherRunsNorStopsTheLoop() throws Exception {
        EventLoopGroup group = newEventLoopGroup();
        try {
            EventLoop loop = group.next();
            ScheduledFuture<?> farAhead = loop.schedule(() -> { }, Long.MAX_VALUE, TimeUnit.MILLISECONDS);
            assertFalse(farAhead.awaitUninterruptibly(500));
            assertTrue(loop.submit(() -> { }).await(5, TimeUnit.SECONDS), "the loop stopped running tasks");
            assertTrue(farAhead.cancel(false));
        } finally {
            group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }
}
