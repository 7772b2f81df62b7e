/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.internal.VertxInternal;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where UCX cannot run, the transport says so and why, and a Vert.x built with it runs on NIO and works. Runs in
 * a JVM of its own (the build's "unavailable" execution), whose environment sets a UCX setting that the transport
 * refuses ({@code UCX_MM_SEG_SIZE} over 64 KiB); skipped in any other JVM.
 */
class UnavailableUcxTest {
    @Test
    void vertxRunsOnNioAndSaysWhy() throws Exception {
        Assumptions.assumeTrue(System.getenv("UCX_MM_SEG_SIZE") != null, "UCX_MM_SEG_SIZE is not set here");
        assertFalse(UcxTransport.UCX.available());
        Throwable cause = UcxTransport.UCX.unavailabilityCause();
        assertNotNull(cause);
        assertSame(Ucx.unavailabilityCause(), cause);
        assertTrue(cause.getMessage().contains("UCX_MM_SEG_SIZE"), cause.getMessage());

        Vertx vertx = Vertx.builder().withTransport(UcxTransport.UCX).build();
        try {
            assertFalse(vertx.isNativeTransportEnabled());
            assertSame(cause, vertx.unavailableNativeTransportCause());
            assertFalse(((VertxInternal) vertx).eventLoopGroup() instanceof UcxEventLoopGroup);
            HttpServer server = Await.result(vertx.createHttpServer()
                    .requestHandler(request -> request.response().end("on NIO")).listen(0, "127.0.0.1"));
            HttpClient client = vertx.createHttpClient();
            Buffer body = Await.result(client.request(HttpMethod.GET, server.actualPort(), "localhost", "/")
                    .compose(request -> request.send()).compose(response -> response.body()));
            Await.result(client.close());
            assertEquals("on NIO", body.toString());
        } finally {
            VertxInstances.close(vertx);
        }
    }
}
