/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.kvstore.store;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecordStoreTest {
    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void crudAndScanInKeyOrder() throws Exception {
        RecordStore store = new RecordStore(1 << 20);
        store.put("b", Map.of("f", b("2")));
        store.put("a", Map.of("f", b("1")));
        store.put("c", Map.of("f", b("3"), "g", b("x")));
        assertEquals(3, store.recordCount());
        assertArrayEquals(b("1"), store.get("a").fields().get("f"));
        assertTrue(store.update("a", Map.of("g", b("new"))));
        assertEquals(2, store.get("a").fields().size());
        assertFalse(store.update("zz", Map.of("g", b("new"))));
        List<String> keys = new ArrayList<>();
        store.scan("a", 2).forEach(e -> keys.add(e.getKey()));
        assertEquals(List.of("a", "b"), keys);
        keys.clear();
        store.scan("bb", 10).forEach(e -> keys.add(e.getKey()));
        assertEquals(List.of("c"), keys);
        assertTrue(store.delete("b"));
        assertFalse(store.delete("b"));
        assertNull(store.get("b"));
        assertEquals(2, store.recordCount());
        // key + names + values, UTF-8
        assertEquals((1 + 1 + 1 + 1 + 3) + (1 + 1 + 1 + 1 + 1), store.usedBytes());
    }

    @Test
    void writesBeyondTheLimitAreRefusedWithTheFix() throws Exception {
        RecordStore store = new RecordStore(100);
        store.put("k1", Map.of("f", new byte[50]));
        MemoryLimitException e = assertThrows(MemoryLimitException.class,
                () -> store.put("k2", Map.of("f", new byte[50])));
        assertTrue(e.getMessage().contains("memory limit of 100 bytes reached"), e.getMessage());
        assertTrue(e.getMessage().contains("raise --max-memory"), e.getMessage());
        assertNull(store.get("k2"));
        assertThrows(MemoryLimitException.class, () -> store.update("k1", Map.of("g", new byte[60])));
        // Shrinking is always allowed, and frees room.
        store.put("k1", Map.of("f", new byte[1]));
        store.put("k2", Map.of("f", new byte[50]));
        assertEquals(2 + 1 + 1 + 2 + 1 + 50, store.usedBytes());
    }

    @Test
    void concurrentUpdatesOfOneKeyLoseNoFieldAndKeepTheCount() throws Exception {
        RecordStore store = new RecordStore(1 << 30);
        store.put("k", Map.of());
        int threads = 4;
        int perThread = 500;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        List<Throwable> errors = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        store.update("k", Map.of("t" + id + "-" + i, new byte[3]));
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
        start.countDown();
        for (Thread w : workers) {
            w.join();
        }
        assertTrue(errors.isEmpty(), errors.toString());
        StoredRecord r = store.get("k");
        assertEquals(threads * perThread, r.fields().size());
        assertEquals(r.bytes(), store.usedBytes());
    }
}
