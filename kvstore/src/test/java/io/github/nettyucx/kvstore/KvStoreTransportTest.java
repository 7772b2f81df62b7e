/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore;

import io.github.nettyucx.kvstore.client.KeyRecord;
import io.github.nettyucx.kvstore.client.KvClient;
import io.github.nettyucx.kvstore.client.KvClientConfig;
import io.github.nettyucx.kvstore.server.KvServer;
import io.github.nettyucx.kvstore.server.KvServerConfig;
import io.github.nettyucx.support.NettyTransport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every operation, and many threads pipelining at once, over each transport. */
class KvStoreTransportTest {
    private static LeakWatch leaks;

    @BeforeAll
    static void watchLeaks() {
        leaks = LeakWatch.install();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    // NettyTransport names, in the order this test always ran them. ucx-tcp is left out: it runs only in a JVM
    // started with UCX_TLS=tcp, which the test JVM is not.
    @ValueSource(strings = {"UCX", "EPOLL", "IO_URING", "NIO"})
    void operationsAndPipeliningFromManyThreads(NettyTransport transport) throws Exception {
        TestTransports.assumeAvailable(transport);
        try (KvServer server = KvServer.start(new KvServerConfig().port(0).transport(transport).ioThreads(2));
             KvClient client = new KvClient(new KvClientConfig().server(server.address()).transport(transport)
                     .ioThreads(2).connectionsPerServer(2))) {
            assertNull(client.get("missing", null).get(10, TimeUnit.SECONDS));
            client.put("k1", Map.of("a", b("1"), "b", b("2"))).get(10, TimeUnit.SECONDS);
            Map<String, byte[]> r = client.get("k1", null).get(10, TimeUnit.SECONDS);
            assertArrayEquals(b("1"), r.get("a"));
            assertArrayEquals(b("2"), r.get("b"));
            Map<String, byte[]> only = client.get("k1", List.of("b", "nope")).get(10, TimeUnit.SECONDS);
            assertEquals(1, only.size());
            assertArrayEquals(b("2"), only.get("b"));
            assertTrue(client.update("k1", Map.of("a", b("x"), "c", b("3"))).get(10, TimeUnit.SECONDS));
            assertFalse(client.update("k2", Map.of("a", b("x"))).get(10, TimeUnit.SECONDS));
            r = client.get("k1", null).get(10, TimeUnit.SECONDS);
            assertEquals(3, r.size());
            assertArrayEquals(b("x"), r.get("a"));
            assertTrue(client.delete("k1").get(10, TimeUnit.SECONDS));
            assertFalse(client.delete("k1").get(10, TimeUnit.SECONDS));

            // 16 threads, each with 200 requests in flight before waiting for any.
            int threads = 16;
            int perThread = 200;
            List<Thread> workers = new ArrayList<>();
            List<Throwable> errors = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread w = new Thread(() -> {
                    try {
                        List<CompletableFuture<Void>> puts = new ArrayList<>();
                        for (int i = 0; i < perThread; i++) {
                            puts.add(client.put(String.format("t%02d-%04d", id, i), Map.of("v", b(id + ":" + i))));
                        }
                        CompletableFuture.allOf(puts.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);
                        List<CompletableFuture<Map<String, byte[]>>> gets = new ArrayList<>();
                        for (int i = 0; i < perThread; i++) {
                            gets.add(client.get(String.format("t%02d-%04d", id, i), null));
                        }
                        for (int i = 0; i < perThread; i++) {
                            assertArrayEquals(b(id + ":" + i), gets.get(i).get(30, TimeUnit.SECONDS).get("v"));
                        }
                    } catch (Throwable e) {
                        synchronized (errors) {
                            errors.add(e);
                        }
                    }
                });
                w.start();
                workers.add(w);
            }
            for (Thread w : workers) {
                w.join();
            }
            assertTrue(errors.isEmpty(), "worker failures: " + errors);

            List<KeyRecord> rows = client.scan("t03-0198", 5, null).get(10, TimeUnit.SECONDS);
            List<String> keys = new ArrayList<>();
            rows.forEach(row -> keys.add(row.key()));
            assertEquals(List.of("t03-0198", "t03-0199", "t04-0000", "t04-0001", "t04-0002"), keys);

            Map<String, String> stats = client.stats(server.address()).get(10, TimeUnit.SECONDS);
            assertEquals(String.valueOf(threads * perThread), stats.get("records"));
            assertEquals("2", stats.get("connections_open"));
        }
        leaks.assertNoLeaks();
    }
}
