/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb;

import io.github.nettyucx.kvstore.client.KvClient;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * YCSB makes one DB instance per client thread; they all share one {@link KvClient} (its
 * connections and event loop group) per distinct configuration, closed when the last one is done.
 */
final class SharedClients {
    private static final Map<String, Entry> CLIENTS = new HashMap<>();

    private static final class Entry {
        final KvClient client;
        int users;

        Entry(KvClient client) {
            this.client = client;
        }
    }

    private SharedClients() {
    }

    static synchronized KvClient acquire(Properties properties) {
        String key = KvStoreProperties.describe(properties);
        Entry e = CLIENTS.get(key);
        if (e == null) {
            e = new Entry(new KvClient(KvStoreProperties.toConfig(properties)));
            CLIENTS.put(key, e);
        }
        e.users++;
        return e.client;
    }

    static synchronized void release(KvClient client) {
        for (Map.Entry<String, Entry> e : CLIENTS.entrySet()) {
            if (e.getValue().client == client) {
                if (--e.getValue().users == 0) {
                    CLIENTS.remove(e.getKey());
                    client.close();
                }
                return;
            }
        }
    }
}
