/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.ConnectTimeoutException;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Connect failures: refused, timed out, and a TCP listener that accepts but never speaks UCX. */
class ConnectSemanticsTest extends AbstractSemanticsTest {
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
}
