/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.HttpResources;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code HttpResources.set(UcxLoopResources)}: servers and clients that name no loops, Reactor Netty's global
 * resources, run on UCX, and so does the DNS resolver of such a client; disposing of the global resources disposes
 * of the UCX loops.
 */
class HttpResourcesTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @Test
    void globalResourcesOnUcx() throws Exception {
        UcxChecks.requireUcx();
        UcxLoopResources loops = UcxLoopResources.create("global-test", 2, true);
        HttpResources.set(loops);
        DisposableServer server = null;
        try {
            Connections serverConnections = new Connections();
            Connections clientConnections = new Connections();
            server = HttpServer.create().host("127.0.0.1").port(0)
                    .doOnConnection(connection -> serverConnections.record(connection.channel()))
                    .handle((request, response) -> response.sendString(Mono.just("global")))
                    .bindNow(TIMEOUT);
            HttpClient client = HttpClient.create()
                    .doOnConnected(connection -> clientConnections.record(connection.channel()));

            assertEquals("global", client.get().uri("http://127.0.0.1:" + server.port() + "/")
                    .responseContent().aggregate().asString().block(TIMEOUT));
            try (TestDnsServer dns = new TestDnsServer()) {
                HttpClient resolving = client.resolver(dns.resolver());
                assertEquals("global", resolving.get().uri("http://" + TestDnsServer.NAME + ":" + server.port() + "/")
                        .responseContent().aggregate().asString().block(TIMEOUT));
                assertTrue(dns.answered() > 0, "the DNS server answered no query");
            }
            UcxChecks.assertUcxListener(server.channel());
            serverConnections.assertAllUcx();
            clientConnections.assertAllUcx();
        } finally {
            if (server != null) {
                server.disposeNow(TIMEOUT);
            }
            HttpResources.disposeLoopsAndConnectionsLater(Duration.ZERO, TIMEOUT).block(TIMEOUT);
        }
        assertTrue(loops.isDisposed(), "the global resources' disposal disposes of the UCX loops");
    }
}
