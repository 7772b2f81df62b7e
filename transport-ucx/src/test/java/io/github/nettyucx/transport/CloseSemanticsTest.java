/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Future;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ClosedChannelException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Closing a connection from either side, the last messages of a peer that closed, and shutting down event
 * loop groups while connections are live.
 */
class CloseSemanticsTest extends AbstractSemanticsTest {
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
     * are still unread (gRPC's client does so after a server's graceful shutdown: a WINDOW_UPDATE). The write
     * is lost, as over TCP, but the answers must not be: they are read, and then the channel closes. Over UCX
     * the peer's close record is already known: the write is taken and dropped, as TCP's kernel takes it,
     * since a failed write makes HTTP/2 close the connection before the answers are read.
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
                assertTrue(write.isSuccess(), () -> "a write to a peer that closed is taken, as over TCP: "
                        + write.cause());
            } else if (!write.isSuccess()) {
                assertTrue(openWhenWriteFailed.get(5, TimeUnit.SECONDS),
                        "the failed write must not close the channel before its input is read");
            }
            for (Throwable t : clientRec.errors) {
                assertInstanceOf(IOException.class, t, "unexpected error after the peer closed");
            }
            server.close().sync();
        }
    }

    /**
     * A handler that writes whenever the channel is writable (a producer, a chunked writer) to a peer that closed
     * while its last messages were still unread: the writes to the closed peer must not keep the loop from reading
     * those messages. Over TCP the kernel takes a send buffer's worth, then the writes fail as the reset comes back;
     * over UCX a write buffer's worth is taken and dropped, the rest waits (the channel unwritable) until the last
     * messages are read, and then the channel closes. (On UCX's TCP data path the server's close is a reset, as over
     * TCP, since the client's bytes are unread there.) The client's loop is held while the peer answers and closes,
     * so that the answers and the peer's close reach it together.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void writerWhileWritableStillReadsTheLastMessagesOfAClosedPeer(TestTransport transport) throws Throwable {
        try (Env env = new Env(transport, 1, 1)) {
            Recorder serverChild = new Recorder();
            Recorder clientRec = new Recorder();
            WritesWhileWritable writeWhileWritable = new WritesWhileWritable(16 * 1024);
            // The server's child does not read: the client's writes soon wait for its credits.
            Channel server = env.serverBootstrap().childOption(ChannelOption.AUTO_READ, false)
                    .childHandler(serverChild).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            Channel client = env.clientBootstrap().handler(new ChannelInitializer<Channel>() {
                @Override
                protected void initChannel(Channel ch) {
                    ch.pipeline().addLast(writeWhileWritable, clientRec);
                }
            }).connect(server.localAddress()).sync().channel();
            assertTrue(serverChild.active.await(5, TimeUnit.SECONDS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (client.isWritable() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertFalse(client.isWritable(), "the client's writes never waited for the server");

            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch held = new CountDownLatch(1);
            client.eventLoop().execute(() -> {
                held.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertTrue(held.await(5, TimeUnit.SECONDS));
            for (String answer : new String[] {"one", "two", "three"}) {
                serverChild.channel.writeAndFlush(ascii(answer)).sync();
            }
            serverChild.channel.close().sync();
            Thread.sleep(300); // the answers and the close travel to the client while its loop is held
            release.countDown();

            assertTrue(client.closeFuture().await(20, TimeUnit.SECONDS), () -> "the writer's channel did not close "
                    + "after its peer did (" + (writeWhileWritable.written.get() >> 10) + " KiB written)");
            // Over TCP (NIO, epoll, and UCX's TCP data path) the server closes a socket with the client's bytes
            // unread: its kernel resets the connection and the answers are lost; UCX's own data paths keep them.
            boolean tcpDataPath = "always".equals(System.getProperty("io.github.nettyucx.tcpDataPath"));
            if (transport == TestTransport.UCX && !tcpDataPath) {
                StringBuilder answers = new StringBuilder();
                for (String read = clientRec.reads.poll(); read != null; read = clientRec.reads.poll()) {
                    answers.append(read);
                }
                assertEquals("onetwothree", answers.toString(), "the answers sent before the peer closed");
            }
            server.close().sync();
        }
    }

    /**
     * A close with {@code SO_LINGER} 0 is a reset: the peer reads what was sent before it, then fails with an
     * {@code IOException} naming the reset and closes (over TCP the reset follows the data on the wire; over UCX
     * the reset record counts the messages before it).
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void soLingerZeroCloseResetsThePeerAfterItsLastMessages(TestTransport transport) throws Throwable {
        try (Env env = new Env(transport, 1, 1)) {
            Recorder serverChild = new Recorder();
            Recorder clientRec = new Recorder();
            Channel server = env.serverBootstrap().childOption(ChannelOption.SO_LINGER, 0).childHandler(serverChild)
                    .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
            Channel client = env.clientBootstrap().handler(clientRec).connect(server.localAddress()).sync().channel();
            assertTrue(serverChild.active.await(5, TimeUnit.SECONDS));
            serverChild.channel.writeAndFlush(ascii("one")).sync();
            serverChild.channel.writeAndFlush(ascii("two")).sync();
            serverChild.channel.close().sync();

            assertTrue(client.closeFuture().await(5, TimeUnit.SECONDS), "the reset did not close the client");
            StringBuilder answers = new StringBuilder();
            for (String read = clientRec.reads.poll(); read != null; read = clientRec.reads.poll()) {
                answers.append(read);
            }
            assertEquals("onetwo", answers.toString(), "what was sent before the reset");
            Throwable reset = clientRec.errors.poll();
            assertInstanceOf(IOException.class, reset, "the client must fail with the reset");
            assertTrue(reset.getMessage().contains("reset"), () -> "not named a reset: " + reset);
            server.close().sync();
        }
    }

    // ---------------------------------------------------------------------------------------------------------
    // Shutting down groups with live connections

    @ParameterizedTest(name = "{0}")
    @EnumSource(TestTransport.class)
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void groupShutdownWithLiveConnections(TestTransport transport) throws Throwable {
        transport.assumeTested();
        Queue<Throwable> uncaught = new ConcurrentLinkedQueue<>();
        ThreadFactory serverThreads = recordingThreads("test-shutdown-server", uncaught);
        ThreadFactory clientThreads = recordingThreads("test-shutdown-client", uncaught);
        EventLoopGroup serverGroup = transport.newGroup(2, serverThreads);
        EventLoopGroup clientGroup = transport.newGroup(2, clientThreads);
        log.clear();
        final int connections = 8;
        Queue<Throwable> errors = new ConcurrentLinkedQueue<>();
        Queue<Channel> inactive = new ConcurrentLinkedQueue<>();
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
            // An accepted UCX channel is registered before its handshake ends and active only after: one that
            // never became active rightly gets no channelInactive, so the shutdown starts when all are.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while ((roundTrips.get() < 100L * connections || !allActive(children, connections))
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertTrue(roundTrips.get() >= 100L * connections, "traffic did not flow: " + roundTrips);
            assertTrue(allActive(children, connections), () -> "accepted channels not all active: " + children);

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
            List<Channel> silent = new ArrayList<>(clients);
            silent.addAll(children);
            silent.removeAll(inactive);
            assertEquals(2 * connections, inactive.size(),
                    () -> "channelInactive count (clients + children); never inactive: " + silent);
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

    private static boolean allActive(Queue<Channel> channels, int expected) {
        return channels.size() == expected && channels.stream().allMatch(Channel::isActive);
    }

    @ChannelHandler.Sharable
    private static final class PingPong extends ChannelInboundHandlerAdapter {
        private final AtomicLong roundTrips;
        private final Queue<Channel> inactive;
        private final Queue<Throwable> errors;

        PingPong(AtomicLong roundTrips, Queue<Channel> inactive, Queue<Throwable> errors) {
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
            inactive.add(ctx.channel());
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
}
