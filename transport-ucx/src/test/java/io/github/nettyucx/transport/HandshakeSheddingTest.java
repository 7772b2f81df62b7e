/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.handshake.SetupFailure;
import io.github.nettyucx.handshake.UcxHandshakeLimits;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Slow-handshake floods against a UCX server, in process: sockets that send only the magic {@code NUCX} and stall,
 * bound to loopback addresses of their own (127.0.0.2 holding most, 127.0.0.3 to 127.0.0.7 a few each). With every
 * pending slot held, a netty-ucx client and a plain TCP client are both served (the flooder that holds the most sheds
 * its oldest), the sources holding few keep theirs, and {@link UcxChannelOption#HANDSHAKE_TIMEOUT_MILLIS} closes
 * stalled handshakes whatever the connect timeout says.
 */
class HandshakeSheddingTest extends AbstractLeakCheckedTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();
    private static final int MAX_PENDING = 40;
    private static final int PER_ADDRESS = 30;

    private EventLoopGroup ucxGroup;
    private final List<Socket> stallers = new ArrayList<>();

    @BeforeEach
    void groups() {
        TestTransport.requireUcx();
        ucxGroup = TestTransport.UCX.newGroup(2);
    }

    @AfterEach
    void shutDown() throws IOException {
        for (Socket socket : stallers) {
            socket.close();
        }
        ucxGroup.shutdownGracefully(0, 5, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private Channel echoServer(int handshakeTimeoutMillis) throws InterruptedException {
        return new ServerBootstrap().group(ucxGroup).channel(UcxServerSocketChannel.class)
                .option(UcxChannelOption.MAX_PENDING_HANDSHAKES, MAX_PENDING)
                .option(UcxChannelOption.MAX_PENDING_HANDSHAKES_PER_ADDRESS, PER_ADDRESS)
                // Unbounded, as the connect timeout may be: the handshake deadline does not follow it.
                .childOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, 0)
                .childOption(UcxChannelOption.HANDSHAKE_TIMEOUT_MILLIS, handshakeTimeoutMillis)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new Echo());
                    }
                }).bind(new InetSocketAddress(LOOPBACK, 0)).sync().channel();
    }

    private static UcxHandshakeLimits limits(Channel server) {
        return ((UcxServerSocketChannel) server).config().handshakeLimits;
    }

    /** Opens a socket from {@code source} that sends the magic and nothing more. */
    private Socket stall(String source, Channel server) throws IOException {
        Socket socket = new Socket();
        stallers.add(socket);
        socket.bind(new InetSocketAddress(InetAddress.getByName(source), 0));
        socket.connect(server.localAddress());
        socket.getOutputStream().write("NUCX".getBytes(StandardCharsets.US_ASCII));
        return socket;
    }

    private static void awaitPending(Channel server, int pending) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (limits(server).pending() != pending && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertEquals(pending, limits(server).pending(), "handshakes pending");
    }

    /** True when the server closed {@code socket} (end of stream or reset) within {@code millis}. */
    private static boolean closedByServer(Socket socket, int millis) throws IOException {
        socket.setSoTimeout(millis);
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true; // reset
        }
    }

    @Test
    @Timeout(60)
    void aFloodFromManyAddressesLocksOutNeitherNettyUcxNorPlainTcpClients() throws Exception {
        Channel server = echoServer(60_000);
        try {
            List<Socket> few = new ArrayList<>();
            for (int i = 3; i <= 7; i++) {
                few.add(stall("127.0.0." + i, server));
                few.add(stall("127.0.0." + i, server));
            }
            List<Socket> most = new ArrayList<>();
            for (int i = 0; i < 2 * PER_ADDRESS; i++) {
                most.add(stall("127.0.0.2", server));
            }
            awaitPending(server, MAX_PENDING);
            long shedBefore = UcxTransportMetrics.handshakesShed();

            // A netty-ucx client, from an address that does not flood.
            CompletableFuture<String> echoed = new CompletableFuture<>();
            Channel client = new Bootstrap().group(ucxGroup).channel(UcxSocketChannel.class)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                    .handler(new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            echoed.complete(((ByteBuf) msg).toString(StandardCharsets.US_ASCII));
                            ((ByteBuf) msg).release();
                        }
                    }).connect(server.localAddress()).sync().channel();
            try {
                client.writeAndFlush(Unpooled.copiedBuffer("ping", StandardCharsets.US_ASCII));
                assertEquals("ping", echoed.get(10, TimeUnit.SECONDS));
                String lanes = ((UcxSocketChannel) client).ucxLanes().get(5, TimeUnit.SECONDS);
                assertFalse(lanes.startsWith("plain TCP"), lanes);
            } finally {
                client.close().sync();
            }

            // A plain TCP client: HTTP-ish bytes, echoed back.
            try (Socket plain = new Socket(LOOPBACK, ((InetSocketAddress) server.localAddress()).getPort())) {
                plain.setSoTimeout(10_000);
                byte[] request = "GET / HTTP/1.0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
                plain.getOutputStream().write(request);
                InputStream in = plain.getInputStream();
                byte[] answer = in.readNBytes(request.length);
                assertEquals("GET / HTTP/1.0\r\n\r\n", new String(answer, StandardCharsets.US_ASCII));
            }

            // The first newcomer took the slot of a flooder's oldest handshake; the second found it free again.
            assertTrue(UcxTransportMetrics.handshakesShed() >= shedBefore + 1, "no handshake was shed");
            assertTrue(limits(server).pending() <= MAX_PENDING, "bounded: " + limits(server).pending());
            for (Socket socket : few) {
                assertFalse(closedByServer(socket, 50), "a source holding two handshakes lost one: "
                        + socket.getLocalAddress());
            }
            assertTrue(closedByServer(most.get(0), 5000), "the oldest of the address holding the most was shed");
        } finally {
            server.close().sync();
        }
    }

    @Test
    @Timeout(30)
    void theHandshakeDeadlineClosesStalledHandshakes() throws Exception {
        long timeoutsBefore = UcxTransportMetrics.setupFailures(SetupFailure.TIMEOUT);
        Channel server = echoServer(300);
        try {
            Socket stalled = stall("127.0.0.2", server);
            assertTrue(closedByServer(stalled, 10_000), "a stalled handshake outlived HANDSHAKE_TIMEOUT_MILLIS");
            awaitPending(server, 0);
            assertTrue(UcxTransportMetrics.setupFailures(SetupFailure.TIMEOUT) > timeoutsBefore);
        } finally {
            server.close().sync();
        }
    }

    @Test
    void theHandshakeTimeoutIsPositiveAndDefaultsTo10Seconds() throws Exception {
        Channel channel = new UcxSocketChannel();
        try {
            assertEquals(10_000, channel.config().getOption(UcxChannelOption.HANDSHAKE_TIMEOUT_MILLIS));
            assertEquals(1500, channel.config().getOption(UcxChannelOption.CLIENT_BYTES_WAIT_MILLIS));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> channel.config().setOption(UcxChannelOption.HANDSHAKE_TIMEOUT_MILLIS, 0));
            assertTrue(e.getMessage().contains("HANDSHAKE_TIMEOUT_MILLIS"), e.getMessage());
        } finally {
            channel.unsafe().closeForcibly();
        }
    }
}
