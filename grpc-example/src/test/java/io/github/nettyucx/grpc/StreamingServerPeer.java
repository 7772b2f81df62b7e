/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.support.NettyTransport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The server JVM of {@link ServerShutdownAfterPeerLeftTest}, plain Netty without gRPC: writes 1 KiB buffers
 * to every accepted connection for as long as it is writable, prints {@code LISTENING <port>}, and when its
 * standard input closes shuts everything down, prints {@code STOPPED} and exits 0.
 */
public final class StreamingServerPeer {
    private StreamingServerPeer() {
    }

    public static void main(String[] args) throws Exception {
        NettyTransport transport = NettyTransport.valueOf(args[0]);
        EventLoopGroup boss = transport.newEventLoopGroup(1, "peer-boss");
        EventLoopGroup worker = transport.newEventLoopGroup(1, "peer-worker");
        Channel server = new ServerBootstrap().group(boss, worker).channel(transport.serverSocketChannel())
                .childHandler(new Streamer()).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        System.out.println("LISTENING " + ((InetSocketAddress) server.localAddress()).getPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // End of input is the signal to stop.
        }
        server.close().sync();
        worker.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
        boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
        System.out.println("STOPPED");
        System.out.flush();
        System.exit(0);
    }

    /** Keeps the connection's outbound buffer full until the peer goes away. */
    private static final class Streamer extends ChannelInboundHandlerAdapter {
        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            fill(ctx);
            ctx.fireChannelActive();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            fill(ctx);
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // The peer leaving mid-write is what this peer is for.
            ctx.close();
        }

        private static void fill(ChannelHandlerContext ctx) {
            while (ctx.channel().isActive() && ctx.channel().isWritable()) {
                ByteBuf chunk = ctx.alloc().directBuffer(1024).writeZero(1024);
                ctx.write(chunk).addListener(ChannelFutureListener.CLOSE_ON_FAILURE);
            }
            ctx.flush();
        }
    }
}
