/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.github.nettyucx.transport.LoopbackBlackHole;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.testsuite.transport.TestsuitePermutation.BootstrapFactory;
import io.netty.testsuite.transport.socket.SocketConnectionAttemptTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Netty's {@link SocketConnectionAttemptTest} on UCX client channels.
 *
 * <p>{@code testConnectRefused} and {@code testConnectRefusedHalfClosure} run unchanged (they connect to an
 * unassigned loopback port). Upstream, {@code testConnectTimeout} and {@code testConnectCancellation} connect to
 * an address off this machine ({@code io.netty.testsuite.badHost}, 198.51.100.254 by default); no traffic may
 * leave the machine here, so both are overridden with the same steps against a {@link LoopbackBlackHole}, a
 * loopback listener whose full accept queue makes the kernel drop SYNs.
 */
@RequireUcx
class UcxSocketConnectionAttemptTest extends SocketConnectionAttemptTest {

    @Override
    protected List<BootstrapFactory<Bootstrap>> newFactories() {
        return UcxSocketTestPermutation.instance().clientSocket();
    }

    @Test
    @Timeout(value = 30000, unit = TimeUnit.MILLISECONDS)
    @Override
    public void testConnectTimeout(TestInfo testInfo) throws Throwable {
        try (LoopbackBlackHole hole = new LoopbackBlackHole()) {
            run(testInfo, cb -> {
                cb.handler(new ChannelInboundHandlerAdapter()).option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 2000);
                ChannelFuture future = cb.connect(hole.address());
                try {
                    assertTrue(future.await(3000));
                    assertInstanceOf(ConnectTimeoutException.class, future.cause());
                } finally {
                    future.channel().close();
                }
            });
        }
    }

    @Test
    @Timeout(value = 30000, unit = TimeUnit.MILLISECONDS)
    @Override
    public void testConnectCancellation(TestInfo testInfo) throws Throwable {
        try (LoopbackBlackHole hole = new LoopbackBlackHole()) {
            run(testInfo, cb -> {
                cb.handler(new ChannelInboundHandlerAdapter()).option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 4000);
                ChannelFuture future = cb.connect(hole.address());
                try {
                    if (future.await(1000)) {
                        if (future.isSuccess()) {
                            fail("A connection attempt to " + hole.address() + " must not succeed.");
                        } else {
                            throw future.cause();
                        }
                    }
                    assertTrue(future.cancel(true), "UCX connect attempts must be cancellable");
                    assertTrue(future.channel().closeFuture().await(500));
                    assertTrue(future.isCancelled());
                    assertFalse(future.channel().isOpen());
                } finally {
                    future.channel().close();
                }
            });
        }
    }
}
