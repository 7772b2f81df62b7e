/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.vertx.core.Vertx;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Vert.x instances for the tests: on UCX, or on Vert.x's default transport (NIO) for the plain peers. */
final class VertxInstances {
    private VertxInstances() {
    }

    /** A Vert.x instance on UCX; fails when Vert.x fell back to NIO. */
    static Vertx onUcx() {
        Vertx vertx = Vertx.builder().withTransport(UcxTransport.UCX).build();
        assertTrue(vertx.isNativeTransportEnabled(), () -> "Vert.x is not on UCX: "
                + vertx.unavailableNativeTransportCause());
        return vertx;
    }

    /** A Vert.x instance on its default transport, NIO. */
    static Vertx onNio() {
        return Vertx.vertx();
    }

    /** Closes {@code vertx}, when there is one, and waits for it. */
    static void close(Vertx vertx) throws Exception {
        if (vertx != null) {
            Await.result(vertx.close());
        }
    }
}
