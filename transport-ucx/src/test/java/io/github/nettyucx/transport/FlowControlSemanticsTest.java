/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.File;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Flow control: AUTO_READ off with explicit reads, backpressure when the receiver does not read, and
 * writability following WRITE_BUFFER_WATER_MARK.
 */
class FlowControlSemanticsTest extends AbstractSemanticsTest {
    // ---------------------------------------------------------------------------------------------------------
    // AUTO_READ off, explicit reads and backpressure

    private static final class ReadRounds extends ChannelInboundHandlerAdapter {
        final ByteBuf received = Unpooled.buffer();
        final AtomicInteger reads = new AtomicInteger();
        final AtomicInteger readBytesThisRound = new AtomicInteger();
        final BlockingQueue<Integer> roundBytes = new LinkedBlockingQueue<>();
        final CountDownLatch active = new CountDownLatch(1);
        final Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        volatile Channel channel;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            channel = ctx.channel();
            active.countDown();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            reads.incrementAndGet();
            readBytesThisRound.addAndGet(buf.readableBytes());
            synchronized (received) {
                received.writeBytes(buf);
            }
            buf.release();
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            roundBytes.add(readBytesThisRound.getAndSet(0));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.add(cause);
        }

        int receivedBytes() {
            synchronized (received) {
                return received.readableBytes();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void autoReadOffDeliversOnlyOnExplicitRead(TestTransport transport) throws Throwable {
        final int total = 64 * 1024;
        final int bufSize = 4096;
        byte[] payload = new DataStream(99).next(total);
        try (Env env = new Env(transport, 1, 1)) {
            ReadRounds rounds = new ReadRounds();
            Channel server = env.serverBootstrap()
                    .childOption(ChannelOption.AUTO_READ, false)
                    .childOption(ChannelOption.RECVBUF_ALLOCATOR,
                            new FixedRecvByteBufAllocator(bufSize).maxMessagesPerRead(1))
                    .childHandler(rounds)
                    .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            Channel client = env.clientBootstrap().handler(new ChannelInboundHandlerAdapter())
                    .connect(server.localAddress()).sync().channel();
            assertTrue(rounds.active.await(5, TimeUnit.SECONDS));
            client.writeAndFlush(Unpooled.wrappedBuffer(payload));

            Thread.sleep(500);
            assertEquals(0, rounds.reads.get(), "data delivered with AUTO_READ off and no read() call");
            assertEquals(0, rounds.receivedBytes());

            int explicitReads = 0;
            while (rounds.receivedBytes() < total) {
                assertTrue(explicitReads < 10 * total / bufSize, "too many read() calls: " + explicitReads);
                rounds.channel.read();
                explicitReads++;
                Integer got = rounds.roundBytes.poll(5, TimeUnit.SECONDS);
                assertNotNull(got, "read() #" + explicitReads + " delivered nothing within 5 s");
                assertTrue(got <= bufSize,
                        "one read() with maxMessagesPerRead=1 and " + bufSize + "-byte buffers delivered " + got);
                if (explicitReads == 1) {
                    // Without a further read() nothing more may arrive.
                    int before = rounds.receivedBytes();
                    Thread.sleep(300);
                    assertEquals(before, rounds.receivedBytes(), "data arrived without a read() call");
                    assertTrue(rounds.roundBytes.isEmpty(), "a read loop ran without a read() call");
                }
            }
            assertTrue(explicitReads >= total / bufSize, "only " + explicitReads + " read() calls for " + total);
            synchronized (rounds.received) {
                assertArrayEquals(payload, ByteBufUtil.getBytes(rounds.received), "received content");
            }
            // One more read() finds nothing to deliver.
            rounds.channel.read();
            assertNull(rounds.roundBytes.poll(300, TimeUnit.MILLISECONDS), "phantom data after everything was read");
            assertEquals(total, rounds.receivedBytes());
            assertTrue(rounds.channel.isActive());
            assertTrue(rounds.errors.isEmpty(), () -> "errors: " + rounds.errors);
            rounds.received.release();
            client.close().sync();
            server.close().sync();
        }
    }

    /**
     * Streams DataStream chunks whenever the channel is writable until it has stayed unwritable for
     * {@link #SETTLE_NANOS} (or a cap is reached): a TCP socket can look full for a moment and then take
     * more once the kernel has moved what it held (on a loaded machine the loopback's delivery can lag
     * behind), which is not a receiver reading.
     */
    private static final class UntilUnwritable extends ChannelInboundHandlerAdapter {
        private static final int CHUNK = 64 * 1024;
        private static final long SETTLE_NANOS = TimeUnit.SECONDS.toNanos(1);
        final DataStream out = new DataStream(4242);
        final long cap;
        final Promise<Long> unwritable = ImmediateEventExecutor.INSTANCE.newPromise();
        final CountDownLatch writableAgain = new CountDownLatch(1);
        final Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        private boolean stopped;
        private long unwritableSince;

        UntilUnwritable(long cap) {
            this.cap = cap;
        }

        void start(Channel ch) {
            ch.eventLoop().execute(() -> pump(ch));
        }

        private void pump(Channel ch) {
            if (stopped) {
                return;
            }
            // Write a few chunks per task so that the event loop can process I/O in between.
            for (int i = 0; i < 16; i++) {
                if (!ch.isWritable()) {
                    unwritableSince = System.nanoTime();
                    settle(ch);
                    return;
                }
                if (out.position() >= cap) {
                    stopped = true;
                    unwritable.tryFailure(new AssertionError("still writable after " + out.position()
                            + " bytes while the receiver does not read: no backpressure"));
                    return;
                }
                ByteBuf chunk = ch.alloc().directBuffer(CHUNK);
                out.writeTo(chunk, CHUNK);
                ch.writeAndFlush(chunk).addListener(f -> {
                    if (!f.isSuccess()) {
                        errors.add(f.cause());
                    }
                });
            }
            ch.eventLoop().execute(() -> pump(ch));
        }

        /** Stops once the channel has stayed unwritable long enough; writes on if it turned writable. */
        private void settle(Channel ch) {
            ch.eventLoop().schedule(() -> {
                if (ch.isWritable()) {
                    pump(ch);
                } else if (System.nanoTime() - unwritableSince >= SETTLE_NANOS) {
                    stopped = true;
                    unwritable.trySuccess(out.position());
                } else {
                    settle(ch);
                }
            }, 20, TimeUnit.MILLISECONDS);
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (stopped && ctx.channel().isWritable()) {
                writableAgain.countDown();
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.add(cause);
        }
    }

    /** Checks the received stream against the expected DataStream; reads only when AUTO_READ is on. */
    private static final class StreamChecker extends ChannelInboundHandlerAdapter {
        final DataStream expected;
        final AtomicLong received = new AtomicLong();
        final AtomicReference<String> problem = new AtomicReference<>();
        final CountDownLatch active = new CountDownLatch(1);
        volatile Channel channel;

        StreamChecker(long seed) {
            expected = new DataStream(seed);
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            channel = ctx.channel();
            active.countDown();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                if (problem.get() == null) {
                    String p = expected.check(buf);
                    if (p != null) {
                        problem.compareAndSet(null, p);
                    }
                }
                received.addAndGet(buf.readableBytes());
            } finally {
                buf.release();
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void backpressureWhenReceiverDoesNotRead(TestTransport transport) throws Throwable {
        try (Env env = new Env(transport, 1, 1)) {
            StreamChecker checker = new StreamChecker(4242);
            Channel server = env.serverBootstrap()
                    .childOption(ChannelOption.AUTO_READ, false)
                    .childHandler(checker)
                    .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            UntilUnwritable writer = new UntilUnwritable(256L << 20);
            Channel client = env.clientBootstrap()
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(32 * 1024, 64 * 1024))
                    .handler(writer)
                    .connect(server.localAddress()).sync().channel();
            assertTrue(checker.active.await(5, TimeUnit.SECONDS));

            writer.start(client);
            long written = await(writer.unwritable, 60, "the writer to stay unwritable");
            Thread.sleep(500);
            assertFalse(client.isWritable(), "became writable again although nobody reads");
            assertEquals(0, checker.received.get(), "the receiver got data with AUTO_READ off");

            // Start reading: everything written arrives, intact, and the writer becomes writable again.
            checker.channel.config().setAutoRead(true);
            assertTrue(writer.writableAgain.await(30, TimeUnit.SECONDS), "writer never became writable again");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (checker.received.get() < written && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertNull(checker.problem.get());
            assertEquals(written, checker.received.get(), "bytes received");
            assertEquals(writer.out.crc(), checker.expected.crc(), "CRC32 of the stream");
            assertTrue(writer.errors.isEmpty(), () -> "writer errors: " + writer.errors);
            client.close().sync();
            server.close().sync();
        }
    }

    /**
     * A write of nothing (an empty buffer, a region of no bytes) completes at once, also while the receiver
     * does not read and holds all the messages it can take: on UCX a window of one message, its only credit
     * spent on the byte before. HTTP's empty last content is such a write, after the body its peer has read.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void emptyWritesCompleteWhileTheReceiverDoesNotRead(TestTransport transport, @TempDir Path dir)
            throws Throwable {
        File empty = Files.createFile(dir.resolve("empty")).toFile();
        try (Env env = new Env(transport, 1, 1)) {
            ReadRounds receiver = new ReadRounds();
            ServerBootstrap serverBootstrap = env.serverBootstrap()
                    .childOption(ChannelOption.AUTO_READ, false)
                    .childHandler(receiver);
            if (transport == TestTransport.UCX) {
                serverBootstrap.childOption(UcxChannelOption.UCX_RECV_WINDOW, 1);
            }
            Channel server = serverBootstrap.bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            Channel client = env.clientBootstrap().handler(new ChannelInboundHandlerAdapter())
                    .connect(server.localAddress()).sync().channel();
            assertTrue(receiver.active.await(5, TimeUnit.SECONDS));

            await(client.writeAndFlush(ascii("x")), 10, "the one byte the receiver can take");
            await(client.writeAndFlush(Unpooled.EMPTY_BUFFER), 10, "an empty buffer's write");
            await(client.writeAndFlush(new DefaultFileRegion(empty, 0, 0)), 10, "an empty region's write");
            assertEquals(0, receiver.receivedBytes(), "the receiver got data with AUTO_READ off");

            receiver.channel.config().setAutoRead(true);
            assertTrue(Await.until(() -> receiver.receivedBytes() == 1, 10, TimeUnit.SECONDS),
                    "the byte arrives once the receiver reads");
            assertTrue(receiver.errors.isEmpty(), () -> "receiver errors: " + receiver.errors);
            client.close().sync();
            server.close().sync();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Writability and WRITE_BUFFER_WATER_MARK

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void writabilityFollowsWaterMarks(TestTransport transport) throws Throwable {
        final int piece = 1024;
        final int pieces = 8;
        try (Env env = new Env(transport, 1, 1)) {
            StreamChecker checker = new StreamChecker(555);
            Channel server = env.serverBootstrap().childHandler(checker)
                    .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            BlockingQueue<Boolean> changes = new LinkedBlockingQueue<>();
            Channel client = env.clientBootstrap()
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(1024, 4096))
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
                            changes.add(ctx.channel().isWritable());
                        }
                    }).connect(server.localAddress()).sync().channel();

            DataStream out = new DataStream(555);
            for (int round = 0; round < 3; round++) {
                assertTrue(client.isWritable(), "round " + round + ": writable before writing");
                List<Boolean> writability = client.eventLoop().submit(() -> {
                    List<Boolean> states = new ArrayList<>();
                    for (int i = 0; i < pieces; i++) {
                        client.write(Unpooled.wrappedBuffer(out.next(piece)));
                        states.add(client.isWritable());
                    }
                    return states;
                }).get(5, TimeUnit.SECONDS);
                assertTrue(writability.get(0), "round " + round + ": unwritable after only " + piece + " bytes");
                assertFalse(writability.get(pieces - 1),
                        "round " + round + ": still writable with " + pieces * piece + " bytes unflushed: "
                                + writability);
                assertEquals(Boolean.FALSE, changes.poll(5, TimeUnit.SECONDS),
                        "round " + round + ": channelWritabilityChanged(false)");
                client.flush();
                assertEquals(Boolean.TRUE, changes.poll(5, TimeUnit.SECONDS),
                        "round " + round + ": channelWritabilityChanged(true) after flush");
                assertTrue(client.isWritable());
                assertNull(changes.poll(50, TimeUnit.MILLISECONDS), "spurious writability change");
            }
            long expected = 3L * pieces * piece;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (checker.received.get() < expected && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertNull(checker.problem.get());
            assertEquals(expected, checker.received.get());
            client.close().sync();
            server.close().sync();
        }
    }
}
