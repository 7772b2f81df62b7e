/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import io.netty.handler.codec.http.HttpHeaderNames;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reactor Netty's {@link HttpServer} and {@link HttpClient} on one {@link UcxLoopResources}: requests and responses
 * small and large, server-sent events, a WebSocket and a file sent with {@code sendFile}, each over connections that
 * are UCX ones at both ends.
 */
class HttpOverUcxTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int FILE_SIZE = (8 << 20) + 12345;

    @TempDir
    static Path dir;

    private static UcxLoopResources loops;
    private static ConnectionProvider pool;
    private static DisposableServer server;
    private static HttpClient client;
    private static Path file;
    private static final Connections serverConnections = new Connections();
    private static final Connections clientConnections = new Connections();
    private static final FileRegionRecorder regions = new FileRegionRecorder();

    @BeforeAll
    static void start() throws Exception {
        UcxChecks.requireUcx();
        file = dir.resolve("body.bin");
        Files.write(file, Bodies.bytes(FILE_SIZE, 7));
        loops = UcxLoopResources.create("http-test", 2, true);
        pool = ConnectionProvider.create("http-over-ucx", 4);
        server = HttpServer.create().host("127.0.0.1").port(0).runOn(loops)
                .doOnChannelInit((observer, channel, remote) ->
                        channel.pipeline().addFirst(FileRegionRecorder.NAME, regions))
                .doOnConnection(connection -> serverConnections.record(connection.channel()))
                .route(routes -> routes
                        .get("/hello", (request, response) -> response.sendString(Mono.just("hello")))
                        .post("/echo", (request, response) -> response.send(request.receive().retain()))
                        .post("/sha256", (request, response) -> response.sendString(
                                Bodies.sha256(request.receive())))
                        .get("/bytes/{size}/{seed}", (request, response) -> response.send(Bodies.pieces(
                                Bodies.bytes(Integer.parseInt(request.param("size")),
                                        Long.parseLong(request.param("seed"))))))
                        .get("/events", (request, response) -> response.sse().sendString(Flux.range(1, 5)
                                .map(i -> "id: " + i + "\ndata: event " + i + "\n\n")))
                        .ws("/ws", (in, out) -> out.sendString(Mono.just("hello from the server")
                                .concatWith(in.receive().asString().map(text -> "echo: " + text))))
                        .get("/file", (request, response) -> response.sendFile(file)))
                .bindNow(TIMEOUT);
        client = HttpClient.create(pool).runOn(loops)
                .baseUrl("http://127.0.0.1:" + server.port())
                .doOnConnected(connection -> clientConnections.record(connection.channel()));
    }

    @AfterAll
    static void stop() {
        TestResources.dispose(TIMEOUT, server, pool, loops);
    }

    /** Every test ran over UCX connections at both ends. */
    @AfterEach
    void bothEndsWereUcx() throws Exception {
        UcxChecks.assertUcxListener(server.channel());
        serverConnections.assertAllUcx();
        clientConnections.assertAllUcx();
    }

    @Test
    void get() {
        String answer = client.get().uri("/hello")
                .responseSingle((response, body) -> body.asString().map(text -> response.status().code() + " " + text))
                .block(TIMEOUT);
        assertEquals("200 hello", answer);
    }

    @Test
    void post() {
        String echoed = client.post().uri("/echo").send(ByteBufFlux.fromString(Mono.just("ping over UCX")))
                .responseContent().aggregate().asString().block(TIMEOUT);
        assertEquals("ping over UCX", echoed);
    }

    @Test
    void largeBodyUp() {
        byte[] sent = Bodies.bytes(Bodies.LARGE, 1);
        String digest = client.post().uri("/sha256").send(Bodies.pieces(sent))
                .responseContent().aggregate().asString().block(TIMEOUT);
        assertEquals(Bodies.sha256(sent), digest);
    }

    @Test
    void largeBodyDown() {
        byte[] received = client.get().uri("/bytes/" + Bodies.LARGE + "/2")
                .responseContent().aggregate().asByteArray().block(TIMEOUT);
        assertArrayEquals(Bodies.bytes(Bodies.LARGE, 2), received);
    }

    @Test
    void largeBodyEchoed() {
        byte[] sent = Bodies.bytes(Bodies.LARGE, 3);
        byte[] echoed = client.post().uri("/echo").send(Bodies.pieces(sent))
                .responseContent().aggregate().asByteArray().block(TIMEOUT);
        assertArrayEquals(sent, echoed);
    }

    @Test
    void serverSentEvents() {
        List<String> answer = client.get().uri("/events")
                .responseSingle((response, body) -> body.asString().map(text -> List.of(
                        response.responseHeaders().get(HttpHeaderNames.CONTENT_TYPE), text)))
                .block(TIMEOUT);
        assertTrue(answer.get(0).startsWith("text/event-stream"), answer.get(0));
        StringBuilder expected = new StringBuilder();
        for (int i = 1; i <= 5; i++) {
            expected.append("id: ").append(i).append("\ndata: event ").append(i).append("\n\n");
        }
        assertEquals(expected.toString(), answer.get(1));
    }

    @Test
    void webSocketBothWays() {
        List<String> received = client.websocket().uri("/ws")
                .handle((in, out) -> out.sendString(Flux.just("one", "two", "three")).then()
                        .thenMany(in.receive().asString().take(4)))
                .collectList().block(TIMEOUT);
        assertEquals(List.of("hello from the server", "echo: one", "echo: two", "echo: three"), received);
    }

    /**
     * Reactor Netty sends a file on a transport other than NIO as a {@code FileRegion} (unless TLS or compression
     * needs its bytes): the UCX channel gets the region, and the client receives the file as it is.
     */
    @Test
    void sendFileGoesAsAFileRegion() throws Exception {
        regions.reset();
        byte[] received = client.get().uri("/file").responseContent().aggregate().asByteArray().block(TIMEOUT);
        assertArrayEquals(Files.readAllBytes(file), received);
        assertEquals(FILE_SIZE, regions.regionBytes(), "bytes written to the channel as FileRegions");
    }
}
