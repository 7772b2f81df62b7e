/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.github.nettyucx.transport.UcxDatagramChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.datagram.DatagramSocket;
import io.vertx.core.datagram.DatagramSocketOptions;
import io.vertx.core.internal.VertxInternal;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Datagrams on a Vert.x instance's UCX loops, through both ways Vert.x asks the transport for datagram channels:
 * {@code datagramChannelFactory()}, which Vert.x hands to the bootstraps of its DNS resolver, and
 * {@code datagramChannel(family)} with {@code configure}, behind {@code vertx.createDatagramSocket}.
 */
@ExtendWith(NoLeaks.class)
class DatagramTest {
    private static final UcxTransport TRANSPORT = (UcxTransport) UcxTransport.UCX.implementation();

    private static Vertx vertx;

    @BeforeAll
    static void start() {
        UcxChecks.requireUcx();
        vertx = VertxInstances.onUcx();
    }

    @AfterAll
    static void stop() throws Exception {
        VertxInstances.close(vertx);
    }

    @Test
    void channelsOfTheFactoryExchangeDatagrams() throws Exception {
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        Channel receiver = bind(new SimpleChannelInboundHandler<DatagramPacket>() {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket packet) {
                received.add(packet.content().toString(StandardCharsets.UTF_8));
            }
        });
        Channel sender = bind(new ChannelInboundHandlerAdapter());
        try {
            assertInstanceOf(UcxDatagramChannel.class, receiver);
            assertInstanceOf(UcxDatagramChannel.class, sender);
            assertTrue(ChannelRecorder.openClients(channel -> channel == receiver).contains(receiver),
                    "the bootstrap did not make the receiver");
            InetSocketAddress to = (InetSocketAddress) receiver.localAddress();
            sender.writeAndFlush(new DatagramPacket(Unpooled.copiedBuffer("through the factory",
                    StandardCharsets.UTF_8), new InetSocketAddress("127.0.0.1", to.getPort()))).sync();
            assertEquals("through the factory", received.poll(30, TimeUnit.SECONDS));
        } finally {
            sender.close().sync();
            receiver.close().sync();
        }
    }

    @Test
    void vertxDatagramSocketsExchangeDatagrams() throws Exception {
        DatagramSocket receiver = vertx.createDatagramSocket(new DatagramSocketOptions());
        DatagramSocket sender = vertx.createDatagramSocket(new DatagramSocketOptions());
        try {
            Promise<String> received = Promise.promise();
            receiver.handler(packet -> received.tryComplete(packet.data().toString()));
            Await.result(receiver.listen(0, "127.0.0.1"));
            Await.result(sender.send("through a DatagramSocket", receiver.localAddress().port(), "127.0.0.1"));
            assertEquals("through a DatagramSocket", Await.result(received.future()));
        } finally {
            Await.result(sender.close());
            Await.result(receiver.close());
        }
    }

    /** A channel of the transport's factory on the instance's UCX loops, bound to a free loopback port. */
    private static Channel bind(ChannelHandler handler) throws Exception {
        return new Bootstrap().group(((VertxInternal) vertx).eventLoopGroup())
                .channelFactory(TRANSPORT.datagramChannelFactory()).handler(handler)
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
    }
}
