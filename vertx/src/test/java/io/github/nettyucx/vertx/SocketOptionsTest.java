/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.github.nettyucx.transport.UcxChannelOption;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.core.net.TCPSSLOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The options a Vert.x application sets reach the channels that Vert.x's own servers accept and its clients make,
 * as Netty's bootstraps made them ({@link ChannelRecorder}): those Vert.x sets itself ({@code sendBufferSize},
 * {@code trafficClass}), those it leaves to the transport's {@code configure} methods ({@code tcpNoDelay},
 * {@code tcpKeepAlive}, {@code soLinger}), and {@code RECEIVE_IN_PLACE} off, which the transport adds. Each value
 * differs from both Vert.x's default and the UCX channel's, so an option that no code path applied shows up as
 * the channel's default. The connections are UCX ones, so the values are the ones the channel reports, not a
 * plain socket's.
 */
@ExtendWith(NoLeaks.class)
class SocketOptionsTest {
    private static final boolean TCP_NO_DELAY = false;
    private static final boolean TCP_KEEP_ALIVE = false;
    private static final int SO_LINGER = 3;
    private static final int SEND_BUFFER_SIZE = 96 * 1024;
    private static final int TRAFFIC_CLASS = 0x10;

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
    void netServerAndClientChannelsHaveTheOptions() throws Exception {
        NetServer server = Await.result(serverVertx.createNetServer(withOptions(new NetServerOptions()))
                .connectHandler(socket -> socket.pipeTo(socket)).listen(0, "127.0.0.1"));
        NetClient client = clientVertx.createNetClient(withOptions(new NetClientOptions()));
        try {
            Promise<Buffer> echo = Promise.promise();
            NetSocket socket = Await.result(client.connect(server.actualPort(), "localhost")
                    .onSuccess(connected -> connected.handler(echo::tryComplete)));
            Await.result(socket.write("ping"));
            assertEquals("ping", Await.result(echo.future()).toString());
            assertOptions(server.actualPort());
            Await.result(socket.close());
        } finally {
            Await.result(client.close());
            Await.result(server.close());
        }
    }

    @Test
    void httpServerAndClientChannelsHaveTheOptions() throws Exception {
        HttpServer server = Await.result(serverVertx.createHttpServer(withOptions(new HttpServerOptions()))
                .requestHandler(request -> request.response().end("options")).listen(0, "127.0.0.1"));
        HttpClient client = clientVertx.createHttpClient(withOptions(new HttpClientOptions()));
        try {
            Buffer body = Await.result(client.request(HttpMethod.GET, server.actualPort(), "localhost", "/")
                    .compose(request -> request.send()).compose(response -> response.body()));
            assertEquals("options", body.toString());
            assertOptions(server.actualPort());
        } finally {
            Await.result(client.close());
            Await.result(server.close());
        }
    }

    private static <T extends TCPSSLOptions> T withOptions(T options) {
        options.setTcpNoDelay(TCP_NO_DELAY).setTcpKeepAlive(TCP_KEEP_ALIVE).setSoLinger(SO_LINGER)
                .setSendBufferSize(SEND_BUFFER_SIZE).setTrafficClass(TRAFFIC_CLASS);
        return options;
    }

    /** The client connected to {@code port} and the connection the server accepted, UCX both, have the options. */
    private static void assertOptions(int port) throws Exception {
        List<Channel> clients = ChannelRecorder.clientsTo(port);
        List<Channel> accepted = ChannelRecorder.acceptedOn(port);
        assertEquals(1, clients.size(), "clients of " + port + ": " + clients);
        assertEquals(1, accepted.size(), "connections accepted on " + port + ": " + accepted);
        UcxChecks.assertUcxConnections(clients);
        UcxChecks.assertUcxConnections(accepted);
        assertOptions("client", clients.get(0));
        assertOptions("accepted", accepted.get(0));
    }

    private static void assertOptions(String which, Channel channel) {
        assertEquals(false, channel.config().getOption(UcxChannelOption.RECEIVE_IN_PLACE), which + " RECEIVE_IN_PLACE");
        assertEquals(TCP_NO_DELAY, channel.config().getOption(ChannelOption.TCP_NODELAY), which + " TCP_NODELAY");
        assertEquals(TCP_KEEP_ALIVE, channel.config().getOption(ChannelOption.SO_KEEPALIVE), which + " SO_KEEPALIVE");
        assertEquals(SO_LINGER, channel.config().getOption(ChannelOption.SO_LINGER), which + " SO_LINGER");
        assertEquals(SEND_BUFFER_SIZE, channel.config().getOption(ChannelOption.SO_SNDBUF), which + " SO_SNDBUF");
        assertEquals(TRAFFIC_CLASS, channel.config().getOption(ChannelOption.IP_TOS), which + " IP_TOS");
    }
}
