/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.github.nettyucx.transport.UcxChannelOption;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UCX and plain TCP peers: an {@link HttpClient} on {@link UcxLoopResources} reaches an {@link HttpServer} on NIO
 * (its channels fall back to plain TCP, which the loop resources turn on), and an {@code HttpClient} on NIO reaches
 * an {@code HttpServer} on UCX. A client that turns the fallback off cannot reach the NIO server.
 */
class PlainTcpFallbackTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static UcxLoopResources ucxLoops;
    private static LoopResources nioLoops;
    private static ConnectionProvider pool;
    private static final List<DisposableServer> servers = new ArrayList<>();

    @BeforeAll
    static void start() {
        UcxChecks.requireUcx();
        ucxLoops = UcxLoopResources.create("fallback-test-ucx", 2, true);
        nioLoops = LoopResources.create("fallback-test-nio", 2, true);
        pool = ConnectionProvider.create("fallback-test", 4);
    }

    @AfterAll
    static void stop() {
        for (DisposableServer server : servers) {
            server.disposeNow(TIMEOUT);
        }
        TestResources.dispose(TIMEOUT, null, pool, nioLoops, ucxLoops);
    }

    @Test
    void ucxClientReachesANioServer() throws Exception {
        DisposableServer server = echoServer(server0 -> server0.runOn(nioLoops, false), new Connections());
        assertInstanceOf(NioServerSocketChannel.class, server.channel());
        Connections clientConnections = new Connections();
        HttpClient client = HttpClient.create(pool).runOn(ucxLoops)
                .baseUrl("http://127.0.0.1:" + server.port())
                .doOnConnected(connection -> clientConnections.record(connection.channel()));

        assertEchoes(client);
        clientConnections.assertAllPlainTcp();
    }

    @Test
    void nioClientReachesAUcxServer() throws Exception {
        Connections serverConnections = new Connections();
        DisposableServer server = echoServer(server0 -> server0.runOn(ucxLoops), serverConnections);
        UcxChecks.assertUcxListener(server.channel());
        List<Object> clientChannels = new ArrayList<>();
        HttpClient client = HttpClient.create(pool).runOn(nioLoops, false)
                .baseUrl("http://127.0.0.1:" + server.port())
                .doOnConnected(connection -> clientChannels.add(connection.channel()));

        assertEchoes(client);
        assertTrue(clientChannels.stream().allMatch(NioSocketChannel.class::isInstance), clientChannels.toString());
        serverConnections.assertAllPlainTcp();
    }

    /** The option on the client's bootstrap is applied after the loop resources made the channel, so it wins. */
    @Test
    void aClientThatTurnsTheFallbackOffCannotReachANioServer() {
        DisposableServer server = echoServer(server0 -> server0.runOn(nioLoops, false), new Connections());
        // A NIO HTTP server may say nothing to the client's magic and hello (its decoder waits for a line end that
        // the hello, shorter than a request line may be, need not contain): the connect then times out, and says why.
        HttpClient client = HttpClient.create(pool).runOn(ucxLoops)
                .option(UcxChannelOption.PLAIN_TCP_FALLBACK, false)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 3000)
                .baseUrl("http://127.0.0.1:" + server.port());
        Exception e = assertThrows(Exception.class, () -> client.get().uri("/hello")
                .responseContent().aggregate().asString().block(TIMEOUT));
        assertTrue(String.valueOf(e.getMessage()).contains("PLAIN_TCP_FALLBACK"), e.toString());
    }

    private static DisposableServer echoServer(Function<HttpServer, HttpServer> loops, Connections connections) {
        DisposableServer server = loops.apply(HttpServer.create().host("127.0.0.1").port(0))
                .doOnConnection(connection -> connections.record(connection.channel()))
                .route(routes -> routes
                        .get("/hello", (request, response) -> response.sendString(Mono.just("hello")))
                        .post("/echo", (request, response) -> response.send(request.receive().retain())))
                .bindNow(TIMEOUT);
        servers.add(server);
        return server;
    }

    private static void assertEchoes(HttpClient client) {
        assertEquals("hello", client.get().uri("/hello").responseContent().aggregate().asString().block(TIMEOUT));
        byte[] sent = Bodies.bytes(1 << 20, 31);
        assertArrayEquals(sent, client.post().uri("/echo").send(Bodies.pieces(sent))
                .responseContent().aggregate().asByteArray().block(TIMEOUT));
    }
}
