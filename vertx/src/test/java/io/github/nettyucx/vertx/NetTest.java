/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Arrays;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** Vert.x's {@code NetServer} and {@code NetClient} on UCX (two Vert.x instances): an echo of several MiB. */
@ExtendWith(NoLeaks.class)
class NetTest {
    private static final int BYTES = 5 * 1024 * 1024 + 17;
    private static final int CHUNK = 100 * 1024;

    private static Vertx serverVertx;
    private static Vertx clientVertx;
    private static NetServer server;

    @BeforeAll
    static void start() throws Exception {
        UcxChecks.requireUcx();
        serverVertx = VertxInstances.onUcx();
        clientVertx = VertxInstances.onUcx();
        server = Await.result(serverVertx.createNetServer().connectHandler(socket -> socket.pipeTo(socket))
                .listen(0, "127.0.0.1"));
    }

    @AfterAll
    static void stop() throws Exception {
        VertxInstances.close(clientVertx);
        VertxInstances.close(serverVertx);
    }

    @Test
    void echo() throws Exception {
        byte[] sent = HttpTest.randomBytes(BYTES, 4);
        Buffer received = Buffer.buffer(BYTES);
        Promise<Buffer> all = Promise.promise();
        // Held until the end: Vert.x closes a client that is no longer referenced, and its connections with it.
        NetClient client = clientVertx.createNetClient();
        NetSocket socket = Await.result(client.connect(server.actualPort(), "localhost")
                .onSuccess(connected -> {
                    connected.handler(buffer -> {
                        received.appendBuffer(buffer);
                        if (received.length() >= BYTES) {
                            all.tryComplete(received);
                        }
                    });
                    connected.closeHandler(v -> all.tryFail("closed after " + received.length() + " bytes"));
                }));
        for (int offset = 0; offset < BYTES; offset += CHUNK) {
            socket.write(Buffer.buffer(Arrays.copyOfRange(sent, offset, Math.min(BYTES, offset + CHUNK))));
        }
        Buffer echoed;
        try {
            echoed = Await.result(all.future());
        } catch (TimeoutException e) {
            throw new AssertionError("echoed " + received.length() + " of " + BYTES + " bytes; client "
                    + UcxChecks.describe(ChannelRecorder.clientsTo(server.actualPort())) + ", server "
                    + UcxChecks.describe(ChannelRecorder.acceptedOn(server.actualPort())), e);
        }
        assertArrayEquals(sent, echoed.getBytes());
        Await.result(socket.close());
        Await.result(client.close());
    }
}
