/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.grpc;

import io.github.nettyucx.grpc.interop.InteropServiceGrpc;
import io.github.nettyucx.grpc.interop.StreamingOutputRequest;
import io.github.nettyucx.grpc.interop.StreamingOutputResponse;
import io.github.nettyucx.grpc.interop.UnaryRequest;
import io.grpc.Attributes;
import io.grpc.ChannelCredentials;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerCredentials;
import io.grpc.ServerTransportFilter;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.TlsChannelCredentials;
import io.grpc.TlsServerCredentials;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLSession;
import java.util.Iterator;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * TLS over the providers: gRPC's own {@link TlsServerCredentials} and {@link TlsChannelCredentials}, with a
 * self-signed certificate for {@code localhost} made for the test, handed to {@code Grpc.newServerBuilderForPort}
 * and {@code Grpc.newChannelBuilder}. grpc-netty sets TLS up from them as it always does, on UCX channels.
 */
class TlsOverProvidersTest {
    private static final long CALL_SECONDS = 30;

    private static X509Bundle certificate;
    private static Server server;
    private static final BlockingQueue<SSLSession> sessions = new LinkedBlockingQueue<>();

    @BeforeAll
    static void start() throws Exception {
        UcxChecks.requireUcx();
        certificate = new CertificateBuilder().subject("CN=localhost").addSanDnsName("localhost")
                .setIsCertificateAuthority(true).ecp256().buildSelfSigned();
        ServerCredentials credentials = TlsServerCredentials.newBuilder()
                .keyManager(certificate.toKeyManagerFactory().getKeyManagers()).build();
        server = Grpc.newServerBuilderForPort(0, credentials)
                .addService(new InteropServiceImpl())
                .addTransportFilter(new SessionRecorder())
                .build().start();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.shutdownNow().awaitTermination(CALL_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void callsOverTls() throws Exception {
        ChannelCredentials credentials = TlsChannelCredentials.newBuilder()
                .trustManager(certificate.toTrustManagerFactory().getTrustManagers()).build();
        ManagedChannel channel = Grpc.newChannelBuilder("localhost:" + server.getPort(), credentials).build();
        try {
            InteropServiceGrpc.InteropServiceBlockingStub stub = InteropServiceGrpc.newBlockingStub(channel)
                    .withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS);
            for (int size : new int[] {16, 70_000, 1 << 20}) {
                assertEquals(InteropServiceImpl.body(size), stub.unaryCall(UnaryRequest.newBuilder()
                        .setResponseSize(size).setPayload(InteropServiceImpl.payload(size)).build())
                        .getPayload().getBody());
            }
            StreamingOutputRequest.Builder request = StreamingOutputRequest.newBuilder();
            for (int i = 0; i < 100; i++) {
                request.addResponseSizes(20_000);
            }
            Iterator<StreamingOutputResponse> responses = stub.streamingOutputCall(request.build());
            int n = 0;
            while (responses.hasNext()) {
                assertEquals(InteropServiceImpl.body(20_000), responses.next().getPayload().getBody());
                n++;
            }
            assertEquals(100, n);

            SSLSession session = sessions.poll(CALL_SECONDS, TimeUnit.SECONDS);
            assertNotNull(session, "the server made a connection ready without a TLS session");
            assertEquals("CN=localhost", session.getLocalPrincipal().getName());
            UcxChecks.assertOnUcx(server.getPort());
        } finally {
            channel.shutdownNow().awaitTermination(CALL_SECONDS, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPlaintextClientCannotCallATlsServer() throws Exception {
        ManagedChannel channel = Grpc.newChannelBuilder("localhost:" + server.getPort(),
                InsecureChannelCredentials.create()).build();
        try {
            StatusRuntimeException e = assertThrows(StatusRuntimeException.class,
                    () -> InteropServiceGrpc.newBlockingStub(channel).withDeadlineAfter(CALL_SECONDS, TimeUnit.SECONDS)
                            .unaryCall(UnaryRequest.getDefaultInstance()));
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode(), e.toString());
        } finally {
            channel.shutdownNow().awaitTermination(CALL_SECONDS, TimeUnit.SECONDS);
        }
    }

    /** Records the TLS session of each connection the server made ready. */
    private static final class SessionRecorder extends ServerTransportFilter {
        @Override
        public Attributes transportReady(Attributes transportAttrs) {
            SSLSession session = transportAttrs.get(Grpc.TRANSPORT_ATTR_SSL_SESSION);
            if (session != null) {
                sessions.add(session);
            }
            return transportAttrs;
        }
    }
}
