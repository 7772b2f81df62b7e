/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore;

import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.Assumptions;

/** Which transports a test may use on this machine. */
final class TestTransports {
    private TestTransports() {
    }

    /**
     * UCX must work (the build installs it; set -Dnettyucx.requireUcx=false to allow skipping). The
     * kernel may forbid io_uring (containers often do): that one is skipped with the reason.
     */
    static void assumeAvailable(NettyTransport transport) {
        try {
            transport.ensureAvailable();
        } catch (IllegalStateException e) {
            boolean required = transport == NettyTransport.UCX
                    ? Boolean.parseBoolean(System.getProperty("nettyucx.requireUcx", "true"))
                    : transport != NettyTransport.IO_URING;
            if (required) {
                throw e;
            }
            Assumptions.abort(e.getMessage());
        }
    }
}
