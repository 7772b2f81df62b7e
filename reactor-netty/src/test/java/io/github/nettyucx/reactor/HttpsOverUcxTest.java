/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.netty.handler.ssl.SslHandler;
import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLSession;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HTTPS on UCX: Reactor Netty's own TLS ({@code secure(...)}) on {@link HttpServer} and {@link HttpClient} with a
 * self-signed certificate made for the test, which the client verifies (its host name included). A file is sent
 * through TLS in chunks, as Reactor Netty does when a handler must see its bytes, rather than as a file region.
 */
class HttpsOverUcxTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int FILE_SIZE = (3 << 20) + 777;

    @TempDir
    static Path dir;

    private static UcxLoopResources loops;
    private static ConnectionProvider pool;
    private static DisposableServer server;
    private static HttpClient client;
    private static Path file;
    private static final Connections serverConnections = new Connections();
    private static final Connections clientConnections = new Connections();
    private static final BlockingQueue<SSLSession> clientSessions = new LinkedBlockingQueue<>();
    private static final FileRegionRecorder regions = new FileRegionRecorder();

    @BeforeAll
    static void start() throws Exception {
        UcxChecks.requireUcx();
        file = dir.resolve("body.bin");
        Files.write(file, Bodies.bytes(FILE_SIZE, 11));
        X509Bundle certificate = new CertificateBuilder().subject("CN=netty-ucx test").addSanIpAddress("127.0.0.1")
                .setIsCertificateAuthority(true).ecp256().buildSelfSigned();
        KeyManagerFactory keyManagers = certificate.toKeyManagerFactory();
        loops = UcxLoopResources.create("https-test", 2, true);
        pool = ConnectionProvider.create("https-over-ucx", 4);
        server = HttpServer.create().host("127.0.0.1").port(0).runOn(loops)
                .secure(spec -> spec.sslContext(Http11SslContextSpec.forServer(keyManagers)))
                .doOnChannelInit((observer, channel, remote) ->
                        channel.pipeline().addFirst(FileRegionRecorder.NAME, regions))
                .doOnConnection(connection -> serverConnections.record(connection.channel()))
                .route(routes -> routes
                        .get("/scheme", (request, response) -> response.sendString(Mono.just(request.scheme())))
                        .post("/echo", (request, response) -> response.send(request.receive().retain()))
                        .get("/file", (request, response) -> response.sendFile(file)))
                .bindNow(TIMEOUT);
        client = HttpClient.create(pool).runOn(loops)
                .secure(spec -> spec.sslContext(Http11SslContextSpec.forClient()
                        .configure(builder -> builder.trustManager(certificate.toTrustManagerFactory()))))
                .baseUrl("https://127.0.0.1:" + server.port())
                .doOnConnected(connection -> {
                    clientConnections.record(connection.channel());
                    clientSessions.add(connection.channel().pipeline().get(SslHandler.class).engine().getSession());
                });
    }

    @AfterAll
    static void stop() {
        TestResources.dispose(TIMEOUT, server, pool, loops);
    }

    @AfterEach
    void bothEndsWereUcx() throws Exception {
        UcxChecks.assertUcxListener(server.channel());
        serverConnections.assertAllUcx();
        clientConnections.assertAllUcx();
    }

    @Test
    void getOverTls() throws Exception {
        assertEquals("https", client.get().uri("/scheme").responseContent().aggregate().asString().block(TIMEOUT));
        SSLSession session = clientSessions.poll(30, TimeUnit.SECONDS);
        assertNotNull(session, "the client connected without a TLS session");
        assertEquals("CN=netty-ucx test", session.getPeerPrincipal().getName());
        assertTrue(session.getProtocol().startsWith("TLS"), session.getProtocol());
    }

    @Test
    void bodyEchoedOverTls() {
        byte[] sent = Bodies.bytes(4 << 20, 12);
        byte[] echoed = client.post().uri("/echo").send(Bodies.pieces(sent))
                .responseContent().aggregate().asByteArray().block(TIMEOUT);
        assertArrayEquals(sent, echoed);
    }

    @Test
    void sendFileOverTlsGoesInChunks() throws Exception {
        regions.reset();
        byte[] received = client.get().uri("/file").responseContent().aggregate().asByteArray().block(TIMEOUT);
        assertArrayEquals(Files.readAllBytes(file), received);
        assertEquals(0, regions.regionBytes(), "TLS must see the bytes: no file region reaches the channel");
    }
}
