/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.interop.Empty;
import io.github.nettyucx.grpc.interop.InteropServiceGrpc;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.Channel;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/**
 * A channel the provider builds reaches a gRPC server that does not speak netty-ucx (grpc-netty on NIO), as
 * plain TCP: an application with this jar can still call other services.
 */
class PlainServerTest {
    @BeforeAll
    static void ucx() {
        UcxChecks.requireUcx();
    }

    @Test
    void aProviderChannelCallsAGrpcNettyServerOnNio() throws Exception {
        MultiThreadIoEventLoopGroup nio = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
                .channelType(NioServerSocketChannel.class).bossEventLoopGroup(nio).workerEventLoopGroup(nio)
                .addService(new InteropServiceImpl()).build().start();
        ManagedChannel channel = Grpc.newChannelBuilder("127.0.0.1:" + server.getPort(),
                InsecureChannelCredentials.create()).build();
        try {
            for (int i = 0; i < 3; i++) {
                assertEquals(Empty.getDefaultInstance(), InteropServiceGrpc.newBlockingStub(channel)
                        .withDeadlineAfter(30, TimeUnit.SECONDS).emptyCall(Empty.getDefaultInstance()));
            }
            List<Channel> clients = ChannelRecorder.clientsTo(server.getPort());
            assertFalse(clients.isEmpty(), "no client channel recorded");
            for (Channel client : clients) {
                assertInstanceOf(UcxSocketChannel.class, client);
            }
        } finally {
            channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            nio.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
