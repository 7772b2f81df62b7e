/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A server and a client that ask for no native transport ({@code runOn(loops, false)}) on {@link UcxLoopResources}
 * run on NIO, as on Reactor Netty's own resources, and work; the same resources still give UCX to those that do.
 */
class NioWhenNotNativeTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private UcxLoopResources loops;
    private ConnectionProvider pool;
    private DisposableServer server;

    @BeforeEach
    void start() {
        UcxChecks.requireUcx();
        loops = UcxLoopResources.create("nio-test", 2, true);
        pool = ConnectionProvider.create("nio-when-not-native", 2);
    }

    @AfterEach
    void stop() {
        TestResources.dispose(TIMEOUT, server, pool, loops);
    }

    @Test
    void httpOverNio() {
        Queue<Channel> accepted = new ConcurrentLinkedQueue<>();
        Queue<Channel> connected = new ConcurrentLinkedQueue<>();
        server = HttpServer.create().host("127.0.0.1").port(0).runOn(loops, false)
                .doOnConnection(connection -> accepted.add(connection.channel()))
                .route(routes -> routes.get("/hello", (request, response) -> response.sendString(Mono.just("hello"))))
                .bindNow(TIMEOUT);
        String answer = HttpClient.create(pool).runOn(loops, false)
                .doOnConnected(connection -> connected.add(connection.channel()))
                .get().uri("http://127.0.0.1:" + server.port() + "/hello")
                .responseSingle((response, body) -> body.asString().map(text -> response.status().code() + " " + text))
                .block(TIMEOUT);
        assertEquals("200 hello", answer);

        assertSame(NioServerSocketChannel.class, server.channel().getClass());
        assertTrue(isIn(loops.onServer(false), server.channel()), "the listener is not on the NIO loops");
        List<Channel> connections = new ArrayList<>(accepted);
        connections.addAll(connected);
        for (Channel channel : connections) {
            assertSame(NioSocketChannel.class, channel.getClass(), channel.toString());
            assertTrue(isIn(loops.onServer(false), channel), channel + " is not on the NIO loops");
        }
        assertFalse(accepted.isEmpty(), "no connection accepted");
        assertFalse(connected.isEmpty(), "no connection made");
    }

    /** The resources that gave NIO to one server give UCX to the next that asks for the native transport. */
    @Test
    void nativeStillUcx() {
        server = HttpServer.create().host("127.0.0.1").port(0).runOn(loops, false)
                .handle((request, response) -> response.sendString(Mono.just("nio"))).bindNow(TIMEOUT);
        DisposableServer ucx = HttpServer.create().host("127.0.0.1").port(0).runOn(loops)
                .handle((request, response) -> response.sendString(Mono.just("ucx"))).bindNow(TIMEOUT);
        try {
            assertSame(NioServerSocketChannel.class, server.channel().getClass());
            UcxChecks.assertUcxListener(ucx.channel());
            String answer = HttpClient.create(pool).runOn(loops).get().uri("http://127.0.0.1:" + ucx.port() + "/")
                    .responseContent().aggregate().asString().block(TIMEOUT);
            assertEquals("ucx", answer);
        } finally {
            ucx.disposeNow(TIMEOUT);
        }
    }

    private static boolean isIn(EventLoopGroup group, Channel channel) {
        for (EventExecutor loop : group) {
            if (loop == channel.eventLoop()) {
                return true;
            }
        }
        return false;
    }
}
