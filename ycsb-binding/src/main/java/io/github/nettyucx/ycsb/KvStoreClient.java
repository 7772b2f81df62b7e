/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.ycsb;

import io.github.nettyucx.kvstore.client.KeyRecord;
import io.github.nettyucx.kvstore.client.KvClient;
import io.github.nettyucx.kvstore.client.KvServerException;
import io.github.nettyucx.kvstore.client.KvTimeoutException;
import io.github.nettyucx.kvstore.client.KvUnavailableException;
import io.netty.util.internal.logging.InternalLogger;
import io.netty.util.internal.logging.InternalLoggerFactory;
import site.ycsb.ByteArrayByteIterator;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.Vector;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * YCSB binding ({@code -db io.github.nettyucx.ycsb.KvStoreClient}, or {@code kvstore} with bin/ycsb).
 * Properties: {@code kvstore.hosts} (host:port,...), {@code kvstore.transport} (ucx, epoll,
 * io_uring, nio), {@code kvstore.timeout.ms}, {@code kvstore.connect.timeout.ms},
 * {@code kvstore.connections} (per server), {@code kvstore.iothreads}.
 *
 * <p>Keys are stored as {@code table:key}, so tables do not collide and a scan stays in its table.
 */
public final class KvStoreClient extends DB {
    private static final InternalLogger logger = InternalLoggerFactory.getInstance(KvStoreClient.class);

    static final Status TIMEOUT = new Status("TIMEOUT", "No response within kvstore.timeout.ms.");
    static final Status MEMORY_LIMIT = new Status("MEMORY_LIMIT",
            "The server's memory limit was reached; start it with a larger --max-memory.");

    /** Failure kinds already logged: YCSB counts statuses, the first cause of each kind is printed. */
    private static final Set<String> LOGGED = ConcurrentHashMap.newKeySet();

    private KvClient client;
    private long waitMillis;

    @Override
    public void init() throws DBException {
        try {
            client = SharedClients.acquire(getProperties());
        } catch (RuntimeException e) {
            throw new DBException("kvstore binding: " + e.getMessage(), e);
        }
        // The client times requests out itself; this only guards against a future never completing.
        waitMillis = client.config().requestTimeoutMillis() * 2 + 1000;
    }

    @Override
    public void cleanup() {
        if (client != null) {
            SharedClients.release(client);
            client = null;
        }
    }

    /** The shared client this instance uses (null after cleanup); for tests. */
    KvClient client() {
        return client;
    }

    private static String storeKey(String table, String key) {
        return table + ":" + key;
    }

    @Override
    public Status read(String table, String key, Set<String> fields, Map<String, ByteIterator> result) {
        try {
            Map<String, byte[]> record = await(client.get(storeKey(table, key), fields));
            if (record == null) {
                return Status.NOT_FOUND;
            }
            toYcsb(record, result);
            return Status.OK;
        } catch (Exception e) {
            return failure("read", e);
        }
    }

    @Override
    public Status scan(String table, String startkey, int recordcount, Set<String> fields,
                       Vector<HashMap<String, ByteIterator>> result) {
        String prefix = table + ":";
        try {
            List<KeyRecord> rows = await(client.scan(storeKey(table, startkey), recordcount, fields));
            for (KeyRecord row : rows) {
                if (!row.key().startsWith(prefix)) {
                    break;
                }
                HashMap<String, ByteIterator> values = new HashMap<>();
                toYcsb(row.fields(), values);
                result.add(values);
            }
            return Status.OK;
        } catch (Exception e) {
            return failure("scan", e);
        }
    }

    @Override
    public Status update(String table, String key, Map<String, ByteIterator> values) {
        try {
            return await(client.update(storeKey(table, key), toStore(values))) ? Status.OK : Status.NOT_FOUND;
        } catch (Exception e) {
            return failure("update", e);
        }
    }

    @Override
    public Status insert(String table, String key, Map<String, ByteIterator> values) {
        try {
            await(client.put(storeKey(table, key), toStore(values)));
            return Status.OK;
        } catch (Exception e) {
            return failure("insert", e);
        }
    }

    @Override
    public Status delete(String table, String key) {
        try {
            return await(client.delete(storeKey(table, key))) ? Status.OK : Status.NOT_FOUND;
        } catch (Exception e) {
            return failure("delete", e);
        }
    }

    private <T> T await(CompletableFuture<T> future) throws Exception {
        try {
            return future.get(waitMillis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception ? (Exception) e.getCause() : e;
        }
    }

    private static void toYcsb(Map<String, byte[]> record, Map<String, ByteIterator> result) {
        for (Map.Entry<String, byte[]> e : record.entrySet()) {
            result.put(e.getKey(), new ByteArrayByteIterator(e.getValue()));
        }
    }

    private static Map<String, byte[]> toStore(Map<String, ByteIterator> values) {
        Map<String, byte[]> out = new LinkedHashMap<>(values.size() * 2);
        for (Map.Entry<String, ByteIterator> e : values.entrySet()) {
            out.put(e.getKey(), e.getValue().toArray());
        }
        return out;
    }

    private static Status failure(String operation, Exception e) {
        Status status;
        if (e instanceof KvUnavailableException) {
            status = Status.SERVICE_UNAVAILABLE;
        } else if (e instanceof KvTimeoutException || e instanceof TimeoutException) {
            status = TIMEOUT;
        } else if (e instanceof KvServerException) {
            switch (((KvServerException) e).status()) {
                case MEMORY_LIMIT:
                    status = MEMORY_LIMIT;
                    break;
                case BAD_REQUEST:
                case FRAME_TOO_LARGE:
                    status = Status.BAD_REQUEST;
                    break;
                default:
                    status = Status.ERROR;
                    break;
            }
        } else {
            status = Status.ERROR;
        }
        if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
        }
        if (LOGGED.add(operation + "/" + status.getName())) {
            logger.warn("kvstore {} failed ({}): {} (further {} failures of this kind are only counted)",
                    operation, status.getName(), e.getMessage(), operation);
        }
        return status;
    }
}
