/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Vert.x on UCX with peers on Vert.x's default transport (NIO), which do not speak netty-ucx: a client on UCX
 * falls back to plain TCP for a NIO server (the transport turns the fallback on for clients), and a server on UCX
 * serves a NIO client as plain TCP. Each side's UCX channel reports the plain TCP path.
 */
@ExtendWith(NoLeaks.class)
class PlainPeersTest {
    private static final int BODY_BYTES = 3 * 1024 * 1024 + 5;

    private static Vertx ucx;
    private static Vertx nio;

    @BeforeAll
    static void start() {
        UcxChecks.requireUcx();
        ucx = VertxInstances.onUcx();
        nio = VertxInstances.onNio();
    }

    @AfterAll
    static void stop() throws Exception {
        VertxInstances.close(ucx);
        VertxInstances.close(nio);
    }

    @Test
    void ucxHttpClientReachesANioServer() throws Exception {
        HttpServer server = Await.result(nio.createHttpServer().requestHandler(PlainPeersTest::echo)
                .listen(0, "127.0.0.1"));
        HttpClient client = ucx.createHttpClient();
        try {
            exchange(client, server.actualPort());
            UcxChecks.assertPlainTcpConnections(ChannelRecorder.clientsTo(server.actualPort()));
        } finally {
            Await.result(client.close());
            Await.result(server.close());
        }
    }

    @Test
    void nioHttpClientReachesAUcxServer() throws Exception {
        HttpServer server = Await.result(ucx.createHttpServer().requestHandler(PlainPeersTest::echo)
                .listen(0, "127.0.0.1"));
        HttpClient client = nio.createHttpClient();
        try {
            exchange(client, server.actualPort());
            UcxChecks.assertPlainTcpConnections(ChannelRecorder.acceptedOn(server.actualPort()));
        } finally {
            Await.result(client.close());
            Await.result(server.close());
        }
    }

    /** A server that speaks first, as SMTP or MySQL do: the UCX client takes its greeting for plain TCP. */
    @Test
    void ucxNetClientReachesANioServerThatSpeaksFirst() throws Exception {
        NetServer server = Await.result(nio.createNetServer().connectHandler(socket -> {
            socket.write("220 hello\r\n");
            socket.handler(socket::write);
        }).listen(0, "127.0.0.1"));
        NetClient client = ucx.createNetClient();
        try {
            Buffer received = Buffer.buffer();
            Promise<String> both = Promise.promise();
            // The handler is set on the event loop as the connection completes: the greeting may follow at once.
            NetSocket socket = Await.result(client.connect(server.actualPort(), "localhost")
                    .onSuccess(connected -> connected.handler(buffer -> {
                        received.appendBuffer(buffer);
                        if (received.toString().endsWith("ping")) {
                            both.tryComplete(received.toString());
                        }
                    })));
            Await.result(socket.write("ping"));
            assertEquals("220 hello\r\nping", Await.result(both.future()));
            UcxChecks.assertPlainTcpConnections(ChannelRecorder.clientsTo(server.actualPort()));
            Await.result(socket.close());
        } finally {
            Await.result(client.close());
            Await.result(server.close());
        }
    }

    private static void echo(HttpServerRequest request) {
        request.body().onSuccess(body -> request.response().end(body));
    }

    /** A GET and a POST of several MiB, echoed. */
    private static void exchange(HttpClient client, int port) throws Exception {
        assertEquals("", send(client, port, HttpMethod.GET, null).toString());
        byte[] body = HttpTest.randomBytes(BODY_BYTES, 5);
        assertArrayEquals(body, send(client, port, HttpMethod.POST, Buffer.buffer(body)).getBytes());
    }

    private static Buffer send(HttpClient client, int port, HttpMethod method, Buffer body) throws Exception {
        RequestOptions options = new RequestOptions().setMethod(method).setHost("localhost").setPort(port)
                .setURI("/echo");
        return Await.result(client.request(options)
                .compose(request -> body == null ? request.send() : request.send(body))
                .compose(response -> response.body()));
    }
}
