/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport;

import io.github.nettyucx.datapath.UcxConnection;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The worst case for a UCX connection: someone who read its hello (here through the channel itself, as a sniffer
 * of the clear-text side channel would) knows its whole tag and message key, so the transport takes its message as
 * the peer's (UCX 1.13 does not say which endpoint a tagged message came from). Over TLS ({@code SslHandler}) the
 * injected bytes are not a record of the session: the handshake's keys refuse them, the application reads none of
 * them and the connection closes with the TLS error. See docs/security.md.
 */
class TlsInjectionTest extends AbstractWarmGroupTest {
    @Test
    @Timeout(60)
    void bytesInjectedWithTheRightTagAndKeyAreRefusedByTls() throws Exception {
        X509Bundle ca = new CertificateBuilder().subject("CN=test CA").setIsCertificateAuthority(true).ecp256()
                .buildSelfSigned();
        X509Bundle serverCert = new CertificateBuilder().subject("CN=localhost").addSanDnsName("localhost")
                .ecp256().buildIssuedBy(ca);
        SslContext serverTls = SslContextBuilder.forServer(serverCert.toKeyManagerFactory()).build();
        SslContext clientTls = SslContextBuilder.forClient().trustManager(ca.toTrustManagerFactory()).build();

        StringBuffer serverRead = new StringBuffer();
        CompletableFuture<UcxSocketChannel> accepted = new CompletableFuture<>();
        CompletableFuture<Throwable> serverError = new CompletableFuture<>();
        Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        accepted.complete((UcxSocketChannel) ch);
                        ch.pipeline().addLast(serverTls.newHandler(ch.alloc()),
                                new SimpleChannelInboundHandler<ByteBuf>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext ctx, ByteBuf msg) {
                                        serverRead.append(msg.toString(StandardCharsets.US_ASCII));
                                        ctx.writeAndFlush(msg.retain());
                                    }

                                    @Override
                                    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                                        serverError.complete(cause);
                                        ctx.close();
                                    }
                                });
                    }
                })
                .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        InetSocketAddress address = (InetSocketAddress) server.localAddress();
        BlockingQueue<String> victimLines = new LinkedBlockingQueue<>();
        Channel victim = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 10_000)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(clientTls.newHandler(ch.alloc(), "localhost", address.getPort()),
                                new LineReceiver(victimLines));
                    }
                })
                .connect(address).sync().channel();
        try {
            victim.writeAndFlush(Unpooled.copiedBuffer("hello\n", StandardCharsets.US_ASCII));
            assertEquals("hello", victimLines.poll(20, TimeUnit.SECONDS), "no echo over TLS");

            UcxSocketChannel child = accepted.get(5, TimeUnit.SECONDS);
            long[] target = child.eventLoop().submit(() -> {
                UcxConnection connection = child.link.connection();
                return connection == null ? null : new long[] {connection.id(), connection.tagSecret(),
                        connection.messageKey(), child.messagesReceived()};
            }).get(5, TimeUnit.SECONDS);
            assertNotNull(target, "the victim is not on the UCX data path");
            long straysBefore = Ucx.strayMessagesDropped();
            try (RawUcxPeer peer = RawUcxPeer.connect(address).handshake()) {
                RawUcxPeer.Conn aimed = peer.aimAt((int) target[0], target[1], (int) target[2]);
                aimed.send("INJECTED\n".getBytes(StandardCharsets.US_ASCII), (int) target[3], 0);
                peer.progress(100);
                Throwable refusal = serverError.get(10, TimeUnit.SECONDS);
                System.out.println("injected bytes refused by TLS: " + refusal);
                assertTrue(child.closeFuture().await(10, TimeUnit.SECONDS), "the connection stayed open");
            }
            assertEquals(straysBefore, Ucx.strayMessagesDropped(),
                    "the transport dropped the message itself: TLS was never asked");
            assertEquals("hello\n", serverRead.toString(), "the application read injected bytes");
            assertFalse(serverRead.toString().contains("INJECTED"));
            assertNull(victimLines.poll(), "the victim received bytes after the injection");
        } finally {
            victim.close().sync();
            server.close().sync();
        }
    }
}
