/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.benchmarks.frameworks;

import io.github.nettyucx.reactor.UcxLoopResources;
import io.github.nettyucx.support.NettyTransport;
import io.netty.buffer.Unpooled;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

import java.time.Duration;
import java.util.List;

/**
 * Reactor Netty's HttpServer and HttpClient, as a WebFlux service uses them: request bodies echoed by the server,
 * application threads blocking on the client's Mono. UCX through {@code runOn(UcxLoopResources.create(...))};
 * otherwise Reactor Netty's own loops, which are epoll where it can load it and NIO with
 * {@code -Dreactor.netty.native=false}. Both sides keep Reactor Netty's default loop counts.
 */
final class ReactorNettyFramework implements Framework {
    static final String ID = "reactor-netty";
    private static final Duration ANSWER = Duration.ofSeconds(30);

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
        return transport.netty() == NettyTransport.NIO ? List.of("-Dreactor.netty.native=false") : List.of();
    }

    private static LoopResources loops(BenchTransport transport, String prefix) {
        return transport.isUcx() ? UcxLoopResources.create(prefix) : LoopResources.create(prefix);
    }

    @Override
    public Server serve(BenchTransport transport) {
        LoopResources loops = loops(transport, "bench-server");
        DisposableServer server = HttpServer.create().host("127.0.0.1").port(0).runOn(loops)
                .route(routes -> routes.post("/echo", (request, response) -> response.send(request.receive().retain())))
                .bindNow();
        return new Server() {
            @Override
            public int port() {
                return server.port();
            }

            @Override
            public void close() {
                server.disposeNow();
                loops.disposeLater().block(ANSWER);
            }
        };
    }

    @Override
    public Client connect(BenchTransport transport, int port) {
        LoopResources loops = loops(transport, "bench-client");
        HttpClient client = HttpClient.create().runOn(loops).baseUrl("http://127.0.0.1:" + port);
        return new Client() {
            @Override
            public void call(byte[] body) {
                byte[] answer = client.post().uri("/echo").send(Mono.fromSupplier(() -> Unpooled.wrappedBuffer(body)))
                        .responseSingle((response, content) -> content.asByteArray()).block(ANSWER);
                if (answer == null || answer.length != body.length) {
                    throw new IllegalStateException("answer of " + (answer == null ? 0 : answer.length) + " bytes to "
                            + body.length);
                }
            }

            @Override
            public void close() {
                loops.disposeLater().block(ANSWER);
            }
        };
    }
}
