/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.datapath.UcxTagDataPath;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The send path over every kind of buffer a pipeline can hand the transport: heap, direct ones large
 * enough to be sent from their own memory (see {@link UcxTagDataPath#ZERO_COPY_MIN_BYTES}) and smaller
 * ones copied, slices, read-only views and composites, flushed in irregular groups; and the lifetime of
 * buffers that are still being sent when the channel closes. Runs on NIO and epoll as well, as the
 * cross-check.
 */
class SendPathTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final ByteBufAllocator POOLED = PooledByteBufAllocator.DEFAULT;

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void everyKindOfBufferArrivesIntactAndIsReleased(TestTransport transport) throws Exception {
        transport.assumeTested();
        EventLoopGroup group = transport.newGroup(2);
        Counter counter = new Counter();
        try {
            Channel server = serve(transport, group, counter);
            Channel client = connect(transport, group, server);
            Random random = new Random(42);
            CRC32 expected = new CRC32();
            long expectedBytes = 0;
            List<ByteBuf> written = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                ByteBuf buf = newBuffer(random, i % 7);
                expected.update(buf.nioBuffer());
                expectedBytes += buf.readableBytes();
                written.add(buf.retain());
                if (random.nextInt(4) == 0) {
                    client.writeAndFlush(buf).sync();
                } else {
                    client.write(buf);
                }
            }
            client.flush();
            counter.awaitBytes(expectedBytes);
            assertEquals(expected.getValue(), counter.crc(), "bytes differ from what was written");
            client.close().sync();
            for (ByteBuf buf : written) {
                awaitOnlyOurReference(buf);
                buf.release();
            }
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void buffersStillBeingSentAtCloseAreReleasedLater(TestTransport transport) throws Exception {
        transport.assumeTested();
        EventLoopGroup group = transport.newGroup(2);
        Counter counter = new Counter();
        try {
            Channel server = serve(transport, group, counter);
            Channel client = connect(transport, group, server);
            List<ByteBuf> written = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                ByteBuf buf = POOLED.directBuffer(256 * 1024);
                buf.writerIndex(buf.capacity());
                written.add(buf.retain());
                client.write(buf);
            }
            client.flush();
            client.close().sync();
            for (ByteBuf buf : written) {
                awaitOnlyOurReference(buf);
                buf.release();
            }
        } finally {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).sync();
        }
    }

    /** Kind 0..6: heap, small direct, large direct, slice of a large direct, read-only, composite, empty. */
    private static ByteBuf newBuffer(Random random, int kind) {
        switch (kind) {
            case 0:
                return filled(Unpooled.buffer(1 + random.nextInt(3000)), random);
            case 1:
                return filled(POOLED.directBuffer(1 + random.nextInt(2000)), random);
            case 2:
                return filled(POOLED.directBuffer(16 * 1024 + random.nextInt(200 * 1024)), random);
            case 3: {
                ByteBuf parent = filled(POOLED.directBuffer(100 * 1024), random);
                ByteBuf slice = parent.retainedSlice(1 + random.nextInt(1000), 40 * 1024 + random.nextInt(50 * 1024));
                parent.release();
                return slice;
            }
            case 4:
                return filled(POOLED.directBuffer(20 * 1024 + random.nextInt(10 * 1024)), random).asReadOnly();
            case 5: {
                CompositeByteBuf composite = POOLED.compositeDirectBuffer();
                composite.addComponent(true, filled(POOLED.directBuffer(30 * 1024), random));
                composite.addComponent(true, filled(Unpooled.buffer(500), random));
                composite.addComponent(true, filled(POOLED.directBuffer(17 * 1024), random));
                return composite;
            }
            default:
                return Unpooled.EMPTY_BUFFER.duplicate();
        }
    }

    private static ByteBuf filled(ByteBuf buf, Random random) {
        byte[] bytes = new byte[buf.writableBytes()];
        random.nextBytes(bytes);
        return buf.writeBytes(bytes);
    }

    /** The transport lets go of a written buffer once it is sent (for UCX: when UCX is done reading it). */
    private static void awaitOnlyOurReference(ByteBuf buf) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (buf.refCnt() > 1 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(1, buf.refCnt(), "the transport still holds a written buffer 30 s after close");
    }

    private static Channel serve(TestTransport transport, EventLoopGroup group, Counter counter)
            throws InterruptedException {
        return new ServerBootstrap().group(group).channel(transport.serverChannelClass())
                .childHandler(counter)
                .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
    }

    private static Channel connect(TestTransport transport, EventLoopGroup group, Channel server)
            throws InterruptedException {
        return new Bootstrap().group(group).channel(transport.clientChannelClass())
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new ChannelInboundHandlerAdapter())
                .connect(server.localAddress()).sync().channel();
    }

    /** Checksums every byte the server receives (one connection at a time). */
    @io.netty.channel.ChannelHandler.Sharable
    private static final class Counter extends ChannelInboundHandlerAdapter {
        private final CRC32 crc = new CRC32();
        private final AtomicLong bytes = new AtomicLong();
        private final CountDownLatch changed = new CountDownLatch(1);

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                synchronized (crc) {
                    crc.update(buf.nioBuffer());
                }
                bytes.addAndGet(buf.readableBytes());
            } finally {
                buf.release();
            }
        }

        long crc() {
            synchronized (crc) {
                return crc.getValue();
            }
        }

        void awaitBytes(long expected) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (bytes.get() < expected && System.nanoTime() < deadline) {
                changed.await(5, TimeUnit.MILLISECONDS);
            }
            assertTrue(bytes.get() >= expected, "received " + bytes.get() + " of " + expected + " bytes");
            assertEquals(expected, bytes.get(), "received more bytes than were written");
        }
    }
}
