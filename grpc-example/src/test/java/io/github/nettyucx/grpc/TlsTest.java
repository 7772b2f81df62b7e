/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.echo.EchoGrpc;
import io.github.nettyucx.grpc.echo.EchoRequest;
import io.github.nettyucx.grpc.echo.EchoResponse;
import io.github.nettyucx.grpc.echo.StreamRequest;
import io.github.nettyucx.support.NettyTransport;
import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.GrpcSslContexts;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

import javax.net.ssl.SSLSession;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * gRPC over TLS (Netty's {@link SslContext} with the JDK provider, set up by {@link GrpcSslContexts} for
 * ALPN h2) between client and server, with a self-signed certificate made for the test.
 */
@ExtendWith(LeakCheck.class)
class TlsTest {
    private static X509Bundle certificate;

    @BeforeAll
    static void makeCertificate() throws Exception {
        certificate = new CertificateBuilder().subject("CN=localhost").addSanDnsName("localhost")
                .setIsCertificateAuthority(true).ecp256().buildSelfSigned();
    }

    @OverTransports
    void callsOverTls(NettyTransport transport) throws Exception {
        SslContext server = GrpcSslContexts.configure(SslContextBuilder.forServer(certificate.toKeyManagerFactory()),
                SslProvider.JDK).build();
        SslContext client = GrpcSslContexts.configure(SslContextBuilder.forClient()
                .trustManager(certificate.toTrustManagerFactory()), SslProvider.JDK).build();
        BlockingQueue<SSLSession> sessions = new LinkedBlockingQueue<>();
        try (GrpcHarness h = GrpcHarness.on(transport)
                .service(ServerInterceptors.intercept(new EchoService(), new SessionRecorder(sessions)))
                .server(b -> b.sslContext(server))
                .channel(b -> b.useTransportSecurity().sslContext(client).overrideAuthority("localhost")).start()) {
            EchoGrpc.EchoBlockingStub echo = EchoGrpc.newBlockingStub(h.channel())
                    .withDeadlineAfter(60, TimeUnit.SECONDS);
            for (int size : new int[] {16, 70_000, 1 << 20}) {
                EchoResponse r = echo.unary(EchoRequest.newBuilder().setPayload(Payloads.of(size)).build());
                assertEquals(Payloads.of(size), r.getPayload(), "echo of " + size + " bytes");
            }
            Iterator<EchoResponse> stream = echo.serverStream(StreamRequest.newBuilder().setMessageBytes(20_000)
                    .setCount(200).build());
            int n = 0;
            while (stream.hasNext()) {
                assertEquals(20_000, stream.next().getPayload().size());
                n++;
            }
            assertEquals(200, n);

            SSLSession session = sessions.poll(10, TimeUnit.SECONDS);
            assertNotNull(session, "the server saw a call without a TLS session");
            assertEquals("CN=localhost", session.getLocalPrincipal().getName());
        }
    }

    @OverTransports
    void aPlaintextClientCannotCallATlsServer(NettyTransport transport) throws Exception {
        SslContext server = GrpcSslContexts.configure(SslContextBuilder.forServer(certificate.toKeyManagerFactory()),
                SslProvider.JDK).build();
        try (GrpcHarness h = GrpcHarness.on(transport).service(new EchoService())
                .server(b -> b.sslContext(server)).start()) {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> EchoGrpc.newBlockingStub(h.channel()).withDeadlineAfter(30, TimeUnit.SECONDS)
                            .unary(EchoRequest.getDefaultInstance()));
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
        }
    }

    /** Records the TLS session each call arrived on. */
    private static final class SessionRecorder implements ServerInterceptor {
        private final BlockingQueue<SSLSession> sessions;

        SessionRecorder(BlockingQueue<SSLSession> sessions) {
            this.sessions = sessions;
        }

        @Override
        public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers,
                                                         ServerCallHandler<Q, R> next) {
            SSLSession session = call.getAttributes().get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
            if (session != null) {
                sessions.add(session);
            }
            return next.startCall(call, headers);
        }
    }
}
