/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb;

import io.github.nettyucx.kvstore.client.KvClient;

import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

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
            KvClient client = new KvClient(KvStoreProperties.toConfig(properties));
            // Connection setup belongs to init, not to the first measured operations.
            try {
                client.connectAll().get(client.config().connectTimeoutMillis() + 5_000L, TimeUnit.MILLISECONDS);
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException ignored) {
                // Unreachable servers show up as failed operations, as they would later on.
            }
            e = new Entry(client);
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
