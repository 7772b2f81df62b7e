/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.Assumptions;

/**
 * Whether a transport can run the tests here. An unavailable epoll or NIO skips the test; an unavailable
 * UCX skips it too, unless {@code -Dnettyucx.requireUcx=true} (the build's default): then it fails
 * with the reason UCX could not load.
 */
final class TestTransports {
    static final String REQUIRE_UCX_PROPERTY = "nettyucx.requireUcx";

    private TestTransports() {
    }

    static void assumeAvailable(NettyTransport transport) {
        Throwable cause = transport.unavailabilityCause();
        if (cause == null) {
            return;
        }
        if (transport == NettyTransport.UCX && Boolean.getBoolean(REQUIRE_UCX_PROPERTY)) {
            throw new AssertionError("UCX is required (-D" + REQUIRE_UCX_PROPERTY + "=true) but unavailable: "
                    + cause, cause);
        }
        Assumptions.abort(transport.id() + " is not available here: " + cause);
    }
}
