/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Data arrives whole and in order: many small messages echoed, 64 MiB in both directions at once, and many
 * concurrent connections each carrying only its own frames.
 */
class DataTransferSemanticsTest extends AbstractSemanticsTest {
    // ---------------------------------------------------------------------------------------------------------
    // Echo of many small messages

    private static final int SMALL_MESSAGES = 100_000;

    /** Frame: int bodyLength, int seq, payload (8..56 bytes); 16..64 bytes in all. */
    private static byte[] smallFrameBytes(int connId, int seq) {
        int payload = 8 + Math.floorMod(seq * 7 + connId, 49);
        byte[] frame = new byte[8 + payload];
        ByteBuf buf = Unpooled.wrappedBuffer(frame).clear();
        buf.writeInt(4 + payload);
        buf.writeInt(seq);
        for (int i = 0; i < payload; i++) {
            buf.writeByte(connId * 131 + seq * 31 + i * 7);
        }
        return frame;
    }

    /** The frame as a buffer; alternately heap and (pooled) direct memory. */
    private static ByteBuf smallFrame(ByteBufAllocator alloc, int connId, int seq) {
        byte[] bytes = smallFrameBytes(connId, seq);
        return seq % 2 == 0 ? Unpooled.wrappedBuffer(bytes) : alloc.directBuffer(bytes.length).writeBytes(bytes);
    }

    /** Returns null when {@code frame} is exactly {@code smallFrame(connId, seq)}, else what differs. */
    private static String checkSmallFrame(ByteBuf frame, int connId, int seq) {
        byte[] expected = smallFrameBytes(connId, seq);
        if (!ByteBufUtil.equals(Unpooled.wrappedBuffer(expected), frame)) {
            return "frame " + seq + " of connection " + connId + ": expected "
                    + ByteBufUtil.hexDump(expected) + " but got " + ByteBufUtil.hexDump(frame);
        }
        return null;
    }

    /** Decodes frames, checks that they arrive in order with the right content; optionally echoes them. */
    private static final class SmallFrameChecker extends ChannelInboundHandlerAdapter {
        private final int connId;
        private final int expectedFrames;
        private final boolean echo;
        private final Promise<Integer> done;
        final AtomicReference<String> problem = new AtomicReference<>();
        private int next;

        SmallFrameChecker(int connId, int expectedFrames, boolean echo, Promise<Integer> done) {
            this.connId = connId;
            this.expectedFrames = expectedFrames;
            this.echo = echo;
            this.done = done;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            String problem = next >= expectedFrames ? "unexpected extra frame " + next
                    : checkSmallFrame(frame, connId, next);
            if (problem != null) {
                frame.release();
                this.problem.compareAndSet(null, problem);
                done.tryFailure(new AssertionError(problem));
                ctx.close();
                return;
            }
            next++;
            if (echo) {
                ctx.write(frame);
            } else {
                frame.release();
            }
            if (next == expectedFrames) {
                done.trySuccess(next);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            done.tryFailure(new AssertionError("channel closed after " + next + " of " + expectedFrames
                    + " frames: " + ctx.channel()));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            done.tryFailure(cause);
            ctx.close();
        }
    }

    private static LengthFieldBasedFrameDecoder frameDecoder() {
        return new LengthFieldBasedFrameDecoder(1 << 20, 0, 4, 0, 0);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void echoOfManySmallMessages(TestTransport transport) throws Throwable {
        try (Env env = new Env(transport, 1, 1)) {
            Promise<Integer> serverDone = ImmediateEventExecutor.INSTANCE.newPromise();
            Promise<Integer> clientDone = ImmediateEventExecutor.INSTANCE.newPromise();
            SmallFrameChecker clientChecker = new SmallFrameChecker(0, SMALL_MESSAGES, false, clientDone);
            Channel server = env.serverBootstrap().childHandler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(frameDecoder(), new SmallFrameChecker(0, SMALL_MESSAGES, true, serverDone));
                }
            }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            Channel client = env.clientBootstrap().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(frameDecoder(), clientChecker);
                }
            }).connect(server.localAddress()).sync().channel();

            // Write in batches from the event loop, one small buffer per message, flushing after each batch.
            for (int start = 0; start < SMALL_MESSAGES; start += 500) {
                final int from = start;
                client.eventLoop().execute(() -> {
                    for (int seq = from; seq < Math.min(from + 500, SMALL_MESSAGES); seq++) {
                        client.write(smallFrame(client.alloc(), 0, seq), client.voidPromise());
                    }
                    client.flush();
                });
            }
            assertEquals(SMALL_MESSAGES, await(serverDone, 45, "server to receive all messages"));
            assertEquals(SMALL_MESSAGES, await(clientDone, 45, "client to receive all echoes"));
            // Nothing more may arrive: an extra frame would fail the checker.
            Thread.sleep(100);
            assertNull(clientChecker.problem.get());
            client.close().sync();
            server.close().sync();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // 64 MiB in both directions at once

    private static final int BULK_SIZE = 64 << 20;

    /** Sends BULK_SIZE bytes of a DataStream and checks length and CRC32 of what it receives. */
    private static final class BulkPeer extends ChannelInboundHandlerAdapter {
        private final boolean singleWrite;
        private final DataStream out;
        private final CRC32 inCrc = new CRC32();
        private final SplittableSizes sizes;
        final AtomicLong received = new AtomicLong();
        final Promise<Long> receiveDone = ImmediateEventExecutor.INSTANCE.newPromise();
        final Promise<Long> sendDone = ImmediateEventExecutor.INSTANCE.newPromise();
        private int chunkIndex;
        private boolean sending;

        BulkPeer(boolean singleWrite, long seed) {
            this.singleWrite = singleWrite;
            this.out = new DataStream(seed);
            this.sizes = new SplittableSizes(seed ^ 0x5DEECE66DL);
        }

        long sentCrc() {
            return out.crc();
        }

        long receivedCrc() {
            return inCrc.getValue();
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            sending = true;
            if (singleWrite) {
                ByteBuf all = ctx.alloc().directBuffer(BULK_SIZE, BULK_SIZE);
                out.writeTo(all, BULK_SIZE);
                ctx.writeAndFlush(all).addListener(f -> completeSend(f));
            } else {
                pump(ctx);
            }
            ctx.fireChannelActive();
        }

        private void completeSend(Future<?> f) {
            if (f.isSuccess()) {
                sendDone.trySuccess(out.position());
            } else {
                sendDone.tryFailure(f.cause());
            }
        }

        private void pump(ChannelHandlerContext ctx) {
            Channel ch = ctx.channel();
            while (sending && ch.isWritable() && out.position() < BULK_SIZE) {
                int len = (int) Math.min(sizes.next(), BULK_SIZE - out.position());
                ByteBuf chunk;
                switch (chunkIndex++ % 3) {
                    case 0:
                        chunk = Unpooled.wrappedBuffer(out.next(len));
                        break;
                    case 1:
                        chunk = ctx.alloc().directBuffer(len);
                        out.writeTo(chunk, len);
                        break;
                    default:
                        int first = len / 2;
                        CompositeByteBuf comp = ctx.alloc().compositeBuffer(2);
                        comp.addComponent(true, Unpooled.wrappedBuffer(out.next(first)));
                        ByteBuf second = ctx.alloc().directBuffer(len - first);
                        out.writeTo(second, len - first);
                        comp.addComponent(true, second);
                        chunk = comp;
                        break;
                }
                ChannelFuture f = ctx.writeAndFlush(chunk);
                if (out.position() == BULK_SIZE) {
                    sending = false;
                    f.addListener(this::completeSend);
                } else {
                    f.addListener(r -> {
                        if (!r.isSuccess()) {
                            sendDone.tryFailure(r.cause());
                        }
                    });
                }
            }
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (!singleWrite) {
                pump(ctx);
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            try {
                for (java.nio.ByteBuffer bb : buf.nioBuffers()) {
                    inCrc.update(bb);
                }
                long total = received.addAndGet(buf.readableBytes());
                if (total > BULK_SIZE) {
                    receiveDone.tryFailure(new AssertionError("received " + total + " > " + BULK_SIZE + " bytes"));
                } else if (total == BULK_SIZE) {
                    receiveDone.trySuccess(total);
                }
            } finally {
                buf.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            receiveDone.tryFailure(new AssertionError("closed after receiving " + received + " bytes"));
            sendDone.tryFailure(new AssertionError("closed after sending " + out.position() + " bytes"));
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            receiveDone.tryFailure(cause);
            sendDone.tryFailure(cause);
            ctx.close();
        }
    }

    /** Chunk sizes of assorted magnitudes: 1 byte up to 2 MiB. */
    private static final class SplittableSizes {
        private static final int[] FIXED = {1, 7, 100, 1460, 4096, 8192, 65535, 65536, 65537, 1 << 20};
        private final java.util.SplittableRandom random;
        private int i;

        SplittableSizes(long seed) {
            random = new java.util.SplittableRandom(seed);
        }

        int next() {
            int n = i++;
            if (n < FIXED.length) {
                return FIXED[n];
            }
            switch (random.nextInt(4)) {
                case 0:
                    return 1 + random.nextInt(512);
                case 1:
                    return 1 + random.nextInt(16 * 1024);
                case 2:
                    return 1 + random.nextInt(256 * 1024);
                default:
                    return 1 + random.nextInt(2 * 1024 * 1024);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    void bidirectional64MiB(TestTransport transport) throws Throwable {
        try (Env env = new Env(transport, 1, 1)) {
            BulkPeer serverPeer = new BulkPeer(true, 0x1234);
            BulkPeer clientPeer = new BulkPeer(false, 0x4321);
            Channel server = env.serverBootstrap().childHandler(serverPeer)
                    .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            Channel client = env.clientBootstrap().handler(clientPeer).connect(server.localAddress()).sync().channel();

            await(clientPeer.receiveDone, 60, "client to receive 64 MiB");
            await(serverPeer.receiveDone, 60, "server to receive 64 MiB");
            await(clientPeer.sendDone, 10, "client writes to complete");
            await(serverPeer.sendDone, 10, "server's single 64 MiB write to complete");

            assertEquals(BULK_SIZE, clientPeer.received.get());
            assertEquals(BULK_SIZE, serverPeer.received.get());
            assertEquals(serverPeer.sentCrc(), clientPeer.receivedCrc(), "CRC32 of server-to-client data");
            assertEquals(clientPeer.sentCrc(), serverPeer.receivedCrc(), "CRC32 of client-to-server data");
            client.close().sync();
            server.close().sync();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Many concurrent connections

    private static final int CONNECTIONS = 200;
    private static final int MESSAGES_PER_CONNECTION = 20;

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void twoHundredConcurrentConnections(TestTransport transport) throws Throwable {
        try (Env env = new Env(transport, 2, 2)) {
            // The server learns the connection id from the first frame's payload; it checks that every
            // connection carries exactly its own frames, in order, and echoes them.
            Map<Integer, Promise<Integer>> serverSide = new ConcurrentHashMap<>();
            for (int id = 0; id < CONNECTIONS; id++) {
                serverSide.put(id, ImmediateEventExecutor.INSTANCE.newPromise());
            }
            Queue<Throwable> serverErrors = new ConcurrentLinkedQueue<>();
            Channel server = env.serverBootstrap()
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(frameDecoder(), new ConnectionIdRouter(serverSide, serverErrors));
                        }
                    }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();

            List<Promise<Integer>> clientSide = new ArrayList<>();
            List<ChannelFuture> connects = new ArrayList<>();
            for (int id = 0; id < CONNECTIONS; id++) {
                final int connId = id;
                Promise<Integer> done = ImmediateEventExecutor.INSTANCE.newPromise();
                clientSide.add(done);
                connects.add(env.clientBootstrap().handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(frameDecoder(),
                                new SmallFrameChecker(connId, MESSAGES_PER_CONNECTION, false, done),
                                new ChannelInboundHandlerAdapter() {
                                    @Override
                                    public void channelActive(ChannelHandlerContext ctx) {
                                        // First frame: the id; then the numbered frames.
                                        ByteBuf id = ctx.alloc().buffer(8).writeInt(4).writeInt(connId);
                                        ctx.write(id);
                                        for (int seq = 0; seq < MESSAGES_PER_CONNECTION; seq++) {
                                            ctx.write(smallFrame(ctx.alloc(), connId, seq));
                                        }
                                        ctx.flush();
                                        ctx.fireChannelActive();
                                    }
                                });
                    }
                }).connect(server.localAddress()));
            }
            List<Channel> clients = new ArrayList<>();
            for (ChannelFuture f : connects) {
                assertTrue(f.await(20, TimeUnit.SECONDS), "connect did not complete in 20 s");
                if (!f.isSuccess()) {
                    throw new AssertionError("connect failed", f.cause());
                }
                clients.add(f.channel());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            List<Integer> serverPending = new ArrayList<>();
            List<Integer> clientPending = new ArrayList<>();
            for (int id = 0; id < CONNECTIONS; id++) {
                long left = Math.max(0, deadline - System.nanoTime());
                if (!serverSide.get(id).await(left, TimeUnit.NANOSECONDS)) {
                    serverPending.add(id);
                }
                left = Math.max(0, deadline - System.nanoTime());
                if (!clientSide.get(id).await(left, TimeUnit.NANOSECONDS)) {
                    clientPending.add(id);
                }
            }
            assertTrue(serverPending.isEmpty() && clientPending.isEmpty(), () -> "after 30 s, "
                    + serverPending.size() + " connections incomplete on the server side " + serverPending
                    + " and " + clientPending.size() + " on the client side " + clientPending);
            for (int id = 0; id < CONNECTIONS; id++) {
                assertEquals(MESSAGES_PER_CONNECTION, await(serverSide.get(id), 1, "server side of connection " + id));
                assertEquals(MESSAGES_PER_CONNECTION, await(clientSide.get(id), 1, "client side of connection " + id));
            }
            assertTrue(serverErrors.isEmpty(), () -> "server errors: " + serverErrors);
            for (Channel c : clients) {
                c.close().sync();
            }
            server.close().sync();
        }
    }

    /** Server side of the many-connections test: reads the id frame, then checks and echoes the frames. */
    private static final class ConnectionIdRouter extends ChannelInboundHandlerAdapter {
        private final Map<Integer, Promise<Integer>> done;
        private final Queue<Throwable> errors;
        private SmallFrameChecker checker;

        ConnectionIdRouter(Map<Integer, Promise<Integer>> done, Queue<Throwable> errors) {
            this.done = done;
            this.errors = errors;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
            if (checker == null) {
                ByteBuf idFrame = (ByteBuf) msg;
                try {
                    int len = idFrame.readInt();
                    int id = idFrame.readInt();
                    Promise<Integer> promise = done.get(id);
                    if (len != 4 || promise == null) {
                        errors.add(new AssertionError("bad id frame: length " + len + ", id " + id));
                        ctx.close();
                        return;
                    }
                    checker = new SmallFrameChecker(id, MESSAGES_PER_CONNECTION, true, promise);
                    ctx.pipeline().addAfter(ctx.name(), null, checker);
                } finally {
                    idFrame.release();
                }
                return;
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.add(cause);
            ctx.close();
        }
    }
}
