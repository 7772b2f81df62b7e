/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.loop.UcxIoHandler;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.testsuite.transport.AbstractSingleThreadEventLoopTest;
import io.netty.util.concurrent.ScheduledFuture;
import org.junit.jupiter.api.BeforeEach;
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
 * the abstract test itself. Its auto-scaling tests run on a group built as Netty 4.2 builds them
 * ({@link MultiThreadIoEventLoopGroup} with {@link UcxIoHandler#newFactory()}); {@link LoopSuspensionTest} has
 * connections on such loops.
 */
class UcxEventLoopTest extends AbstractSingleThreadEventLoopTest {
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
