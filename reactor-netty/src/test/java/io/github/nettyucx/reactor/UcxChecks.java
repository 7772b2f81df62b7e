/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.channel.Channel;
import org.junit.jupiter.api.Assumptions;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the tests that run Reactor Netty on UCX need and check. */
final class UcxChecks {
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
    }

    /** A listener of a server on UCX loops. */
    static void assertUcxListener(Channel channel) {
        assertInstanceOf(UcxServerSocketChannel.class, channel);
        assertTrue(UcxChannelTypes.isUcx(channel.eventLoop()), "not on a UCX loop: " + channel);
    }

    /** A {@link UcxSocketChannel} on a UCX loop. */
    static void assertUcxChannel(Channel channel) {
        assertInstanceOf(UcxSocketChannel.class, channel);
        assertTrue(UcxChannelTypes.isUcx(channel.eventLoop()), "not on a UCX loop: " + channel);
    }
}
