/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.transport.testsuite;

import io.github.nettyucx.transport.Echo;
import io.github.nettyucx.transport.UcxEventLoopGroup;
import io.github.nettyucx.transport.UcxServerSocketChannel;
import io.github.nettyucx.transport.UcxSocketChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslContextOption;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.ssl.SslProvider;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.ImmediateEventExecutor;
import io.netty.util.concurrent.Promise;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import javax.net.ssl.SNIHostName;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What Netty's {@code SocketSslLargeCertificateTest} checks, on UCX channels: a TLS 1.3 handshake with mutual
 * authentication (OpenSSL on both ends) whose client certificate is as large as a handshake message may be, so
 * that its records straddle the reads and messages of the transport. Netty's class cannot be subclassed for
 * another transport: it creates its NIO channels in the test body. The upstream range of certificate extension
 * sizes (the last 768 bytes below the default maximum handshake message) runs with
 * {@code -Dnettyucx.longTests=true}; {@code bin/test} runs every 64th size of it, both ends included.
 */
@RequireUcx
@EnabledIf("openSslWithKeyManagerAndTls13")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UcxSslLargeCertificateTest {
    private static final int MAX_HANDSHAKE_MESSAGE = 16384;
    private static final int RANGE = 768;

    private X509Bundle root;
    private CertificateBuilder base;
    private EventLoopGroup group;

    static boolean openSslWithKeyManagerAndTls13() {
        return OpenSsl.isAvailable() && OpenSsl.supportsKeyManagerFactory()
                && SslProvider.isTlsv13Supported(SslProvider.OPENSSL);
    }

    static IntStream extensionSizes() {
        int step = Boolean.getBoolean("nettyucx.longTests") ? 1 : 64;
        return IntStream.iterate(MAX_HANDSHAKE_MESSAGE, size -> size >= MAX_HANDSHAKE_MESSAGE - RANGE,
                size -> size - step);
    }

    @BeforeAll
    void createRootAndGroup() throws Exception {
        base = new CertificateBuilder().ecp256().setKeyUsage(true, CertificateBuilder.KeyUsage.digitalSignature,
                CertificateBuilder.KeyUsage.keyCertSign);
        root = base.copy().subject("cn=root.nettyucx.test").setIsCertificateAuthority(true).buildSelfSigned();
        group = new UcxEventLoopGroup(2, new DefaultThreadFactory("ssl-large-cert", true));
    }

    @AfterAll
    void shutDown() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @ParameterizedTest(name = "client certificate extension of {0} bytes")
    @MethodSource("extensionSizes")
    @Timeout(value = 30, unit = TimeUnit.SECONDS)
    void mutualTlsWithALargeClientCertificate(int extensionSize) throws Exception {
        byte[] extension = new byte[extensionSize];
        ThreadLocalRandom.current().nextBytes(extension);
        X509Bundle serverCert = base.copy().subject("cn=localhost").addExtendedKeyUsageServerAuth()
                .buildIssuedBy(root);
        X509Bundle clientCert = base.copy().subject("cn=client").addExtendedKeyUsageClientAuth()
                .addExtensionOctetString("1.2.840.113635.100.6.2.1", false, extension).buildIssuedBy(root);
        SslContext serverSsl = SslContextBuilder.forServer(serverCert.toKeyManagerFactory())
                .sslProvider(SslProvider.OPENSSL).trustManager(root.toTrustManagerFactory()).protocols("TLSv1.3")
                .clientAuth(ClientAuth.REQUIRE).option(OpenSslContextOption.MAX_CERTIFICATE_LIST_BYTES, 32768)
                .build();
        SslContext clientSsl = SslContextBuilder.forClient().sslProvider(SslProvider.OPENSSL)
                .keyManager(clientCert.toKeyManagerFactory()).trustManager(root.toTrustManagerFactory())
                .protocols("TLSv1.3").option(OpenSslContextOption.MAX_CERTIFICATE_LIST_BYTES, 32768)
                .serverName(new SNIHostName("localhost")).endpointIdentificationAlgorithm(null).build();

        Channel server = new ServerBootstrap().group(group).channel(UcxServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(serverSsl.newHandler(ch.alloc()), new Echo());
                    }
                }).bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
        Promise<String> echoed = ImmediateEventExecutor.INSTANCE.newPromise();
        int port = ((InetSocketAddress) server.localAddress()).getPort();
        Channel client = null;
        try {
            client = new Bootstrap().group(group).channel(UcxSocketChannel.class)
                    .handler(new ChannelInitializer<Channel>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            ch.pipeline().addLast(clientSsl.newHandler(ch.alloc(), "localhost", port),
                                    new HelloAfterHandshake(echoed));
                        }
                    }).connect(server.localAddress()).sync().channel();
            assertEquals("hello", echoed.get(20, TimeUnit.SECONDS));
        } finally {
            if (client != null) {
                client.close().sync();
            }
            server.close().sync();
        }
    }

    /** The client's handler: says hello once the handshake succeeded and completes with what comes back. */
    private static final class HelloAfterHandshake extends ChannelInboundHandlerAdapter {
        private final Promise<String> echoed;
        private final StringBuilder received = new StringBuilder();

        HelloAfterHandshake(Promise<String> echoed) {
            this.echoed = echoed;
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof SslHandshakeCompletionEvent) {
                SslHandshakeCompletionEvent done = (SslHandshakeCompletionEvent) evt;
                if (done.isSuccess()) {
                    ctx.writeAndFlush(Unpooled.copiedBuffer("hello", StandardCharsets.US_ASCII));
                } else {
                    echoed.tryFailure(done.cause());
                }
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg;
            received.append(buf.toString(StandardCharsets.US_ASCII));
            buf.release();
            if (received.length() >= "hello".length()) {
                echoed.trySuccess(received.toString());
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            echoed.tryFailure(cause);
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            echoed.tryFailure(new IllegalStateException("closed before the echo; got '" + received + "'"));
        }
    }
}
