/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import reactor.netty.DisposableServer;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

import java.time.Duration;

/** How the tests let go of what they made: servers first, then the connection pool, then the loops. */
final class TestResources {
    private TestResources() {
    }

    /** Disposes of each argument that is not null, waiting up to {@code timeout} for each. */
    static void dispose(Duration timeout, DisposableServer server, ConnectionProvider pool, LoopResources... loops) {
        if (server != null) {
            server.disposeNow(timeout);
        }
        if (pool != null) {
            pool.disposeLater().block(timeout);
        }
        for (LoopResources loop : loops) {
            if (loop != null) {
                loop.disposeLater(Duration.ZERO, timeout).block(timeout);
            }
        }
    }
}
