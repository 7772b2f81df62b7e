/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The connections between two event loops' workers share one UCP endpoint each way (ucx_endpoint.c): many
 * connections open two endpoints, each carries its own bytes intact, closing some leaves the others' endpoint
 * working, and the last close gives the endpoints back.
 */
class SharedEndpointTest {
    private static final int CONNECTIONS = 16;
    private static final int BYTES = 200_000;

    @Test
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void connectionsBetweenTwoWorkersShareOneEndpointEachWay() throws Exception {
        TestTransport.UCX.assumeAvailable();
        assumeFalse("always".equals(System.getProperty("io.github.nettyucx.tcpDataPath")),
                "the TCP data path has no endpoints");
        EventLoopGroup serverGroup = TestTransport.UCX.newGroup(1);
        EventLoopGroup clientGroup = TestTransport.UCX.newGroup(1);
        try {
            Queue<Echo> echoes = new ConcurrentLinkedQueue<>();
            Channel server = new ServerBootstrap().group(serverGroup).channel(UcxServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            Echo echo = new Echo();
                            echoes.add(echo);
                            ch.pipeline().addLast(echo);
                        }
                    }).bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync()
                    .channel();
            long openBefore = Ucx.endpointsOpen();
            long createdBefore = Ucx.endpointsCreated();
            List<Channel> clients = new ArrayList<>();
            List<EchoChecker> checkers = new ArrayList<>();
            for (int i = 0; i < CONNECTIONS; i++) {
                EchoChecker checker = new EchoChecker(BYTES);
                checkers.add(checker);
                clients.add(new Bootstrap().group(clientGroup).channel(UcxSocketChannel.class).handler(checker)
                        .connect(server.localAddress()).sync().channel());
            }
            for (EchoChecker checker : checkers) {
                assertEquals((long) BYTES, checker.echoed.get(30, TimeUnit.SECONDS));
            }
            assertEquals(2L * CONNECTIONS, Ucx.endpointsCreated() - createdBefore,
                    "every connection's peer address reached UCX");
            assertTrue(Ucx.endpointsOpen() - openBefore <= 2, "endpoints open for " + CONNECTIONS
                    + " connections between two workers: " + (Ucx.endpointsOpen() - openBefore));

            for (int i = 0; i < CONNECTIONS / 2; i++) {
                clients.get(i).close().sync();
            }
            EchoChecker late = new EchoChecker(BYTES);
            Channel lateClient = new Bootstrap().group(clientGroup).channel(UcxSocketChannel.class).handler(late)
                    .connect(server.localAddress()).sync().channel();
            assertEquals((long) BYTES, late.echoed.get(30, TimeUnit.SECONDS),
                    "a connection joining the endpoints of closed ones");
            for (int i = CONNECTIONS / 2; i < CONNECTIONS; i++) {
                assertTrue(clients.get(i).isActive(), "a connection closed with another on its endpoint");
            }
            lateClient.close().sync();
            for (int i = CONNECTIONS / 2; i < CONNECTIONS; i++) {
                clients.get(i).close().sync();
            }
            assertTrue(Await.until(() -> Ucx.endpointsOpen() <= openBefore, 10, TimeUnit.SECONDS),
                    () -> "endpoints still open after the last close: " + (Ucx.endpointsOpen() - openBefore));
            for (EchoChecker checker : checkers) {
                assertTrue(checker.exceptions.isEmpty(), () -> "client: " + checker.exceptions);
            }
            for (Echo echo : echoes) {
                assertTrue(echo.exceptions.isEmpty(), () -> "server: " + echo.exceptions);
            }
            server.close().sync();
        } finally {
            clientGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
            serverGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
    }
}
