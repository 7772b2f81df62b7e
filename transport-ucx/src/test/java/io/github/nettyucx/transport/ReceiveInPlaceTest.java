/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link UcxChannelOption#RECEIVE_IN_PLACE}: on (the default), large messages reach the pipeline in UCX's registered
 * receive buffers; off, every read is in a buffer of the channel's {@code ALLOCATOR}, as on NIO and epoll, which is
 * what a framework that releases only the buffers of allocators it knows (Vert.x) needs.
 */
class ReceiveInPlaceTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final ByteBufAllocator POOLED = PooledByteBufAllocator.DEFAULT;
    /** Well above the size from which messages are handed up in place, in sends the size of a message each. */
    private static final int MESSAGE_BYTES = 60 * 1024;
    private static final int MESSAGES = 64;

    @ParameterizedTest(name = "RECEIVE_IN_PLACE={0}")
    @ValueSource(booleans = { true, false })
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void readsComeFromTheAllocatorUnlessReceivedInPlace(boolean inPlace) throws Exception {
        TestTransport.UCX.assumeAvailable();
        EventLoopGroup group = TestTransport.UCX.newGroup(2);
        Allocators allocators = new Allocators();
        try {
            Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                    .childOption(ChannelOption.ALLOCATOR, POOLED)
                    .childOption(UcxChannelOption.RECEIVE_IN_PLACE, inPlace)
                    .childHandler(allocators)
                    .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            Channel client = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .handler(new ChannelInboundHandlerAdapter())
                    .connect(server.localAddress()).sync().channel();
            for (int i = 0; i < MESSAGES; i++) {
                client.writeAndFlush(Unpooled.wrappedBuffer(new byte[MESSAGE_BYTES]));
            }
            allocators.awaitBytes((long) MESSAGES * MESSAGE_BYTES);
            client.close().sync();
            server.close().sync();
        } finally {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
        assertFalse(allocators.seen.isEmpty(), "no read");
        if (inPlace) {
            assertTrue(allocators.seen.stream().anyMatch(alloc -> alloc instanceof UcxByteBufAllocator),
                    "no message was handed up in place: " + allocators.seen);
        } else {
            assertTrue(allocators.seen.stream().allMatch(alloc -> alloc == POOLED),
                    "a read did not come from the channel's allocator: " + allocators.seen);
        }
    }

    /** Records the allocator of every buffer read, and counts the bytes. */
    @io.netty.channel.ChannelHandler.Sharable
    private static final class Allocators extends ChannelInboundHandlerAdapter {
        final Queue<ByteBufAllocator> seen = new ConcurrentLinkedQueue<>();
        private final AtomicLong bytes = new AtomicLong();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            seen.add(buf.alloc());
            bytes.addAndGet(buf.readableBytes());
            buf.release();
        }

        void awaitBytes(long expected) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (bytes.get() < expected && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(expected, bytes.get(), "bytes received");
        }
    }
}
