/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.reactor;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.ConnectionProvider;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reactor Netty's default name resolution on UCX loops: Netty's DNS resolver, which sends its queries through a
 * datagram channel that the loop resources make on the client's loops. Names in the hosts file and IP addresses
 * need no query; a name that only a DNS server knows ({@link TestDnsServer}) does.
 */
class DnsResolverTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static UcxLoopResources loops;
    private static ConnectionProvider pool;
    private static DisposableServer server;
    private static final Connections clientConnections = new Connections();

    @BeforeAll
    static void start() {
        UcxChecks.requireUcx();
        loops = UcxLoopResources.create("dns-test", 2, true);
        pool = ConnectionProvider.create("dns-test", 4);
        server = HttpServer.create().host("127.0.0.1").port(0).runOn(loops)
                .handle((request, response) -> response.sendString(Mono.just("resolved")))
                .bindNow(TIMEOUT);
    }

    @AfterAll
    static void stop() {
        TestResources.dispose(TIMEOUT, server, pool, loops);
    }

    @Test
    void hostsFileAndAddressesNeedNoQuery() throws Exception {
        HttpClient client = HttpClient.create(pool).runOn(loops)
                .doOnConnected(connection -> clientConnections.record(connection.channel()));
        for (String host : new String[] {"127.0.0.1", "localhost"}) {
            assertEquals("resolved", client.get().uri("http://" + host + ":" + server.port() + "/")
                    .responseContent().aggregate().asString().block(TIMEOUT));
        }
        clientConnections.assertAllUcx();
    }

    /** A name resolved through a DNS server: the query goes through a {@code UcxDatagramChannel}. */
    @Test
    void aNameOnlyADnsServerKnows() throws Exception {
        try (TestDnsServer dns = new TestDnsServer()) {
            HttpClient client = HttpClient.create(pool).runOn(loops).resolver(dns.resolver());
            Mono<String> call = client.get().uri("http://" + TestDnsServer.NAME + ":" + server.port() + "/")
                    .responseContent().aggregate().asString();
            assertEquals("resolved", call.block(TIMEOUT));
            assertTrue(dns.answered() > 0, "the DNS server answered no query");
        }
    }
}
