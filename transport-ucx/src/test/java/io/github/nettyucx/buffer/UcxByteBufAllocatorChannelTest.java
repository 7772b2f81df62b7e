/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.buffer;

import io.github.nettyucx.transport.LogRecorder;
import io.github.nettyucx.transport.TestTransport;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.github.nettyucx.transport.testsuite.RequireUcx;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link UcxByteBufAllocator} as the {@code ALLOCATOR} of UCX channels (the transport as it is today,
 * without memory handles): an echo of pooled and dedicated-region buffers arrives intact, and after
 * the channels close every buffer is back in the pools and no leak is reported.
 */
@RequireUcx
class UcxByteBufAllocatorChannelTest {
    private static final int MIB = 1 << 20;

    @Test
    void echoOverUcxChannelsReturnsEveryBufferToThePool() throws Exception {
        LogRecorder log = LogRecorder.install();
        log.clear();
        UcxByteBufAllocator alloc = new UcxByteBufAllocator(new UcxAllocatorConfig(4 * MIB, 256 * MIB, 256 << 10));
        byte[] expected = new byte[3 * MIB + 12345];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = (byte) (i * 131 + (i >>> 11));
        }
        ByteBuf received = Unpooled.buffer(expected.length);
        CompletableFuture<Void> done = new CompletableFuture<>();
        EventLoopGroup group = TestTransport.UCX.newGroup(2);
        try {
            Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                    .childOption(ChannelOption.ALLOCATOR, alloc)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ctx.writeAndFlush(msg);
                        }
                    })
                    .bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
            Channel client = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .option(ChannelOption.ALLOCATOR, alloc)
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ByteBuf buf = (ByteBuf) msg;
                            received.writeBytes(buf);
                            buf.release();
                            if (received.readableBytes() >= expected.length) {
                                done.complete(null);
                            }
                        }
                    })
                    .connect((InetSocketAddress) server.localAddress()).sync().channel();
            int sent = 0;
            // Sizes across classes and beyond 1 MiB (a dedicated region).
            for (int size : List.of(1, 64, 1000, 65536, 70000, MIB + 17, 4096)) {
                int n = Math.min(size, expected.length - sent);
                client.write(alloc.directBuffer(n).writeBytes(expected, sent, n));
                sent += n;
            }
            client.writeAndFlush(alloc.directBuffer(expected.length - sent).writeBytes(expected, sent,
                    expected.length - sent));
            done.get(60, TimeUnit.SECONDS);
            assertArrayEquals(expected, io.netty.buffer.ByteBufUtil.getBytes(received));
            client.close().sync();
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
            received.release();
        }
        assertEquals(0, alloc.metric().activeDirectMemory(), "every buffer of the echo was released");
        LogRecorder.provokeLeakReports();
        assertEquals(List.of(), log.leaks());
        alloc.close();
    }
}
