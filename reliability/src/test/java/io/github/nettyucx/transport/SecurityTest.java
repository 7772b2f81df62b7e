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
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import io.netty.util.ReferenceCountUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What protects a UCX connection: shared-memory segments and files only its user can open, binding the
 * listening address as with TCP, and TLS ({@link SslHandler}) for authentication and encryption, which UCX
 * has none of. See docs/security.md.
 */
class SecurityTest {
    private static EventLoopGroup group;

    @BeforeAll
    static void startGroup() {
        TestTransport.UCX.assumeAvailable();
        group = TestTransport.UCX.newGroup(1);
    }

    @AfterAll
    static void stopGroup() throws InterruptedException {
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).await(15, TimeUnit.SECONDS);
        }
    }

    /**
     * While a connection to another process is up and has moved data, every System V segment either process
     * created and every file that appeared in /dev/shm or /tmp must be closed to other users.
     */
    @Test
    @Timeout(90)
    void sharedMemoryIsClosedToOtherUsers() throws Exception {
        checkSharedMemory(0007);
    }

    /**
     * The same for the owner's group: UCX creates its System V segments with mode 0660, so any process of the user's
     * group could attach them; the transport leaves UCX's sysv transport out (docs/security.md), and the posix
     * transport's files are the user's alone.
     */
    @Test
    @Timeout(90)
    void sharedMemoryIsPrivateToItsUser() throws Exception {
        checkSharedMemory(0077);
    }

    private static void checkSharedMemory(int forbiddenModeBits) throws Exception {
        Set<String> shmBefore = list(Paths.get("/dev/shm"));
        Set<String> tmpBefore = list(Paths.get("/tmp"));
        try (ChildJvm peer = ChildJvm.start(ReliabilityPeer.class, "echo-server", "127.0.0.1")) {
            int port = Integer.parseInt(peer.awaitValue(ReliabilityPeer.PORT));
            echo(new InetSocketAddress("127.0.0.1", port), null, 4 << 20);
            List<String> findings = new ArrayList<>();
            List<String> problems = new ArrayList<>();
            long self = ProcessHandle.current().pid();
            for (String line : Files.readAllLines(Paths.get("/proc/sysvipc/shm"))) {
                String[] f = line.trim().split("\\s+");
                if (f[0].equals("key") || f.length < 6) {
                    continue;
                }
                long creator = Long.parseLong(f[4]);
                if (creator != self && creator != peer.pid()) {
                    continue;
                }
                int mode = Integer.parseInt(f[2], 8);
                String what = "sysv segment " + f[1] + " of " + f[3] + " bytes, mode " + Integer.toOctalString(mode
                        & 0777) + ", created by " + (creator == self ? "this JVM" : "the peer");
                findings.add(what);
                if ((mode & forbiddenModeBits) != 0) {
                    problems.add(what);
                }
            }
            checkNewFiles(Paths.get("/dev/shm"), shmBefore, forbiddenModeBits, findings, problems);
            // UCX's posix transport hands its files over as /proc/PID/fd/N and may unlink them at once.
            for (long pid : new long[] {self, peer.pid()}) {
                for (Map.Entry<String, Path> shm : ProcessSockets.descriptors(pid, "/dev/shm/").entrySet()) {
                    int mode = (Integer) Files.getAttribute(shm.getValue(), "unix:mode");
                    String what = shm.getKey() + " mode " + Integer.toOctalString(mode & 0777) + ", open in "
                            + (pid == self ? "this JVM" : "the peer");
                    findings.add(what);
                    if ((mode & forbiddenModeBits) != 0) {
                        problems.add(what);
                    }
                }
            }
            checkNewFiles(Paths.get("/tmp"), tmpBefore, forbiddenModeBits, findings, problems);
            System.out.println("shared memory while a UCX connection is up:\n  " + String.join("\n  ", findings));
            assertFalse(findings.isEmpty(), "found no shared memory at all: the check looked in the wrong places");
            assertTrue(problems.isEmpty(),
                    "mode bits " + Integer.toOctalString(forbiddenModeBits) + " set: " + problems);
        }
    }

    /** A server bound to 127.0.0.2 is not reachable through 127.0.0.1, as with TCP. */
    @Test
    @Timeout(60)
    void bindingToAnAddressRestrictsWhoCanConnect() throws Exception {
        Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                .childHandler(EchoServerHandler.INSTANCE)
                .bind(new InetSocketAddress("127.0.0.2", 0)).sync().channel();
        try {
            int port = ((InetSocketAddress) server.localAddress()).getPort();
            echo(new InetSocketAddress("127.0.0.2", port), null, 1024);
            ChannelFuture other = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000)
                    .handler(new ChannelInboundHandlerAdapter())
                    .connect(new InetSocketAddress("127.0.0.1", port));
            assertTrue(other.await(10, TimeUnit.SECONDS), "connect through another address did not complete");
            assertTrue(other.cause() instanceof ConnectException, "connected through an address the server is "
                    + "not bound to: " + other.cause());
            System.out.println("bound to 127.0.0.2: connect via 127.0.0.1 refused: " + other.cause());
            System.out.println("listening sockets of this JVM (the side channel and UCX's own):\n" + listeners());
        } finally {
            server.close().sync();
        }
    }

    /**
     * Mutual TLS over UCX: a client with a certificate the server trusts gets its bytes echoed; a client without
     * one is refused by the TLS handshake. The bytes UCX carries are then TLS records.
     */
    @Test
    @Timeout(60)
    void mutualTlsOverUcx() throws Exception {
        X509Bundle ca = new CertificateBuilder().subject("CN=test CA").setIsCertificateAuthority(true).ecp256()
                .buildSelfSigned();
        X509Bundle serverCert = new CertificateBuilder().subject("CN=localhost").addSanDnsName("localhost")
                .addSanIpAddress("127.0.0.1").ecp256().buildIssuedBy(ca);
        X509Bundle clientCert = new CertificateBuilder().subject("CN=client").ecp256().buildIssuedBy(ca);
        SslContext serverContext = SslContextBuilder.forServer(serverCert.toKeyManagerFactory())
                .trustManager(ca.toTrustManagerFactory()).clientAuth(ClientAuth.REQUIRE).build();
        SslContext goodClient = SslContextBuilder.forClient().keyManager(clientCert.toKeyManagerFactory())
                .trustManager(ca.toTrustManagerFactory()).build();
        SslContext anonymousClient = SslContextBuilder.forClient().trustManager(ca.toTrustManagerFactory()).build();

        Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(serverContext.newHandler(ch.alloc()), EchoServerHandler.INSTANCE);
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        try {
            InetSocketAddress address = (InetSocketAddress) server.localAddress();
            echo(address, goodClient, 1 << 20);
            Throwable refused = null;
            try {
                echo(address, anonymousClient, 1024);
            } catch (Exception e) {
                refused = e;
            }
            assertTrue(refused != null, "a client without a certificate was served");
            System.out.println("mutual TLS over UCX: client without certificate refused: " + refused);
        } finally {
            server.close().sync();
        }
    }

    /** Sends {@code bytes} bytes (through TLS when {@code tls} is set) and waits for all of them to come back. */
    private static void echo(InetSocketAddress address, SslContext tls, int bytes) throws Exception {
        byte[] payload = new DataStream(bytes).next(bytes);
        CompletableFuture<byte[]> echoed = new CompletableFuture<>();
        Channel ch = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel c) {
                        if (tls != null) {
                            c.pipeline().addLast(tls.newHandler(c.alloc(), "localhost", address.getPort()));
                        }
                        c.pipeline().addLast(new ChannelInboundHandlerAdapter() {
                            private final ByteBuf received = Unpooled.buffer(bytes);

                            @Override
                            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                received.writeBytes((ByteBuf) msg);
                                ReferenceCountUtil.release(msg);
                                if (received.readableBytes() == bytes) {
                                    echoed.complete(received.array());
                                }
                            }

                            @Override
                            public void channelInactive(ChannelHandlerContext ctx) {
                                echoed.completeExceptionally(new IOException("closed after "
                                        + received.readableBytes() + " bytes"));
                            }

                            @Override
                            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                echoed.completeExceptionally(cause);
                                ctx.close();
                            }
                        });
                    }
                })
                .connect(address).sync().channel();
        try {
            ch.writeAndFlush(Unpooled.wrappedBuffer(payload));
            assertArrayEquals(payload, echoed.get(30, TimeUnit.SECONDS));
        } finally {
            ch.close().sync();
        }
    }

    private static Set<String> list(Path dir) throws IOException {
        Set<String> names = new HashSet<>();
        try (Stream<Path> entries = Files.list(dir)) {
            entries.forEach(p -> names.add(p.getFileName().toString()));
        }
        return names;
    }

    private static void checkNewFiles(Path dir, Set<String> before, int forbiddenModeBits, List<String> findings,
                                      List<String> problems) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : (Iterable<Path>) entries::iterator) {
                if (before.contains(p.getFileName().toString())) {
                    continue;
                }
                int mode;
                try {
                    mode = (Integer) Files.getAttribute(p, "unix:mode");
                } catch (IOException e) {
                    continue; // gone already
                }
                String what = p + " mode " + Integer.toOctalString(mode & 0777);
                findings.add(what);
                if (Files.isRegularFile(p) && (mode & forbiddenModeBits) != 0) {
                    problems.add(what);
                }
            }
        }
    }

    /** TCP sockets this process listens on. */
    private static String listeners() throws IOException {
        StringBuilder out = new StringBuilder();
        for (String address : ProcessSockets.listening(ProcessHandle.current().pid())) {
            out.append("  ").append(address).append('\n');
        }
        return out.toString();
    }
}
