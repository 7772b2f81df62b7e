/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;
import reactor.netty.DisposableServer;
import reactor.netty.tcp.TcpClient;
import reactor.netty.tcp.TcpServer;

import java.io.ByteArrayOutputStream;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reactor Netty's {@link TcpServer} and {@link TcpClient} on {@link UcxLoopResources}: an echo, both ends UCX. */
class TcpOverUcxTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static UcxLoopResources loops;
    private static DisposableServer server;
    private static final Connections serverConnections = new Connections();
    private static final Connections clientConnections = new Connections();

    @BeforeAll
    static void start() {
        UcxChecks.requireUcx();
        loops = UcxLoopResources.create("tcp-test", 2, true);
        server = TcpServer.create().host("127.0.0.1").port(0).runOn(loops)
                .doOnConnection(connection -> serverConnections.record(connection.channel()))
                .handle((in, out) -> out.send(in.receive().retain()))
                .bindNow(TIMEOUT);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.disposeNow(TIMEOUT);
        }
        if (loops != null) {
            loops.disposeLater(Duration.ZERO, TIMEOUT).block(TIMEOUT);
        }
    }

    @Test
    void echo() throws Exception {
        echoThrough(server, loops);
        UcxChecks.assertUcxListener(server.channel());
        serverConnections.assertAllUcx();
        clientConnections.assertAllUcx();
    }

    /** With selector loops of their own, the listener accepts on one and hands the connection to a worker loop. */
    @Test
    void echoWithSelectorsOfTheirOwn() throws Exception {
        UcxLoopResources split = UcxLoopResources.create("tcp-test-split", 1, 2, true);
        Connections accepted = new Connections();
        DisposableServer splitServer = TcpServer.create().host("127.0.0.1").port(0).runOn(split)
                .doOnConnection(connection -> accepted.record(connection.channel()))
                .handle((in, out) -> out.send(in.receive().retain()))
                .bindNow(TIMEOUT);
        try {
            echoThrough(splitServer, split);
            assertTrue(contains(split.onServerSelect(true), splitServer.channel().eventLoop()),
                    "the listener is not on a selector loop");
            accepted.assertAllUcx();
            for (Channel channel : accepted.channels()) {
                assertTrue(contains(split.onServer(true), channel.eventLoop()), channel + " is not on a worker loop");
            }
        } finally {
            splitServer.disposeNow(TIMEOUT);
            split.disposeLater(Duration.ZERO, TIMEOUT).block(TIMEOUT);
        }
    }

    /** Connects a client on {@code clientLoops} to {@code target}, which echoes 4 MiB back. */
    private static void echoThrough(DisposableServer target, UcxLoopResources clientLoops) {
        Connection connection = TcpClient.create().runOn(clientLoops)
                .host("127.0.0.1").port(target.port())
                .doOnConnected(c -> clientConnections.record(c.channel()))
                .connectNow(TIMEOUT);
        try {
            byte[] sent = Bodies.bytes(4 << 20, 21);
            ByteArrayOutputStream received = new ByteArrayOutputStream();
            Mono<Void> echoed = connection.inbound().receive().map(ByteBufUtil::getBytes)
                    .doOnNext(received::writeBytes)
                    .takeUntil(bytes -> received.size() >= sent.length)
                    .then();
            echoed.and(connection.outbound().send(Bodies.pieces(sent))).block(TIMEOUT);
            assertArrayEquals(sent, received.toByteArray());
        } finally {
            connection.disposeNow(TIMEOUT);
        }
    }

    private static boolean contains(EventLoopGroup group, EventLoop loop) {
        for (EventExecutor executor : group) {
            if (executor == loop) {
                return true;
            }
        }
        return false;
    }
}
