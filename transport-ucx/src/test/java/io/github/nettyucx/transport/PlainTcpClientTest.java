/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.jni.UcxNative;
import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.github.nettyucx.buffer.UcxByteBufAllocatorMetric;
import io.github.nettyucx.buffer.UcxMemoryRegistration;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.SocketChannelConfig;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import io.netty.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Clients that do not speak netty-ucx (a plain socket, Netty's NIO transport, curl, Python's http.client) against a
 * {@link UcxServerSocketChannel}: the server tells them by their first bytes and serves them as plain TCP on the
 * same port as its netty-ucx clients.
 */
class PlainTcpClientTest extends AbstractLeakCheckedTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private EventLoopGroup ucxGroup;
    private EventLoopGroup nioGroup;

    @BeforeEach
    void groups() {
        TestTransport.requireUcx();
        ucxGroup = TestTransport.UCX.newGroup(2);
        nioGroup = TestTransport.NIO.newGroup(2);
    }

    @AfterEach
    void shutDown() {
        ucxGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
        nioGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private Channel ucxServer(ChannelInitializer<Channel> init) throws InterruptedException {
        return new ServerBootstrap().group(ucxGroup).channel(UcxServerSocketChannel.class).childHandler(init)
                .bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
    }

    /** A UCX server whose children each get the handler {@code child} makes. */
    private Channel ucxServerWith(Supplier<ChannelHandler> child) throws InterruptedException {
        return ucxServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(child.get());
            }
        });
    }

    private Channel echoServer() throws InterruptedException {
        return ucxServerWith(Echo::new);
    }

    /** An echo server that hands each child to {@code active} when it becomes active. */
    private Channel echoServer(Consumer<Channel> active) throws InterruptedException {
        return ucxServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        active.accept(ctx.channel());
                        ctx.fireChannelActive();
                    }
                }, new Echo());
            }
        });
    }

    private static int port(Channel server) {
        return ((InetSocketAddress) server.localAddress()).getPort();
    }

    @Test
    @Timeout(60)
    void aNioClientEchoesThroughAUcxServer() throws Exception {
        BlockingQueue<Future<String>> lanes = new LinkedBlockingQueue<>();
        Channel server = echoServer(child -> lanes.add(((UcxSocketChannel) child).ucxLanes()));
        try {
            byte[] sent = new byte[1 << 20];
            ThreadLocalRandom.current().nextBytes(sent);
            assertArrayEquals(sent, echoOverNio(server, sent));
            String described = lanes.take().get(5, TimeUnit.SECONDS);
            assertTrue(described.startsWith("plain TCP"), described);
        } finally {
            server.close().sync();
        }
    }

    /** A plain connection deregistered from its loop and registered with another goes on there, as on epoll. */
    @Test
    @Timeout(60)
    void aPlainConnectionMovesToAnotherLoop() throws Exception {
        CompletableFuture<Channel> child = new CompletableFuture<>();
        Channel server = echoServer(child::complete);
        try (Socket socket = new Socket(LOOPBACK, port(server))) {
            socket.setSoTimeout(10_000);
            assertEquals("first", echoLine(socket, "first"));
            Channel channel = child.get(10, TimeUnit.SECONDS);
            EventLoop before = channel.eventLoop();
            EventLoop other = ucxGroup.next();
            if (other == before) {
                other = ucxGroup.next();
            }
            assertNotSame(before, other, "the group has two loops");
            channel.deregister().sync();
            other.register(channel).sync();
            assertSame(other, channel.eventLoop());
            assertEquals("second", echoLine(socket, "second"));
        } finally {
            server.close().sync();
        }
    }

    /** Writes {@code text} to a blocking socket and reads as many bytes back. */
    private static String echoLine(Socket socket, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        socket.getOutputStream().write(bytes);
        return new String(socket.getInputStream().readNBytes(bytes.length), StandardCharsets.US_ASCII);
    }

    /** Sends {@code bytes} from an NIO client in pieces and returns what came back. */
    private byte[] echoOverNio(Channel server, byte[] bytes) throws Exception {
        Collector collector = new Collector(bytes.length);
        Channel client = new Bootstrap().group(nioGroup).channel(TestTransport.NIO.clientChannelClass())
                .handler(collector).connect(server.localAddress()).sync().channel();
        try {
            for (int offset = 0; offset < bytes.length; offset += 4096) {
                client.write(Unpooled.wrappedBuffer(bytes, offset, Math.min(4096, bytes.length - offset)));
            }
            client.flush();
            return collector.received.get(30, TimeUnit.SECONDS);
        } finally {
            client.close().sync();
        }
    }

    /** Gathers what a client reads until it has {@code expected} bytes. */
    private static final class Collector extends ChannelInboundHandlerAdapter {
        final CompletableFuture<byte[]> received = new CompletableFuture<>();
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final int expected;

        Collector(int expected) {
            this.expected = expected;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            byte[] chunk = new byte[buf.readableBytes()];
            buf.readBytes(chunk);
            buf.release();
            bytes.write(chunk, 0, chunk.length);
            if (bytes.size() >= expected) {
                received.complete(bytes.toByteArray());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            received.completeExceptionally(cause);
            ctx.close();
        }
    }

    /** Reads what the server child received, as text, until the client's end. */
    private static final class Recorder extends ChannelInboundHandlerAdapter {
        final StringBuilder text = new StringBuilder();
        final CompletableFuture<String> untilEnd = new CompletableFuture<>();
        final CompletableFuture<Throwable> failure = new CompletableFuture<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            text.append(buf.toString(StandardCharsets.US_ASCII));
            buf.release();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            failure.complete(cause);
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            untilEnd.complete(text.toString());
        }
    }

    @Test
    @Timeout(30)
    void aPrefixOfTheMagicThenOtherBytesReachesThePipelineWhole() throws Exception {
        Recorder recorder = new Recorder();
        Channel server = ucxServerWith(() -> recorder);
        try (Socket socket = new Socket(LOOPBACK, port(server))) {
            OutputStream out = socket.getOutputStream();
            // "NUC" is the start of the hello's magic ("NUCX"); the server must wait for more, then see plain TCP.
            for (char c : "NUCLEAR".toCharArray()) {
                out.write(c);
                out.flush();
                Thread.sleep(20); // separate reads on the server, most of the time
            }
            socket.shutdownOutput();
            assertEquals("NUCLEAR", recorder.untilEnd.get(10, TimeUnit.SECONDS));
        } finally {
            server.close().sync();
        }
    }

    /** The start of the magic and then nothing: neither kind of client, closed by the handshake timeout. */
    @Test
    @Timeout(30)
    void aPartialMagicThenSilenceIsClosedByTheHandshakeTimeout() throws Exception {
        CompletableFuture<Boolean> activated = new CompletableFuture<>();
        Channel server = new ServerBootstrap().group(ucxGroup).channel(UcxServerSocketChannel.class)
                .childOption(UcxChannelOption.HANDSHAKE_TIMEOUT_MILLIS, 500)
                .childHandler(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        activated.complete(true);
                    }
                }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
        try (Socket socket = new Socket(LOOPBACK, port(server))) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("NUC".getBytes(StandardCharsets.US_ASCII));
            assertEquals(-1, socket.getInputStream().read(), "closed, without a byte");
            assertFalse(activated.isDone(), "the child never became active");
        } finally {
            server.close().sync();
        }
    }

    @Test
    @Timeout(30)
    void aPlainClientThatShutsItsOutputStillReadsTheAnswer() throws Exception {
        Channel server = new ServerBootstrap().group(ucxGroup).channel(UcxServerSocketChannel.class)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new AnswerAtTheEnd());
                    }
                }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
        try (Socket socket = new Socket(LOOPBACK, port(server))) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("question".getBytes(StandardCharsets.US_ASCII));
            socket.shutdownOutput();
            assertEquals("answer to 8 bytes", new String(socket.getInputStream().readAllBytes(),
                    StandardCharsets.US_ASCII), "the answer, then the server's end of stream");
        } finally {
            server.close().sync();
        }
    }

    /** Counts what it reads and answers once the client shut its output, then closes. */
    private static final class AnswerAtTheEnd extends ChannelInboundHandlerAdapter {
        private int bytes;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            bytes += ((ByteBuf) msg).readableBytes();
            ((ByteBuf) msg).release();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownEvent) {
                ctx.writeAndFlush(Unpooled.copiedBuffer("answer to " + bytes + " bytes", StandardCharsets.US_ASCII))
                        .addListener(ChannelFutureListener.CLOSE);
            }
        }
    }

    @Test
    @Timeout(30)
    void soLingerZeroResetsAPlainClient() throws Exception {
        Channel server = new ServerBootstrap().group(ucxGroup).channel(UcxServerSocketChannel.class)
                .childOption(ChannelOption.SO_LINGER, 0)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ((ByteBuf) msg).release();
                                ctx.close();
                            }
                        });
                    }
                }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
        try (Socket socket = new Socket(LOOPBACK, port(server))) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write('x');
            InputStream in = socket.getInputStream();
            SocketException reset = assertThrows(SocketException.class, in::read);
            assertTrue(reset.getMessage().contains("reset"), reset.getMessage());
        } finally {
            server.close().sync();
        }
    }

    @Test
    @Timeout(30)
    void tcpOptionsAreThoseOfAPlainConnectionsSocket() throws Exception {
        CompletableFuture<List<Object>> seen = new CompletableFuture<>();
        Channel server = new ServerBootstrap().group(ucxGroup).channel(UcxServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, false)
                .childOption(ChannelOption.SO_KEEPALIVE, false)
                .childOption(ChannelOption.SO_RCVBUF, 32 * 1024)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                ((ByteBuf) msg).release();
                                SocketChannelConfig config = (SocketChannelConfig) ctx.channel().config();
                                List<Object> values = new ArrayList<>(List.of(config.isTcpNoDelay(),
                                        config.isKeepAlive(), config.getReceiveBufferSize()));
                                config.setTcpNoDelay(true);
                                config.setOption(ChannelOption.SO_SNDBUF, 48 * 1024);
                                values.add(config.getOption(ChannelOption.TCP_NODELAY));
                                values.add(config.getSendBufferSize());
                                seen.complete(values);
                                ctx.close();
                            }
                        });
                    }
                }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
        try (Socket socket = new Socket(LOOPBACK, port(server))) {
            socket.getOutputStream().write('x');
            // Linux reports twice the buffer size set, its bookkeeping included (socket(7)).
            assertEquals(List.of(false, false, 64 * 1024, true, 96 * 1024), seen.get(10, TimeUnit.SECONDS));
        } finally {
            server.close().sync();
        }
    }

    /**
     * Clients that connect and never send are plain TCP once the wait for their first bytes is over. Each then holds
     * its socket and no more: no receive buffer and no native connection, as on an epoll server. The application's
     * idle timeout closes them all.
     */
    @Test
    @Timeout(120)
    void aFloodOfSilentPlainClientsHoldsNoBuffersUntilTheIdleTimeoutClosesIt() throws Exception {
        int clients = 200;
        CountDownLatch plain = new CountDownLatch(clients);
        CountDownLatch closed = new CountDownLatch(clients);
        UcxByteBufAllocatorMetric receive = ((UcxByteBufAllocator) UcxMemoryRegistration.receiveAllocator()).metric();
        long connectionsBefore = NativeConnections.settled();
        long receiveBefore = receive.activeDirectMemory();
        Channel server = ucxServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new IdleStateHandler(2, 0, 0), new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelActive(ChannelHandlerContext ctx) {
                        ((UcxSocketChannel) ctx.channel()).ucxLanes().addListener(f -> {
                            if (f.isSuccess() && String.valueOf(f.getNow()).startsWith("plain TCP")) {
                                plain.countDown();
                            }
                        });
                    }

                    @Override
                    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
                        if (evt instanceof IdleStateEvent) {
                            ctx.close();
                        }
                    }

                    @Override
                    public void channelInactive(ChannelHandlerContext ctx) {
                        closed.countDown();
                    }
                });
            }
        });
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < clients; i++) {
                sockets.add(new Socket(LOOPBACK, port(server)));
            }
            assertTrue(plain.await(60, TimeUnit.SECONDS), plain.getCount() + " clients not taken for plain TCP");
            long held = receive.activeDirectMemory() - receiveBefore;
            assertTrue(held <= 0, clients + " silent plain clients hold " + held + " B of receive buffers");
            long connections = UcxNative.connectionsAllocated();
            assertTrue(connections <= connectionsBefore, "silent plain clients hold native connections: "
                    + connections + " against " + connectionsBefore + " before");
            for (Socket socket : sockets) {
                socket.setSoTimeout(60_000);
                assertEquals(-1, socket.getInputStream().read(), "the idle timeout closes the connection");
            }
            assertTrue(closed.await(30, TimeUnit.SECONDS));
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
            server.close().sync();
        }
        NativeConnections.assertBackTo(connectionsBefore, 30, "after the silent clients");
        Await.until(() -> receive.activeDirectMemory() <= receiveBefore, 30, TimeUnit.SECONDS);
        assertTrue(receive.activeDirectMemory() <= receiveBefore, "receive buffers left: "
                + (receive.activeDirectMemory() - receiveBefore) + " B");
    }

    @Test
    @Timeout(30)
    void aPlainClientsResetReachesTheChild() throws Exception {
        Recorder recorder = new Recorder();
        Channel server = ucxServerWith(() -> recorder);
        try (Socket socket = new Socket(LOOPBACK, port(server))) {
            socket.getOutputStream().write("GET".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            Thread.sleep(200); // the bytes first, the reset after them
            socket.setSoLinger(true, 0);
        }
        try {
            Throwable cause = recorder.failure.get(10, TimeUnit.SECONDS);
            assertInstanceOf(IOException.class, cause);
            assertTrue(cause.getMessage().contains("reset"), cause.getMessage());
            recorder.untilEnd.get(10, TimeUnit.SECONDS);
        } finally {
            server.close().sync();
        }
    }

    @Test
    @Timeout(60)
    void ucxAndPlainClientsShareThePort() throws Exception {
        Channel server = echoServer();
        try {
            List<CompletableFuture<Void>> done = new ArrayList<>();
            // 64 connections, half of each kind, every reply checked.
            for (int i = 0; i < 32; i++) {
                byte[] bytes = new byte[64 * 1024];
                ThreadLocalRandom.current().nextBytes(bytes);
                done.add(CompletableFuture.runAsync(() -> assertArrayEquals(bytes, echo(server, bytes, true))));
                done.add(CompletableFuture.runAsync(() -> assertArrayEquals(bytes, echo(server, bytes, false))));
            }
            CompletableFuture.allOf(done.toArray(new CompletableFuture<?>[0])).get(50, TimeUnit.SECONDS);
        } finally {
            server.close().sync();
        }
    }

    private byte[] echo(Channel server, byte[] bytes, boolean overUcx) {
        try {
            if (!overUcx) {
                return echoOverNio(server, bytes);
            }
            Collector collector = new Collector(bytes.length);
            Channel client = new Bootstrap().group(ucxGroup).channel(UcxSocketChannel.class).handler(collector)
                    .connect(server.localAddress()).sync().channel();
            try {
                client.writeAndFlush(Unpooled.wrappedBuffer(bytes));
                return collector.received.get(30, TimeUnit.SECONDS);
            } finally {
                client.close().sync();
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @Timeout(60)
    void tlsFromAPlainClient() throws Exception {
        X509Bundle cert = new CertificateBuilder().subject("cn=localhost").setIsCertificateAuthority(true)
                .buildSelfSigned();
        SslContext serverSsl = SslContextBuilder.forServer(cert.toKeyManagerFactory()).build();
        SslContext clientSsl = SslContextBuilder.forClient().trustManager(InsecureTrustManagerFactory.INSTANCE)
                .build();
        Channel server = ucxServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(serverSsl.newHandler(ch.alloc()), new Echo());
            }
        });
        byte[] sent = new byte[200_000];
        ThreadLocalRandom.current().nextBytes(sent);
        Collector collector = new Collector(sent.length);
        Channel client = new Bootstrap().group(nioGroup).channel(TestTransport.NIO.clientChannelClass())
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(clientSsl.newHandler(ch.alloc()), collector);
                    }
                }).connect(server.localAddress()).sync().channel();
        try {
            client.writeAndFlush(Unpooled.wrappedBuffer(sent));
            assertArrayEquals(sent, collector.received.get(30, TimeUnit.SECONDS));
        } finally {
            client.close().sync();
            server.close().sync();
        }
    }

    /** A server that speaks first (an SMTP-like banner), then echoes. */
    private Channel bannerServer(int clientBytesWaitMillis) throws InterruptedException {
        return new ServerBootstrap().group(ucxGroup).channel(UcxServerSocketChannel.class)
                .childOption(UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS, clientBytesWaitMillis)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            @Override
                            public void channelActive(ChannelHandlerContext ctx) {
                                ctx.writeAndFlush(Unpooled.copiedBuffer("220 ready\r\n", StandardCharsets.US_ASCII));
                                ctx.fireChannelActive();
                            }
                        }, new Echo());
                    }
                }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
    }

    @Test
    @Timeout(30)
    void aSilentPlainClientGetsTheBannerOfAServerThatSpeaksFirst() throws Exception {
        Channel server = bannerServer(UcxSocketOptions.DEFAULT_CLIENT_BYTES_WAIT_MILLIS);
        try (Socket socket = new Socket(LOOPBACK, port(server))) {
            socket.setSoTimeout(10_000);
            InputStream in = socket.getInputStream();
            assertEquals("220 ready\r\n", new String(in.readNBytes(11), StandardCharsets.US_ASCII));
            socket.getOutputStream().write("QUIT\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals("QUIT\r\n", new String(in.readNBytes(6), StandardCharsets.US_ASCII), "then the echo");
        } finally {
            server.close().sync();
        }
    }

    @Test
    @Timeout(30)
    void aUcxClientGetsTheBannerOverUcx() throws Exception {
        Channel server = bannerServer(UcxSocketOptions.DEFAULT_CLIENT_BYTES_WAIT_MILLIS);
        try {
            byte[] banner = "220 ready\r\n".getBytes(StandardCharsets.US_ASCII);
            Collector collector = new Collector(banner.length);
            Channel client = new Bootstrap().group(ucxGroup).channel(UcxSocketChannel.class).handler(collector)
                    .connect(server.localAddress()).sync().channel();
            try {
                assertArrayEquals(banner, collector.received.get(10, TimeUnit.SECONDS));
                String lanes = ((UcxSocketChannel) client).ucxLanes().get(5, TimeUnit.SECONDS);
                assertTrue(!lanes.startsWith("plain TCP"), lanes);
            } finally {
                client.close().sync();
            }
        } finally {
            server.close().sync();
        }
    }

    /** With the wait switched off, a silent client gets nothing until it has spoken; then the banner comes. */
    @Test
    @Timeout(30)
    void withoutTheWaitAPlainClientMustSpeakFirst() throws Exception {
        Channel server = bannerServer(0);
        try (Socket socket = new Socket(LOOPBACK, port(server))) {
            socket.setSoTimeout(500);
            InputStream in = socket.getInputStream();
            assertThrows(SocketTimeoutException.class, in::read, "nothing before the client's first bytes");
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("HELO\r\n".getBytes(StandardCharsets.US_ASCII));
            assertEquals("220 ready\r\nHELO\r\n", new String(in.readNBytes(17), StandardCharsets.US_ASCII));
        } finally {
            server.close().sync();
        }
    }

    /** A DefaultFileRegion to a plain client leaves by sendfile, framed by nothing: the file's bytes, exactly. */
    @Test
    @Timeout(60)
    void aFileRegionReachesAPlainClientByteExact(@TempDir Path dir) throws Exception {
        byte[] content = new byte[3_000_000];
        ThreadLocalRandom.current().nextBytes(content);
        Path file = Files.write(dir.resolve("served"), content);
        long sentByFile = UcxNative.bytesSentFromFiles();
        Channel server = ucxServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                    @Override
                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                        ((ByteBuf) msg).release();
                        ctx.write(Unpooled.copiedBuffer("head", StandardCharsets.US_ASCII));
                        ctx.write(new DefaultFileRegion(file.toFile(), 0, content.length));
                        ctx.writeAndFlush(Unpooled.copiedBuffer("tail", StandardCharsets.US_ASCII))
                                .addListener(ChannelFutureListener.CLOSE);
                    }
                });
            }
        });
        try (Socket socket = new Socket(LOOPBACK, port(server))) {
            socket.setSoTimeout(20_000);
            socket.getOutputStream().write("send it".getBytes(StandardCharsets.US_ASCII));
            byte[] received = socket.getInputStream().readAllBytes();
            byte[] expected = new byte[content.length + 8];
            System.arraycopy("head".getBytes(StandardCharsets.US_ASCII), 0, expected, 0, 4);
            System.arraycopy(content, 0, expected, 4, content.length);
            System.arraycopy("tail".getBytes(StandardCharsets.US_ASCII), 0, expected, content.length + 4, 4);
            assertArrayEquals(expected, received);
            assertTrue(UcxNative.bytesSentFromFiles() - sentByFile >= content.length, "sent by sendfile");
        } finally {
            server.close().sync();
        }
    }

    // ---- clients no one here wrote ----

    private Channel httpServer() throws InterruptedException {
        return ucxServer(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1 << 20), new HttpAnswer());
            }
        });
    }

    /** Answers every request with its method, path and body length; keeps the connection when asked to. */
    private static final class HttpAnswer extends SimpleChannelInboundHandler<FullHttpRequest> {
        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            String text = request.method() + " " + request.uri() + " " + request.content().readableBytes() + "\n";
            DefaultFullHttpResponse response = new DefaultFullHttpResponse(request.protocolVersion(),
                    HttpResponseStatus.OK, Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "text/plain");
            HttpUtil.setContentLength(response, response.content().readableBytes());
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            HttpUtil.setKeepAlive(response, keepAlive);
            if (keepAlive) {
                ctx.writeAndFlush(response);
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }
    }

    @Test
    @Timeout(60)
    void curlGetsAndPostsToANettyHttpServerOnUcx() throws Exception {
        Channel server = httpServer();
        try {
            String base = "http://127.0.0.1:" + port(server);
            assertEquals("GET /hello 0\n", run("curl", "-sS", "--max-time", "20", base + "/hello"));
            assertEquals("POST /upload 300000\n", run("curl", "-sS", "--max-time", "20", "--data-binary",
                    "@-", "-H", "Expect:", base + "/upload").replace("\r", ""));
        } finally {
            server.close().sync();
        }
    }

    @Test
    @Timeout(60)
    void pythonHttpClientKeepsItsConnectionToANettyHttpServerOnUcx() throws Exception {
        Channel server = httpServer();
        try {
            String script = "import http.client, sys\n"
                    + "c = http.client.HTTPConnection('127.0.0.1', int(sys.argv[1]), timeout=20)\n"
                    + "for i in range(3):\n"
                    + "    c.request('POST', '/r%d' % i, body=b'x' * (1000 * (i + 1)))\n"
                    + "    r = c.getresponse()\n"
                    + "    sys.stdout.write('%d %s' % (r.status, r.read().decode()))\n"
                    + "    sys.stdout.write('same socket\\n' if i == 0 or c.sock is s else 'new socket\\n')\n"
                    + "    s = c.sock\n";
            assertEquals("200 POST /r0 1000\nsame socket\n200 POST /r1 2000\nsame socket\n"
                    + "200 POST /r2 3000\nsame socket\n", run("python3", "-c", script, String.valueOf(port(server))));
        } finally {
            server.close().sync();
        }
    }

    /**
     * Runs a command (curl's {@code --data-binary @-} gets 300,000 bytes on its standard input) and returns its
     * output; fails with its error output unless it exits with 0.
     */
    private static String run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).start();
        try (OutputStream stdin = process.getOutputStream()) {
            if (List.of(command).contains("@-")) {
                stdin.write(new byte[300_000]);
            }
        }
        CompletableFuture<byte[]> stderr = CompletableFuture.supplyAsync(() -> {
            try {
                return process.getErrorStream().readAllBytes();
            } catch (IOException e) {
                return new byte[0];
            }
        });
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), command[0] + " did not finish");
        assertEquals(0, process.exitValue(), () -> command[0] + " failed: "
                + new String(stderr.join(), StandardCharsets.UTF_8));
        return out;
    }
}
