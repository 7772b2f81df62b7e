/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.channel.Channel;
import org.junit.jupiter.api.Assumptions;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the tests that run Vert.x on UCX need and check. */
final class UcxChecks {
    /** What {@link UcxSocketChannel#ucxLanes()} says of a connection that carries plain TCP. */
    private static final String PLAIN_TCP = "plain TCP";

    private UcxChecks() {
    }

    /**
     * Fails when UCX cannot run here and {@code -Dnettyucx.requireUcx=true} (the build's default), with the
     * reason; skips the test otherwise.
     */
    static void requireUcx() {
        Throwable cause = Ucx.unavailabilityCause();
        if (cause != null && Boolean.getBoolean("nettyucx.requireUcx")) {
            throw new AssertionError("UCX is required (-Dnettyucx.requireUcx=true) but unavailable: " + cause, cause);
        }
        Assumptions.assumeTrue(cause == null, () -> "UCX is unavailable here: " + cause);
        assertTrue(ChannelRecorder.enabled(), "the tests need -Dio.netty.bootstrap.extensions=serviceload");
    }

    /** Asserts that each of {@code channels} is an open UCX channel whose bytes travel over UCX, not plain TCP. */
    static void assertUcxConnections(List<Channel> channels) throws Exception {
        assertFalse(channels.isEmpty(), "no channel to check");
        for (Channel channel : channels) {
            String lanes = lanes(channel);
            assertFalse(lanes.startsWith(PLAIN_TCP), channel + " carries plain TCP");
            assertFalse(lanes.startsWith("no UCX endpoint") || lanes.equals("closed"), channel + ": " + lanes);
        }
    }

    /** Asserts that each of {@code channels} is an open UCX channel that carries plain TCP. */
    static void assertPlainTcpConnections(List<Channel> channels) throws Exception {
        assertFalse(channels.isEmpty(), "no channel to check");
        for (Channel channel : channels) {
            String lanes = lanes(channel);
            assertTrue(lanes.startsWith(PLAIN_TCP), channel + " is not plain TCP: " + lanes);
        }
    }

    /** The state of {@code channels}, for a test that waited in vain. */
    static String describe(List<Channel> channels) throws Exception {
        StringBuilder description = new StringBuilder();
        for (Channel channel : channels) {
            description.append(channel).append(" (active ").append(channel.isActive())
                    .append(", auto-read ").append(channel.config().isAutoRead())
                    .append(", writable ").append(channel.isWritable());
            if (channel.unsafe().outboundBuffer() != null) {
                description.append(", bytes waiting to be sent ")
                        .append(channel.unsafe().outboundBuffer().totalPendingWriteBytes());
            }
            if (channel instanceof UcxSocketChannel) {
                String lanes = ((UcxSocketChannel) channel).ucxLanes().get(30, TimeUnit.SECONDS);
                description.append(", lanes ").append(lanes);
            }
            description.append(") ");
        }
        return description.toString();
    }

    private static String lanes(Channel channel) throws Exception {
        assertInstanceOf(UcxSocketChannel.class, channel);
        assertTrue(channel.isActive(), channel + " is not active");
        return ((UcxSocketChannel) channel).ucxLanes().get(30, TimeUnit.SECONDS);
    }
}
