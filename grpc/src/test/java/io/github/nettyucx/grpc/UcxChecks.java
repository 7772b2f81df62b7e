/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Assumptions;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the tests that run gRPC on UCX need and check. The channels themselves are never built here. */
final class UcxChecks {
    private UcxChecks() {
    }

    /**
     * Fails when UCX cannot run here and {@code -Dnettyucx.requireUcx=true} (the build's default), with the
     * reason; skips the test otherwise. Skips it too in the JVM where the providers are turned off, which runs
     * these tests as well when {@code -Dtest} names them.
     */
    static void requireUcx() {
        Assumptions.assumeFalse("false".equals(System.getProperty(GrpcTransportChoice.ENABLED_PROPERTY)),
                "the providers are turned off in this JVM");
        Throwable cause = Ucx.unavailabilityCause();
        if (cause != null && Boolean.getBoolean("nettyucx.requireUcx")) {
            throw new AssertionError("UCX is required (-Dnettyucx.requireUcx=true) but unavailable: " + cause, cause);
        }
        Assumptions.assumeTrue(cause == null, () -> "UCX is unavailable here: " + cause);
        assertTrue(ChannelRecorder.enabled(), "the tests need -Dio.netty.bootstrap.extensions=serviceload");
    }

    /**
     * Asserts that the gRPC server on {@code port} and the clients connected to it run on UCX: the listener is a
     * {@link UcxServerSocketChannel} on the providers' boss group, and every client channel and accepted
     * connection a {@link UcxSocketChannel} on their worker group, whose threads are daemons.
     */
    static void assertOnUcx(int port) throws Exception {
        List<Channel> listeners = ChannelRecorder.listenersOn(port);
        List<Channel> clients = ChannelRecorder.clientsTo(port);
        List<Channel> accepted = ChannelRecorder.acceptedOn(port);
        assertEquals(1, listeners.size(), "listeners on port " + port + ": " + listeners);
        assertFalse(clients.isEmpty(), "no client channel to port " + port);
        assertFalse(accepted.isEmpty(), "no connection accepted on port " + port);

        SharedUcxEventLoops loops = SharedUcxEventLoops.INSTANCE;
        assertOn(listeners, UcxServerSocketChannel.class, loops.boss().current());
        assertOn(clients, UcxSocketChannel.class, loops.worker().current());
        assertOn(accepted, UcxSocketChannel.class, loops.worker().current());
    }

    private static void assertOn(List<Channel> channels, Class<?> type, EventLoopGroup group) throws Exception {
        for (Channel channel : channels) {
            assertSame(type, channel.getClass(), channel.toString());
            assertSame(group, channel.eventLoop().parent(), "the event loop group of " + channel);
            Thread thread = channel.eventLoop().submit(Thread::currentThread).get(30, TimeUnit.SECONDS);
            assertTrue(thread.isDaemon(), thread + " is not a daemon thread");
        }
    }
}
