/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.netty.pkitesting.CertificateBuilder;
import io.netty.pkitesting.X509Bundle;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Vert.x's HTTP server and client, both on UCX (two Vert.x instances, as two services would be): GET, a POST
 * whose multi-MiB body comes back byte for byte, {@code sendFile} (whole and a range), and HTTP/2 over TLS
 * negotiated with ALPN.
 */
@ExtendWith(NoLeaks.class)
class HttpTest {
    private static final int BODY_BYTES = 6 * 1024 * 1024 + 123;

    private static Vertx serverVertx;
    private static Vertx clientVertx;
    private static HttpServer server;
    private static HttpServer tlsServer;
    private static HttpClient client;
    private static HttpClient h2Client;
    @TempDir
    static Path dir;
    private static Path file;
    private static byte[] fileBytes;

    @BeforeAll
    static void start() throws Exception {
        UcxChecks.requireUcx();
        fileBytes = randomBytes(5 * 1024 * 1024 + 7, 1);
        file = Files.write(dir.resolve("file.bin"), fileBytes);

        serverVertx = VertxInstances.onUcx();
        clientVertx = VertxInstances.onUcx();
        server = Await.result(serverVertx.createHttpServer().requestHandler(HttpTest::handle).listen(0, "127.0.0.1"));
        // Netty's test PKI rather than Vert.x's SelfSignedCertificate, which Vert.x 5.1 deprecates for removal.
        X509Bundle certificate = new CertificateBuilder().subject("CN=localhost").addSanDnsName("localhost")
                .setIsCertificateAuthority(true).buildSelfSigned();
        tlsServer = Await.result(serverVertx.createHttpServer(new HttpServerOptions().setSsl(true).setUseAlpn(true)
                        .setKeyCertOptions(new PemKeyCertOptions()
                                .setCertValue(Buffer.buffer(certificate.getCertificatePEM()))
                                .setKeyValue(Buffer.buffer(certificate.getPrivateKeyPEM()))))
                .requestHandler(HttpTest::handle).listen(0, "127.0.0.1"));
        client = clientVertx.createHttpClient();
        h2Client = clientVertx.createHttpClient(new HttpClientOptions().setProtocolVersion(HttpVersion.HTTP_2)
                .setSsl(true).setUseAlpn(true).setTrustOptions(new PemTrustOptions()
                        .addCertValue(Buffer.buffer(certificate.getCertificatePEM()))));
    }

    @AfterAll
    static void stop() throws Exception {
        VertxInstances.close(clientVertx);
        VertxInstances.close(serverVertx);
    }

    /** GET /hello answers "hello", POST echoes its body, GET /file sends the file, GET /range a part of it. */
    private static void handle(HttpServerRequest request) {
        switch (request.path()) {
            case "/hello":
                request.response().end("hello over " + request.version());
                break;
            case "/echo":
                request.body().onSuccess(body -> request.response().end(body));
                break;
            case "/file":
                request.response().sendFile(file.toString());
                break;
            case "/range":
                request.response().sendFile(file.toString(), 1000, 2 * 1024 * 1024);
                break;
            default:
                request.response().setStatusCode(404).end();
        }
    }

    @Test
    void get() throws Exception {
        assertEquals("hello over HTTP_1_1", send(client, HttpMethod.GET, server, "/hello", null).toString());
    }

    @Test
    void postMultiMiBBody() throws Exception {
        byte[] body = randomBytes(BODY_BYTES, 2);
        assertArrayEquals(body, send(client, HttpMethod.POST, server, "/echo", Buffer.buffer(body)).getBytes());
    }

    /** Vert.x hands the UCX channel the file as {@code FileRegion}s (supportFileRegion), not as chunks it read. */
    @Test
    void sendFile() throws Exception {
        long regions = FileRegionCounter.written();
        assertArrayEquals(fileBytes, send(client, HttpMethod.GET, server, "/file", null).getBytes());
        assertTrue(FileRegionCounter.written() > regions, "no file region was written");
    }

    @Test
    void sendFileRange() throws Exception {
        long regions = FileRegionCounter.written();
        assertArrayEquals(Arrays.copyOfRange(fileBytes, 1000, 1000 + 2 * 1024 * 1024),
                send(client, HttpMethod.GET, server, "/range", null).getBytes());
        assertTrue(FileRegionCounter.written() > regions, "no file region was written");
    }

    @Test
    void http2OverTlsWithAlpn() throws Exception {
        assertEquals("hello over HTTP_2", send(h2Client, HttpMethod.GET, tlsServer, "/hello", null).toString());
        // Smaller than over HTTP/1.1: HTTP/2's flow control windows make large bodies slow, on any transport.
        byte[] body = randomBytes(2 * 1024 * 1024 + 3, 3);
        assertArrayEquals(body, send(h2Client, HttpMethod.POST, tlsServer, "/echo", Buffer.buffer(body)).getBytes());
        assertArrayEquals(Arrays.copyOfRange(fileBytes, 1000, 1000 + 2 * 1024 * 1024),
                send(h2Client, HttpMethod.GET, tlsServer, "/range", null).getBytes());
    }

    /**
     * Sends a request and returns the body of its 200 response. The body is asked for in the response's handler:
     * a response does not keep what arrives before.
     */
    private static Buffer send(HttpClient client, HttpMethod method, HttpServer server, String path, Buffer body)
            throws Exception {
        RequestOptions options = new RequestOptions().setMethod(method).setHost("localhost")
                .setPort(server.actualPort()).setURI(path);
        return Await.result(client.request(options)
                .compose(request -> body == null ? request.send() : request.send(body))
                .compose(response -> response.body().map(received -> {
                    assertEquals(200, response.statusCode(), () -> path + ": " + received);
                    return received;
                })));
    }

    static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
