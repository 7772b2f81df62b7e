/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore;

import io.github.nettyucx.kvstore.client.KvClient;
import io.github.nettyucx.kvstore.client.KvClientConfig;
import io.github.nettyucx.kvstore.client.KvTimeoutException;
import io.github.nettyucx.kvstore.client.KvUnavailableException;
import io.github.nettyucx.kvstore.server.KvServer;
import io.github.nettyucx.kvstore.server.KvServerConfig;
import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Several servers as one store: keys spread by consistent hashing, a dead server costs its keys only. */
class MultiServerTest {
    private static LeakWatch leaks;

    @BeforeAll
    static void watchLeaks() {
        leaks = LeakWatch.install();
    }

    @Test
    void keysSpreadOverServersAndADownServerFailsOnlyItsKeysQuickly() throws Exception {
        TestTransports.assumeAvailable(NettyTransport.UCX);
        List<KvServer> servers = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                servers.add(KvServer.start(new KvServerConfig().port(0).transport(NettyTransport.UCX).ioThreads(1)));
            }
            KvClientConfig config = new KvClientConfig().transport(NettyTransport.UCX).ioThreads(2)
                    .connectionsPerServer(1).requestTimeoutMillis(120_000).reconnectDelayMillis(60_000);
            servers.forEach(s -> config.server(s.address()));
            try (KvClient client = new KvClient(config)) {
                // Connections open up front when asked (the YCSB binding does, in init).
                client.connectAll().get(30, TimeUnit.SECONDS);
                for (KvServer s : servers) {
                    awaitOpenConnections(s, 1);
                }
                int keys = 300;
                List<CompletableFuture<Void>> puts = new ArrayList<>();
                for (int i = 0; i < keys; i++) {
                    puts.add(client.put("key" + i, Map.of("v", ("value" + i).getBytes(StandardCharsets.UTF_8))));
                }
                CompletableFuture.allOf(puts.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);
                long total = 0;
                for (KvServer s : servers) {
                    assertTrue(s.store().recordCount() > keys / 6, "server holds only " + s.store().recordCount());
                    total += s.store().recordCount();
                }
                assertEquals(keys, total);
                assertEquals(keys, client.scan("", keys * 2, null).get(30, TimeUnit.SECONDS).size());

                KvServer dead = servers.remove(1);
                InetSocketAddress deadAddress = dead.address();
                dead.close();

                // Liveness bound far below the 120 s request timeout: failures must come from the
                // closed connection and the refused reconnect, not from timing out.
                long start = System.nanoTime();
                int ok = 0;
                int unavailable = 0;
                for (int i = 0; i < keys; i++) {
                    String key = "key" + i;
                    boolean onDead = client.serverFor(key).getPort() == deadAddress.getPort();
                    try {
                        Map<String, byte[]> r = client.get(key, null).get(30, TimeUnit.SECONDS);
                        assertTrue(!onDead, key + " was answered although its server is down");
                        assertArrayEquals(("value" + i).getBytes(StandardCharsets.UTF_8), r.get("v"));
                        ok++;
                    } catch (ExecutionException e) {
                        assertTrue(onDead, key + " failed although its server is up: " + e.getCause());
                        assertInstanceOf(KvUnavailableException.class, e.getCause());
                        assertTrue(e.getCause().getMessage().contains(String.valueOf(deadAddress.getPort())),
                                e.getCause().getMessage());
                        unavailable++;
                    }
                }
                assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30),
                        "down server was not detected quickly");
                assertTrue(ok > 0 && unavailable > 0, ok + " ok, " + unavailable + " unavailable");
                // Reconnecting to a dead server ends (it does not fail the caller or hang).
                client.connectAll().get(30, TimeUnit.SECONDS);
                ExecutionException scan = assertThrows(ExecutionException.class,
                        () -> client.scan("", 10, null).get(30, TimeUnit.SECONDS));
                assertInstanceOf(KvUnavailableException.class, scan.getCause());
            }
        } finally {
            servers.forEach(KvServer::close);
        }
        leaks.assertNoLeaks();
    }

    /** Liveness bound: the server sees the client's connections soon after the client does. */
    private static void awaitOpenConnections(KvServer server, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (server.openConnections() != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(expected, server.openConnections());
    }

    @Test
    void requestsToAServerThatNeverAnswersTimeOut() throws Exception {
        // A plain socket that accepts and reads but never answers; NIO client (same client code).
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try (Socket s = silent.accept(); InputStream in = s.getInputStream()) {
                    byte[] sink = new byte[4096];
                    while (in.read(sink) >= 0) {
                        // discard
                    }
                } catch (Exception ignored) {
                    // closed by the test
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            try (KvClient client = new KvClient(new KvClientConfig().transport(NettyTransport.NIO).ioThreads(1)
                    .server(new InetSocketAddress(InetAddress.getLoopbackAddress(), silent.getLocalPort()))
                    .requestTimeoutMillis(300))) {
                ExecutionException e = assertThrows(ExecutionException.class,
                        () -> client.get("k", null).get(30, TimeUnit.SECONDS));
                assertInstanceOf(KvTimeoutException.class, e.getCause());
                assertTrue(e.getCause().getMessage().contains("GET got no response"), e.getCause().getMessage());
            }
        }
        leaks.assertNoLeaks();
    }
}
