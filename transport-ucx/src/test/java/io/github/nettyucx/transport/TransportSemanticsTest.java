package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.ChannelInputShutdownReadComplete;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Stream-socket semantics that every transport must share. Each test body runs unchanged on NIO, epoll and
 * UCX (see {@link TestTransport}); NIO and epoll are the cross-check that the test itself is right.
 */
class TransportSemanticsTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static LogRecorder log;

    @BeforeAll
    static void installLogRecorder() {
        log = LogRecorder.install();
    }

    @BeforeEach
    void clearLog() {
        log.clear();
    }

    /** No exception may escape to Netty's logging (unhandled in a pipeline, thrown by a listener or task). */
    @AfterEach
    void noEscapedExceptions() {
        List<String> escaped = log.withThrowable();
        assertTrue(escaped.isEmpty(), () -> "exceptions logged during the test:\n" + String.join("\n", escaped));
    }

    @AfterAll
    static void noLeaks() throws InterruptedException {
        LogRecorder.provokeLeakReports();
        List<String> leaks = log.leaks();
        assertTrue(leaks.isEmpty(), "buffer leaks reported:\n" + String.join("\n", leaks));
    }

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

    // ---------------------------------------------------------------------------------------------------------
    // Half-closure

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void halfClose(TestTransport transport) throws Throwable {
        byte[] request = "request: please answer after my output is shut down".getBytes(StandardCharsets.US_ASCII);
        byte[] response = new DataStream(7).next(100_000);
        try (Env env = new Env(transport, 1, 1)) {
            ByteBuf serverReceived = Unpooled.buffer();
            AtomicReference<String> serverStateAtShutdown = new AtomicReference<>();
            AtomicReference<byte[]> serverBytesAtShutdown = new AtomicReference<>();
            Promise<Void> serverWrote = ImmediateEventExecutor.INSTANCE.newPromise();
            Promise<Void> mayAnswer = ImmediateEventExecutor.INSTANCE.newPromise();
            CountDownLatch serverInactive = new CountDownLatch(1);
            Channel server = env.serverBootstrap()
                    .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .childHandler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ByteBuf buf = (ByteBuf) msg;
                            serverReceived.writeBytes(buf);
                            buf.release();
                        }

                        @Override
                        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                            if (evt == ChannelInputShutdownEvent.INSTANCE) {
                                SocketChannel ch = (SocketChannel) ctx.channel();
                                serverStateAtShutdown.set("open=" + ch.isOpen() + " active=" + ch.isActive()
                                        + " inputShutdown=" + ch.isInputShutdown()
                                        + " outputShutdown=" + ch.isOutputShutdown());
                                serverBytesAtShutdown.set(ByteBufUtil.getBytes(serverReceived));
                                // Still allowed to write: answer, then close fully; only once the test has
                                // looked at the client's half-closed state, which the answer would end.
                                mayAnswer.addListener(ignored -> ctx.executor().execute(() ->
                                        ctx.writeAndFlush(Unpooled.wrappedBuffer(response)).addListener(f -> {
                                            if (f.isSuccess()) {
                                                serverWrote.trySuccess(null);
                                            } else {
                                                serverWrote.tryFailure(f.cause());
                                            }
                                            ctx.close();
                                        })));
                            }
                            ReferenceCountUtil.release(evt);
                        }

                        @Override
                        public void channelInactive(ChannelHandlerContext ctx) {
                            serverInactive.countDown();
                        }

                        @Override
                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                            serverWrote.tryFailure(cause);
                            ctx.close();
                        }
                    }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();

            ByteBuf clientReceived = Unpooled.buffer();
            AtomicReference<byte[]> clientBytesAtInputShutdown = new AtomicReference<>();
            CountDownLatch clientInputShutdown = new CountDownLatch(1);
            CountDownLatch clientInputShutdownReadComplete = new CountDownLatch(1);
            CountDownLatch clientInactive = new CountDownLatch(1);
            Queue<Throwable> clientErrors = new ConcurrentLinkedQueue<>();
            SocketChannel client = (SocketChannel) env.clientBootstrap()
                    .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            ByteBuf buf = (ByteBuf) msg;
                            clientReceived.writeBytes(buf);
                            buf.release();
                        }

                        @Override
                        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                            if (evt == ChannelInputShutdownEvent.INSTANCE) {
                                clientBytesAtInputShutdown.set(ByteBufUtil.getBytes(clientReceived));
                                clientInputShutdown.countDown();
                            } else if (evt == ChannelInputShutdownReadComplete.INSTANCE) {
                                clientInputShutdownReadComplete.countDown();
                            }
                            ReferenceCountUtil.release(evt);
                        }

                        @Override
                        public void channelInactive(ChannelHandlerContext ctx) {
                            clientInactive.countDown();
                        }

                        @Override
                        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                            clientErrors.add(cause);
                        }
                    }).connect(server.localAddress()).sync().channel();

            client.writeAndFlush(Unpooled.wrappedBuffer(request)).sync();
            client.shutdownOutput().sync();
            assertTrue(client.isOutputShutdown(), "client output shut down");
            assertFalse(client.isInputShutdown(), "client input must still be open");
            assertTrue(client.isActive(), "client must stay active after shutdownOutput");

            // Writing after shutdownOutput fails, and the message is released.
            ByteBuf late = Unpooled.directBuffer().writeBytes(new byte[] {1, 2, 3});
            ChannelFuture lateWrite = client.writeAndFlush(late);
            assertTrue(lateWrite.await(5, TimeUnit.SECONDS));
            assertFalse(lateWrite.isSuccess(), "write after shutdownOutput must fail");
            assertInstanceOf(ClosedChannelException.class, lateWrite.cause());
            assertEquals(0, late.refCnt(), "failed write must release the message");

            mayAnswer.setSuccess(null);
            await(serverWrote, 10, "server to answer after its input was shut down");
            assertEquals("open=true active=true inputShutdown=true outputShutdown=false",
                    serverStateAtShutdown.get(), "server state when ChannelInputShutdownEvent fired");
            assertArrayEquals(request, serverBytesAtShutdown.get(), "server got all data before the shutdown event");

            assertTrue(clientInputShutdown.await(10, TimeUnit.SECONDS), "client never saw its input shut down");
            assertTrue(clientInputShutdownReadComplete.await(10, TimeUnit.SECONDS),
                    "client never got ChannelInputShutdownReadComplete");
            assertArrayEquals(response, clientBytesAtInputShutdown.get(),
                    "client got the whole answer before its input shutdown");
            assertTrue(serverInactive.await(10, TimeUnit.SECONDS), "server child did not become inactive");
            assertTrue(client.isInputShutdown());

            // Then the full close.
            client.close().sync();
            assertTrue(clientInactive.await(5, TimeUnit.SECONDS));
            assertFalse(client.isOpen());
            assertTrue(clientErrors.isEmpty(), () -> "client errors: " + clientErrors);
            server.close().sync();
            serverReceived.release();
            clientReceived.release();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Close from either side

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void closeFromClientSide(TestTransport transport) throws Throwable {
        closeFromOneSide(transport, true);
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void closeFromServerSide(TestTransport transport) throws Throwable {
        closeFromOneSide(transport, false);
    }

    /** Records reads as strings and lifecycle events. */
    private static final class Recorder extends ChannelInboundHandlerAdapter {
        final BlockingQueue<String> reads = new LinkedBlockingQueue<>();
        final CountDownLatch active = new CountDownLatch(1);
        final CountDownLatch inactive = new CountDownLatch(1);
        final AtomicInteger inactiveCount = new AtomicInteger();
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
            reads.add(buf.toString(StandardCharsets.US_ASCII));
            buf.release();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            inactiveCount.incrementAndGet();
            inactive.countDown();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.add(cause);
        }
    }

    private static void closeFromOneSide(TestTransport transport, boolean clientCloses) throws Throwable {
        try (Env env = new Env(transport, 1, 1)) {
            Recorder serverChild = new Recorder();
            Recorder clientRec = new Recorder();
            Channel server = env.serverBootstrap().childHandler(serverChild)
                    .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            Channel client = env.clientBootstrap().handler(clientRec).connect(server.localAddress()).sync().channel();
            assertTrue(serverChild.active.await(5, TimeUnit.SECONDS));
            Channel child = serverChild.channel;

            client.writeAndFlush(ascii("ping")).sync();
            assertEquals("ping", serverChild.reads.poll(5, TimeUnit.SECONDS));
            child.writeAndFlush(ascii("pong")).sync();
            assertEquals("pong", clientRec.reads.poll(5, TimeUnit.SECONDS));

            Channel closer = clientCloses ? client : child;
            Channel other = clientCloses ? child : client;
            Recorder closerRec = clientCloses ? clientRec : serverChild;
            Recorder otherRec = clientCloses ? serverChild : clientRec;

            assertTrue(closer.close().await(5, TimeUnit.SECONDS), "close() did not complete");
            assertTrue(closer.closeFuture().isSuccess(), "close future of the closing side");
            assertFalse(closer.isOpen());
            assertFalse(closer.isActive());
            assertTrue(closerRec.inactive.await(5, TimeUnit.SECONDS), "closing side: no channelInactive");

            assertTrue(other.closeFuture().await(5, TimeUnit.SECONDS), "other side did not close");
            assertTrue(otherRec.inactive.await(5, TimeUnit.SECONDS), "other side: no channelInactive");
            assertFalse(other.isActive());

            // Writing to a closed channel fails with ClosedChannelException and releases the message.
            for (Channel ch : new Channel[] {closer, other}) {
                ByteBuf msg = Unpooled.directBuffer().writeBytes(new byte[] {42});
                ChannelFuture write = ch.writeAndFlush(msg);
                assertTrue(write.await(5, TimeUnit.SECONDS));
                assertInstanceOf(ClosedChannelException.class, write.cause(), "write to closed " + ch);
                assertEquals(0, msg.refCnt(), "failed write must release the message");
            }

            // Closing again is harmless.
            for (Channel ch : new Channel[] {closer, other}) {
                ChannelFuture again = ch.close();
                assertTrue(again.await(5, TimeUnit.SECONDS), "second close() of " + ch + " did not complete");
                assertTrue(again.isSuccess(), () -> "second close() of " + ch + " failed: " + again.cause());
            }
            Thread.sleep(50);
            assertEquals(1, closerRec.inactiveCount.get(), "channelInactive fired once on the closing side");
            assertEquals(1, otherRec.inactiveCount.get(), "channelInactive fired once on the other side");

            // The server channel is not affected by one of its children closing.
            assertTrue(server.isActive());
            assertTrue(closerRec.errors.isEmpty(), () -> "closing side errors: " + closerRec.errors);
            for (Throwable t : otherRec.errors) {
                // The peer may see a reset; anything else is a bug.
                assertInstanceOf(IOException.class, t, "unexpected error on the other side");
            }
            server.close().sync();
        }
    }

    /**
     * The peer answers and closes; our side, reading, writes in reaction to the first answer while the others
     * are still unread (gRPC's client does so after a server's graceful shutdown). The write may be lost, as
     * over TCP, but the answers must not be: they are read, and then the channel closes. Over UCX the peer's
     * close record is already known, so the write fails and only the output shuts down.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void lastMessagesOfAClosedPeerSurviveAWriteToIt(TestTransport transport) throws Throwable {
        try (Env env = new Env(transport, 1, 1)) {
            Recorder serverChild = new Recorder();
            Recorder clientRec = new Recorder();
            CompletableFuture<Boolean> openWhenWriteFailed = new CompletableFuture<>();
            CompletableFuture<ChannelFuture> lateWrite = new CompletableFuture<>();
            ChannelInboundHandlerAdapter answerWithAWrite = new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    if (!lateWrite.isDone()) {
                        ChannelFuture write = ctx.writeAndFlush(ascii("late")).addListener(f -> {
                            if (!f.isSuccess()) {
                                openWhenWriteFailed.complete(ctx.channel().isOpen());
                            }
                        });
                        lateWrite.complete(write);
                    }
                    ctx.fireChannelRead(msg);
                }
            };
            Channel server = env.serverBootstrap().childHandler(serverChild)
                    .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            Channel client = env.clientBootstrap().option(ChannelOption.AUTO_READ, false)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(answerWithAWrite, clientRec);
                        }
                    }).connect(server.localAddress()).sync().channel();
            assertTrue(serverChild.active.await(5, TimeUnit.SECONDS));
            for (String answer : new String[] {"one", "two", "three"}) {
                serverChild.channel.writeAndFlush(ascii(answer)).sync();
            }
            serverChild.channel.close().sync();
            Thread.sleep(300); // the peer's close travels to us while we do not read

            client.config().setAutoRead(true);
            StringBuilder answers = new StringBuilder();
            while (answers.length() < "onetwothree".length()) {
                String read = clientRec.reads.poll(5, TimeUnit.SECONDS);
                assertNotNull(read, () -> "answers lost after a write to the closed peer; got only " + answers);
                answers.append(read);
            }
            assertEquals("onetwothree", answers.toString());
            assertTrue(client.closeFuture().await(5, TimeUnit.SECONDS), "the channel did not close after its input");
            ChannelFuture write = lateWrite.get(5, TimeUnit.SECONDS);
            assertTrue(write.await(5, TimeUnit.SECONDS), "the late write did not complete");
            if (transport == TestTransport.UCX) {
                assertFalse(write.isSuccess(), "a write to a peer known to have closed must fail");
                assertTrue(openWhenWriteFailed.get(5, TimeUnit.SECONDS),
                        "the failed write must not close the channel before its input is read");
            }
            for (Throwable t : clientRec.errors) {
                assertInstanceOf(IOException.class, t, "unexpected error after the peer closed");
            }
            server.close().sync();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Connect failures

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void connectRefused(TestTransport transport) throws Throwable {
        int port;
        try (ServerSocket ss = new ServerSocket(0, 1, LOOPBACK)) {
            port = ss.getLocalPort();
        }
        try (Env env = new Env(transport, 1, 1)) {
            AtomicBoolean activated = new AtomicBoolean();
            long start = System.nanoTime();
            ChannelFuture f = env.clientBootstrap()
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelActive(ChannelHandlerContext ctx) {
                            activated.set(true);
                        }
                    }).connect(new InetSocketAddress(LOOPBACK, port));
            assertTrue(f.await(15, TimeUnit.SECONDS), "connect to a closed port did not complete");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertNotNull(f.cause(), "connect to a closed port succeeded");
            assertInstanceOf(ConnectException.class, f.cause());
            assertFalse(f.cause() instanceof ConnectTimeoutException,
                    "refusal must be reported as such, not as a timeout: " + f.cause());
            assertTrue(millis < 5_000, "refusal took " + millis + " ms");
            assertFalse(activated.get(), "channelActive fired for a refused connection");
            assertTrue(f.channel().closeFuture().await(5, TimeUnit.SECONDS), "channel not closed after refusal");
        }
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void connectTimeoutWhenSynIsDropped(TestTransport transport) throws Throwable {
        try (Env env = new Env(transport, 1, 1); LoopbackBlackHole hole = new LoopbackBlackHole()) {
            assertConnectTimesOut(env, hole.address());
        }
    }

    private static void assertConnectTimesOut(Env env, InetSocketAddress target) throws Exception {
        AtomicBoolean activated = new AtomicBoolean();
        long start = System.nanoTime();
        ChannelFuture f = env.clientBootstrap()
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 300)
                .handler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        activated.set(true);
                    }
                }).connect(target);
        assertTrue(f.await(10, TimeUnit.SECONDS), "connect with a 300 ms timeout did not complete in 10 s");
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertInstanceOf(ConnectTimeoutException.class, f.cause(), "connect outcome");
        assertTrue(millis >= 250, "timed out too early: " + millis + " ms");
        assertTrue(millis < 5_000, "timeout of 300 ms took " + millis + " ms");
        assertFalse(activated.get(), "channelActive fired for a connect that timed out");
        assertTrue(f.channel().closeFuture().await(5, TimeUnit.SECONDS), "channel not closed after timeout");
    }

    /**
     * A TCP listener that accepts and never says anything. For TCP transports the connect succeeds (the
     * kernel completes the handshake); a UCX connect includes UCX's own handshake, so it must time out, and
     * the abandoned TCP connection must be closed.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void connectToSilentTcpServer(TestTransport transport) throws Throwable {
        try (Env env = new Env(transport, 1, 1); ServerSocket silent = new ServerSocket(0, 50, LOOPBACK)) {
            BlockingQueue<String> acceptedEnds = new LinkedBlockingQueue<>();
            Thread acceptor = new Thread(() -> {
                try (Socket s = silent.accept()) {
                    s.setSoTimeout(10_000);
                    InputStream in = s.getInputStream();
                    byte[] sink = new byte[4096];
                    try {
                        while (in.read(sink) >= 0) {
                            // Discard whatever the client says; never answer.
                        }
                        acceptedEnds.add("eof");
                    } catch (SocketTimeoutException e) {
                        acceptedEnds.add("still open after 10 s");
                    } catch (IOException e) {
                        acceptedEnds.add("reset");
                    }
                } catch (IOException e) {
                    acceptedEnds.add("accept failed: " + e);
                }
            }, "silent-tcp-server");
            acceptor.setDaemon(true);
            acceptor.start();
            InetSocketAddress target = (InetSocketAddress) silent.getLocalSocketAddress();
            if (transport == TestTransport.UCX) {
                assertConnectTimesOut(env, target);
                String end = acceptedEnds.poll(15, TimeUnit.SECONDS);
                assertTrue("eof".equals(end) || "reset".equals(end),
                        "the TCP connection of a timed-out UCX connect must be closed, but: " + end);
            } else {
                ChannelFuture f = env.clientBootstrap()
                        .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 300)
                        .handler(new ChannelInboundHandlerAdapter())
                        .connect(target);
                assertTrue(f.await(5, TimeUnit.SECONDS));
                assertTrue(f.isSuccess(), () -> "plain TCP connect to a silent server: " + f.cause());
                f.channel().close().sync();
                assertEquals("eof", acceptedEnds.poll(10, TimeUnit.SECONDS));
            }
        }
    }

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

    /** Streams DataStream chunks while writable until it first becomes unwritable (or a cap is reached). */
    private static final class UntilUnwritable extends ChannelInboundHandlerAdapter {
        private static final int CHUNK = 64 * 1024;
        final DataStream out = new DataStream(4242);
        final long cap;
        final Promise<Long> unwritable = ImmediateEventExecutor.INSTANCE.newPromise();
        final CountDownLatch writableAgain = new CountDownLatch(1);
        final Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        private boolean stopped;

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
                    stopped = true;
                    unwritable.trySuccess(out.position());
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
            long written = await(writer.unwritable, 60, "the writer to become unwritable");
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

    // ---------------------------------------------------------------------------------------------------------
    // Shutting down groups with live connections

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void groupShutdownWithLiveConnections(TestTransport transport) throws Throwable {
        transport.assumeAvailable();
        Queue<Throwable> uncaught = new ConcurrentLinkedQueue<>();
        ThreadFactory serverThreads = recordingThreads("test-shutdown-server", uncaught);
        ThreadFactory clientThreads = recordingThreads("test-shutdown-client", uncaught);
        EventLoopGroup serverGroup = transport.newGroup(2, serverThreads);
        EventLoopGroup clientGroup = transport.newGroup(2, clientThreads);
        log.clear();
        final int connections = 8;
        Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        AtomicInteger inactive = new AtomicInteger();
        AtomicLong roundTrips = new AtomicLong();
        Queue<Channel> children = new ConcurrentLinkedQueue<>();
        try {
            ChannelHandler pingPong = new PingPong(roundTrips, inactive, errors);
            Channel server = new ServerBootstrap().group(serverGroup).channel(transport.serverChannelClass())
                    .childHandler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            children.add(ch);
                            ch.pipeline().addLast(pingPong);
                        }
                    }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            List<Channel> clients = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                Channel c = new Bootstrap().group(clientGroup).channel(transport.clientChannelClass())
                        .handler(pingPong).connect(server.localAddress()).sync().channel();
                clients.add(c);
                c.writeAndFlush(Unpooled.wrappedBuffer(new byte[1024]));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (roundTrips.get() < 100L * connections && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(roundTrips.get() >= 100L * connections, "traffic did not flow: " + roundTrips);
            assertEquals(connections, children.size());

            long start = System.nanoTime();
            Future<?> serverTermination = serverGroup.shutdownGracefully();
            Future<?> clientTermination = clientGroup.shutdownGracefully();
            assertTrue(serverTermination.await(15, TimeUnit.SECONDS), "server group did not terminate in 15 s");
            assertTrue(clientTermination.await(15, TimeUnit.SECONDS), "client group did not terminate in 15 s");
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(serverTermination.isSuccess() && clientTermination.isSuccess());

            List<Channel> all = new ArrayList<>(clients);
            all.addAll(children);
            all.add(server);
            for (Channel ch : all) {
                assertFalse(ch.isOpen(), ch + " still open after its group terminated");
                assertTrue(ch.closeFuture().isDone(), ch + " close future not done");
            }
            assertEquals(2 * connections, inactive.get(), "channelInactive count (clients + children)");
            assertTrue(uncaught.isEmpty(), () -> "uncaught exceptions: " + uncaught);
            for (Throwable t : errors) {
                // A connection reset by the other group's shutdown is fine; anything else escaped.
                assertInstanceOf(IOException.class, t, "unexpected exceptionCaught during shutdown");
            }
            List<String> escaped = log.withThrowable();
            assertTrue(escaped.isEmpty(), () -> "exceptions logged during shutdown:\n" + String.join("\n", escaped));
            assertTrue(millis < 15_000, "shutdown took " + millis + " ms");
        } finally {
            serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            clientGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        }
    }

    @ChannelHandler.Sharable
    private static final class PingPong extends ChannelInboundHandlerAdapter {
        private final AtomicLong roundTrips;
        private final AtomicInteger inactive;
        private final Queue<Throwable> errors;

        PingPong(AtomicLong roundTrips, AtomicInteger inactive, Queue<Throwable> errors) {
            this.roundTrips = roundTrips;
            this.inactive = inactive;
            this.errors = errors;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            roundTrips.incrementAndGet();
            ctx.writeAndFlush(msg);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            inactive.incrementAndGet();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            errors.add(cause);
            ctx.close();
        }
    }

    private static ThreadFactory recordingThreads(String name, Queue<Throwable> uncaught) {
        ThreadFactory delegate = new DefaultThreadFactory(name, true);
        return r -> {
            Thread t = delegate.newThread(r);
            t.setUncaughtExceptionHandler((thread, e) -> uncaught.add(e));
            return t;
        };
    }

    // ---------------------------------------------------------------------------------------------------------
    // Helpers

    private static ByteBuf ascii(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.US_ASCII);
    }

    /** Waits for a promise, failing with its cause or with a timeout message. */
    static <T> T await(Future<T> future, int seconds, String what) throws Throwable {
        if (!future.await(seconds, TimeUnit.SECONDS)) {
            fail("timed out after " + seconds + " s waiting for " + what);
        }
        if (!future.isSuccess()) {
            throw new AssertionError("failed waiting for " + what + ": " + future.cause(), future.cause());
        }
        return future.getNow();
    }

    /** Server and client groups of one transport, shut down (and checked to terminate) on close. */
    static final class Env implements AutoCloseable {
        final TestTransport transport;
        final EventLoopGroup serverGroup;
        final EventLoopGroup clientGroup;

        Env(TestTransport transport, int serverThreads, int clientThreads) {
            transport.assumeAvailable();
            this.transport = transport;
            this.serverGroup = transport.newGroup(serverThreads);
            this.clientGroup = transport.newGroup(clientThreads);
        }

        /** A server bootstrap on the server group (one group for both the listener and its children). */
        ServerBootstrap serverBootstrap() {
            return new ServerBootstrap().group(serverGroup).channel(transport.serverChannelClass())
                    .childOption(ChannelOption.TCP_NODELAY, true);
        }

        Bootstrap clientBootstrap() {
            return new Bootstrap().group(clientGroup).channel(transport.clientChannelClass())
                    .option(ChannelOption.TCP_NODELAY, true);
        }

        @Override
        public void close() throws InterruptedException {
            Future<?> s = serverGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS);
            Future<?> c = clientGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS);
            boolean terminated = s.await(15, TimeUnit.SECONDS) & c.await(15, TimeUnit.SECONDS);
            assertTrue(terminated, transport + " event loop groups did not terminate within 15 s");
        }
    }
}
