/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.netty.channel.Channel;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

/**
 * The channels under Vert.x are UCX channels whose bytes travel over UCX, not the plain TCP path: the listener is a
 * {@link UcxServerSocketChannel} on the server's acceptor loop, and the client channel and the connection it
 * accepted each report a UCX endpoint ({@code ucxLanes()}), while Vert.x's HTTP and TCP clients talk to the
 * servers. The channels are the ones Netty's bootstraps made, as {@link ChannelRecorder} saw them.
 */
@ExtendWith(NoLeaks.class)
class RunsOnUcxTest {
    private static Vertx serverVertx;
    private static Vertx clientVertx;

    @BeforeAll
    static void start() {
        UcxChecks.requireUcx();
        serverVertx = VertxInstances.onUcx();
        clientVertx = VertxInstances.onUcx();
    }

    @AfterAll
    static void stop() throws Exception {
        VertxInstances.close(clientVertx);
        VertxInstances.close(serverVertx);
    }

    @Test
    void httpConnectionsAreUcxConnections() throws Exception {
        HttpServer server = Await.result(serverVertx.createHttpServer()
                .requestHandler(request -> request.response().end("over UCX")).listen(0, "127.0.0.1"));
        HttpClient client = clientVertx.createHttpClient();
        try {
            Buffer body = Await.result(client.request(HttpMethod.GET, server.actualPort(), "localhost", "/")
                    .compose(request -> request.send()).compose(response -> response.body()));
            assertEquals("over UCX", body.toString());
            assertOnUcx(server.actualPort());
        } finally {
            Await.result(client.close());
            Await.result(server.close());
        }
    }

    @Test
    void netConnectionsAreUcxConnections() throws Exception {
        NetServer server = Await.result(serverVertx.createNetServer().connectHandler(socket -> socket.pipeTo(socket))
                .listen(0, "127.0.0.1"));
        NetClient client = clientVertx.createNetClient();
        try {
            Promise<Buffer> echo = Promise.promise();
            NetSocket socket = Await.result(client.connect(server.actualPort(), "localhost")
                    .onSuccess(connected -> connected.handler(echo::tryComplete)));
            Await.result(socket.write("ping"));
            assertEquals("ping", Await.result(echo.future()).toString());
            assertOnUcx(server.actualPort());
            Await.result(socket.close());
        } finally {
            Await.result(client.close());
            Await.result(server.close());
        }
    }

    /** The listener on {@code port}, the client connected to it and the connection it accepted are UCX's. */
    private static void assertOnUcx(int port) throws Exception {
        List<Channel> listeners = ChannelRecorder.listenersOn(port);
        assertEquals(1, listeners.size(), "listeners on " + port + ": " + listeners);
        assertInstanceOf(UcxServerSocketChannel.class, listeners.get(0));
        assertSame(((VertxInternal) serverVertx).acceptorEventLoopGroup(), listeners.get(0).eventLoop().parent());
        List<Channel> clients = ChannelRecorder.clientsTo(port);
        List<Channel> accepted = ChannelRecorder.acceptedOn(port);
        assertEquals(1, clients.size(), "clients of " + port + ": " + clients);
        assertEquals(1, accepted.size(), "connections accepted on " + port + ": " + accepted);
        UcxChecks.assertUcxConnections(clients);
        UcxChecks.assertUcxConnections(accepted);
        assertSame(((VertxInternal) clientVertx).eventLoopGroup(), clients.get(0).eventLoop().parent());
    }
}
