/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.vertx;

import io.github.nettyucx.transport.UcxDatagramChannel;
import io.netty.channel.Channel;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.dns.AddressResolverOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.InetAddress;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Names resolved on UCX: Vert.x's default resolver (Netty's {@code DnsNameResolver} on the UCX event loops) and its
 * {@code DnsClient} ask a DNS server over {@link UcxDatagramChannel}s, and an HTTP client reaches a server by the
 * name it resolved.
 */
@ExtendWith(NoLeaks.class)
class DnsTest {
    private static final String NAME = "service.vertx-ucx.test";

    private static TestDnsServer dns;
    private static Vertx vertx;

    @BeforeAll
    static void start() throws Exception {
        UcxChecks.requireUcx();
        assertFalse(Boolean.getBoolean("vertx.disableDnsResolver"), "Vert.x's own resolver is turned off");
        dns = new TestDnsServer(NAME, InetAddress.getLoopbackAddress());
        VertxOptions options = new VertxOptions().setAddressResolverOptions(new AddressResolverOptions()
                .addServer("127.0.0.1:" + dns.port()).setSearchDomains(List.of()));
        vertx = Vertx.builder().with(options).withTransport(UcxTransport.UCX).build();
        assertTrue(vertx.isNativeTransportEnabled(), () -> "not on UCX: " + vertx.unavailableNativeTransportCause());
    }

    @AfterAll
    static void stop() throws Exception {
        VertxInstances.close(vertx);
        if (dns != null) {
            dns.close();
        }
    }

    @Test
    void httpClientReachesAServerByTheNameVertxResolved() throws Exception {
        HttpServer server = Await.result(vertx.createHttpServer()
                .requestHandler(request -> request.response().end("found by name")).listen(0, "127.0.0.1"));
        // Held until closed: Vert.x closes a client that is no longer referenced.
        HttpClient client = vertx.createHttpClient();
        try {
            Buffer body = Await.result(client.request(HttpMethod.GET, server.actualPort(), NAME, "/")
                    .compose(request -> request.send()).compose(response -> response.body()));
            assertEquals("found by name", body.toString());
            assertTrue(dns.queries(NAME) > 0, "the DNS server was not asked");
            assertResolverOnUcxDatagrams();
        } finally {
            Await.result(client.close());
            Await.result(server.close());
        }
    }

    @Test
    void dnsClientAsksOverUcx() throws Exception {
        int before = dns.queries(NAME);
        assertEquals("127.0.0.1", Await.result(vertx.createDnsClient(dns.port(), "127.0.0.1").lookup4(NAME)));
        assertTrue(dns.queries(NAME) > before, "the DNS server was not asked");
    }

    /** The resolver's channel, made by a Netty bootstrap on a UCX loop of this Vert.x, is a UcxDatagramChannel. */
    private static void assertResolverOnUcxDatagrams() {
        List<Channel> datagrams = ChannelRecorder.openClients(UcxDatagramChannel.class::isInstance);
        assertFalse(datagrams.isEmpty(), "no UcxDatagramChannel among " + ChannelRecorder.openClients(c -> true));
    }
}
