/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code connections} UCX connections, each sending a message of a varying size (up to 64 KiB) and waiting
 * for its echo before the next, with every echoed byte checked: one operation per echo.
 */
final class EchoSoakWorkload extends CountingSoakWorkload {
    private final int connections;
    private final EventLoopGroup serverGroup;
    private final EventLoopGroup clientGroup;
    private final List<Channel> channels = new ArrayList<>();
    private final boolean awaitNativeRelease;

    /**
     * {@code awaitNativeRelease}: after closing the channels, wait until their native connections are freed
     * before shutting the groups down. Without it the JVM aborted (exit 134) in 3 of 4 one-minute soaks: a
     * transport bug, reproduced by {@code SoakTest.shutdownRightAfterClose}.
     */
    EchoSoakWorkload(int connections, boolean awaitNativeRelease) {
        this.connections = connections;
        this.awaitNativeRelease = awaitNativeRelease;
        this.serverGroup = TestTransport.UCX.newGroup(2);
        this.clientGroup = TestTransport.UCX.newGroup(2);
    }

    @Override
    public String name() {
        return "echo x" + connections;
    }

    @Override
    public void start() throws Exception {
        Channel server = new ServerBootstrap().group(serverGroup).channel(UcxServerSocketChannel.class)
                .childHandler(EchoServerHandler.INSTANCE)
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        channels.add(server);
        for (int i = 0; i < connections; i++) {
            channels.add(new Bootstrap().group(clientGroup).channel(UcxSocketChannel.class)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                    .handler(new PingPong(i)).connect(server.localAddress()).sync().channel());
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop();
        for (Channel ch : channels) {
            ch.close().await(10, TimeUnit.SECONDS);
        }
        if (awaitNativeRelease) {
            ResourceSnapshot.await(() -> UcxNative.connectionsAllocated() == 0, 30);
        }
        clientGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
        serverGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
    }

    private final class PingPong extends ChannelInboundHandlerAdapter {
        private final DataStream sent;
        private final DataStream echoed;
        private long outstanding;
        private int round;

        PingPong(int seed) {
            sent = new DataStream(seed);
            echoed = new DataStream(seed);
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            next(ctx);
        }

        private void next(ChannelHandlerContext ctx) {
            int size = 1 + (int) ((round++ * 7919L) % (64 * 1024));
            ByteBuf buf = ctx.alloc().buffer(size);
            sent.writeTo(buf, size);
            outstanding = size;
            ctx.writeAndFlush(buf);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                String error = echoed.check(buf);
                if (error != null) {
                    error("corrupt echo: " + error);
                    ctx.close();
                    return;
                }
                outstanding -= buf.readableBytes();
            } finally {
                buf.release();
            }
            if (outstanding == 0) {
                operationDone();
                next(ctx);
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            error("connection closed: " + ctx.channel());
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            error(String.valueOf(cause));
            ctx.close();
        }
    }
}
