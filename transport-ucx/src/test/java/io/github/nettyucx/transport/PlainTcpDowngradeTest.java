/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxDataPathPolicy;
import io.github.nettyucx.handshake.UcxPlainTcpServers;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Attempts to downgrade a netty-ucx connection to plain TCP: a server that closes before its intro, one that stays
 * silent, a remembered plain server, each with the TCP data path on (auto) and off
 * ({@code -Dio.github.nettyucx.tcpDataPath=never}, which fallback never overrides); a server that takes a silent
 * client for plain TCP; and a client whose intro is held back for longer than a TCP retransmission of its first
 * segment, which must not be taken for plain TCP. Each downgrade is logged and counted.
 */
class PlainTcpDowngradeTest extends AbstractLeakCheckedTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private EventLoopGroup ucxGroup;
    private final List<String> infos = new CopyOnWriteArrayList<>();
    private final AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
        @Override
        protected void append(ILoggingEvent event) {
            infos.add(event.getLevel() + " " + event.getFormattedMessage());
        }
    };

    @BeforeEach
    void groups() {
        TestTransport.requireUcx();
        UcxPlainTcpServers.clear();
        ucxGroup = TestTransport.UCX.newGroup(1);
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        appender.setContext(root.getLoggerContext());
        appender.start();
        root.addAppender(appender);
    }

    @AfterEach
    void shutDown() throws Exception {
        ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(appender);
        tcpDataPath(true);
        UcxPlainTcpServers.clear();
        ucxGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }

    /** Turns this process's TCP data path off ({@code tcpDataPath=never}) or back to what the properties say. */
    private static void tcpDataPath(boolean on) throws Exception {
        Field flags = UcxDataPathPolicy.class.getDeclaredField("localFlags");
        flags.setAccessible(true);
        flags.setInt(null, on ? -1 : UcxDataPathPolicy.localFlags() & ~UcxDataPathPolicy.FLAG_ACCEPTS);
    }

    private ChannelFuture connectWithFallback(InetSocketAddress target, ChannelInboundHandlerAdapter handler) {
        return new Bootstrap().group(ucxGroup).channel(UcxSocketChannel.class)
                .option(UcxChannelOption.PLAIN_TCP_FALLBACK, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 20_000).handler(handler).connect(target);
    }

    /** Reads what it is sent and never answers: a server that waits for a request netty-ucx never sends. */
    private static void silent(Socket s) {
        try (Socket socket = s) {
            socket.getInputStream().transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            // the client went away
        }
    }

    /** Echoes what it is sent. */
    private static void echo(Socket s) {
        try (Socket socket = s) {
            socket.getInputStream().transferTo(socket.getOutputStream());
        } catch (IOException e) {
            // the client went away
        }
    }

    private static Throwable failure(ChannelFuture connect) throws InterruptedException {
        assertTrue(connect.await(20, TimeUnit.SECONDS), "the connect neither failed nor succeeded");
        assertFalse(connect.isSuccess(), "the connect succeeded: " + connect.channel());
        assertInstanceOf(ConnectException.class, connect.cause());
        return connect.cause();
    }

    @Test
    @Timeout(30)
    void aServerThatClosesBeforeItsIntroFailsTheConnectAndIsNotTakenForPlain() throws Exception {
        long fallbacks = UcxTransportMetrics.plainTcpFallbacks();
        RawTcpServer[] holder = new RawTcpServer[1];
        try (RawTcpServer server = new RawTcpServer(s -> holder[0].readFirstBytesThenClose(s))) {
            holder[0] = server;
            Throwable cause = failure(connectWithFallback(server.address(), new ChannelInboundHandlerAdapter()));
            assertTrue(cause.getMessage().contains("closed before its netty-ucx intro"), cause.getMessage());
            assertEquals(1, server.connections.get(), "no second connection as plain TCP");
            assertFalse(UcxPlainTcpServers.isPlain(server.address()), "remembered as a plain server");
            assertEquals(fallbacks, UcxTransportMetrics.plainTcpFallbacks());
        }
    }

    @Test
    @Timeout(30)
    void withTheTcpDataPathOffAServerThatClosesBeforeItsIntroFailsTheConnect() throws Exception {
        tcpDataPath(false);
        RawTcpServer[] holder = new RawTcpServer[1];
        try (RawTcpServer server = new RawTcpServer(s -> holder[0].readFirstBytesThenClose(s))) {
            holder[0] = server;
            Throwable cause = failure(connectWithFallback(server.address(), new ChannelInboundHandlerAdapter()));
            assertTrue(cause.getMessage().contains("tcpDataPath=never"), cause.getMessage());
            assertEquals(1, server.connections.get(), "no second connection as plain TCP");
        }
    }

    /** The fallback's own deadline, 3 s: a server that says nothing is plain TCP, said at INFO and counted. */
    @Test
    @Timeout(30)
    void aSilentServerIsReachedAsPlainTcpLoggedAndCounted() throws Exception {
        long fallbacks = UcxTransportMetrics.plainTcpFallbacks();
        RawTcpServer[] holder = new RawTcpServer[1];
        // Silent to the netty-ucx intro (the first connection), an echo server to the plain TCP one.
        try (RawTcpServer server = new RawTcpServer(s -> {
            if (holder[0].connections.get() == 1) {
                silent(s);
            } else {
                echo(s);
            }
        })) {
            holder[0] = server;
            CompletableFuture<String> echoed = new CompletableFuture<>();
            Channel client = connectWithFallback(server.address(), new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    echoed.complete(((ByteBuf) msg).toString(StandardCharsets.US_ASCII));
                    ((ByteBuf) msg).release();
                }
            }).sync().channel();
            try {
                client.writeAndFlush(Unpooled.copiedBuffer("x", StandardCharsets.US_ASCII));
                assertEquals("x", echoed.get(10, TimeUnit.SECONDS));
                assertEquals(2, server.connections.get(), "the probe, then plain TCP");
            } finally {
                client.close().sync();
            }
            assertEquals(fallbacks + 1, UcxTransportMetrics.plainTcpFallbacks());
            assertTrue(infos.stream().anyMatch(line -> line.startsWith("INFO ")
                    && line.contains("did not answer as a netty-ucx server")
                    && line.contains(String.valueOf(server.address().getPort()))), infos.toString());
        }
    }

    @Test
    @Timeout(30)
    void withTheTcpDataPathOffASilentServerFailsTheConnect() throws Exception {
        tcpDataPath(false);
        long fallbacks = UcxTransportMetrics.plainTcpFallbacks();
        try (RawTcpServer server = new RawTcpServer(PlainTcpDowngradeTest::silent)) {
            Throwable cause = failure(connectWithFallback(server.address(), new ChannelInboundHandlerAdapter()));
            assertTrue(cause.getMessage().contains("no netty-ucx intro within"), cause.getMessage());
            assertTrue(cause.getMessage().contains("tcpDataPath=never"), cause.getMessage());
            assertEquals(1, server.connections.get(), "no second connection as plain TCP");
            assertEquals(fallbacks, UcxTransportMetrics.plainTcpFallbacks());
        }
    }

    /** A server remembered as plain TCP is not connected to as plain TCP once the TCP data path is off. */
    @Test
    @Timeout(30)
    void withTheTcpDataPathOffARememberedPlainServerIsProbedAgain() throws Exception {
        RawTcpServer[] holder = new RawTcpServer[1];
        try (RawTcpServer server = new RawTcpServer(s -> holder[0].readFirstBytesThenClose(s))) {
            holder[0] = server;
            UcxPlainTcpServers.remember(server.address());
            tcpDataPath(false);
            failure(connectWithFallback(server.address(), new ChannelInboundHandlerAdapter()));
            assertEquals("NUCX", server.firstBytes.get(10, TimeUnit.SECONDS), "the connect sent its intro");
        }
    }

    private Channel ucxServer(ChannelInitializer<Channel> children) throws InterruptedException {
        return new ServerBootstrap().group(ucxGroup).channel(UcxServerSocketChannel.class).childHandler(children)
                .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
    }

    /** A server that speaks first: a silent client is plain TCP after CLIENT_BYTES_WAIT_MILLIS, said and counted. */
    @Test
    @Timeout(30)
    void aSilentClientIsServedAsPlainTcpLoggedAndCounted() throws Exception {
        long silent = UcxTransportMetrics.silentClientsServedAsPlain();
        Channel server = ucxServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        ctx.writeAndFlush(Unpooled.copiedBuffer("220 ready\r\n", StandardCharsets.US_ASCII));
                    }
                });
            }
        });
        try (Socket socket = new Socket(LOOPBACK, ((InetSocketAddress) server.localAddress()).getPort())) {
            socket.setSoTimeout(10_000);
            byte[] banner = socket.getInputStream().readNBytes("220 ready\r\n".length());
            assertEquals("220 ready\r\n", new String(banner, StandardCharsets.US_ASCII));
            assertEquals(silent + 1, UcxTransportMetrics.silentClientsServedAsPlain());
            String port = String.valueOf(socket.getLocalPort());
            assertTrue(infos.stream().anyMatch(line -> line.startsWith("INFO ") && line.contains("sent nothing for")
                    && line.contains(port)), infos.toString());
        } finally {
            server.close().sync();
        }
    }

    /**
     * A proxy that holds the client's first bytes back for 1.1 s, as a lost first segment resent after Linux's first
     * retransmission timeout (1 s) would be: the server must not take the client for plain TCP, nor the client
     * (with fallback) the server; the connection is netty-ucx's.
     */
    @Test
    @Timeout(30)
    void aLostFirstSegmentIsNotTakenForPlainTcp() throws Exception {
        long silent = UcxTransportMetrics.silentClientsServedAsPlain();
        long fallbacks = UcxTransportMetrics.plainTcpFallbacks();
        Channel server = ucxServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new Echo());
            }
        });
        InetSocketAddress upstream = (InetSocketAddress) server.localAddress();
        try (RawTcpServer proxy = new RawTcpServer(s -> delayingProxy(s, upstream, 1100))) {
            CompletableFuture<String> echoed = new CompletableFuture<>();
            Channel client = connectWithFallback(proxy.address(), new ChannelInboundHandlerAdapter() {
                @Override
                public void channelRead(ChannelHandlerContext ctx, Object msg) {
                    echoed.complete(((ByteBuf) msg).toString(StandardCharsets.US_ASCII));
                    ((ByteBuf) msg).release();
                }
            }).sync().channel();
            try {
                String lanes = ((UcxSocketChannel) client).ucxLanes().get(5, TimeUnit.SECONDS);
                assertFalse(lanes.startsWith("plain TCP"), "the client went plain: " + lanes);
                client.writeAndFlush(Unpooled.copiedBuffer("late", StandardCharsets.US_ASCII));
                assertEquals("late", echoed.get(10, TimeUnit.SECONDS));
                assertEquals(1, proxy.connections.get(), "one connection, no plain TCP retry");
            } finally {
                client.close().sync();
            }
            assertEquals(silent, UcxTransportMetrics.silentClientsServedAsPlain(), "the server took it for plain");
            assertEquals(fallbacks, UcxTransportMetrics.plainTcpFallbacks(), "the client fell back");
        } finally {
            server.close().sync();
        }
    }

    /** Relays {@code client} to {@code upstream}, its first bytes held back {@code delayMillis}. */
    private static void delayingProxy(Socket client, InetSocketAddress upstream, long delayMillis) {
        try (Socket accepted = client; Socket server = new Socket(upstream.getAddress(), upstream.getPort())) {
            Thread back = new Thread(() -> relay(server, accepted, 0), "proxy-back");
            back.setDaemon(true);
            back.start();
            relay(accepted, server, delayMillis);
            back.join(10_000);
        } catch (IOException | InterruptedException e) {
            // either side went away
        }
    }

    private static void relay(Socket from, Socket to, long firstDelayMillis) {
        byte[] buffer = new byte[8192];
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            long delay = firstDelayMillis;
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                if (delay > 0) {
                    Thread.sleep(delay);
                    delay = 0;
                }
                out.write(buffer, 0, n);
                out.flush();
            }
            to.shutdownOutput();
        } catch (IOException | InterruptedException e) {
            // either side went away
        }
    }
}
