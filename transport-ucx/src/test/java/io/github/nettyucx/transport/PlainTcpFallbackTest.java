/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.UcxPlainTcpServers;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link UcxSocketChannel} with {@link UcxChannelOption#PLAIN_TCP_FALLBACK} against servers that do not speak
 * netty-ucx (an epoll echo server, one that speaks first, one that says nothing, Python's http.server) and against a
 * netty-ucx server; and without the option, the error that names it.
 */
class PlainTcpFallbackTest extends AbstractLeakCheckedTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private EventLoopGroup ucxGroup;
    private EventLoopGroup epollGroup;

    @BeforeEach
    void groups() {
        TestTransport.requireUcx();
        UcxPlainTcpServers.clear();
        ucxGroup = TestTransport.UCX.newGroup(1);
        TestTransport.EPOLL.assumeAvailable();
        epollGroup = TestTransport.EPOLL.newGroup(1);
    }

    @AfterEach
    void shutDown() {
        ucxGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        if (epollGroup != null) {
            epollGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** An epoll echo server that counts its connections. */
    private Channel epollEchoServer(AtomicInteger connections) throws InterruptedException {
        return new ServerBootstrap().group(epollGroup).channel(TestTransport.EPOLL.serverChannelClass())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        connections.incrementAndGet();
                        ch.pipeline().addLast(new Echo());
                    }
                }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
    }

    private ChannelFuture connect(SocketAddress target, boolean fallback, ChannelInboundHandlerAdapter handler) {
        return new Bootstrap().group(ucxGroup).channel(UcxSocketChannel.class)
                .option(UcxChannelOption.PLAIN_TCP_FALLBACK, fallback).handler(handler).connect(target);
    }

    /** Collects what a client reads as text. */
    private static final class Text extends ChannelInboundHandlerAdapter {
        final StringBuilder text = new StringBuilder();
        final CompletableFuture<String> expected = new CompletableFuture<>();
        private final int length;

        Text(int length) {
            this.length = length;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            text.append(buf.toString(StandardCharsets.US_ASCII));
            buf.release();
            if (text.length() >= length) {
                expected.complete(text.toString());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            expected.completeExceptionally(cause);
            ctx.close();
        }
    }

    @Test
    @Timeout(30)
    void anEchoServerIsReachedAsPlainTcpAndRemembered() throws Exception {
        AtomicInteger connections = new AtomicInteger();
        Channel server = epollEchoServer(connections);
        try {
            for (int round = 0; round < 2; round++) {
                Text text = new Text(5);
                Channel client = connect(server.localAddress(), true, text).sync().channel();
                try {
                    client.writeAndFlush(Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII));
                    assertEquals("hello", text.expected.get(10, TimeUnit.SECONDS), "the echo, and nothing else");
                    String lanes = ((UcxSocketChannel) client).ucxLanes().get(5, TimeUnit.SECONDS);
                    assertTrue(lanes.startsWith("plain TCP"), lanes);
                } finally {
                    client.close().sync();
                }
                // The first connect probed (the echo server sent our hello back) and connected again; the second
                // one went plain at once.
                assertEquals(round == 0 ? 2 : 3, connections.get(), "connections after round " + round);
            }
        } finally {
            server.close().sync();
        }
    }

    @Test
    @Timeout(30)
    void withoutTheOptionTheConnectFailsAndNamesIt() throws Exception {
        Channel server = epollEchoServer(new AtomicInteger());
        try {
            ChannelFuture connect = connect(server.localAddress(), false, new ChannelInboundHandlerAdapter());
            assertTrue(connect.await(10, TimeUnit.SECONDS));
            assertInstanceOf(ConnectException.class, connect.cause());
            assertTrue(connect.cause().getMessage().contains("PLAIN_TCP_FALLBACK"), connect.cause().getMessage());
        } finally {
            server.close().sync();
        }
    }

    /** Writes a banner at once, then answers each line with its length. */
    private static void bannerThenLengths(Socket s) {
        try (Socket socket = s) {
            OutputStream out = socket.getOutputStream();
            out.write("220 ready\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            answerLines(socket);
        } catch (Exception e) {
            // the client went away
        }
    }

    /** Says nothing until a line comes, then answers each line with its length. */
    private static void silentUntilALine(Socket s) {
        try (Socket socket = s) {
            answerLines(socket);
        } catch (Exception e) {
            // the client went away
        }
    }

    private static void answerLines(Socket socket) throws Exception {
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b >= 0; b = in.read()) {
            if (b == '\n') {
                out.write(("len " + line.size() + "\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                line.reset();
            } else {
                line.write(b);
            }
        }
    }

    @Test
    @Timeout(30)
    void aServerThatSpeaksFirstIsPlainAndItsBannerComesFirst() throws Exception {
        try (RawTcpServer server = new RawTcpServer(PlainTcpFallbackTest::bannerThenLengths)) {
            Text text = new Text("220 ready\r\nlen 4\n".length());
            Channel client = connect(server.address(), true, text).sync().channel();
            try {
                client.writeAndFlush(Unpooled.copiedBuffer("ping\n", StandardCharsets.US_ASCII));
                assertEquals("220 ready\r\nlen 4\n", text.expected.get(10, TimeUnit.SECONDS));
                assertEquals(2, server.connections.get(), "the probe, then the plain connection");
            } finally {
                client.close().sync();
            }
        }
    }

    @Test
    @Timeout(30)
    void aServerThatSaysNothingIsPlainAfterTheHelloWait() throws Exception {
        try (RawTcpServer server = new RawTcpServer(PlainTcpFallbackTest::silentUntilALine)) {
            Text text = new Text("len 4\n".length());
            Channel client = connect(server.address(), true, text).sync().channel();
            try {
                client.writeAndFlush(Unpooled.copiedBuffer("ping\n", StandardCharsets.US_ASCII));
                assertEquals("len 4\n", text.expected.get(10, TimeUnit.SECONDS),
                        "our hello went to the probe only, not to this connection");
            } finally {
                client.close().sync();
            }
        }
    }

    @Test
    @Timeout(30)
    void aUcxServerIsStillReachedOverUcx() throws Exception {
        Channel server = new ServerBootstrap().group(ucxGroup).channel(UcxServerSocketChannel.class)
                .childHandler(new Echo()).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
        try {
            Text text = new Text(5);
            Channel client = connect(server.localAddress(), true, text).sync().channel();
            try {
                client.writeAndFlush(Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII));
                assertEquals("hello", text.expected.get(10, TimeUnit.SECONDS));
                String lanes = ((UcxSocketChannel) client).ucxLanes().get(5, TimeUnit.SECONDS);
                assertFalse(lanes.startsWith("plain TCP"), lanes);
                assertFalse(UcxPlainTcpServers.isPlain((InetSocketAddress) server.localAddress()));
            } finally {
                client.close().sync();
            }
        } finally {
            server.close().sync();
        }
    }

    @Test
    @Timeout(60)
    void pythonsHttpServerAnswersANettyHttpClientOnUcx() throws Exception {
        Process python = new ProcessBuilder("python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1")
                .redirectErrorStream(true).start();
        try {
            int port = portPythonListensOn(python);
            CompletableFuture<FullHttpResponse> response = new CompletableFuture<>();
            Channel client = new Bootstrap().group(ucxGroup).channel(UcxSocketChannel.class)
                    .option(UcxChannelOption.PLAIN_TCP_FALLBACK, true)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(1 << 20),
                                    new SimpleChannelInboundHandler<FullHttpResponse>() {
                                        @Override
                                        protected void channelRead0(ChannelHandlerContext ctx, FullHttpResponse r) {
                                            response.complete(r.retainedDuplicate());
                                        }
                                    });
                        }
                    }).connect(new InetSocketAddress(LOOPBACK, port)).sync().channel();
            try {
                DefaultFullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/");
                request.headers().set(HttpHeaderNames.HOST, "127.0.0.1");
                client.writeAndFlush(request);
                FullHttpResponse answer = response.get(20, TimeUnit.SECONDS);
                try {
                    assertEquals(200, answer.status().code());
                    assertTrue(answer.content().toString(StandardCharsets.UTF_8).contains("Directory listing"));
                } finally {
                    answer.release();
                }
            } finally {
                client.close().sync();
            }
        } finally {
            python.destroy();
            python.waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** Reads Python's "Serving HTTP on 127.0.0.1 port N" line. */
    private static int portPythonListensOn(Process python) throws Exception {
        StringBuilder line = new StringBuilder();
        InputStream out = python.getInputStream();
        for (int b = out.read(); b >= 0; b = out.read()) {
            if (b == '\n') {
                String text = line.toString();
                int at = text.indexOf(" port ");
                if (at >= 0) {
                    return Integer.parseInt(text.substring(at + 6).split("[^0-9]")[0]);
                }
                line.setLength(0);
            } else {
                line.append((char) b);
            }
        }
        throw new AssertionError("python3 -m http.server did not start: " + line);
    }
}
