/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.micrometer;

import io.github.nettyucx.transport.Ucx;
import io.github.nettyucx.transport.UcxChannelOption;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.github.nettyucx.handshake.SetupFailure;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The meters of {@link UcxMetrics} in a Micrometer registry, moved by real connections: an echo over UCX whose
 * receiver reads nothing for a while (so the sender runs out of credits), a connect to a server that answers in
 * another protocol, one to a server that says nothing, and clients a server has no room for.
 */
class UcxMetricsTest {
    private static final int WINDOW = 2;
    private static final int UNIT = 4096;

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private EventLoopGroup group;

    @BeforeEach
    void setUp() {
        Throwable cause = Ucx.unavailabilityCause();
        if (cause != null && Boolean.getBoolean("nettyucx.requireUcx")) {
            throw new AssertionError("UCX is required (-Dnettyucx.requireUcx=true) but unavailable: " + cause, cause);
        }
        Assumptions.assumeTrue(cause == null, () -> "UCX is unavailable here: " + cause);
        new UcxMetrics(Tags.of("app", "test")).bindTo(registry);
        group = new UcxEventLoopGroup(2);
    }

    @AfterEach
    void tearDown() throws InterruptedException {
        if (group != null) {
            group.shutdownGracefully(0, 5, TimeUnit.SECONDS).sync();
        }
        registry.close();
    }

    @Test
    void everyMeterIsRegisteredWithItsTags() {
        Set<String> names = new HashSet<>();
        for (Meter meter : registry.getMeters()) {
            names.add(meter.getId().getName());
            assertEquals("test", meter.getId().getTag("app"), meter.getId().toString());
        }
        for (String name : new String[] {UcxMetrics.CONNECTIONS_OPENED, UcxMetrics.SETUP_FAILURES,
                UcxMetrics.LOOP_SLEEPS, UcxMetrics.LOOP_WAKEUPS, UcxMetrics.LOOP_CONTENTION_HOLDS,
                UcxMetrics.WRITE_STALLS, UcxMetrics.STRAY_MESSAGES, UcxMetrics.ENDPOINTS_CREATED,
                UcxMetrics.ALLOCATOR_USED, UcxMetrics.ALLOCATOR_ACTIVE, UcxMetrics.ALLOCATOR_MAX,
                UcxMetrics.ALLOCATOR_UNREGISTERED, UcxMetrics.HANDSHAKES_SHED, UcxMetrics.DOWNGRADES,
                UcxMetrics.BYTES}) {
            assertTrue(names.contains(name), name + " missing from " + names);
        }
        assertEquals(3, registry.find(UcxMetrics.CONNECTIONS_OPENED).functionCounters().size());
        assertEquals(SetupFailure.values().length,
                registry.find(UcxMetrics.SETUP_FAILURES).functionCounters().size(), "one counter per reason");
        assertEquals(2, registry.find(UcxMetrics.WRITE_STALLS).functionCounters().size());
        assertEquals(2, registry.find(UcxMetrics.DOWNGRADES).functionCounters().size());
        assertEquals(2, registry.find(UcxMetrics.BYTES).functionCounters().size(), "sent and received");
        assertTrue(gauge(UcxMetrics.ALLOCATOR_MAX, "default") > 0);
        assertTrue(gauge(UcxMetrics.ALLOCATOR_MAX, "receive") > 0);
    }

    @Test
    void anEchoWhoseReaderWaitsMovesTheConnectionStallAndMemoryMeters() throws Exception {
        double opened = counter(UcxMetrics.CONNECTIONS_OPENED, "data.path", "ucx");
        double stalls = counter(UcxMetrics.WRITE_STALLS, "cause", "credits");
        double bytesSent = counter(UcxMetrics.BYTES, "direction", "sent");
        double bytesReceived = counter(UcxMetrics.BYTES, "direction", "received");
        double endpoints = counter(UcxMetrics.ENDPOINTS_CREATED, null, null);
        double sleeps = counter(UcxMetrics.LOOP_SLEEPS, null, null);

        BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
        Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(UcxChannelOption.UCX_RECV_WINDOW, WINDOW)
                .childOption(UcxChannelOption.UCX_RECV_UNIT, UNIT)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new EchoHandler());
                        accepted.add(ch);
                    }
                })
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        int messages = WINDOW * 4;
        AtomicLong echoed = new AtomicLong();
        CountDownLatch allBack = new CountDownLatch(1);
        Channel client = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                .handler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ByteBuf buf = (ByteBuf) msg;
                        if (echoed.addAndGet(buf.readableBytes()) == (long) messages * UNIT) {
                            allBack.countDown();
                        }
                        buf.release();
                    }
                })
                .connect(server.localAddress()).sync().channel();
        try {
            Channel child = accepted.poll(10, TimeUnit.SECONDS);
            assertNotNull(child, "nothing accepted");
            assertTrue(((UcxSocketChannel) client).ucxLanes().get(10, TimeUnit.SECONDS).contains("lane"),
                    "the connection is not on UCX");
            ChannelFuture lastWrite = null;
            for (int i = 0; i < messages; i++) {
                lastWrite = client.writeAndFlush(client.alloc().directBuffer(UNIT).writeZero(UNIT));
            }
            // The reader reads nothing yet: past its window the writes wait for credits.
            waitFor(() -> counter(UcxMetrics.WRITE_STALLS, "cause", "credits") > stalls, "a credit stall");
            assertFalse(lastWrite.isDone(), "the last write went out though the peer read nothing");
            assertTrue(gauge(UcxMetrics.ALLOCATOR_USED, "default") > 0, "the default allocator mapped nothing");
            assertTrue(gauge(UcxMetrics.ALLOCATOR_USED, "receive") > 0, "the receive buffers mapped nothing");

            child.config().setAutoRead(true);
            assertTrue(allBack.await(10, TimeUnit.SECONDS), "echoed " + echoed.get() + " bytes");
            assertTrue(lastWrite.await(10, TimeUnit.SECONDS) && lastWrite.isSuccess());
        } finally {
            client.close().sync();
            server.close().sync();
        }
        assertEquals(opened + 2, counter(UcxMetrics.CONNECTIONS_OPENED, "data.path", "ucx"),
                "the client and the accepted channel");
        assertEquals(endpoints + 2, counter(UcxMetrics.ENDPOINTS_CREATED, null, null));
        assertTrue(counter(UcxMetrics.LOOP_SLEEPS, null, null) > sleeps, "the loops never slept");
        // Everything echoed went over UCX twice, and arrived twice.
        assertTrue(counter(UcxMetrics.BYTES, "direction", "sent") - bytesSent >= 2.0 * echoed.get(),
                "bytes sent over UCX");
        assertTrue(counter(UcxMetrics.BYTES, "direction", "received") - bytesReceived >= 2.0 * echoed.get(),
                "bytes received over UCX");
    }

    @Test
    void aServerOfAnotherProtocolCountsAsAProtocolFailure() throws Exception {
        double before = counter(UcxMetrics.SETUP_FAILURES, "reason", "protocol");
        try (ServerSocket other = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread answer = new Thread(() -> {
                try (Socket s = other.accept(); OutputStream out = s.getOutputStream()) {
                    out.write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    s.getInputStream().read();
                } catch (IOException ignored) {
                    // the client closed first
                }
            });
            answer.start();
            ChannelFuture connect = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .handler(new ChannelInboundHandlerAdapter())
                    .connect(other.getLocalSocketAddress()).await();
            assertFalse(connect.isSuccess());
            connect.channel().closeFuture().await(10, TimeUnit.SECONDS);
            answer.join(10_000);
        }
        assertEquals(before + 1, counter(UcxMetrics.SETUP_FAILURES, "reason", "protocol"));
    }

    @Test
    void aSilentServerCountsAsATimeout() throws Exception {
        double before = counter(UcxMetrics.SETUP_FAILURES, "reason", "timeout");
        try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            ChannelFuture connect = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 300)
                    .handler(new ChannelInboundHandlerAdapter())
                    .connect(silent.getLocalSocketAddress()).await();
            assertFalse(connect.isSuccess());
            connect.channel().closeFuture().await(10, TimeUnit.SECONDS);
        }
        assertEquals(before + 1, counter(UcxMetrics.SETUP_FAILURES, "reason", "timeout"));
    }

    @Test
    void aServerFullOfHandshakesCountsARefusal() throws Exception {
        double before = counter(UcxMetrics.SETUP_FAILURES, "reason", "refused");
        Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                .option(UcxChannelOption.MAX_PENDING_HANDSHAKES, 1)
                .childOption(UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS, 0)
                .childHandler(new ChannelInboundHandlerAdapter())
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)).sync().channel();
        // The first client says nothing and so holds the one handshake; the second is turned away.
        try (Socket first = new Socket(); Socket second = new Socket()) {
            first.connect(server.localAddress(), 10_000);
            second.connect(server.localAddress(), 10_000);
            second.setSoTimeout(10_000);
            try {
                assertEquals(-1, second.getInputStream().read(), "the second client was not closed");
            } catch (IOException reset) {
                // closed as a reset: turned away all the same
            }
        } finally {
            server.close().sync();
        }
        assertEquals(before + 1, counter(UcxMetrics.SETUP_FAILURES, "reason", "refused"));
    }

    private double counter(String name, String tag, String value) {
        FunctionCounter counter = tag == null ? registry.get(name).functionCounter()
                : registry.get(name).tag(tag, value).functionCounter();
        return counter.count();
    }

    private double gauge(String name, String allocator) {
        Gauge gauge = name.equals(UcxMetrics.ALLOCATOR_USED)
                ? registry.get(name).tag("allocator", allocator).tag("memory.type", "direct").gauge()
                : registry.get(name).tag("allocator", allocator).gauge();
        return gauge.value();
    }

    private static void waitFor(java.util.function.BooleanSupplier condition, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "no " + what + " within 10 s");
            Thread.sleep(10);
        }
    }

    /** Echoes what it reads. */
    private static final class EchoHandler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }
    }
}
