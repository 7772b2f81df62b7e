/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.support.NettyTransport;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;

import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The client JVM of {@link ServerShutdownAfterPeerLeftTest}: connects to a {@link StreamingServerPeer}, reads
 * 256 KiB of its endless stream, closes the connection while the server is still writing, shuts its event
 * loop down, prints {@code LEFT} and exits 0 (2 when the stream did not arrive).
 */
public final class LeavingClientPeer {
    private LeavingClientPeer() {
    }

    public static void main(String[] args) throws Exception {
        NettyTransport transport = NettyTransport.valueOf(args[0]);
        int port = Integer.parseInt(args[1]);
        EventLoopGroup group = transport.newEventLoopGroup(1, "leaving-client");
        boolean arrived;
        try {
            CountDownLatch enough = new CountDownLatch(1);
            Channel channel = new Bootstrap().group(group).channel(transport.socketChannel())
                    .handler(new ChannelInboundHandlerAdapter() {
                        private long received;

                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            received += ((ByteBuf) msg).readableBytes();
                            ((ByteBuf) msg).release();
                            if (received >= 256 * 1024) {
                                enough.countDown();
                            }
                        }
                    }).connect(new InetSocketAddress("127.0.0.1", port)).sync().channel();
            arrived = enough.await(30, TimeUnit.SECONDS);
            channel.close().sync();
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
        }
        System.out.println(arrived ? "LEFT" : "NO STREAM");
        System.out.flush();
        System.exit(arrived ? 0 : 2);
    }
}
