/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.github.nettyucx.support.NettyTransport;
import io.github.nettyucx.vertx.UcxTransport;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.transport.Transport;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Vert.x's HTTP server and client: the server echoes request bodies, application threads wait on the client's
 * futures. UCX through {@code Vertx.builder().withTransport(UcxTransport.UCX)}, otherwise Vert.x's own EPOLL or NIO
 * transport; each side one Vert.x instance with its defaults.
 */
final class VertxFramework implements Framework {
    static final String ID = "vertx";
    private static final long ANSWER_SECONDS = 30;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public List<Scenario> scenarios() {
        return List.of(Scenario.calls(1024, 1), Scenario.calls(1024, 8), Scenario.calls(64 * 1024, 8));
    }

    @Override
    public List<String> jvmOptions(BenchTransport transport) {
        return List.of();
    }

    private static Vertx vertx(BenchTransport transport) {
        Transport chosen = transport.isUcx() ? UcxTransport.UCX
                : transport.netty() == NettyTransport.EPOLL ? Transport.EPOLL : Transport.NIO;
        return Vertx.builder().withTransport(chosen).build();
    }

    private static <T> T await(Future<T> future) throws Exception {
        return future.toCompletionStage().toCompletableFuture().get(ANSWER_SECONDS, TimeUnit.SECONDS);
    }

    @Override
    public Server serve(BenchTransport transport) throws Exception {
        Vertx vertx = vertx(transport);
        HttpServer server = await(vertx.createHttpServer().requestHandler(request -> request.body()
                .onSuccess(body -> request.response().end(body))
                .onFailure(cause -> request.response().setStatusCode(500).end())).listen(0, "127.0.0.1"));
        return new Server() {
            @Override
            public int port() {
                return server.actualPort();
            }

            @Override
            public void close() {
                closeQuietly(vertx);
            }
        };
    }

    @Override
    public Client connect(BenchTransport transport, int port) {
        Vertx vertx = vertx(transport);
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1")
                .setDefaultPort(port), new PoolOptions().setHttp1MaxSize(8));
        return new Client() {
            @Override
            public void call(byte[] body) throws Exception {
                Buffer answer = await(client.request(HttpMethod.POST, "/echo")
                        .compose(request -> request.send(Buffer.buffer(body)).compose(HttpClientResponse::body)));
                if (answer.length() != body.length) {
                    throw new IllegalStateException("answer of " + answer.length() + " bytes to " + body.length);
                }
            }

            @Override
            public void close() {
                closeQuietly(vertx);
            }
        };
    }

    private static void closeQuietly(Vertx vertx) {
        try {
            await(vertx.close());
        } catch (Exception e) {
            System.err.println("closing Vert.x failed: " + e);
        }
    }
}
